"""Taking bots out of the ladder (issue 29, point 3): `referee retire`,
locally and with `--server`; `--no-builtins` keeps built-ins that are
already registered from playing; the sets an earlier run planned are
played first only when this run can seat them (another --players or a
left-out built-in leaves them for later, a retired bot drops them); and a
new version, submitted or built-in, is said to start with a fresh rating."""

from __future__ import annotations

import json
import signal
import sqlite3
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ladder.intake.roster import register_builtins
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import BotRow, Store
from ladder.store.tasks import BotSpec, MatchTask
from ladder_support import FakeRunner, add_bots, install_bot, random_bot_folder
from referee.cli.main import cli
from service_support import free_address, start_service

LADDER = ("ladder", "--workers", "1", "--move-time", "1s", "--seed", "3")


def referee(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def active(db: Path) -> dict[str, bool]:
    return {b["name"]: b["active"] for b in json.loads(referee("bots", "--json", "--db", str(db)))}


def test_retire_takes_a_bot_out_and_keeps_its_rating(tmp_path: Path) -> None:
    db = tmp_path / "data" / "ladder.sqlite"
    with Store(db) as store:
        add_bots(store, ["alpha", "beta", "gamma"])
        Ladder(store, InlinePool(FakeRunner()), LadderConfig(matches=3, sizes=(3,), seed=1)).run()
        register_builtins(store, "gnadenlos")
    out = referee("retire", "alpha", "--db", str(db))
    assert out.startswith("retired alpha@1: it plays no more matches") and "`referee table --all`" in out
    assert active(db)["alpha"] is False and active(db)["beta"] is True
    assert "alpha" not in referee("table", "--db", str(db)) and "alpha" in referee("table", "--all", "--db", str(db))
    again = referee("retire", "alpha", "--db", str(db), code=1)
    assert "no active bot named 'alpha'" in again and "beta" in again
    builtin = referee("retire", "random", "--db", str(db), code=1)
    assert "random is a built-in bot" in builtin and "--no-builtins" in builtin
    missing = referee("retire", "beta", "--db", str(tmp_path / "nowhere" / "ladder.sqlite"), code=1)
    assert "no ladder database at" in missing and not (tmp_path / "nowhere").exists()


def plan(store: Store, set_id: str, bots: list[BotRow]) -> None:
    """A duplicate set an earlier run planned (and did not play) for `bots`."""
    specs = tuple(BotSpec(b.bot_id, b.label, b.kind, b.command, b.content_hash, b.folder) for b in bots)
    store.plan([MatchTask(f"gnadenlos-{set_id}-{r}", "gnadenlos", set_id, r, 1000 + r, {},
                          specs[r:] + specs[:r]) for r in range(len(bots))])


@pytest.mark.slow
def test_a_run_plays_only_what_it_can_seat_and_leaves_out_the_built_ins(tmp_path: Path) -> None:
    db = tmp_path / "data" / "ladder.sqlite"
    with Store(db) as store:
        for name in ("a", "b", "c", "d", "e"):
            install_bot(store, random_bot_folder(tmp_path / "bots" / name), name)
        with store.transaction() as conn:  # the built-in random bot as an older code registered it
            store.add_bot(conn, name="random", version="0ld", content_hash="older code", kind="builtin",
                          command=["random"], folder=None, games=["gnadenlos"])
    first = " ".join(referee(*LADDER, "--players", "3", "--matches", "3", "--db", str(db)).split())
    assert "note: the built-in random has a new version" in first
    assert "it starts with a fresh rating; random@0ld keeps its own" in first
    with Store(db) as store:
        bots = {b.name: b for b in store.bots(active_only=True)}
        plan(store, "four", [bots[n] for n in "abcd"])  # breaks --players 3: left for a later run
        plan(store, "builtin", [bots["random"], bots["a"], bots["b"]])  # breaks --no-builtins: left too
        plan(store, "retired", [bots["e"], bots["a"], bots["b"]])  # e is retired below: dropped
        played_before = store.match_count("gnadenlos")
    referee("retire", "e", "--db", str(db))

    second = referee(*LADDER, "--players", "3", "--matches", "3", "--no-builtins", "--db", str(db))
    words = " ".join(second.split())
    assert "warning: 7 matches an earlier run planned are left for a later run" in words
    assert "warning: 3 matches an earlier run planned were dropped, never to be played: they seat e@v1" in words
    with Store(db) as store:
        planned = {p["set_id"] for p in store.planned("gnadenlos")}
        assert planned == {"four", "builtin"}
        new = [m for m in store.matches("gnadenlos")[played_before:]]
        assert len(new) == 3 and all(m["num_seats"] == 3 for m in new)
        seated = {row.bot_id for row in store.seat_rows("gnadenlos") if row.match_id in {m["match_id"] for m in new}}
        assert seated <= {bots[n].bot_id for n in "abcd"}  # no built-in, no retired bot


def test_a_new_version_is_said_to_start_with_a_fresh_rating(tmp_path: Path) -> None:
    db = str(tmp_path / "data" / "ladder.sqlite")
    folder = random_bot_folder(tmp_path / "mine")
    first = referee("submit", str(folder), "--name", "mine", "--move-time", "1s", "--db", db)
    assert "registered mine version v1" in first and "fresh rating" not in first
    (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# v2: a changed bot\n")
    second = " ".join(referee("submit", str(folder), "--name", "mine", "--move-time", "1s", "--db", db).split())
    assert "registered mine version v2" in second
    assert "a new version of mine: it starts with a fresh rating (each version is rated apart), mine@v1 keeps its " \
           "own (`referee table --all` shows it)" in second


def stored_seats(db: Path) -> list[tuple[int, set[str]]]:
    """(rating order, bot names) of every stored match."""
    with sqlite3.connect(db, timeout=5) as conn:
        rows = conn.execute("SELECT m.seq, b.name FROM matches m JOIN match_seats s USING (match_id)"
                            " JOIN bots b ON b.id = s.bot_id ORDER BY m.seq").fetchall()
    matches: dict[int, set[str]] = {}
    for seq, name in rows:
        matches.setdefault(seq, set()).add(name)
    return sorted(matches.items())


def wait_for(condition: object, what: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


@pytest.mark.slow
def test_retire_on_a_service_takes_the_bot_out_of_the_running_ladder(tmp_path: Path) -> None:
    db = tmp_path / "data" / "ladder.sqlite"
    with Store(db) as store:
        for name in ("a", "b", "c", "d"):
            install_bot(store, random_bot_folder(tmp_path / "bots" / name), name)
    bob = referee("token", "add", "bob", "--db", str(db)).splitlines()[0]
    address = free_address()
    log = tmp_path / "serve.log"
    service = start_service(db, address, "--no-builtins", "--players", "3", "--workers", "1", "--move-time", "1s",
                            log=log)
    try:
        wait_for(lambda: len(stored_seats(db)) >= 3, "the service rated no three matches")
        refused = referee("retire", "d", "--server", address, "--token", bob, code=1)
        assert "belongs to the ladder's operator" in refused
        out = referee("retire", "d", "--server", address)
        assert out.startswith("retired d@v1: it plays no more matches")
        retired_at = stored_seats(db)[-1][0]
        assert active(db)["d"] is False
        wait_for(lambda: len([m for m in stored_seats(db) if m[0] > retired_at]) >= 5,
                 "the service rated no five matches after the retire")
        after = [names for seq, names in stored_seats(db) if seq > retired_at]
        # a match already handed to the worker may still finish (one playing, one waiting), none after those
        assert all("d" not in names for names in after[2:]), after
    finally:
        service.send_signal(signal.SIGTERM)
        assert service.wait(60) == 0, log.read_text()
