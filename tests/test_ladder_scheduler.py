"""The ladder run with a fake match runner: duplicate deals, seat rotation,
table sizes, fault attribution, resuming and recomputing."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

from ladder.rating.standings import standings
from ladder.running.dispatch import InlinePool
from ladder.scheduling.matchmaking import rotations
from ladder.scheduling.scheduler import Ladder, LadderConfig, recompute
from ladder.store.database import Store
from ladder_support import FakeRunner, add_bots, open_store


def run(store: Store, runner: FakeRunner, **config: object) -> Ladder:
    ladder = Ladder(store, InlinePool(runner), LadderConfig(**config))  # type: ignore[arg-type]
    ladder.run()
    return ladder


def test_rotations_put_every_bot_in_every_seat_once() -> None:
    sets = rotations((10, 20, 30, 40))
    assert len(sets) == 4
    for seat in range(4):
        assert sorted(r[seat] for r in sets) == [10, 20, 30, 40]


def test_a_duplicate_set_shares_its_deal_and_covers_every_rotation(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        add_bots(store, ["a", "b", "c", "d", "e"])
        runner = FakeRunner()
        run(store, runner, matches=21, sizes=(3, 4), seed=1)
        by_set = defaultdict(list)
        for match in store.matches("gnadenlos"):
            by_set[match["set_id"]].append(match)
        seatings = {t.match_id: t.bot_ids for t in runner.played}
        complete = [s for s in by_set.values() if len(s) == s[0]["num_seats"]]
        assert {s[0]["num_seats"] for s in complete} == {3, 4}  # both table sizes occur
        for matches in complete:
            assert len({m["seed"] for m in matches}) == 1
            assert sorted(m["rotation"] for m in matches) == list(range(len(matches)))
            tables = [seatings[m["match_id"]] for m in matches]
            for seat in range(len(tables)):
                assert sorted(t[seat] for t in tables) == sorted(tables[0])


def test_without_duplicates_every_match_has_its_own_deal(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        add_bots(store, ["a", "b", "c", "d"])
        run(store, FakeRunner(), matches=12, duplicate=False, seed=2)
        matches = store.matches("gnadenlos")
        assert len(matches) == 12
        assert len({m["seed"] for m in matches}) == 12


def test_seats_are_balanced_over_many_matches(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        ids = add_bots(store, ["a", "b", "c", "d"])
        run(store, FakeRunner(), matches=40, sizes=(4,), duplicate=False, seed=3)
        seats = Counter((r.bot_id, r.seat) for r in store.seat_rows("gnadenlos"))
        for bot in ids:
            counts = [seats[(bot, seat)] for seat in range(4)]
            assert max(counts) - min(counts) <= 2, counts


def test_the_strongest_bot_tops_the_table_and_ratings_equal_a_recompute(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        ids = add_bots(store, ["weak", "mid", "strong", "best"])
        runner = FakeRunner(strength=dict(zip(ids, [0.0, 1.0, 2.0, 3.0])), luck=1.5)
        run(store, runner, matches=60, seed=4)
        assert [r.bot for r in standings(store, "gnadenlos")] == ["best", "strong", "mid", "weak"]
        equal, _ = recompute(store, "gnadenlos")
        assert equal


def test_until_stable_stops_once_every_adjacent_pair_is_ordered_or_indistinguishable(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        ids = add_bots(store, ["a", "b", "c", "twin"])
        # twin plays exactly like a: no skill between them, only luck
        runner = FakeRunner(strength=dict(zip(ids, [0.0, 5.0, 10.0, 0.0])), luck=0.1)
        ladder = run(store, runner, matches=3000, until_stable=True, sizes=(3,), margin=0.3, seed=5)
        assert ladder.status.stable
        assert ladder.status.played < 3000
        kinds = {(p.upper, p.lower): p.verdict.kind for p in ladder.status.pairs}
        assert kinds[(ids[2], ids[1])] == "ordered"
        assert set(kinds.values()) == {"ordered", "indistinguishable"}
        assert [r.bot for r in standings(store, "gnadenlos")][:2] == ["c", "b"]


def test_until_stable_seats_the_unsettled_pair_together(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        ids = add_bots(store, ["a", "b", "c", "d", "e"])
        runner = FakeRunner(strength=dict(zip(ids, [0.0, 10.0, 20.0, 30.0, 30.0])), luck=0.1)
        ladder = run(store, runner, matches=90, until_stable=True, sizes=(3,), margin=0.3, seed=6)
        late = runner.played[-30:]  # once the clear pairs are settled, mostly the twins are open
        together = sum({ids[3], ids[4]} <= set(t.bot_ids) for t in late)
        assert together >= 24, together  # a table of 3 of these 5 bots seats a given pair 30% of the time
        assert not ladder.status.stable


def test_a_spent_budget_leaves_open_pairs_with_an_estimate(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        add_bots(store, ["a", "b", "c"])
        ladder = run(store, FakeRunner(luck=1.0), matches=6, until_stable=True, sizes=(3,), seed=7)
        assert not ladder.status.stable
        open_pairs = [p for p in ladder.status.pairs if not p.settled]
        assert open_pairs and all(p.verdict.more_sets and p.verdict.more_sets > 0 for p in open_pairs)


def test_versus_seats_both_bots_at_every_table_until_the_sprt_decides(tmp_path: Path) -> None:
    from ladder.rating.sprt import Sprt

    with open_store(tmp_path) as store:
        ids = add_bots(store, ["new", "old", "x", "y", "z"])
        runner = FakeRunner(strength=dict(zip(ids, [2.0, 0.0, 1.0, 1.5, 0.5])), luck=1.0)
        ladder = run(store, runner, matches=2000, versus=(ids[0], ids[1]), sprt=Sprt(margin=0.1), sizes=(3, 4),
                     seed=8)
        versus = ladder.status.versus
        assert versus is not None and versus.verdict == "H1" and versus.mean > 0.5
        assert ladder.status.played < 2000
        assert all({ids[0], ids[1]} <= set(t.bot_ids) for t in runner.played)
        assert {b for t in runner.played for b in t.bot_ids} == set(ids)  # the rest of the roster fills in


def test_a_failure_that_is_not_a_bots_is_retried_and_never_rated(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        add_bots(store, ["a", "b", "c"])
        runner = FakeRunner()
        ladder = Ladder(store, InlinePool(runner), LadderConfig(matches=3, sizes=(3,), seed=6))
        ladder.plan_next()
        target = ladder.queue[0].match_id
        runner.failures[target] = ["referee_error", "worker_crash"]
        ladder.run()
        attempts = [t.attempt for t in runner.played if t.match_id == target]
        assert attempts == [1, 2, 3]
        assert [(f["kind"], f["attempt"]) for f in store.failures()] == [("referee_error", 1), ("worker_crash", 2)]
        assert store.match_count() == 3  # the retried match was rated once, when it finally played
        assert recompute(store, "gnadenlos")[0]


def test_a_match_that_keeps_failing_is_abandoned_unrated(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        add_bots(store, ["a", "b", "c"])
        runner = FakeRunner()
        ladder = Ladder(store, InlinePool(runner), LadderConfig(matches=3, sizes=(3,), seed=7))
        ladder.plan_next()
        target = ladder.queue[0].match_id
        runner.failures[target] = ["resources"] * 3
        status = ladder.run()
        assert status.abandoned == 1
        assert not store.has_match(target)
        assert store.match_count() == 2
        assert store.planned("gnadenlos") == []


def test_a_bots_own_failure_is_its_rated_forfeit(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        ids = add_bots(store, ["crasher", "b", "c"])
        runner = FakeRunner(strength={ids[0]: 100.0}, forfeit={ids[0]})
        run(store, runner, matches=6, sizes=(3,), seed=8)
        rows = [r for r in store.seat_rows("gnadenlos") if r.bot_id == ids[0]]
        assert len(rows) == 6
        assert all(r.forfeit == "crashed" and r.place == 2 for r in rows)
        assert standings(store, "gnadenlos")[-1].bot == "crasher"


def test_a_restarted_ladder_first_plays_what_was_left_planned(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        add_bots(store, ["a", "b", "c", "d"])
        run(store, FakeRunner(), matches=2, sizes=(4,), seed=9)  # stops inside a 4-match set
        left = [p["match_id"] for p in store.planned("gnadenlos")]
        assert len(left) == 2
        runner = FakeRunner()
        run(store, runner, matches=2, sizes=(4,), seed=10)
        assert [t.match_id for t in runner.played] == left
        assert store.planned("gnadenlos") == []
        assert store.match_count() == 4
        assert len({m["set_id"] for m in store.matches("gnadenlos")}) == 1

