"""Hostile bot: looks for match records (*.jsonl) in a folder and tries to
read each one: a record holds the seed and every hand, so reading its own
match's record while playing would show it the opponents' cards. Prints one
JSON line: {"records": {file name: "got: ..." or "denied: ..."}}.

Usage: record_reader.py FOLDER (default: its working folder).
"""

import glob
import json
import os

from _as_bot import run


def attempt(path):
    try:
        with open(path) as handle:
            return f"got: {handle.read(200)!r}"
    except OSError as exc:
        return f"denied: {exc.strerror or exc}"


def act(args):
    folder = args[0] if args else os.getcwd()
    found = {os.path.basename(path): attempt(path) for path in sorted(glob.glob(os.path.join(folder, "*.jsonl")))}
    print(json.dumps({"records": found}), flush=True)


run(act, "record-reader")
