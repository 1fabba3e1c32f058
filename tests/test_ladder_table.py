"""The table says what happened: strikes by reason and forfeits per bot,
the verdict on each adjacent pair, 80 columns that never cut a bot's name
or rating, an unknown game refused, and all of it in --json."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner
from rich.console import Console

from ladder.rating.standings import pair_statuses, standings, to_json
from ladder.reporting.render import standings_table
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import Store
from ladder.store.schema import MIGRATIONS
from ladder_support import FakeRunner, add_bots, open_store
from referee.cli.main import cli

LONG_NAME = "a-bot-whose-name-is-long-enough-to-crowd-an-80-column-terminal"


def play(store: Store, runner: FakeRunner, matches: int, **config: object) -> Ladder:
    ladder = Ladder(store, InlinePool(runner), LadderConfig(matches=matches, sizes=(3,), **config))  # type: ignore[arg-type]
    ladder.run()
    return ladder


def test_strikes_are_counted_by_reason_and_forfeits_per_bot(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        slow, sloppy, fine = add_bots(store, ["slow", "sloppy", "fine"])
        runner = FakeRunner(strike={slow: ["timeout", "timeout"], sloppy: ["illegal", "malformed", "timeout"]},
                            forfeit={sloppy})
        play(store, runner, 6, seed=1)
        rows = {r.bot: r for r in standings(store, "gnadenlos")}
        assert rows["slow"].strike_reasons == {"timeout": 12} and rows["slow"].forfeits == 0
        assert rows["sloppy"].strike_reasons == {"timeout": 6, "illegal": 6, "malformed": 6}
        assert rows["sloppy"].forfeits == 6 and rows["fine"].strikes == 0

        data = to_json(store, "gnadenlos")
        by_bot = {r["bot"]: r for r in data["standings"]}
        assert by_bot["slow"]["strike_reasons"] == {"timeout": 12} and by_bot["sloppy"]["forfeits"] == 6
        assert len(data["pairs"]["adjacent"]) == 2
        assert {"verdict", "shared_sets", "score_low", "score_high", "more_matches"} <= set(data["pairs"]["adjacent"][0])

        console = Console(width=150, record=True)
        console.print(standings_table(standings(store, "gnadenlos"), "t"))
        text = console.export_text()
        assert "12t" in text and "6t 6i 6m" in text


def test_strikes_stored_before_their_reasons_are_read_back_from_the_records(tmp_path: Path) -> None:
    # a version-1 store with a struck seat and its record, as an older ladder left it
    data = tmp_path / "data"
    (data / "records").mkdir(parents=True)
    footer = {"type": "footer", "strikes": [[{"reason": "timeout", "detail": "", "decision": 4}], []]}
    (data / "records" / "m1.jsonl").write_text('{"type": "header"}\n' + json.dumps(footer) + "\n")
    conn = sqlite3.connect(data / "ladder.sqlite", isolation_level=None)
    MIGRATIONS[0](conn)
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    conn.execute("INSERT INTO schema_version VALUES (1)")
    for name in ("x", "y"):
        conn.execute("INSERT INTO bots (name, version, content_hash, kind, command, games, created_at)"
                     " VALUES (?, 'v1', ?, 'submitted', '[]', '[\"gnadenlos\"]', 'now')", (name, name))
    conn.execute("INSERT INTO matches (match_id, game, set_id, rotation, seed, variant, num_seats, end_reason,"
                 " decisions, seconds, record_path, summary, finished_at)"
                 " VALUES ('m1', 'gnadenlos', 's', 0, 1, '{}', 2, 'goal', 9, 1.0, 'records/m1.jsonl', '{}', 'now')")
    conn.execute("INSERT INTO match_seats VALUES ('m1', 0, 1, 0, 0, NULL, 1), ('m1', 1, 2, 1, 1, NULL, 0)")
    conn.close()
    with Store(data / "ladder.sqlite") as store:
        assert store.schema_version() == len(MIGRATIONS)
        assert [r.strike_reasons for r in store.seat_rows("gnadenlos")] == [{"timeout": 1}, {}]


def test_at_80_columns_a_long_name_and_the_rating_are_never_cut(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        ids = add_bots(store, [LONG_NAME, "b", "c"])
        play(store, FakeRunner(strength={ids[0]: 5.0}, strike={ids[1]: ["timeout"]}), 9, seed=2)
        rows = standings(store, "gnadenlos")
        pairs = pair_statuses(store, "gnadenlos", rows)
        console = Console(width=80, record=True)
        console.print(standings_table(rows, "t", pairs, width=80))
        lines = console.export_text().splitlines()
        assert max(len(line) for line in lines) <= 80
        text = "\n".join(lines)
        assert LONG_NAME in text  # whole, on one line
        assert all(f"{r.conservative:.2f}" in text for r in rows)
        assert "…" not in text
        # wide enough, nothing is left out
        wide = Console(width=200, record=True)
        wide.print(standings_table(rows, "t", pairs, width=200))
        assert "last (UTC)" in wide.export_text() and "last (UTC)" not in text


def test_an_unknown_game_is_an_error_not_an_empty_table(tmp_path: Path) -> None:
    with open_store(tmp_path):
        pass
    db = str(tmp_path / "data" / "ladder.sqlite")
    result = CliRunner().invoke(cli, ["table", "--game", "chess", "--db", db])
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.output and "gnadenlos" in result.output


def test_ratings_stored_under_the_old_tau_are_recomputed(tmp_path: Path) -> None:
    from ladder.rating.ratings import MODEL, make_env, replay_ratings
    from ladder.rating.standings import RATING_MODEL_KEY

    with open_store(tmp_path) as store:
        add_bots(store, ["a", "b", "c"])
        play(store, FakeRunner(luck=1.0), 9, seed=3)
        current = store.ratings("gnadenlos")
        old = replay_ratings(make_env(tau=25 / 300), store.rated_results("gnadenlos"))
        store.replace_ratings("gnadenlos", old)  # as a store rated before tau became 0 holds them
        store.set_meta(RATING_MODEL_KEY, "trueskill tau=0.0833333")
        assert {r.bot_id: (r.mu, r.sigma) for r in standings(store, "gnadenlos")} == {
            b: (s.mu, s.sigma) for b, s in current.items()}  # shown recomputed, not written
        assert store.ratings("gnadenlos") == old
        Ladder(store, InlinePool(FakeRunner()), LadderConfig(matches=1, sizes=(3,)))  # a run adopts the model
        assert store.ratings("gnadenlos") == current and store.meta(RATING_MODEL_KEY) == MODEL
