"""`referee submit`: good submissions are registered (content-hashed), bad
ones get one clear line and leave the store exactly as it was."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ladder.store.database import Store
from process_support import with_default_sigint
from referee.cli.main import cli
from referee.games import game_names

BOT_SOURCE = """\
from bots.sdk import Bot, serve


class FirstBot(Bot):
    name = "first"
    version = "1"

    def decide(self, observation, legal_actions, context):
        return legal_actions[0]


if __name__ == "__main__":
    serve(FirstBot())
"""

SILENT_SOURCE = """\
import time
time.sleep(60)  # never listens, never answers the handshake
"""

CRASHING_SOURCE = BOT_SOURCE.replace("return legal_actions[0]", "raise SystemExit(3)")


def script(path: Path, source: str, *, executable: bool = True) -> Path:
    path.write_text(f"#!{sys.executable}\n{source}")
    path.chmod(0o755 if executable else 0o644)
    return path


def folder(path: Path, manifest: str, source: str = BOT_SOURCE) -> Path:
    path.mkdir()
    (path / "bot.py").write_text(source)
    (path / "bot.toml").write_text(manifest)
    return path


def referee(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def snapshot(db: Path) -> tuple[str, list[str]]:
    """The registered bots and every file of the data folder (but SQLite's
    own journal files)."""
    listing = referee("bots", "--json", "--db", str(db)).output
    files = sorted(str(p.relative_to(db.parent)) for p in db.parent.rglob("*")
                   if not p.name.startswith(db.name))
    return listing, files


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    """An empty store (made as `referee submit` makes one: `referee bots`
    only reads a store, it never makes one)."""
    path = tmp_path / "data" / "ladder.sqlite"
    Store(path).close()
    return path


def registered(db: Path) -> list[dict[str, object]]:
    return json.loads(referee("bots", "--json", "--db", str(db)).output)


@pytest.mark.slow
def test_a_good_script_is_registered_and_an_identical_resubmission_recognised(tmp_path: Path, db: Path) -> None:
    bot = script(tmp_path / "first.py", BOT_SOURCE)
    result = referee("submit", str(bot), "--name", "first", "--db", str(db))
    assert result.exit_code == 0, result.output
    assert "registered first version v1" in result.output
    again = referee("submit", str(bot), "--name", "first", "--db", str(db))
    assert again.exit_code == 0 and "already registered" in again.output
    bot.write_text(bot.read_text() + "\n# changed\n")
    changed = referee("submit", str(bot), "--name", "first", "--db", str(db))
    assert "registered first version v2" in changed.output
    rows = registered(db)
    assert [(r["name"], r["version"], r["active"]) for r in rows] == [("first", "v1", False), ("first", "v2", True)]
    stored = db.parent / "bots" / "first"
    assert len(list(stored.iterdir())) == 2  # one folder per version, copied into the store
    assert not (db.parent / "bots" / ".incoming").exists()


@pytest.mark.slow
def test_a_good_folder_with_a_manifest_is_registered(tmp_path: Path, db: Path) -> None:
    bot = folder(tmp_path / "greedy", 'name = "greedy"\ncommand = "python bot.py"\ngames = ["gnadenlos"]\n'
                                     'version = "1.0"\ndescription = "plays the first legal action"\n')
    result = referee("submit", str(bot), "--db", str(db))
    assert result.exit_code == 0, result.output
    [row] = registered(db)
    assert (row["name"], row["version"], row["description"]) == ("greedy", "1.0", "plays the first legal action")


def refused(db: Path, *args: str) -> str:
    """Submit, expect a refusal with one clear line (and, when the bot
    itself failed, the last lines of its output), and the store unchanged."""
    before = snapshot(db)
    result = referee("submit", *args, "--db", str(db))
    assert result.exit_code != 0
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines[0].startswith("Error: "), result.output
    assert lines[1:] == [] or (lines[1] == "its last lines of output:" and
                               all(line.startswith("  ") for line in lines[2:])), result.output
    assert snapshot(db) == before
    return lines[0]


def output_shown(result_output: str) -> list[str]:
    """The bot's log lines a refusal shows (after "its last lines of output:")."""
    lines = result_output.splitlines()
    return [line.strip() for line in lines[lines.index("its last lines of output:") + 1:]]


def test_a_missing_file_is_refused(tmp_path: Path, db: Path) -> None:
    assert "does not exist" in refused(db, str(tmp_path / "nope.py"), "--name", "nope")


def test_a_file_that_is_not_executable_is_refused(tmp_path: Path, db: Path) -> None:
    bot = script(tmp_path / "plain.py", BOT_SOURCE, executable=False)
    assert "chmod +x" in refused(db, str(bot), "--name", "plain")


