"""Bot-supplied text is shown safely (containment issue, property 8): what
a bot or a submission says (its handshake name, crash details, output,
bot.toml, file names) reaches the operator's terminal with every control
character escaped and without being read as rich markup."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from referee.cli.main import cli

HOSTILE_BOT = Path(__file__).parent / "bots" / "hostile_text.py"
ESCAPE_NAME = "evil\x1b[2J\x1b]0;pwned\x07[/bold]"
MARKUP_NAME = "[/bold]evil"
HOSTILE = "\x1b[2J\x1b]0;pwned\x07 [/bold] \u202e\x9b31m"
"""Clear the screen, retitle the window, ring, close a tag never opened,
reverse the line, and a C1 control sequence introducer."""
RAW = ("\x1b", "\x07", "\x9b", "\u202e")
"""Characters that must never reach a terminal from a bot: ESC, BEL, CSI, RLO."""


def referee(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), terminal_width=200)


def assert_shown_safely(result: Result) -> None:
    """No crash of the command (a bot's own traceback in its log may be shown), nothing raw."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    for char in RAW:
        assert char not in result.output, (char, result.output)


def hostile(name: str) -> str:
    return shlex.join([str(HOSTILE_BOT), name])


@pytest.mark.slow
def test_play_shows_hostile_names_crashes_and_output_escaped(tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    seats = ["--bot", hostile(ESCAPE_NAME), "--bot", hostile(MARKUP_NAME), "--bot", "random",
             "--seed", "3", "--move-time", "1s", "--log-dir", str(tmp_path / "logs")]
    stopped = referee("play", *seats)  # the escape-named bot's handshake is refused: it never started
    assert_shown_safely(stopped)
    assert stopped.exit_code == 4 and "did not start" in stopped.output and "\\x1b" in stopped.output
    result = referee("play", *seats, "--play-on", "--record", str(record))
    assert_shown_safely(result)
    assert result.exit_code == 1, result.output  # the hostile seats forfeited
    assert "forfeits" in result.output and "\\x1b" in result.output  # said, escaped
    assert MARKUP_NAME in result.output  # markup shown as the text it is
    replayed = referee("replay", str(record))
    assert_shown_safely(replayed)
    assert replayed.exit_code == 0, replayed.output


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with three copies of a submitted bot whose bot.toml
    description is hostile and which writes escapes to its log as it starts."""
    root = tmp_path_factory.mktemp("hostile-text")
    bot = root / "described"
    bot.mkdir()
    (bot / "bot.py").write_text(f"import sys\nprint({'started ' + HOSTILE!r}, file=sys.stderr, flush=True)\n"
                                "from bots.sdk import serve\nfrom bots.random.bot import RandomBot\n"
                                "serve(RandomBot())\n")
    (bot / "bot.toml").write_text('command = "python bot.py"\ngames = ["gnadenlos"]\n'
                                  'description = "[/oops]\\u001b[31m\\u202e"\n')
    path = root / "data" / "ladder.sqlite"
    for name in ("described", "copy1", "copy2"):
        submitted = referee("submit", str(bot), "--name", name, "--db", str(path))
        assert submitted.exit_code == 0, submitted.output
    return path


@pytest.mark.slow
def test_bots_lists_a_hostile_description_escaped(db: Path) -> None:
    result = CliRunner().invoke(cli, ["bots", "--db", str(db)], env={"COLUMNS": "200"})  # wide: the description fits
    assert_shown_safely(result)
    assert result.exit_code == 0, result.output
    assert "[/oops]\\x1b[31m" in result.output


@pytest.mark.slow
def test_logs_shows_a_bot_log_escaped(db: Path) -> None:
    ran = referee("ladder", "--no-builtins", "--matches", "1", "--players", "3", "--workers", "1", "--db", str(db))
    assert_shown_safely(ran)
    assert ran.exit_code == 0, ran.output
    result = referee("logs", "described", "--db", str(db))
    assert_shown_safely(result)
    assert result.exit_code == 0, result.output
    assert "started \\x1b[2J" in result.output


def test_a_refusal_quoting_a_hostile_file_name_is_one_escaped_line(tmp_path: Path, db: Path) -> None:
    bot = tmp_path / "piped"
    bot.mkdir()
    (bot / "bot.toml").write_text('command = "python bot.py"\ngames = ["gnadenlos"]\n')
    os.mkfifo(bot / "\x1b]0;pwned\x07\nseat 0 wins")
    result = referee("submit", str(bot), "--name", "piped", "--db", str(db))
    assert_shown_safely(result)
    assert result.exit_code == 1 and result.output.startswith("Error: ") and result.output.count("\n") == 1, \
        result.output
