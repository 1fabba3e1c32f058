"""Provably fair deals (docs/records.md): the referee commits to the match
seed in every seat's MatchStart and reveals it in MatchEnd; a bot checks the
reveal against the commitment, and `referee verify` checks a record's
commitment, deals and decisions."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from botsdk import fairness
from botsdk.contract import TimeControl

from referee.cli.main import cli
from referee.match import run_match
from referee.process import BotProcess, start_bots
from referee.records import read_record

BOTS = Path(__file__).parent / "bots"
RANDOM = [sys.executable, "-m", "bots.random", "--seed", "1"]


def test_a_bot_checks_the_revealed_seed_against_the_commitment(tmp_path: Path) -> None:
    checker = BotProcess.start([sys.executable, str(BOTS / "fair_deal_checker.py")], label="checker",
                               log_path=tmp_path / "checker.log", expose=[BOTS])
    bots = [checker, *start_bots([RANDOM, RANDOM], ["random-1", "random-2"])]
    try:
        result = run_match("gnadenlos", bots, seed=987654321, time_control=TimeControl(move_time=0.5),
                           record_path=tmp_path / "match.jsonl")
    finally:
        deadline = time.monotonic() + 10
        while "revealed" not in (tmp_path / "checker.log").read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        for bot in bots:
            bot.close()
    log = (tmp_path / "checker.log").read_text()
    record = read_record(tmp_path / "match.jsonl")
    assert f"commitment {record.header['seed_commitment']}" in log
    assert f"revealed seed {result.seed} fair True" in log
    assert "987654321" not in log.split("revealed")[0]  # nothing before the end shows the seed


def test_the_salt_is_fresh_for_every_match() -> None:
    """The same seed committed twice gives two commitments: a bot cannot look
    a seed up from its commitment, nor tell two matches of one seed apart."""
    salts = {fairness.new_salt() for _ in range(100)}
    assert len(salts) == 100 and all(len(s) == fairness.SALT_BYTES for s in salts)
    assert fairness.commitment(5, b"\0" * 16) != fairness.commitment(5, b"\1" * 16)


def _played_record(tmp_path: Path) -> Path:
    path = tmp_path / "m.jsonl"
    result = CliRunner().invoke(cli, ["play", "--bot", "random", "--bot", "random", "--bot", "random",
                                      "--seed", "42", "--record", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return path


def test_referee_verify_passes_a_fair_record_and_names_what_is_wrong_in_a_doctored_one(tmp_path: Path) -> None:
    path = _played_record(tmp_path)
    passed = CliRunner().invoke(cli, ["verify", str(path)])
    assert passed.exit_code == 0 and "verified" in passed.output and "seed 42 matches the commitment" in passed.output

    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["seed"] = 43  # a different deal than the one committed to
    (tmp_path / "doctored.jsonl").write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    failed = CliRunner().invoke(cli, ["verify", str(tmp_path / "doctored.jsonl")])
    assert failed.exit_code == 1 and "do not hash to the commitment" in failed.output

    (tmp_path / "cut.jsonl").write_text("\n".join(lines[:-1]) + "\n")  # the reveal is in the footer
    cut = CliRunner().invoke(cli, ["verify", str(tmp_path / "cut.jsonl")])
    assert cut.exit_code == 1 and "no footer" in cut.output


def test_a_ladder_match_keeps_the_seed_out_of_match_end(tmp_path: Path) -> None:
    """The ladder deals one seed to every rotation of a duplicate set: a bot
    told it at the end of one rotation would know the next one's hidden
    cards. `reveal_seed=False` (the ladder's runner) withholds it; the
    record keeps seed and salt for the ladder's later reveal."""
    checker = BotProcess.start([sys.executable, str(BOTS / "fair_deal_checker.py")], label="checker",
                               log_path=tmp_path / "checker.log", expose=[BOTS])
    bots = [checker, *start_bots([RANDOM, RANDOM], ["random-1", "random-2"])]
    try:
        run_match("gnadenlos", bots, seed=123456789, time_control=TimeControl(move_time=0.5),
                  record_path=tmp_path / "match.jsonl", reveal_seed=False)
    finally:
        deadline = time.monotonic() + 10
        while "revealed" not in (tmp_path / "checker.log").read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        for bot in bots:
            bot.close()
    log = (tmp_path / "checker.log").read_text()
    assert "revealed seed None fair False" in log and "123456789" not in log
    record = read_record(tmp_path / "match.jsonl")
    assert record.footer is not None and fairness.verify(
        bytes.fromhex(record.header["seed_commitment"]), 123456789, bytes.fromhex(record.footer["seed_salt"]))
