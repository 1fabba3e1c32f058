"""Test bot for the secrecy tests: plays randomly and writes down everything
it receives, in order, as JSON lines in DUMP_DIR/seat<K>-<match id>.jsonl.

Usage: misbehave_spy.py --dump-dir DIR --socket PATH
"""

import argparse
import json
import random
import sys
from pathlib import Path

from bots.sdk import Bot, serve


class Spy(Bot):
    name = "spy"

    def __init__(self, dump_dir: Path) -> None:
        self.dump_dir = dump_dir
        self.file = None
        self.rng = random.Random(0)

    def _write(self, entry):
        self.file.write(json.dumps(entry) + "\n")
        self.file.flush()

    def on_match_start(self, match, observation):
        self.file = open(self.dump_dir / f"seat{match.seat}-{match.match_id}.jsonl", "w")
        self.rng = random.Random(match.seat)
        self._write({"type": "start", "seat": match.seat, "observation": observation.to_json()})

    def decide(self, observation, legal_actions, context):
        action = self.rng.choice(legal_actions)
        self._write({"type": "decide", "request_id": context.request_id, "observation": observation.to_json(),
                     "legal": [a.to_json() for a in legal_actions]})
        self._write({"type": "answer", "request_id": context.request_id, "action": action.to_json()})
        return action

    def on_events(self, events):
        for event in events:
            self._write({"type": "event", "kind": event.kind, "data": dict(event.data)})

    def on_match_end(self, outcome):
        self._write({"type": "end", "ranks": list(outcome.ranks), "reason": outcome.reason})
        self.file.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--dump-dir", type=Path, required=True)
    args, rest = parser.parse_known_args(sys.argv[1:])
    serve(Spy(args.dump_dir), rest)
