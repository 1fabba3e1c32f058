"""Test bot for the secrecy tests: plays randomly and writes down everything
it receives, in order, one JSON object per line prefixed with "SPY ", on its
standard output — which the referee keeps in the bot's log (a sandboxed bot
can write nowhere else the test could read).

Usage: misbehave_spy.py --socket PATH
"""

import json
import random
import sys

from bots.sdk import Bot, serve


class Spy(Bot):
    name = "spy"

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def _write(self, entry):
        sys.stdout.write("SPY " + json.dumps(entry) + "\n")
        sys.stdout.flush()

    def on_match_start(self, match, observation):
        self.rng = random.Random(match.seat)
        self._write({"type": "start", "seat": match.seat, "match_id": match.match_id,
                     "observation": observation.to_json()})

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


if __name__ == "__main__":
    serve(Spy())
