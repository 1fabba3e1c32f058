"""`referee check PATH` (issue 15): a bot started in the sandbox as the
ladder starts it and played through seeded matches; exit 0 only for a bot
that would pass submission, and for each problem a message naming it and
its fix. Real bot processes throughout, most of them the misbehaving test
bots of tests/bots."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from referee.cli.main import cli

BOTS = Path(__file__).parent / "bots"

GOOD_BOT = """\
from bots.sdk import Bot, serve


class First(Bot):
    name = "first"
    version = "1"

    def decide(self, observation, legal_actions, context):
        return legal_actions[0]


if __name__ == "__main__":
    serve(First())
"""

READS_BESIDE_ITSELF_WRONGLY = GOOD_BOT.replace('if __name__ == "__main__":', """\
WEIGHTS = open("weights.bin").read()  # relative to the working folder, not the bot's


if __name__ == "__main__":""")

CRASHES_WITH_LAST_WORDS = GOOD_BOT.replace("return legal_actions[0]", """import os, sys
        print("cannot go on: \\x1b[31mred alert", file=sys.stderr, flush=True)
        os._exit(7)""")


def bot_folder(path: Path, source: str, command: str = "python bot.py", games: str = '["gnadenlos"]') -> Path:
    path.mkdir()
    (path / "bot.py").write_text(source)
    (path / "bot.toml").write_text(f'name = "mine"\ncommand = "{command}"\ngames = {games}\n')
    return path


def check(path: Path, *args: str) -> Result:
    """`referee check PATH`; the log of a failing bot goes beside its folder
    (tests leave nothing in /tmp), unless the test gives --log-dir itself."""
    logs = [] if "--log-dir" in args else ["--log-dir", str(path.parent / "logs")]
    return CliRunner().invoke(cli, ["check", str(path), "--decisions", "5", *logs, *args])


def report(result: Result) -> dict[str, Any]:
    parsed: dict[str, Any] = json.loads(result.stdout)
    return parsed


def errors(result: Result) -> list[dict[str, str]]:
    return [f for f in report(result)["findings"] if f["severity"] == "error"]


def test_a_good_bot_passes_with_its_times_and_message_sizes(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "good", GOOD_BOT, games='["gnadenlos", "leduc"]')
    result = check(folder, "--json")
    assert result.exit_code == 0, result.output
    checked = report(result)
    assert checked["passed"] and not errors(result)
    assert not [f for f in checked["findings"] if f["check"] in ("shutdown", "health", "sandbox")]
    assert checked["bot"]["name"] == "first" and checked["bot"]["protocol_version"] == 1
    games = {g["game"]: g for g in checked["games"]}
    assert set(games) == {"gnadenlos", "leduc"}
    leduc = games["leduc"]
    assert leduc["decisions"] >= 5 and leduc["faults"] == {}
    assert leduc["table_sizes"][0] == 2 and leduc["table_sizes"][-1] == 10  # the smallest and the largest table
    assert 0 < leduc["times"]["p50"] <= leduc["times"]["p99"] <= leduc["times"]["max"] < 2.0
    assert leduc["largest"]["decide"] > 0 and leduc["largest"]["answer"] > 0

    text = check(folder, "--game", "gnadenlos")
    assert text.exit_code == 0
    assert "answer times p50" in text.stdout and "the bot would pass submission" in text.stdout


def test_an_illegal_answer_fails_naming_the_fix(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "illegal", (BOTS / "misbehave_illegal.py").read_text())
    result = check(folder, "--json")
    assert result.exit_code == 1
    (illegal, forfeit) = errors(result)
    assert "illegal answers" in illegal["message"] and "buy 99 is not one of" in illegal["message"]
    assert "legal_actions" in illegal["fix"]
    assert "would forfeit" in forfeit["message"]


def test_a_late_answer_fails_naming_the_move_time(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "late", (BOTS / "misbehave_late.py").read_text())
    result = check(folder, "--move-time", "300ms")
    assert result.exit_code == 1
    assert "FAIL    gnadenlos: 1 timeout answer" in result.stdout
    assert "move time 300ms" in result.stdout and "Decide.deadline_ms" in result.stdout


def test_another_protocol_version_fails_and_a_file_is_checked_as_submit_takes_it(tmp_path: Path) -> None:
    script = tmp_path / "newer.py"
    script.write_text(f"#!{sys.executable}\n" + (BOTS / "misbehave_newer_protocol.py").read_text())
    script.chmod(0o755)
    result = check(script, "--json")
    assert result.exit_code == 1
    (mismatch,) = errors(result)
    assert mismatch["check"] == "protocol_version" and "protocol version 2" in mismatch["message"]
    assert "protocol_version 1" in mismatch["fix"]


def test_a_game_bot_toml_lists_but_the_handshake_does_not_claim_fails(tmp_path: Path) -> None:
    source = GOOD_BOT.replace('version = "1"', 'version = "1"\n    games = ("gnadenlos",)')
    folder = bot_folder(tmp_path / "claims", source, games='["gnadenlos", "saboteur"]')
    result = check(folder, "--json")
    assert result.exit_code == 1
    (games,) = errors(result)
    assert games["check"] == "games" and "list saboteur in its handshake" in games["message"]
    assert report(result)["games"] == []  # nothing played for a bot that would be refused at its handshake


FAILS_UNDER_A_VARIANT = GOOD_BOT.replace('version = "1"', 'version = "1"\n    variants = ("gnadenlos:auction=single",)') \
    .replace("return legal_actions[0]", """if context.match.variant.get("auction") == "single":
            from referee.games.gnadenlos.actions import Buy
            return Buy(99)  # never legal: this bot has not learnt the single-card auction
        return legal_actions[0]""")


def test_each_declared_variant_is_played_as_submit_validates_it(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "variant", FAILS_UNDER_A_VARIANT)
    result = check(folder, "--json")
    assert result.exit_code == 1
    illegal = errors(result)[0]
    assert "illegal answers" in illegal["message"] and "auction=single" in illegal["message"]
    (game,) = report(result)["games"]
    assert any("auction=single" in played for played in game["variants"])

    undeclared = check(folder, "--json", "--variant", "gunfight_opt_out=on")
    assert undeclared.exit_code == 1
    (refused,) = errors(undeclared)
    assert refused["check"] == "variants" and "gnadenlos:gunfight_opt_out=on" in refused["message"]


def test_a_missing_interpreter_is_named_with_the_fix(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "interpreter", "", command="./bot")
    (folder / "bot").write_text("#!/opt/nowhere/bin/python3\nprint('hello')\n")
    (folder / "bot").chmod(0o755)
    result = check(folder, "--json")
    assert result.exit_code == 1
    sandbox = [f for f in errors(result) if f["check"] == "sandbox"]
    assert sandbox and "#! line names /opt/nowhere/bin/python3" in sandbox[0]["message"]
    assert str(folder / "bot") in sandbox[0]["message"]  # the author's path, not the checked copy's
    assert "/usr/bin/env python3" in sandbox[0]["fix"]


def test_a_file_the_jail_does_not_show_is_named_with_the_fix(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "reader", READS_BESIDE_ITSELF_WRONGLY)
    (folder / "weights.bin").write_text("0.5")
    result = check(folder, "--json")
    assert result.exit_code == 1
    found = {f["check"]: f for f in errors(result)}
    assert "start" in found
    assert "weights.bin was not found: a path relative to the working folder" in found["sandbox"]["message"]
    assert "__file__" in found["sandbox"]["fix"]


def test_a_crash_fails_with_the_bots_last_lines_escaped(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "crash", CRASHES_WITH_LAST_WORDS)
    result = check(folder, "--log-dir", str(tmp_path / "kept"))
    assert result.exit_code == 1
    assert "crashed answer" in result.stdout and "exit code 7" in result.stdout
    assert "cannot go on: \\x1b[31mred alert" in result.stdout and "\x1b[31m" not in result.stdout
    log = next(line for line in result.stdout.splitlines() if line.startswith("the bot's last lines of output"))
    assert Path(log.split("(", 1)[1].rstrip("):")) == tmp_path / "kept" / "bot.log"
    assert "red alert" in (tmp_path / "kept" / "bot.log").read_text()  # the log of a failed check is kept


def test_a_bot_that_ignores_sigterm_passes_with_a_warning(tmp_path: Path) -> None:
    """A shell as the jail's process 1 without a trap ignores SIGTERM: the
    bot is killed half a second later. Submission does not mind; the check
    says so and how to fix it."""
    folder = bot_folder(tmp_path / "stubborn", GOOD_BOT, command="sh run.sh", games='["leduc"]')
    (folder / "run.sh").write_text(f'{sys.executable} "$(dirname "$0")/bot.py" "$@" &\nwait\n')
    result = check(folder, "--json", "--decisions", "1")
    assert result.exit_code == 0, result.output
    (shutdown,) = [f for f in report(result)["findings"] if f["check"] == "shutdown"]
    assert shutdown["severity"] == "warning" and "did not end within half a second of SIGTERM" in shutdown["message"]
    assert "handle SIGTERM" in shutdown["fix"]


def test_what_submit_refuses_check_refuses(tmp_path: Path) -> None:
    folder = tmp_path / "no-manifest"
    folder.mkdir()
    (folder / "bot.py").write_text(GOOD_BOT)
    result = check(folder, "--json")
    assert result.exit_code == 1
    (refused,) = errors(result)
    assert refused["check"] == "submission" and "has no bot.toml" in refused["message"]


def test_times_are_written_as_in_every_command(tmp_path: Path) -> None:
    for option in ("--move-time", "--startup-timeout"):
        result = check(tmp_path, option, "soon")
        assert result.exit_code == 2 and "'soon' is not a time" in result.output and option in result.output


def test_check_plays_the_ladders_match_with_its_match_end(tmp_path: Path) -> None:
    """The same loop as the ladder's, and so its MatchEnd: the seed is kept
    back (a ladder reveals it only after the duplicate set; issue 25)."""
    folder = bot_folder(tmp_path / "fair", (BOTS / "fair_deal_checker.py").read_text(), games='["leduc"]')
    result = check(folder, "--json", "--decisions", "3", "--log-dir", str(tmp_path / "kept"))
    assert result.exit_code == 0, result.output
    log = (tmp_path / "kept" / "bot.log").read_text().splitlines()
    ends = [line for line in log if line.startswith("revealed seed")]
    assert ends and all(line == "revealed seed None fair False" for line in ends)
    assert len([line for line in log if line.startswith("commitment ")]) == len(ends)


ILLEGAL_IN_GNADENLOS_ONLY = GOOD_BOT.replace('version = "1"', 'version = "1"\n    games = ("gnadenlos", "leduc")') \
    .replace("return legal_actions[0]", """if context.match.game == "gnadenlos":
            from referee.games.gnadenlos.actions import Buy
            return Buy(99)  # never legal
        return legal_actions[0]""")


def test_a_forfeit_kills_the_bot_as_in_the_ladder_and_the_next_game_gets_a_fresh_start(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "half", ILLEGAL_IN_GNADENLOS_ONLY, games='["gnadenlos", "leduc"]')
    result = check(folder, "--json")
    assert result.exit_code == 1
    games = {g["game"]: g for g in report(result)["games"]}
    assert games["gnadenlos"]["faults"] == {"illegal": 3} and games["gnadenlos"]["matches"] == 1
    assert games["leduc"]["faults"] == {} and games["leduc"]["decisions"] >= 5
    assert [f["check"] for f in errors(result)] == ["gnadenlos", "gnadenlos"]  # the answers and the forfeit
    assert not [f for f in report(result)["findings"] if f["check"] == "shutdown"]  # killed, not slow to end


def test_a_script_missing_from_the_folder_is_named_relative_to_it(tmp_path: Path) -> None:
    """Issue 29: a bot.toml whose script is not there was started anyway,
    and the check quoted the jail's path of the missing file and advised
    listening on the socket. Now nothing starts: the check (and submit)
    name the file as bot.toml does, relative to the bot's folder, and the fix."""
    folder = bot_folder(tmp_path / "typo", GOOD_BOT, command="python mybot.py")
    result = check(folder, "--json")
    assert result.exit_code == 1
    (missing,) = errors(result)
    assert missing["check"] == "submission"
    assert missing["message"] == (
        f"{folder / 'bot.toml'}: the command names mybot.py, which does not exist in the bot's folder; add "
        "mybot.py to the folder (the command's files are relative to it), or correct `command` in bot.toml")
    assert report(result)["bot"] is None and report(result)["log_tail"] == []  # nothing was started

    unbuilt = bot_folder(tmp_path / "unbuilt", "", command="./bot")
    result = check(unbuilt, "--json")
    assert result.exit_code == 1
    (missing,) = errors(result)
    assert "the command's program ./bot does not exist in the bot's folder; build it there first" in missing["message"]

    submitted = CliRunner().invoke(cli, ["submit", str(folder), "--db", str(tmp_path / "ladder.sqlite")])
    assert submitted.exit_code == 1
    assert "the command names mybot.py, which does not exist in the bot's folder" in submitted.output


def test_a_bot_that_ends_before_it_listens_is_sent_to_its_output(tmp_path: Path) -> None:
    """A start that fails because the process ended is not a question of
    the socket: the fix points at the bot's last lines, which say why."""
    folder = bot_folder(tmp_path / "dies", "import a_module_nobody_installed\n")
    result = check(folder, "--json")
    assert result.exit_code == 1
    start = next(f for f in errors(result) if f["check"] == "start")
    assert "exited (exit code 1) before it listened on its socket" in start["message"]
    assert "its process ended before it listened: its last lines of output below say why" in start["fix"]
    assert "--socket" not in start["fix"]
    assert any("No module named 'a_module_nobody_installed'" in line for line in report(result)["log_tail"])
