"""A bot needs only the SDK distribution (sdk/python/, `bot-referee-sdk`).

A fresh virtual environment gets `pip install` of a copy of sdk/python/ and
nothing else; the SDK's example bot runs from it, in the referee's sandbox,
through real matches of every game the protocol carries; and `import
botsdk` there loads nothing of the referee. Slow (pip installs grpcio and
the rest from its cache or PyPI, several seconds); skipped, saying why,
only when neither can supply them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from botsdk.contract import TimeControl, protocol_games

from protocol_support import ROOT
from referee.match import run_match
from referee.process import BotProcess, start_bots
from referee.records import read_record

pytestmark = pytest.mark.slow

SDK = ROOT / "sdk" / "python"
EXAMPLE = Path("examples") / "random_bot.py"
RANDOM = [sys.executable, "-m", "bots.random", "--seed", "1"]
TIME = TimeControl(move_time=0.5, grace=0.1)
INDEX = "https://pypi.org/simple/grpcio/"


def _index_reachable() -> bool:
    try:
        with urllib.request.urlopen(INDEX, timeout=5):
            return True
    except OSError:
        return False


@pytest.fixture
def sdk_only() -> Iterator[Path]:
    """A folder holding `src` (a copy of sdk/python/: pip builds in the tree
    it is given) and `venv` (where only the SDK and its dependencies are
    installed). Readable by all: the bot runs under a uid of its own."""
    folder = Path(tempfile.mkdtemp(prefix="sdk-only-"))
    folder.chmod(0o755)
    try:
        src = folder / "src"
        shutil.copytree(SDK, src, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
        venv = folder / "venv"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        done = subprocess.run(
            [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
             "--quiet", "--disable-pip-version-check", str(src)],
            capture_output=True, text=True)
        if done.returncode != 0:
            said = done.stderr.strip().splitlines()[-1:] or ["no message"]
            if not _index_reachable():
                pytest.skip(f"cannot install bot-referee-sdk's dependencies: PyPI ({INDEX}) is unreachable "
                            f"and pip's cache and find-links do not hold them (pip: {said[0]})")
            pytest.fail(f"pip install of sdk/python failed:\n{done.stderr}")
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_bot_with_only_the_sdk_plays_matches_through_the_referee(sdk_only: Path, tmp_path: Path) -> None:
    """One test, so that the environment is installed once whichever
    workers the tests are spread over."""
    python = str(sdk_only / "venv" / "bin" / "python")
    code = ("import importlib.util, json, sys, botsdk; "
            "print(json.dumps([sorted(m for m in sys.modules if m.split('.')[0] in ('referee', 'bots', 'ladder')), "
            "[n for n in ('referee', 'bots', 'ladder') if importlib.util.find_spec(n)]]))")
    loaded, installed = json.loads(subprocess.run([python, "-c", code], capture_output=True, text=True,
                                                  check=True, cwd=sdk_only).stdout)
    assert loaded == [], "import botsdk loaded modules of the referee"
    assert installed == [], "the SDK-only environment has the referee's packages"

    command = [python, str(sdk_only / "src" / EXAMPLE)]
    bot = BotProcess.start(command, label="sdk-only", log_path=tmp_path / "sdk-only.log", expose=[sdk_only])
    others = start_bots([RANDOM, RANDOM], ["random-1", "random-2"], log_dir=tmp_path / "logs")
    try:
        assert bot.info.name == "example-random" and bot.info.games == protocol_games()
        for game in protocol_games():
            path = tmp_path / f"{game}.jsonl"
            result = run_match(game, [bot, *others], seed=5, time_control=TIME, record_path=path)
            record = read_record(path)
            mine = [line for d in record.decisions for line in d["seats"] if line["seat"] == 0]
            assert mine, f"the SDK-only bot made no decision in {game}"
            assert all(line["by"] == "bot" and "strike" not in line for line in mine), (game, mine)
            assert result.seats[0].forfeit is None and result.seats[0].strikes == 0
    finally:
        for process in (bot, *others):
            process.close()
