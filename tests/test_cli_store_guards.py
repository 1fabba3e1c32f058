"""The ladder's command line and its store (issue 15, "The command line
behaves"): read-only commands never make a store, a second `referee ladder`
on a store is refused while one runs, and a ladder whose output is a log
(not a terminal) prints a line per finished match as it goes."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ladder.store.database import Store
from ladder_support import install_bot
from referee.cli.main import cli

LINE_WAIT = 120.0
"""Seconds to wait for the ladder (its matches take about a second each;
the margin is for a loaded machine)."""

UNHURRIED_BOT = f"""#!{sys.executable}
import random
import time

from bots.sdk import Bot, serve


class Unhurried(Bot):
    name = "unhurried"
    version = "1"

    def on_match_start(self, match, observation):
        time.sleep(1.0)  # every match lasts a second at least: the test's margin

    def decide(self, observation, legal_actions, context):
        return random.choice(legal_actions)


if __name__ == "__main__":
    serve(Unhurried())
"""


def unhurried_roster(db: Path, folder: Path) -> None:
    """Three registered bots whose every match takes a second or more."""
    folder.mkdir()
    (folder / "bot.py").write_text(UNHURRIED_BOT)
    (folder / "bot.py").chmod(0o755)
    (folder / "bot.toml").write_text('command = "./bot.py"\ngames = ["gnadenlos"]\n')
    with Store(db) as store:
        for name in ("ann", "bob", "cy"):
            install_bot(store, folder, name)


@pytest.mark.parametrize("command", [["table"], ["table", "--json"], ["bots"], ["bots", "--json"],
                                     ["logs", "alpha"], ["report"], ["ladder-audit"]])
def test_a_read_only_command_never_makes_a_store(tmp_path: Path, command: list[str]) -> None:
    missing = tmp_path / "dta" / "ladder.sqlite"  # a typo of data/
    result = CliRunner().invoke(cli, [*command, "--db", str(missing)])
    assert result.exit_code == 1
    assert f"no ladder database at {missing}" in result.output and "check --db" in result.output
    assert not missing.parent.exists()
    folder = CliRunner().invoke(cli, [*command, "--db", str(tmp_path)])
    assert folder.exit_code == 2 and "is a directory" in folder.output  # click's own check of --db


def test_read_only_commands_read_an_existing_store(tmp_path: Path) -> None:
    db = tmp_path / "data" / "ladder.sqlite"
    Store(db).close()
    assert CliRunner().invoke(cli, ["bots", "--db", str(db)]).exit_code == 0
    assert CliRunner().invoke(cli, ["table", "--db", str(db)]).exit_code == 0


@pytest.mark.slow
def test_a_second_ladder_is_refused_while_one_runs_and_a_log_follows_the_run(tmp_path: Path) -> None:
    """The first ladder runs as its own process with its output in a pipe:
    its first progress line arrives while it still runs (not only the final
    table at the end); meanwhile a second ladder on the same store is
    refused, naming the running one, and leaves the store alone."""
    db = tmp_path / "data" / "ladder.sqlite"
    unhurried_roster(db, tmp_path / "bot")
    first = subprocess.Popen(
        [sys.executable, "-m", "referee.cli.main", "ladder", "--db", str(db), "--matches", "4", "--workers", "1",
         "--players", "3", "--move-time", "3s", "--seed", "3", "--no-builtins"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        deadline = time.monotonic() + LINE_WAIT
        assert first.stdout is not None
        # blocks until each line: the start-up note goes to stderr, the deals' commitment comes before any match
        commitment = first.stdout.readline()
        assert commitment.startswith("deals committed: seed chain"), commitment
        line = first.stdout.readline()
        assert time.monotonic() < deadline and line.startswith("[1/4] gnadenlos-"), line
        still_running = first.poll() is None
        second = CliRunner().invoke(cli, ["ladder", "--db", str(db), "--matches", "1"])
        if still_running:  # three more matches to play: seconds of margin
            assert second.exit_code == 1, second.output
            assert f"another `referee ladder` (pid {first.pid}) is running on {db}" in second.output
        rest = first.stdout.read()
        assert first.wait(timeout=LINE_WAIT) == 0
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert still_running, "the first progress line came only when the run had ended"
    lines = rest.splitlines()
    assert [text.split("]")[0] for text in lines if text.startswith("[")] == ["[2/4", "[3/4", "[4/4"]
    assert "Gnadenlos! ladder" in rest  # and the final table, with a legend of what its cells say
    words = " ".join(rest.split())
    assert "vs next: the verdict on this row and the next" in words and "open, ~Nm = not settled yet" in words
    assert "0 failures (a match that fails for a reason not a bot's own is retried and never rated)" in words
    assert "deals revealed: seed chain 1, " in words
    with Store(db) as store:
        assert store.match_count("gnadenlos") == 4  # the refused run played nothing


def test_the_lock_is_freed_when_its_holder_ends(tmp_path: Path) -> None:
    """An flock dies with its process: a killed ladder leaves no stale lock.
    The refusal names what holds it (here a tournament)."""
    db = tmp_path / "data" / "ladder.sqlite"
    Store(db).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom ladder.store.database import Store\n"
         "with Store(sys.argv[1]) as s, s.run_lock('referee tournament'):\n    print('held', flush=True)\n"
         "    time.sleep(600)\n",
         str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        refused = CliRunner().invoke(cli, ["ladder", "--db", str(db), "--recompute"])
        assert refused.exit_code == 1 and f"another `referee tournament` (pid {holder.pid})" in refused.output
    finally:
        holder.kill()
        holder.wait()
    freed = CliRunner().invoke(cli, ["ladder", "--db", str(db), "--recompute"])
    assert freed.exit_code == 0, freed.output
    assert oct(os.stat(db.with_name(db.name + ".lock")).st_mode & 0o777) == "0o600"
