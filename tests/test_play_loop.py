"""`referee play` in a bot author's loop (issue 15): it takes the bot the way
the author has it (a folder with bot.toml, a script run by a virtualenv's
python or by an interpreter on PATH, a registered bot's name), fails the
command when a bot fails, and says why with the bot's own last words."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ladder.store.database import Store
from ladder_support import install_bot, random_bot_folder
from referee.cli.main import cli
from referee.cli.play import EXIT_STRIKES

FIRST_BOT = """\
from bots.sdk import Bot, serve


class First(Bot):
    name = "first"
    version = "1"

    def decide(self, observation, legal_actions, context):
        return legal_actions[0]


if __name__ == "__main__":
    serve(First())
"""

CRASHING_BOT = FIRST_BOT.replace("return legal_actions[0]", """import os, sys
        print("step 1 ok", file=sys.stderr)
        print("cannot go on: \\x1b[31mred alert", file=sys.stderr, flush=True)
        os._exit(7)""")

ONE_STRIKE_BOT = FIRST_BOT.replace("""    def decide(self, observation, legal_actions, context):
        return legal_actions[0]""", """    struck = False

    def decide(self, observation, legal_actions, context):
        if not self.struck:  # one illegal answer, then only legal ones
            self.struck = True
            from referee.games.gnadenlos.actions import Buy
            return Buy(99)
        return legal_actions[0]""")


@pytest.fixture()
def here(tmp_path: Path) -> Path:
    """A folder for the bot's files that its own user may read, as a bot
    author's folder is (pytest's tmp_path is closed: 0700; the referee runs
    each bot under a uid of its own when it is root)."""
    folder = tmp_path / "work"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    return folder


def play(*args: str) -> Result:
    return CliRunner().invoke(cli, ["play", "--seed", "4", "--move-time", "500ms", *args])


def played(result: Result) -> dict:
    return json.loads(result.stdout)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_forfeit_fails_the_command_and_the_json_says_why_with_the_bots_last_lines(here: Path) -> None:
    bot = write(here / "crasher.py", CRASHING_BOT)
    result = play("--bot", str(bot), "--bot", "random", "--bot", "random", "--json")
    assert result.exit_code == 1, result.output
    seat = played(result)["seats"][0]
    assert seat["forfeit"] == "crashed" and "exit code 7" in seat["forfeit_detail"]
    assert seat["log_tail"][-2:] == ["step 1 ok", "cannot go on: \\x1b[31mred alert"]  # escaped, never raw
    log = Path(seat["log"])
    assert log.is_file() and "red alert" in log.read_text()  # kept after the command ended
    shutil.rmtree(log.parent)  # the folder play kept for the author
    assert "\x1b" not in result.output
    honest = played(result)["seats"][1]
    assert honest["forfeit"] is None and "log_tail" not in honest


def test_a_strike_fails_the_command_only_with_strict(here: Path) -> None:
    bot = write(here / "once.py", ONE_STRIKE_BOT)
    seats = ["--bot", str(bot), "--bot", "random", "--bot", "random", "--json", "--log-dir", str(here / "logs")]
    lenient = play(*seats)
    assert lenient.exit_code == 0, lenient.output
    assert played(lenient)["strikes"][0] == 1 and played(lenient)["forfeits"] == {}
    assert "--strict fails the command on a strike" in lenient.stderr
    strict = play(*seats, "--strict")
    assert strict.exit_code == EXIT_STRIKES == 3 and played(strict)["strikes"][0] == 1


def test_a_bot_folder_plays_as_its_bot_toml_says(here: Path) -> None:
    folder = here / "mybot"
    write(folder / "bot.py", FIRST_BOT)
    write(folder / "bot.toml", 'name = "mine"\ncommand = "python bot.py"\ngames = ["gnadenlos"]\n')
    result = play("--bot", str(folder), "--bot", "random", "--bot", "random", "--json")
    assert result.exit_code == 0, result.output
    assert played(result)["seats"][0]["name"] == "first" and played(result)["forfeits"] == {}

    wrong_game = play("--game", "saboteur", "--bot", str(folder), "--bot", "random", "--bot", "random")
    assert wrong_game.exit_code == 2 and "plays gnadenlos, not saboteur" in wrong_game.output
    (here / "empty").mkdir()
    no_manifest = play("--bot", str(here / "empty"), "--bot", "random", "--bot", "random")
    assert no_manifest.exit_code == 2 and "has no bot.toml" in no_manifest.output


def test_a_virtualenvs_python_stays_the_virtualenvs(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--bot "venv/bin/python bot.py"`: the venv's python is a link to the
    base interpreter, which has none of the bot's packages. Resolved to the
    base interpreter (as before), the bot could not import gRPC and
    forfeited at start-up; the venv and the script must also be visible
    inside the jail."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(here / "venv")], check=True)
    site = sysconfig.get_paths(vars={"base": str(here / "venv"), "platbase": str(here / "venv")})["purelib"]
    ours = {sysconfig.get_paths()["purelib"]}  # gRPC, and where the SDK's packages are (editable installs)
    for package in ("bots", "botsdk"):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.origin is not None:
            ours.add(str(Path(spec.origin).parent.parent))
    write(Path(site) / "ours.pth", "\n".join(sorted(ours)) + "\n")
    write(here / "mybot" / "bot.py", FIRST_BOT)  # the venv apart: only the command names it
    monkeypatch.chdir(here)
    result = play("--bot", "venv/bin/python mybot/bot.py", "--bot", "random", "--bot", "random", "--json")
    assert result.exit_code == 0, result.output
    assert played(result)["forfeits"] == {} and played(result)["seats"][0]["name"] == "first"


def test_an_interpreter_on_path_finds_its_script(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--bot "node bot.js"`: the script, named relative to here, must be
    found from the bot's own working folder in the jail (it said "Cannot
    find module"). Here the interpreter is sh and its script starts the bot."""
    write(here / "bot.py", FIRST_BOT)
    write(here / "run.sh", f'exec {sys.executable} "$(dirname "$0")/bot.py" "$@"\n')
    monkeypatch.chdir(here)
    result = play("--bot", "sh run.sh", "--bot", "random", "--bot", "random", "--json")
    assert result.exit_code == 0, result.output
    assert played(result)["forfeits"] == {} and played(result)["seats"][0]["name"] == "first"


