"""A bot of the first gnadenlos.v1 still plays (issue 12: the package stays
wire-compatible). The bot (tests/bots/gnadenlos_v1_first_bot.py) reads every
game message with the schema as first published, before the observation lost
the engine's bookkeeping and events became typed: it plays a whole match in
its own sandboxed process without a strike, the removed fields read as their
defaults, and the untyped events it reads (kind and Struct data) are exactly
its seat's events, as the engine records them (G-10).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from botsdk.contract import TimeControl
from protocol_support import BOTS, first_v1_module
from referee.match import run_match
from referee.process import start_bots
from referee.records import read_record
from referee.replay import Replayer

SEAT = 1
"""The first-v1 bot's seat; the others are random bots."""
DEFAULTS = {"todo": [], "bid_pos": 0, "pick_pos": 0, "final_pos": 0, "quiet": 0, "activity": False}


def _heard(folder: Path) -> list[dict[str, Any]]:
    (path,) = (folder / "logs").glob(f"seat{SEAT}-*.log")
    return [json.loads(line[3:]) for line in path.read_text().splitlines() if line.startswith("V1 ")]


def test_a_first_v1_bot_plays_a_whole_match_and_reads_its_events_as_before(tmp_path: Path) -> None:
    schema_dir = tmp_path / "schema"
    schema_dir.mkdir()
    schema = first_v1_module().compile_schema(schema_dir)
    schema.chmod(0o644)  # the sandboxed bot runs under a uid of its own
    schema_dir.chmod(0o755)
    commands = [[sys.executable, "-m", "bots.random", "--seed", str(s)] for s in range(3)]
    commands[SEAT] = [sys.executable, str(BOTS / "gnadenlos_v1_first_bot.py"), "--schema", str(schema)]
    bots = start_bots(commands, [f"bot{s}" for s in range(3)], log_dir=tmp_path / "logs",
                      expose=[[schema_dir] if s == SEAT else [] for s in range(3)])
    try:
        run_match("gnadenlos", bots, seed=77, time_control=TimeControl(move_time=0.5),
                  record_path=tmp_path / "match.jsonl")
    finally:
        for bot in bots:
            bot.close()
    record = read_record(tmp_path / "match.jsonl")
    assert record.footer is not None and not record.footer["forfeits"] and record.footer["strikes"] == [[], [], []]
    heard = _heard(tmp_path)
    decides = [m for m in heard if m["type"] == "decide"]
    assert heard[0]["type"] == "match_start" and len(decides) > 5
    assert all(m["seat"] == SEAT and m["removed"] == DEFAULTS for m in heard if m["type"] != "event")
    assert all(SEAT in m["to_act"] for m in decides)
    replayer = Replayer(record.header)
    expected = [{"kind": e.kind, "data": e.data} for e in replayer.setup_events if SEAT in e.visible_to]
    for step in record.decisions:
        expected += [{"kind": e.kind, "data": e.data} for e in replayer.apply(step).events_for(SEAT)]
    events = [{"kind": m["kind"], "data": m["data"]} for m in heard if m["type"] == "event"]
    assert events == json.loads(json.dumps(expected))
