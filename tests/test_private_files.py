"""Records are private (the containment issue, property 2): every file the
referee and the ladder write is created 0600 and every folder they create
0700, from the first byte and whatever the umask, so a bot running under a
uid of its own cannot read a match record (the seed and every hand) or
another bot's log, even in a folder the user left open to all."""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from botsdk.contract import TimeControl
from ladder.intake.submission import submit
from ladder.store.database import Store
from ladder_support import random_bot_folder
from referee.cli.main import cli
from referee.match import run_match
from referee.process import BotProcess, start_bots
from referee.sandbox import capabilities

HOSTILE = Path(__file__).parent / "hostile"
RANDOM = [sys.executable, "-m", "bots.random", "--seed", "1"]
CAPS = capabilities()
OWN_USER = CAPS.root and CAPS.switch_user


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask_022() -> Iterator[None]:
    """The usual umask, which leaves new files readable by all."""
    old = os.umask(0o022)
    yield
    os.umask(old)


@pytest.fixture
def open_folder(tmp_path: Path) -> Path:
    """A folder anyone may list and read, as a user's project folder often is."""
    folder = tmp_path / "matches"
    folder.mkdir()
    folder.chmod(0o755)
    return folder


def test_play_record_and_logs_are_private_in_an_open_folder(umask_022: None, open_folder: Path) -> None:
    record = open_folder / "m.jsonl"
    logs = open_folder / "logs" / "today"
    result = CliRunner().invoke(cli, ["play", "--bot", "random", "--bot", "random", "--bot", "random",
                                      "--seed", "5", "--move-time", "500ms", "--record", str(record),
                                      "--log-dir", str(logs), "--json"])
    assert result.exit_code == 0, result.output
    assert mode(record) == 0o600
    assert mode(open_folder) == 0o755  # the user's folder is left as it was
    assert mode(open_folder / "logs") == mode(logs) == 0o700  # folders the referee created
    assert sorted(mode(log) for log in logs.iterdir()) == [0o600] * 3
    assert sorted(p.name for p in open_folder.iterdir()) == ["logs", "m.jsonl"]  # no temporary file left


def test_replaying_over_an_open_record_gives_a_fresh_private_file(umask_022: None, open_folder: Path) -> None:
    """A reader who opened an old record (say, while it was readable by all)
    must not see the next match written into the same file."""
    record = open_folder / "m.jsonl"
    record.write_text("an old record\n")
    record.chmod(0o644)
    with open(record) as old_reader:
        result = CliRunner().invoke(cli, ["play", "--bot", "random", "--bot", "random", "--bot", "random",
                                          "--seed", "5", "--move-time", "500ms", "--record", str(record), "--json"])
        assert result.exit_code == 0, result.output
        assert old_reader.read() == "an old record\n"
    assert mode(record) == 0o600 and record.read_text().startswith('{"type":"header"')


@pytest.mark.skipif(not OWN_USER, reason="a bot runs under the referee's own uid here: file modes cannot stop it")
def test_a_bot_cannot_read_the_record_of_its_own_match(umask_022: None, open_folder: Path, tmp_path: Path) -> None:
    """The bot is shown the open folder (bound into its sandbox): only the
    record's own mode stands between it and the seed and every hand."""
    reader = BotProcess.start([sys.executable, str(HOSTILE / "record_reader.py"), str(open_folder)],
                              label="record-reader", log_path=tmp_path / "reader.log", expose=[open_folder])
    bots = [reader, *start_bots([RANDOM, RANDOM], ["random-1", "random-2"])]
    try:
        run_match("gnadenlos", bots, seed=11, time_control=TimeControl(move_time=0.5, grace=0.1),
                  record_path=open_folder / "m.jsonl")
    finally:
        for bot in bots:
            bot.close()
    assert reader.log_path is not None
    line = next(line for line in reader.log_path.read_text().splitlines() if line.startswith("{"))
    tried = json.loads(line)["records"]
    assert list(tried) == ["m.jsonl"]  # it found the record of the match it was playing
    assert tried["m.jsonl"].startswith("denied"), tried


def test_a_new_ladder_store_is_private_down_to_the_folders_it_creates(umask_022: None, open_folder: Path) -> None:
    with Store(open_folder / "ladder" / "data" / "ladder.sqlite"):
        pass
    created = [open_folder / "ladder", *(open_folder / "ladder").rglob("*")]
    assert {p.name: mode(p) for p in created if p.is_dir()} == dict.fromkeys(
        ["ladder", "data", "records", "bots", "logs"], 0o700)
    assert {mode(p) for p in created if p.is_file()} == {0o600}
    assert mode(open_folder) == 0o755


def test_a_submitted_bot_is_kept_in_private_folders(umask_022: None, tmp_path: Path) -> None:
    """The folders `referee submit` creates in the store (the bot's name
    folder, the staging area) are 0700; only the bot's own folder is open,
    to its sandboxed user."""
    with Store(tmp_path / "data" / "ladder.sqlite") as store:
        submitted = submit(store, random_bot_folder(tmp_path / "alpha"), name="alpha", version=None)
        (stored,) = (store.bots_dir / "alpha").iterdir()
        assert mode(store.bots_dir / "alpha") == 0o700
        assert mode(stored) & 0o555 == 0o555 and submitted.new
