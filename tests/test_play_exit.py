"""`referee play`'s exit statuses (issue 29, point 6), each through the
command line with real bot processes: a forfeit, strikes under --strict and
a bot that never started are tested beside the failures themselves
(tests/test_play_loop.py, tests/test_play_cli.py); here Ctrl-C and a closed
output pipe, which stop `referee play` as a separate process, and the list
of statuses in --help."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import psutil
from click.testing import CliRunner

from process_support import with_default_sigint
from referee.cli.main import cli
from referee.cli.play import EXIT_INTERRUPTED, EXIT_PIPE_CLOSED, EXIT_STATUSES
from referee.records import read_record

PLAY = [sys.executable, "-m", "referee.cli.main", "play", "--bot", "random", "--bot", "random", "--bot", "random",
        "--seed", "3", "--move-time", "500ms", "--delay", "200ms"]
"""A match slowed down to some seconds: the test stops it in its first one."""


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([*PLAY, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=with_default_sigint)


def bots_of(process: subprocess.Popen[str]) -> list[psutil.Process]:
    """The processes `referee play` started (its bots, their jails)."""
    return psutil.Process(process.pid).children(recursive=True)


def test_ctrl_c_stops_the_match_with_its_own_status_and_closes_the_bots(tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    play = start("--record", str(record))
    assert play.stdout is not None
    assert "Gnadenlos! match" in play.stdout.readline()  # the header: the match is on
    bots = bots_of(play)  # stopped at once: the header and the setup line are written together
    assert bots
    play.send_signal(signal.SIGINT)
    _, err = play.communicate(timeout=30)
    assert play.returncode == EXIT_INTERRUPTED == 130, err
    assert f"interrupted: the match was stopped before its end; its record {record} is unfinished" in err
    assert not read_record(record).finished
    gone, alive = psutil.wait_procs(bots, timeout=5)
    assert not alive


def test_a_closed_pipe_stops_the_match_with_its_own_status() -> None:
    play = start()
    assert play.stdout is not None and play.stderr is not None
    assert "Gnadenlos! match" in play.stdout.readline()
    bots = bots_of(play)
    play.stdout.close()  # `| head -1`: the reader is gone
    play.wait(timeout=30)
    err = play.stderr.read()
    assert play.returncode == EXIT_PIPE_CLOSED == 141, err
    assert "Traceback" not in err and "BrokenPipeError" not in err
    gone, alive = psutil.wait_procs(bots, timeout=5)
    assert not alive


def test_help_lists_every_exit_status() -> None:
    shown = CliRunner().invoke(cli, ["play", "--help"], terminal_width=100).output
    for status, meaning in EXIT_STATUSES.items():
        assert f"{status:<4} {meaning}" in shown
    assert len(EXIT_STATUSES) == 8  # every status its own number: two sharing one would be one entry
