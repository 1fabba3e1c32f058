"""The starter kits of examples/ (issue 15): each is built as its README
says (`make kits`), plays a real `referee play` match of every game through
the command line without a strike or forfeit, passes `referee submit`, and
keeps the start-up contract of docs/protocol.md (a stale socket file, the
health service, the handshake, a clean exit on SIGTERM). A copy of a kit's
folder outside the repository builds and plays (issue 29: the JavaScript
kit once copied its .proto files from ../../proto at `npm ci`): each kit
carries its own copy of the protocol's .proto files, checked here against
the repository's.

Building needs the kits' toolchains (`make kit-packages`, as root); the
session fixture runs `make kits`, which does nothing when they are built.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from click.testing import CliRunner
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee.cli.main import cli
from referee.protocol.client import BotClient

pytestmark = pytest.mark.slow  # the kits' bots built and played as processes

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PROTO = ROOT / "proto"
KITS = ("python", "javascript", "cpp")
GAMES = ("gnadenlos", "saboteur", "leduc")
OPPONENTS = {"gnadenlos": 2, "saboteur": 2, "leduc": 1}
"""Built-in random bots beside the kit: each game's fewest seats (every
opponent is a process to start)."""


@pytest.fixture(scope="session")
def built() -> None:
    """`make kits`, once at a time across test workers (a lock file: two
    `npm ci` in one folder would delete each other's node_modules)."""
    lock_path = Path(tempfile.gettempdir()) / f"kits-{hashlib.sha256(bytes(ROOT)).hexdigest()[:12]}.lock"
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = subprocess.run(["make", "-s", "kits"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, (
        f"make kits failed (the toolchains: `make kit-packages` as root):\n{done.stdout}\n{done.stderr}")


def kit_name(kit: str) -> str:
    return str(tomllib.loads((EXAMPLES / kit / "bot.toml").read_text())["name"])


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kit", KITS)
def test_kit_plays_a_match_of_every_game_without_a_strike(built: None, kit: str, game: str) -> None:
    """The kit's folder, as `referee play --bot examples/KIT/` runs it (in
    the jail, from its bot.toml), in seat 0 at the default move time:
    --strict makes a single strike (a late first decision included) fail."""
    bots = ["--bot", f"{EXAMPLES / kit}/"] + ["--bot", "random"] * OPPONENTS[game]
    result = CliRunner().invoke(cli, ["play", "--game", game, *bots, "--seed", "11", "--strict", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["forfeits"] == {} and set(summary["strikes"]) == {0}
    assert summary["seats"][0]["name"] == kit_name(kit)
    assert summary["decisions"] > 0 and summary["end_reason"]


@pytest.mark.parametrize("kit", KITS)
def test_kit_is_accepted_by_submit(built: None, kit: str, tmp_path: Path) -> None:
    """`referee submit examples/KIT/` copies the folder (node_modules, the
    proto copy, the binary) into a store and plays a match of each game."""
    result = CliRunner().invoke(cli, ["submit", str(EXAMPLES / kit), "--db", str(tmp_path / "ladder.sqlite")])
    assert result.exit_code == 0, result.output
    assert f"registered {kit_name(kit)} version v1 for gnadenlos, saboteur, leduc" in result.output


def kit_command(kit: str) -> list[str]:
    """The kit's program outside the jail, by absolute paths."""
    if kit == "python":
        return [sys.executable, str(EXAMPLES / "python" / "bot.py")]
    if kit == "javascript":
        return [shutil.which("node") or "node", str(EXAMPLES / "javascript" / "bot.js")]
    return [str(EXAMPLES / "cpp" / "bot")]


@pytest.fixture
def socket_folder() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="kit", dir="/tmp"))  # a short path: Unix socket paths are short
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("kit", KITS)
def test_kit_keeps_the_start_up_contract(built: None, kit: str, socket_folder: Path) -> None:
    """Started in an empty working folder over a stale socket file, the bot
    serves health (SERVING for "" and tournament.v1.Bot) and the handshake
    on the socket path, and exits 0 on SIGTERM."""
    socket_path = socket_folder / "s"
    socket_path.write_text("stale")
    work = socket_folder / "work"
    work.mkdir()
    process = subprocess.Popen([*kit_command(kit), "--socket", str(socket_path)], cwd=work,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={"PATH": os.environ["PATH"]})
    client = BotClient(str(socket_path))
    try:
        info = client.wait_ready(20)
        assert (info.name, info.protocol_version) == (kit_name(kit), 1)
        assert tuple(info.games) == GAMES
        with grpc.insecure_channel(f"unix:{socket_path}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            for service in ("", "tournament.v1.Bot"):
                status = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status
                assert status == health_pb2.HealthCheckResponse.SERVING, service
        client.close()
        process.send_signal(signal.SIGTERM)
        output = process.communicate(timeout=10)[0].decode(errors="replace")
        assert process.returncode == 0, output
    finally:
        client.close()
        if process.poll() is None:
            process.kill()
            process.wait()


KITS_WITH_PROTOS = ("javascript", "cpp")
BUILD = {"javascript": ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
         "cpp": ["make", "-j2", "CXXFLAGS=-O0"]}
"""Each kit's build as its README gives it (the C++ kit unoptimised: the
copy is built to show that it builds, and -O0 halves the compile time)."""
BUILT = {"javascript": ("node_modules",), "cpp": ("build", "bot")}
"""What a build leaves in a kit's folder, which a copy starts without."""


def imported_protos(name: str) -> set[str]:
    """`name` and every .proto of the repository it imports, transitively
    (the well-known google/protobuf/ ones come with protobuf itself)."""
    found, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current in found or current.startswith("google/protobuf/"):
            continue
        found.add(current)
        todo += re.findall(r'^import "([^"]+)";', (PROTO / current).read_text(), re.M)
    return found


@pytest.mark.parametrize("kit", KITS_WITH_PROTOS)
def test_kit_carries_the_repositorys_protos(kit: str) -> None:
    """The kit's proto/ holds exactly what tournament.proto needs, byte for
    byte as in the repository's proto/ (`make proto` copies them)."""
    needed = imported_protos("tournament/v1/tournament.proto")
    assert {"tournament/v1/tournament.proto", "leduc/v1/leduc.proto"} <= needed
    folder = EXAMPLES / kit / "proto"
    carried = {str(path.relative_to(folder)) for path in folder.rglob("*.proto")}
    assert carried == needed, "run `make proto` to copy the repository's .proto files into the kits"
    for name in sorted(needed):
        assert (folder / name).read_bytes() == (PROTO / name).read_bytes(), f"{kit}/proto/{name}: run `make proto`"


@pytest.mark.parametrize("kit", KITS_WITH_PROTOS)
def test_a_copy_of_the_kit_builds_and_plays_outside_the_repository(built: None, kit: str, tmp_path: Path) -> None:
    """The kit's README says to copy its folder: a copy in a folder of its
    own, without what the repository's build left, builds with the README's
    command and plays a match through `referee play --strict`."""
    copy = tmp_path / f"my-{kit}-bot"
    shutil.copytree(EXAMPLES / kit, copy, ignore=shutil.ignore_patterns(*BUILT[kit]))
    assert not any((copy / name).exists() for name in BUILT[kit])
    done = subprocess.run(BUILD[kit], cwd=copy, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(BUILD[kit])} in a copy of the kit failed:\n{done.stdout}\n{done.stderr}"
    result = CliRunner().invoke(cli, ["play", "--game", "leduc", "--bot", f"{copy}/", "--bot", "random",
                                      "--seed", "5", "--strict", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["seats"][0]["name"] == kit_name(kit) and summary["decisions"] > 0