@pytest.mark.parametrize(
    ("manifest", "expected"),
    [
        ('command = "python bot.py"\ngames = ["gnadenlos"\n', "not valid TOML"),
        ('games = ["gnadenlos"]\n', "has no 'command'"),
        ('command = "python bot.py"\n', "has no 'games'"),
        ('command = "python bot.py"\ngames = "gnadenlos"\n', "games must be a list"),
        ('command = "python bot.py"\ngames = ["gnadenlos"]\nauthor = "me"\n', "unknown key 'author'"),
        ('command = "python bot.py"\ngames = ["chess"]\n', "not gnadenlos"),
        ('command = "./missing-binary"\ngames = ["gnadenlos"]\n', "./missing-binary does not exist in the bot's folder"),
        ('command = "python mybot.py"\ngames = ["gnadenlos"]\n', "mybot.py, which does not exist in the bot's folder"),
        ('command = "../other-bot/bot"\ngames = ["gnadenlos"]\n', "leads out of the bot's folder"),
        ('command = "python ../other-bot/bot.py"\ngames = ["gnadenlos"]\n', "leads out of the bot's folder"),
        ('command = "/usr/bin/python3 bot.py"\ngames = ["gnadenlos"]\n', "is an absolute path"),
    ],
)
def test_manifest_errors_are_refused(tmp_path: Path, db: Path, manifest: str, expected: str) -> None:
    bot = folder(tmp_path / "bad", manifest)
    assert expected in refused(db, str(bot), "--name", "bad")


def test_a_link_out_of_the_bot_folder_is_refused(tmp_path: Path, db: Path) -> None:
    """A link would be copied into the store as its target's content (the
    store's database, another bot), which the bot could then read."""
    bot = folder(tmp_path / "linked", 'command = "python bot.py"\ngames = ["gnadenlos"]\n')
    (bot / "secret").symlink_to(db)
    assert "is a link out of the bot's folder" in refused(db, str(bot), "--name", "linked")


