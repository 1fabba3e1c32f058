"""The Saboteur ladder: tables of 3 to 10 bots, duplicate deals with seat
rotation at every size, ratings kept per game, and the rule that a table
needs as many different bots as seats.

The fast tests use the fake runner; the slow one plays real bot processes
through `referee submit`, `referee ladder --game saboteur` and
`referee table --game saboteur --json`.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ladder.running.dispatch import InlinePool
from ladder.scheduling.matchmaking import BotStats, balanced_seating
from ladder.scheduling.scheduler import Ladder, LadderConfig, LadderError
from ladder.store.database import Store
from ladder_support import RANDOM_BOT_SOURCE, FakeRunner, add_bots, install_bot, open_store, random_bot_folder
from referee.cli.main import cli

NAMES = [f"bot{i}" for i in range(10)]


def ladder_run(store: Store, runner: FakeRunner, warnings: list[str] | None = None, **config: object) -> Ladder:
    ladder = Ladder(store, InlinePool(runner), LadderConfig(game="saboteur", **config),  # type: ignore[arg-type]
                    on_warning=None if warnings is None else warnings.append)
    ladder.run()
    return ladder


def test_a_ten_player_duplicate_set_plays_one_deal_in_all_ten_rotations(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        ids = add_bots(store, NAMES, game="saboteur")
        runner = FakeRunner()
        ladder_run(store, runner, matches=10, sizes=(10,), seed=1)
        matches = store.matches("saboteur")
        assert len(matches) == 10 and len({m["set_id"] for m in matches}) == 1
        assert len({m["seed"] for m in matches}) == 1
        assert sorted(m["rotation"] for m in matches) == list(range(10))
        for seat in range(10):  # every bot played every seat (and with it every hand and role) once
            assert sorted(t.bot_ids[seat] for t in runner.played) == sorted(ids)
        assert store.planned("saboteur") == []


def test_the_seating_is_the_least_loaded_of_all_seatings() -> None:
    rng = random.Random(8)
    for size in (3, 5, 7):
        bots = rng.sample(range(100), size)
        counts = {(b, s): rng.randrange(4) for b in bots for s in range(size)}
        stats = {b: BotStats(seat_counts={(size, s): counts[(b, s)] for s in range(size)}) for b in bots}

        def load(order: Sequence[int]) -> int:
            return sum(counts[(b, s)] for s, b in enumerate(order))

        seating = balanced_seating(bots, stats)
        assert sorted(seating) == sorted(bots)
        assert load(seating) == min(load(p) for p in itertools.permutations(bots))


def test_without_duplicates_ten_seats_are_balanced_quickly(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        ids = add_bots(store, NAMES, game="saboteur")
        ladder_run(store, FakeRunner(), matches=30, sizes=(10,), duplicate=False, seed=2)
        seats = Counter((r.bot_id, r.seat) for r in store.seat_rows("saboteur"))
        for bot in ids:
            counts = [seats[(bot, seat)] for seat in range(10)]
            assert max(counts) - min(counts) <= 1, counts


def test_sizes_the_roster_cannot_fill_are_skipped_with_one_warning(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        add_bots(store, NAMES[:4], game="saboteur")
        warnings: list[str] = []
        ladder = ladder_run(store, FakeRunner(), warnings, matches=20, sizes=(3, 4, 5, 6), seed=3)
        assert len(warnings) == 1
        assert "tables of 5 and 6 players are skipped" in warnings[0] and "referee submit" in warnings[0]
        assert set(ladder.status.sizes) == {3, 4}
        assert ladder.status.played == 20


def test_no_size_the_roster_can_fill_is_an_error(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        add_bots(store, NAMES[:4], game="saboteur")
        with pytest.raises(LadderError, match="tables of 5 and 6 players need as many different bots"):
            ladder_run(store, FakeRunner(), matches=5, sizes=(5, 6), seed=4)
        assert store.match_count() == 0 and store.planned("saboteur") == []


def test_the_cli_refuses_a_saboteur_ladder_it_cannot_seat_in_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "data" / "ladder.sqlite")
    result = CliRunner().invoke(cli, ["ladder", "--game", "saboteur", "--players", "8-10", "--db", db])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and result.output.startswith("Error: ")
    assert "Saboteur tables of 8, 9 and 10 players need as many different bots" in result.output
    assert "has 4 bots" in result.output  # the built-in roster joined the saboteur ladder


def referee(*args: str) -> Result:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def gnadenlos_only_folder(path: Path) -> Path:
    """A random bot whose handshake names only Gnadenlos!, with a manifest
    that claims Saboteur too."""
    path.mkdir()
    source = RANDOM_BOT_SOURCE.replace('version = "1"', 'version = "1"\n    games = ("gnadenlos",)')
    (path / "bot.py").write_text(source)
    (path / "bot.toml").write_text('command = "python bot.py"\ngames = ["gnadenlos", "saboteur"]\n')
    return path


@pytest.mark.slow
def test_a_saboteur_ladder_of_real_bots_from_three_to_ten_seats(tmp_path: Path) -> None:
    db_path = tmp_path / "data" / "ladder.sqlite"
    db = str(db_path)
    both = ("gnadenlos", "saboteur")
    # A submission is validated on every game its bot.toml lists ...
    out = referee("submit", str(random_bot_folder(tmp_path / "src" / "b0", both)), "--name", "b0",
                  "--move-time", "1", "--db", db).output
    assert "registered b0 version v1 for gnadenlos, saboteur" in out
    refused = CliRunner().invoke(cli, ["submit", str(gnadenlos_only_folder(tmp_path / "src" / "liar")),
                                       "--name", "liar", "--db", db])
    assert refused.exit_code == 1 and "not saboteur; list saboteur in its handshake" in refused.output
    # ... and identical content under another name is a bot of its own, said so.
    out = referee("submit", str(tmp_path / "src" / "b0"), "--name", "b0-twin", "--game", "saboteur",
                  "--move-time", "1", "--db", db).output
    assert "registered b0-twin version v1 for saboteur" in out and "identical to b0@v1" in out
    with Store(db_path) as store:
        for name in NAMES[1:3]:
            install_bot(store, random_bot_folder(tmp_path / "src" / name, both), name)

    referee("ladder", "--game", "gnadenlos", "--no-builtins", "--players", "3", "--matches", "3", "--workers", "2",
            "--move-time", "1", "--seed", "5", "--db", db)
    gnadenlos_before = json.loads(referee("table", "--json", "--db", db).output)

    # Four Saboteur bots: a 5-player table cannot be seated, 3 and 4 can.
    out = referee("ladder", "--game", "saboteur", "--no-builtins", "--players", "3-5", "--matches", "7",
                  "--workers", "2", "--move-time", "1", "--seed", "6", "--db", db).output
    assert "warning: Saboteur tables of 5 players are skipped" in out
    assert "played 7 matches (3-player: 3, 4-player: 4)" in out
    # Ten of them: a 10-player table, whose duplicate set is planned whole.
    with Store(db_path) as store:
        for name in NAMES[3:]:
            install_bot(store, random_bot_folder(tmp_path / "src" / name, ("saboteur",)), name)
    out = referee("ladder", "--game", "saboteur", "--no-builtins", "--players", "10", "--matches", "2",
                  "--workers", "2", "--move-time", "1", "--seed", "7", "--db", db).output
    assert "played 2 matches (10-player: 2)" in out and "warning" not in out

    with Store(db_path) as store:
        matches = store.matches("saboteur")
        seatings: dict[str, dict[int, int]] = defaultdict(dict)
        for row in store.seat_rows("saboteur"):
            seatings[row.match_id][row.seat] = row.bot_id
        by_set: dict[str, list[tuple[int, int, tuple[int, ...]]]] = defaultdict(list)
        for m in matches:
            seating = tuple(seatings[m["match_id"]][s] for s in range(m["num_seats"]))
            by_set[m["set_id"]].append((m["rotation"], m["seed"], seating))
        for p in store.planned("saboteur"):
            by_set[p["set_id"]].append((p["rotation"], p["seed"], tuple(p["bot_ids"])))
        assert sorted(len(s) for s in by_set.values()) == [3, 4, 10]
        for rotations in by_set.values():  # one deal, every rotation, every bot in every seat once
            size = len(rotations[0][2])
            assert len(rotations) == size and len({seed for _, seed, _ in rotations}) == 1
            assert sorted(r for r, _, _ in rotations) == list(range(size))
            for seat in range(size):
                assert sorted(s[seat] for _, _, s in rotations) == sorted(rotations[0][2])
        assert len(store.planned("saboteur")) == 8  # the 10-player set's remaining rotations
        records = [Path(m["record_path"]) for m in matches if m["num_seats"] == 10]
    assert len(records) == 2
    assert "verified" in referee("replay", str(records[0]), "--verify").output

    table = json.loads(referee("table", "--game", "saboteur", "--json", "--seats", "--db", db).output)
    assert table["game"] == "saboteur" and table["matches"] == 9
    rows = {r["bot"]: r for r in table["standings"]}
    assert set(rows) == {"b0", "b0-twin", *NAMES[1:]}
    assert sum(r["matches"] for r in rows.values()) == 3 * 3 + 4 * 4 + 2 * 10
    assert set(table["seats"]) == {"3", "4", "10"}
    assert [s["seat"] for s in table["seats"]["10"]] == list(range(10))
    assert sum(s["matches"] for s in table["seats"]["10"]) == 20
    # Ratings are per game: the Saboteur ladder left Gnadenlos!'s untouched.
    assert json.loads(referee("table", "--json", "--db", db).output) == gnadenlos_before
    gnadenlos_b0 = next(r for r in gnadenlos_before["standings"] if r["bot"] == "b0")
    assert gnadenlos_b0["matches"] == 3 and rows["b0"]["matches"] >= 3
    assert (gnadenlos_b0["mu"], gnadenlos_b0["sigma"]) != (rows["b0"]["mu"], rows["b0"]["sigma"])
    assert "identical to the stored ones" in referee("ladder", "--game", "saboteur", "--recompute", "--db", db).output