def test_a_registered_bot_plays_by_name(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = here / "data" / "ladder.sqlite"
    with Store(db) as store:
        install_bot(store, random_bot_folder(here / "src"), "alpha")
    for name in ("alpha", "alpha@v1"):
        result = play("--db", str(db), "--bot", name, "--bot", "random", "--bot", "random", "--json")
        assert result.exit_code == 0, result.output
        assert played(result)["seats"][0]["name"] == "choice" and played(result)["forfeits"] == {}

    unknown_version = play("--db", str(db), "--bot", "alpha@v9", "--bot", "random", "--bot", "random")
    assert unknown_version.exit_code == 2 and "versions: v1" in unknown_version.output
    missing = here / "typo" / "ladder.sqlite"
    mistyped = play("--db", str(missing), "--bot", "alpha", "--bot", "random", "--bot", "random")
    assert mistyped.exit_code == 2 and str(missing) in mistyped.output
    assert not missing.parent.exists()  # only read: never made
    monkeypatch.setenv("REFEREE_DATA", str(here / "elsewhere"))
    nowhere = play("--bot", "alpha", "--bot", "random", "--bot", "random")
    assert nowhere.exit_code == 2 and "registered in the ladder's store" in nowhere.output


def test_times_are_written_the_same_way_everywhere(here: Path) -> None:
    """250ms, 2s, 1m or a number of seconds in every command; anything else
    is refused naming the option and how to write a time."""
    bad = play("--bot", "random", "--bot", "random", "--bot", "random", "--move-time", "fast")
    assert bad.exit_code == 2 and "'fast' is not a time" in bad.output and "--move-time" in bad.output
    zero = play("--bot", "random", "--bot", "random", "--bot", "random", "--startup-timeout", "0ms")
    assert zero.exit_code == 2 and "more than 0" in zero.output
    builtin = play("--bot", "mcts:fast", "--bot", "random", "--bot", "random")
    assert builtin.exit_code == 2 and "'fast' is not a time" in builtin.output
    db = here / "data" / "ladder.sqlite"
    for command in (["submit", str(here), "--startup-timeout", "soon"], ["ladder", "--move-time", "2 s s"]):
        result = CliRunner().invoke(cli, [*command, "--db", str(db)])
        assert result.exit_code == 2 and "is not a time" in result.output, result.output
    too_short = CliRunner().invoke(cli, ["ladder", "--move-time", "5ms", "--db", str(db)])
    assert too_short.exit_code == 2 and "less than the least allowed, 10ms" in too_short.output
    assert not db.parent.exists()  # refused before any store was made
    ok = play("--bot", "mcts:50ms", "--bot", "random", "--bot", "random", "--move-time", "0.5", "--json")
    assert ok.exit_code == 0 and played(ok)["forfeits"] == {}