def test_a_folder_without_a_manifest_is_refused(tmp_path: Path, db: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert "has no bot.toml" in refused(db, str(tmp_path / "empty"), "--name", "empty")


@pytest.mark.slow
def test_a_bot_that_never_answers_the_handshake_is_refused(tmp_path: Path, db: Path) -> None:
    bot = script(tmp_path / "silent.py", SILENT_SOURCE)
    line = refused(db, str(bot), "--name", "silent", "--startup-timeout", "1.5")
    assert "did not start and answer the handshake within 1.5s" in line


@pytest.mark.slow
def test_a_bot_that_fails_its_validation_match_is_refused(tmp_path: Path, db: Path) -> None:
    bot = script(tmp_path / "crasher.py", CRASHING_SOURCE)
    assert "forfeited its validation match" in refused(db, str(bot), "--name", "crasher", "--move-time", "0.5")


@pytest.mark.slow
def test_a_refusal_shows_the_failing_bots_last_lines_of_output(tmp_path: Path, db: Path) -> None:
    """Not only the name of a log the author must go and find: its last
    lines, escaped (a terminal escape the bot printed arrives as text)."""
    source = BOT_SOURCE.replace(
        "return legal_actions[0]",
        "import os, sys; print('giving up: no strategy for \\x1b[2J this', file=sys.stderr, flush=True); os._exit(3)")
    bot = script(tmp_path / "quitter.py", source)
    line = refused(db, str(bot), "--name", "quitter", "--move-time", "500ms")
    assert "forfeited its validation match of gnadenlos (crashed: " in line and "exit code 3" in line
    result = referee("submit", str(bot), "--name", "quitter", "--move-time", "500ms", "--db", str(db))
    shown = output_shown(result.output)
    assert "giving up: no strategy for \\x1b[2J this" in shown and "\x1b" not in result.output
    silent = script(tmp_path / "mute.py", "import sys\nprint('cannot find my weights', file=sys.stderr)\n"
                                          "raise SystemExit(1)\n")
    result = referee("submit", str(silent), "--name", "mute", "--db", str(db))
    assert "did not start" in result.output and output_shown(result.output) == ["cannot find my weights"]
    assert result.output.count("its output is in") == 1  # the log named once, its lines shown


def test_a_built_in_name_cannot_be_taken(tmp_path: Path, db: Path) -> None:
    bot = script(tmp_path / "first.py", BOT_SOURCE)
    assert "built-in bot" in refused(db, str(bot), "--name", "random")


def test_a_corrupt_database_gets_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "ladder.sqlite"
    bad.write_bytes(os.urandom(4096))
    result = referee("table", "--db", str(bad))
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    assert "is not a ladder database" in result.output


def test_the_bot_toml_example_of_the_docs_is_a_valid_manifest(tmp_path: Path) -> None:
    from ladder.intake.submission import read_manifest

    docs = (Path(__file__).resolve().parent.parent / "docs" / "ladder.md").read_text()
    example = docs.split("```toml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "bot.toml").write_text(example)
    manifest = read_manifest(tmp_path)
    assert (manifest.name, manifest.command, manifest.games) == ("greedy", ("python", "bot.py"), ("gnadenlos", "leduc"))
    games_line = next(line for line in example.splitlines() if line.startswith("games = "))
    assert set(games_line.split("of: ")[1].split(", ")) == set(game_names())  # every game a bot may list


# --------------------------------------------------------------- limits
# A submission is untrusted: its size, shape and links must not make the
# referee fill the store, run out of memory or walk forever (containment
# issue, property 7).

GOOD_MANIFEST = 'command = "python bot.py"\ngames = ["gnadenlos"]\n'


def test_a_folder_linking_to_itself_is_refused_at_once(tmp_path: Path, db: Path) -> None:
    """`a -> .` and `b -> .`: a copy that follows links makes 2^depth folders
    until the store is full (242,109 folders in a minute, measured)."""
    bot = folder(tmp_path / "loop", GOOD_MANIFEST)
    (bot / "a").symlink_to(".")
    (bot / "b").symlink_to(".")
    started = time.monotonic()
    line = refused(db, str(bot), "--name", "loop")
    assert time.monotonic() - started < 5
    assert "a is a link to a folder" in line


def peak_memory_of_submit(*args: str) -> tuple[int, str, int]:
    """Run `referee submit` in a process of its own: (exit code, output,
    its peak resident memory in bytes)."""
    process = subprocess.Popen([sys.executable, "-m", "referee.cli.main", "submit", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, output, usage.ru_maxrss * 1024


@pytest.mark.slow
def test_a_file_over_the_size_limit_is_refused_without_being_read(tmp_path: Path, db: Path) -> None:
    """A 1 GiB sparse file costs its author nothing; the referee must see its
    size and refuse before copying or hashing a byte of it."""
    bot = folder(tmp_path / "sparse", GOOD_MANIFEST)
    with open(bot / "weights.bin", "wb") as handle:
        handle.truncate(1 << 30)
    before = snapshot(db)
    code, output, peak = peak_memory_of_submit(str(bot), "--name", "sparse", "--db", str(db))
    assert code != 0 and output.startswith("Error: ") and output.count("\n") == 1, output
    assert "more than 64 MiB" in output and "weights.bin" in output
    # the command's own imports take 100-300 MiB (more on a loaded machine);
    # reading the file whole would add its whole gibibyte
    assert peak < 512 * 2**20, f"peak memory {peak / 2**20:.0f} MiB"
    assert snapshot(db) == before


def test_a_single_file_over_the_size_limit_is_refused(tmp_path: Path, db: Path) -> None:
    bot = script(tmp_path / "huge.py", BOT_SOURCE)
    with open(bot, "ab") as handle:
        handle.truncate(1 << 30)
    assert "more than 64 MiB" in refused(db, str(bot), "--name", "huge")


def test_a_folder_of_too_many_files_is_refused(tmp_path: Path, db: Path) -> None:
    bot = folder(tmp_path / "many", GOOD_MANIFEST)
    for index in range(2001):
        (bot / f"{index}.pyc").touch()
    assert "more than 2,000 files and folders" in refused(db, str(bot), "--name", "many")


def test_the_limits_can_be_changed(tmp_path: Path, db: Path) -> None:
    bot = folder(tmp_path / "small", GOOD_MANIFEST)
    (bot / "sub").mkdir()
    with open(bot / "sub" / "data.bin", "wb") as handle:
        handle.truncate(2 << 20)
    assert "more than 3 files and folders" in refused(db, str(bot), "--name", "small", "--max-files", "3")
    assert "more than 1 MiB" in refused(db, str(bot), "--name", "small", "--max-mib", "1")
    assert "more than 0 deep" in refused(db, str(bot), "--name", "small", "--max-depth", "0")


def test_a_folder_nested_too_deep_is_refused(tmp_path: Path, db: Path) -> None:
    bot = folder(tmp_path / "deep", GOOD_MANIFEST)
    (bot / Path(*["d"] * 17)).mkdir(parents=True)
    assert "more than 16 deep" in refused(db, str(bot), "--name", "deep")


def test_a_named_pipe_is_refused_without_opening_it(tmp_path: Path, db: Path) -> None:
    """Reading a FIFO would wait for a writer forever."""
    bot = folder(tmp_path / "piped", GOOD_MANIFEST)
    os.mkfifo(bot / "pipe")
    assert "pipe is not a file, folder or link" in refused(db, str(bot), "--name", "piped")


@pytest.mark.slow
def test_a_link_to_a_file_of_the_folder_is_kept_as_a_link(tmp_path: Path, db: Path) -> None:
    bot = folder(tmp_path / "aliased", 'command = "python main.py"\ngames = ["gnadenlos"]\n')
    (bot / "main.py").symlink_to("bot.py")
    result = referee("submit", str(bot), "--name", "aliased", "--db", str(db))
    assert result.exit_code == 0, result.output
    [stored] = (db.parent / "bots" / "aliased").iterdir()
    assert os.readlink(stored / "main.py") == "bot.py"


@pytest.mark.slow
def test_ctrl_c_during_validation_leaves_no_staging_folder(tmp_path: Path, db: Path) -> None:
    bot = script(tmp_path / "silent.py", SILENT_SOURCE)
    process = subprocess.Popen([sys.executable, "-m", "referee.cli.main", "submit", str(bot), "--name", "silent",
                                "--db", str(db)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               preexec_fn=with_default_sigint)
    incoming = db.parent / "bots" / ".incoming"
    deadline = time.monotonic() + 20
    while not (incoming.exists() and any(incoming.iterdir())) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # into the handshake wait
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=20) != 0
    assert not incoming.exists()
