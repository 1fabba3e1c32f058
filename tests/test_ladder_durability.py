"""Durability: a ladder killed with SIGKILL mid-run loses no finished match,
counts none twice, leaves no process behind, and resumes where it stopped."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from click.testing import CliRunner

from ladder.scheduling.scheduler import recompute
from ladder.store.database import Store
from ladder_support import random_bot_folder
from process_support import with_default_sigint
from referee.cli.main import cli


def referee(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def stored_matches(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0


@pytest.mark.slow
def test_a_ladder_killed_mid_run_resumes_exactly_once(tmp_path: Path) -> None:
    db = tmp_path / "data" / "ladder.sqlite"
    for name in ("a", "b", "c", "d"):
        referee("submit", str(random_bot_folder(tmp_path / name)), "--name", name, "--db", str(db))
    ladder = subprocess.Popen(
        [sys.executable, "-m", "referee.cli.main", "ladder", "--no-builtins", "--matches", "500",
         "--workers", "2", "--move-time", "0.5", "--db", str(db)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while stored_matches(db) < 6:
        assert ladder.poll() is None and time.monotonic() < deadline, "the ladder stopped before 6 matches"
        time.sleep(0.05)
    family = psutil.Process(ladder.pid).children(recursive=True)
    os.kill(ladder.pid, signal.SIGKILL)
    ladder.wait()
    _, alive = psutil.wait_procs(family, timeout=20)
    assert not alive, f"orphans left behind: {[p.cmdline() for p in alive]}"

    with Store(db) as store:
        before = {m["match_id"] for m in store.matches("gnadenlos")}
        assert recompute(store, "gnadenlos")[0]
        assert all(Path(m["record_path"]).exists() for m in store.matches("gnadenlos"))

    referee("ladder", "--no-builtins", "--matches", "4", "--workers", "2", "--move-time", "0.5", "--db", str(db))

    with Store(db) as store:
        after = [m["match_id"] for m in store.matches("gnadenlos")]
        assert set(after) >= before and len(after) == len(set(after)) == len(before) + 4
        history = store.rating_history("gnadenlos")
        assert len(history) == len(store.seat_rows("gnadenlos"))  # one rating update per seat, none twice
        equal, _ = recompute(store, "gnadenlos")
        assert equal


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_keeping_finished_matches(tmp_path: Path) -> None:
    db = tmp_path / "data" / "ladder.sqlite"
    for name in ("a", "b", "c"):
        referee("submit", str(random_bot_folder(tmp_path / name)), "--name", name, "--db", str(db))
    ladder = subprocess.Popen(
        [sys.executable, "-m", "referee.cli.main", "ladder", "--no-builtins", "--matches", "500",
         "--workers", "2", "--move-time", "0.5", "--players", "3", "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        preexec_fn=with_default_sigint,
    )
    deadline = time.monotonic() + 120
    while stored_matches(db) < 3:
        assert ladder.poll() is None and time.monotonic() < deadline, "the ladder stopped before 3 matches"
        time.sleep(0.05)
    family = psutil.Process(ladder.pid).children(recursive=True)
    os.killpg(ladder.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole foreground group
    output, _ = ladder.communicate(timeout=60)
    assert ladder.returncode == 130, output
    assert "stopped by Ctrl-C" in output
    _, alive = psutil.wait_procs(family, timeout=20)
    assert not alive, f"left running: {[p.cmdline() for p in alive]}"
    with Store(db) as store:
        assert store.match_count() >= 3
        assert recompute(store, "gnadenlos")[0]
        assert not store.failures()  # discarded matches are not failures: they are simply played later
