"""The ladder's commands in a log or a pipe (issue 29, point 7): output
that is not a terminal is as wide as $COLUMNS says (the tables came out 121
columns wide and `bots` 150 whatever it said), the standings carry a legend
of their abbreviations, and `table` on a store whose only ladder is another
game says so and how to see it instead of an empty table. (The piped
Saboteur match is tests/test_play_screen.py's; the legend after `referee
ladder`'s own table is checked in tests/test_cli_store_guards.py's run.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import Store
from ladder_support import FakeRunner, add_bots

LONG_NAME = "a-bot-whose-name-is-long-enough-to-crowd-a-narrow-log"


def referee(*args: str, columns: str | None = None) -> subprocess.CompletedProcess[str]:
    """The command with its output piped, $COLUMNS set to `columns` (None: unset)."""
    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    if columns is not None:
        env["COLUMNS"] = columns
    return subprocess.run([sys.executable, "-m", "referee.cli.main", *args], capture_output=True, text=True,
                          timeout=120, env=env)


def played_store(tmp_path: Path, game: str = "gnadenlos", sizes: tuple[int, ...] = (3,)) -> Path:
    """A store with a few rated matches of `game` between fake bots."""
    db = tmp_path / "data" / "ladder.sqlite"
    with Store(db) as store:
        add_bots(store, ["alpha", "beta", LONG_NAME, "delta"], game=game)
        Ladder(store, InlinePool(FakeRunner()), LadderConfig(game=game, matches=6, sizes=sizes, seed=2)).run()
    return db


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


@pytest.mark.slow
@pytest.mark.parametrize("command", [["table"], ["table", "--h2h", "--seats"], ["bots"]])
def test_a_pipe_is_as_wide_as_columns_says(tmp_path: Path, command: list[str]) -> None:
    db = str(played_store(tmp_path))
    for columns in ("80", "60"):
        narrow = referee(*command, "--db", db, columns=columns)
        assert narrow.returncode == 0, narrow.stderr
        assert widest(narrow.stdout) <= int(columns), narrow.stdout
        assert "alpha" in narrow.stdout and "delta" in narrow.stdout
    wide = referee(*command, "--db", db)
    assert widest(wide.stdout) > 80  # without $COLUMNS a log gets the whole table, not 80 columns of it
    assert widest(referee(*command, "--db", db, columns="0").stdout) == widest(wide.stdout)  # 0 is no width


def test_the_table_explains_its_abbreviations(tmp_path: Path) -> None:
    out = referee("table", "--db", str(played_store(tmp_path)), columns="100").stdout
    legend = out[out.index("μ−3σ: "):]
    for words in ("conservative rating", "t timeout", "forf: matches forfeited", "ordered =", "≈ indisting. =",
                  "open, ~Nm = not settled yet, about N more matches", "reversed ="):
        assert words in " ".join(legend.split()), words


def test_a_store_of_another_game_says_so_instead_of_an_empty_table(tmp_path: Path) -> None:
    db = str(played_store(tmp_path, "leduc", (2,)))
    result = referee("table", "--db", db)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("this store has no Gnadenlos! matches; its ladders: Leduc poker, 6 matches: "
                             "`referee table --game leduc`\n")
    leduc = referee("table", "--db", db, "--game", "leduc")
    assert "Leduc poker ladder (base rules): 6 matches" in leduc.stdout and "alpha" in leduc.stdout
