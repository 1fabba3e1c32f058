"""A Gnadenlos! bot generated from the first gnadenlos.v1 schema (before the
view lost the engine's bookkeeping and events became typed): it reads every
game message with that schema (gnadenlos_v1_first.proto, compiled by the test
into the descriptor set given as --schema), so it knows none of the new
fields. It plays a legal action of each Decide — the highest of a buy, else
one by the request id — and writes down, one JSON line prefixed "V1 " on
standard output (the referee keeps it in the bot's log), what it read: each
observation's seat, phase, to_act and the removed fields, each event's kind
and data (its untyped Struct).

Usage: gnadenlos_v1_first_bot.py --schema FILE --socket PATH
"""

import argparse
import json
import sys
from pathlib import Path

from google.protobuf import json_format

from first_v1 import load_schema
from raw_bot import decision, serve

REMOVED = ("todo", "bid_pos", "pick_pos", "final_pos", "quiet", "activity")


def write(entry):
    sys.stdout.write("V1 " + json.dumps(entry) + "\n")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--schema", required=True)
    args, _ = parser.parse_known_args()
    v1 = load_schema(Path(args.schema))

    def observation(message):
        return v1.Observation.FromString(message.gnadenlos.SerializeToString())

    def heard(message):
        kind = message.WhichOneof("kind")
        if kind == "notify":
            for event in message.notify.events:
                old = v1.Event.FromString(event.gnadenlos.SerializeToString())
                write({"type": "event", "kind": old.kind, "data": json_format.MessageToDict(old.data)})
        elif kind in ("match_start", "decide"):
            obs = observation(getattr(message, kind).observation)
            write({"type": kind, "seat": obs.seat, "phase": obs.phase, "to_act": list(obs.to_act),
                   "removed": {name: _plain(getattr(obs, name)) for name in REMOVED}})

    def answer(start, decide):
        obs = observation(decide.observation)
        legal = list(decide.legal_actions)
        actions = [v1.Action.FromString(a.gnadenlos.SerializeToString()) for a in legal]
        if obs.phase in ("buy", "final_buy"):
            steps = [a.buy.steps if a.HasField("buy") else a.final_buy.steps for a in actions]
            return decision(decide.request_id, legal[steps.index(max(steps))])
        return decision(decide.request_id, legal[decide.request_id % len(legal)])

    serve("first-v1", answer, heard=heard)


def _plain(value):
    """A field's value as JSON: a repeated field as a list."""
    return value if isinstance(value, (bool, int, str)) else list(value)


if __name__ == "__main__":
    main()
