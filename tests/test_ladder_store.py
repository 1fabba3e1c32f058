"""The ladder store: schema versions, bad database files, one transaction
per match and exactly-once results."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ladder.store.database import Store, StoreError
from ladder.store.schema import LATEST_VERSION
from ladder.store.skill import Skill
from ladder.store.tasks import PlayedMatch
from ladder_support import add_bots, open_store


def played(match_id: str, bot_ids: tuple[int, ...]) -> PlayedMatch:
    return PlayedMatch(match_id=match_id, game="gnadenlos", set_id="s", rotation=0, seed=7, variant={},
                       bot_ids=bot_ids, ranks=(0, 1, 2), forfeits=(None, None, None), strikes=(0, 0, 0),
                       end_reason="goal", decisions=3, seconds=0.1, record=None)


def test_a_new_store_is_at_the_latest_schema_version_in_wal_mode(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        assert store.schema_version() == LATEST_VERSION
    conn = sqlite3.connect(tmp_path / "data" / "ladder.sqlite")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with open_store(tmp_path) as store:  # reopening migrates nothing and keeps the data
        assert store.schema_version() == LATEST_VERSION


def test_a_file_that_is_not_sqlite_gets_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "ladder.sqlite"
    path.write_bytes(b"this is not a database at all, just some text" * 100)
    with pytest.raises(StoreError, match="is not a ladder database") as info:
        Store(path)
    assert "\n" not in str(info.value)


def test_a_foreign_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE customers (id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="another program"):
        Store(path)


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    with open_store(tmp_path):
        pass
    conn = sqlite3.connect(tmp_path / "data" / "ladder.sqlite")
    conn.execute("UPDATE schema_version SET version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer"):
        open_store(tmp_path)


def test_a_match_is_stored_exactly_once_with_its_rating_updates(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        ids = tuple(add_bots(store, ["a", "b", "c"]))
        before = [Skill(25, 8)] * 3
        after = [Skill(27, 7), Skill(25, 7), Skill(23, 7)]
        assert store.record_match(played("m1", ids), (0, 1, 2), before, after)
        assert not store.record_match(played("m1", ids), (0, 1, 2), after, before)
        assert store.match_count() == 1
        assert store.ratings("gnadenlos") == dict(zip(ids, after))
        assert len(store.rating_history("gnadenlos")) == 3


def test_a_failing_match_transaction_leaves_nothing_behind(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        ids = tuple(add_bots(store, ["a", "b"]))
        bad = played("m1", (*ids, 999))  # seat 2 names no registered bot: the insert fails mid-way
        with pytest.raises(sqlite3.IntegrityError):
            store.record_match(bad, (0, 1, 2), [Skill(25, 8)] * 3, [Skill(25, 8)] * 3)
        assert store.match_count() == 0
        assert store.ratings("gnadenlos") == {}
        assert store.rating_history("gnadenlos") == []


def test_built_ins_are_registered_once_per_code_version_and_per_game(tmp_path: Path) -> None:
    from ladder.intake.roster import DEFAULT_ROSTER, register_builtins

    with open_store(tmp_path) as store:
        first = register_builtins(store, "gnadenlos")
        assert register_builtins(store, "gnadenlos") == first
        assert register_builtins(store, "saboteur") == first  # same code: same bots, now on both ladders
        rows = store.bots(active_only=True)
        assert sorted(b.name for b in rows) == sorted(name for name, _ in DEFAULT_ROSTER)
        assert all(set(b.games) == {"gnadenlos", "saboteur"} and b.kind == "builtin" for b in rows)
