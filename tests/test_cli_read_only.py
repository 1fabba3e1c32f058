"""A store on read-only media (issue 29, point 2): the reading commands
read it as it is and make nothing (they made its folders and crashed with
`OSError: [Errno 30] Read-only file system`); the writing commands say in
one line that it is read-only and exit 1, never with a traceback.

The media is a read-only bind mount of the data folder in a mount
namespace of its own (`unshare`, as the bots' jail uses namespaces too),
so the commands run exactly as on a CD or a read-only share: even root
cannot write there.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ladder.intake.roster import register_builtins
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import Store
from ladder_support import FakeRunner, add_bots, random_bot_folder

MOUNT_READ_ONLY = 'mount --bind -o ro "$0" "$0" || exit 99; exec "$@"'
"""Run as `sh -c MOUNT_READ_ONLY FOLDER COMMAND...` inside the namespace."""

READ_ONLY = "is read-only (on a read-only file system)"


def on_read_only_media(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`referee ARGS` with the folder `data` mounted read-only under it."""
    if shutil.which("unshare") is None:
        pytest.fail("unshare (util-linux) is needed to mount a folder read-only", pytrace=False)
    done = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", MOUNT_READ_ONLY,
                           str(data), sys.executable, "-m", "referee.cli.main", *args],
                          capture_output=True, text=True, timeout=120)
    if done.returncode == 99:
        pytest.fail(f"cannot mount {data} read-only in a namespace of its own: {done.stderr}", pytrace=False)
    return done


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with rated matches (and their records), a token file and a
    registered built-in, closed as a finished ladder leaves it."""
    db = tmp_path_factory.mktemp("media") / "data" / "ladder.sqlite"
    with Store(db) as opened:
        alpha, _, _ = add_bots(opened, ["alpha", "beta", "gamma"])
        Ladder(opened, InlinePool(FakeRunner(strike={alpha: ["timeout"]})),
               LadderConfig(matches=6, sizes=(3,), seed=1)).run()
        register_builtins(opened, "leduc")
    subprocess.run([sys.executable, "-m", "referee.cli.main", "token", "add", "ann", "--db", str(db)],
                   check=True, capture_output=True)
    return db


def files_of(folder: Path) -> dict[str, tuple[int, int]]:
    """Every path under `folder` with its mode and modification time."""
    return {str(p.relative_to(folder)): (p.stat().st_mode, p.stat().st_mtime_ns) for p in folder.rglob("*")}


@pytest.mark.slow
@pytest.mark.parametrize(("command", "shows"), [
    (["table"], "alpha"), (["table", "--json", "--h2h", "--seats"], '"bot": "alpha"'), (["bots"], "mcts-0.05"),
    (["logs", "alpha"], "alpha@1 has no logs yet"), (["ladder-audit"], "verified: 6 matches revealed"),
    (["token", "list"], "ann"),
    (["play", "--game", "leduc", "--bot", "mcts-0.05", "--bot", "random", "--seed", "1"], "mcts-0.05[0]"),
])
def test_reading_commands_read_a_read_only_store(store: Path, command: list[str], shows: str) -> None:
    before = files_of(store.parent)
    done = on_read_only_media(store.parent, *command, "--db", str(store))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and shows in done.stdout
    assert files_of(store.parent) == before


def test_the_report_reads_a_read_only_store(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    done = on_read_only_media(store.parent, "report", "--db", str(store), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "Gnadenlos! ladder (base rules)" in out.read_text() and "alpha" in out.read_text()


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["ladder", "--matches", "1"], ["ladder", "--recompute"], ["serve"], ["retire", "alpha"],
    ["submit", "BOT", "--name", "delta"], ["token", "add", "bob"], ["token", "revoke", "ann"],
])
def test_writing_commands_say_the_store_is_read_only(store: Path, tmp_path: Path, command: list[str]) -> None:
    folder = random_bot_folder(tmp_path / "bot")
    before = files_of(store.parent)
    done = on_read_only_media(store.parent, *[str(folder) if word == "BOT" else word for word in command],
                              "--db", str(store))
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("Error: ") and READ_ONLY in lines[-1], done.stderr
    assert "Traceback" not in done.stderr and f"{store.parent}" in lines[-1]
    assert files_of(store.parent) == before


@pytest.mark.slow
def test_a_store_left_with_commits_in_its_wal_is_read_whole(tmp_path: Path) -> None:
    """A ladder killed before it closed leaves commits in the -wal file:
    read from read-only media they are there (SQLite reads them through the
    -shm file it left too)."""
    db = tmp_path / "data" / "ladder.sqlite"
    script = ("import os, signal, sys\nsys.path.insert(0, sys.argv[2])\nfrom ladder.store.database import Store\n"
              "from ladder_support import add_bots\nadd_bots(Store(sys.argv[1]), ['late'])\n"
              "os.kill(os.getpid(), signal.SIGKILL)\n")
    Store(db).close()
    subprocess.run([sys.executable, "-c", script, str(db), str(Path(__file__).parent)], check=False)
    assert db.with_name("ladder.sqlite-wal").stat().st_size > 0
    done = on_read_only_media(db.parent, "bots", "--db", str(db))
    assert done.returncode == 0 and "late" in done.stdout, done.stderr
    db.with_name("ladder.sqlite-shm").unlink()
    done = on_read_only_media(db.parent, "bots", "--db", str(db))
    assert done.returncode == 1 and "has commits in its -wal file" in done.stderr and "Traceback" not in done.stderr
