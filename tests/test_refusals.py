"""What `referee check` reads of the jail's refusals in a bot's output
(referee/refusals.py): the lines runtimes print when a file, a program, a
package or the network is not there, each named as the author knows it and
with its fix. (tests/test_check_cli.py shows it on real bot processes.)"""

from __future__ import annotations

from pathlib import Path

from referee.refusals import BotPlace, refusals


def read(tmp_path: Path, *lines: str, start_failure: str | None = None) -> list[tuple[str, str, str]]:
    log = tmp_path / "bot.log"
    log.write_text("\n".join(lines) + "\n")
    place = BotPlace(Path("/tmp/referee-check-x/bot"), Path("/home/me/mybot"))
    return [(r.kind, r.what, r.fix) for r in refusals(start_failure, log, place)]


def test_files_are_named_as_the_author_knows_them_with_where_to_put_them(tmp_path: Path) -> None:
    found = read(
        tmp_path,
        "FileNotFoundError: [Errno 2] No such file or directory: 'weights.bin'",
        "Error: ENOENT: no such file or directory, open '/tmp/referee-check-x/bot/data/openings.json'",
        "java.io.FileNotFoundException: /home/me/shared/book.txt (No such file or directory)",
        "PermissionError: [Errno 13] Permission denied: '/tmp/referee-check-x/bot/cache.db'",
    )
    (relative, missing, outside, denied) = found
    assert relative[0] == "file" and "weights.bin was not found: a path relative to the working folder" in relative[1]
    assert "__file__" in relative[2]
    assert missing[1] == "/home/me/mybot/data/openings.json is not in the bot's folder"
    assert outside[1] == "/home/me/shared/book.txt is outside the bot's folder, which the jail does not show"
    assert "copy what the bot reads into its folder" in outside[2]
    assert denied[0] == "permission" and denied[1].startswith("/home/me/mybot/cache.db")


def test_programs_packages_and_the_network(tmp_path: Path) -> None:
    found = read(
        tmp_path,
        "/usr/bin/env: ‘python3.99’: No such file or directory",
        "sh: 1: ruby: not found",
        "ModuleNotFoundError: No module named 'numpy'",
        "Error: Cannot find module '@grpc/grpc-js'",
        "OSError: [Errno 101] Network is unreachable",
        "OSError: [Errno 101] Network is unreachable",  # said once
    )
    kinds = [kind for kind, _, _ in found]
    assert kinds == ["interpreter", "interpreter", "module", "module", "network"]
    assert "python3.99 is not on the jail's PATH" in found[0][1] and "ruby" in found[1][1]
    assert "pip install --target vendor" in found[2][2] and "node_modules" in found[3][2]
    assert "no network" in found[4][2]


def test_a_script_whose_interpreter_the_jail_lacks(tmp_path: Path) -> None:
    script = tmp_path / "bot"
    script.write_text("#!/opt/python3.12/bin/python3 -u\nprint(1)\n")
    log = tmp_path / "bot.log"
    log.write_text("")
    failure = f"mine: cannot run '{script}': {script}: No such file or directory"
    (refusal,) = refusals(failure, log, BotPlace(tmp_path, Path("/home/me/mybot")))
    assert refusal.kind == "interpreter"
    assert refusal.what == "/home/me/mybot/bot's #! line names /opt/python3.12/bin/python3, which does not exist"


def test_the_bots_words_are_escaped(tmp_path: Path) -> None:
    (found,) = read(tmp_path, "FileNotFoundError: [Errno 2] No such file or directory: 'a\x1b[2Jb'")
    assert "a\\x1b[2Jb" in found[1] and "\x1b" not in found[1]
