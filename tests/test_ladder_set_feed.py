"""The evidence a ladder keeps between looks (ladder.rating.set_feed): each
look reads only what is new, and the evidence is exactly what a reading of
the whole store gives, whatever the order the sets finish in."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import pytest

from ladder.rating.control_variate import corrected_pair_evidence
from ladder.rating.evidence import Evidence
from ladder.rating.score_evidence import score_pair_evidence
from ladder.rating.set_feed import KeptEvidence, SetFeed, StoredMatch, whole_store
from ladder.rating.standings import pair_evidence
from ladder.rating.stopping import DEFAULT_CONFIDENCE, adjacent_pairs
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig, RunStatus
from ladder.store.database import Store
from ladder_support import ChipRunner, FakeRunner, add_bots, open_store


class Plans:
    """A store as a feed sees it besides its reader: the sets still planned."""

    def __init__(self, *pending: str) -> None:
        self.pending = set(pending)

    def planned(self, game: str, rule_set: str = "") -> list[dict[str, Any]]:
        return [{"set_id": s} for s in sorted(self.pending)]


def stored(*matches: tuple[str, str, int]) -> list[StoredMatch[str]]:
    """(match, set, seq) as matches whose item is the match's name."""
    return [StoredMatch(set_id, seq, name) for name, set_id, seq in matches]


def reader(matches: list[StoredMatch[str]]):  # type: ignore[no-untyped-def]
    def read(store: Store, game: str, rule_set: str, after: int) -> list[StoredMatch[str]]:
        return [m for m in matches if m.seq > after]
    return read


class Sets:
    """A collector that keeps the sets it was given, in order."""

    def __init__(self) -> None:
        self.sets: list[list[str]] = []

    def add_set(self, matches: Sequence[str]) -> None:
        self.sets.append(list(matches))

    def evidence(self) -> Mapping[tuple[int, int], Evidence]:
        return {}


def test_a_set_is_handed_out_once_it_is_whole_in_the_order_it_finished() -> None:
    played = stored(("a0", "a", 1), ("b0", "b", 2), ("a1", "a", 3))
    assert whole_store(cast(Store, Plans()), "g", "", reader(played)) == [["b0"], ["a0", "a1"]]  # b finished first
    feed = SetFeed("g", "", reader(played))
    plans = Plans("a")
    assert feed.take(cast(Store, plans)) == [["b0"]]
    assert feed.take(cast(Store, plans)) == []
    plans.pending.clear()
    assert feed.take(cast(Store, plans)) == [["a0", "a1"]]
    assert feed.take(cast(Store, plans)) == []


def test_a_set_with_a_match_the_evidence_cannot_read_is_left_out_whole() -> None:
    played = [StoredMatch("a", 1, "a0"), StoredMatch[str]("a", 2, None), StoredMatch("b", 3, "b0")]
    assert whole_store(cast(Store, Plans()), "g", "", reader(played)) == [["b0"]]


@pytest.mark.parametrize("late", [("a", 1), ("b", 3)],
                         ids=["a set ends before one handed out", "a handed-out set grows"])
def test_where_the_store_would_order_the_sets_otherwise_the_evidence_is_built_anew(late: tuple[str, int]) -> None:
    """A set whose last rotations were dropped ends without a new match,
    before sets already handed out; a match stored for a set already handed
    out changes it: the feed says so, and the kept evidence starts over
    from the whole store."""
    played = stored(("a0", "a", 1), ("b0", "b", 2))
    plans = Plans("a")
    kept = KeptEvidence("g", "", reader(played), Sets)
    kept.current(cast(Store, plans))
    assert cast(Sets, kept.collector).sets == [["b0"]]
    set_id, seq = late
    if set_id == "a":
        plans.pending.clear()
    else:
        played.append(StoredMatch("b", seq, "b1"))
    assert SetFeed("g", "", reader(played)).take(cast(Store, plans)) is not None
    fed_before = kept.feed
    kept.current(cast(Store, plans))
    assert kept.feed is not fed_before, "a new feed"
    assert cast(Sets, kept.collector).sets == whole_store(cast(Store, plans), "g", "", reader(played))


def verdicts_checked(ladder: Ladder, full: Callable[[Store], Mapping[tuple[int, int], Evidence]]) -> list[int]:
    """Run `ladder`, checking its verdicts against the whole store's
    evidence (`full`) after every look; the looks checked."""
    basis = ladder.basis()
    looks: list[int] = []

    def check(status: RunStatus) -> None:
        if not status.pairs:
            return
        ranking = [p.upper for p in status.pairs] + [status.pairs[-1].lower]
        expected = adjacent_pairs(ranking, full(ladder.store), confidence=DEFAULT_CONFIDENCE, margin=basis.margin,
                                  basis=basis.name, empty=basis.evidence(1 - DEFAULT_CONFIDENCE))
        assert status.pairs == expected
        looks.append(status.played)

    ladder.on_update = check
    ladder.run()
    return looks


def test_the_kept_evidence_by_places_is_the_whole_stores_after_every_match(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        ids = add_bots(store, ["a", "b", "c", "d", "e"])
        runner = FakeRunner(strength=dict(zip(ids, [0.0, 0.1, 0.2, 0.6, 0.7])))
        config = LadderConfig(game="gnadenlos", sizes=(4,), matches=60, until_stable=True, seed=5)
        looks = verdicts_checked(Ladder(store, InlinePool(runner), config),
                                 lambda s: pair_evidence(s, "gnadenlos", DEFAULT_CONFIDENCE))
    assert len(looks) >= 40, f"checked after {len(looks)} looks"


def test_the_kept_evidence_by_chips_is_the_whole_stores_after_every_match(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        ids = add_bots(store, ["a", "b", "c"], game="leduc")
        runner = ChipRunner(edge=dict(zip(ids, [0.0, 0.05, 1.0])))
        ladder = Ladder(store, InlinePool(runner), LadderConfig(game="leduc", sizes=(2,), matches=40,
                                                                until_stable=True, seed=5))
        basis = ladder.basis()
        looks = verdicts_checked(ladder, lambda s: score_pair_evidence(s, "leduc", basis, DEFAULT_CONFIDENCE))
    assert len(looks) >= 10, f"checked after {len(looks)} looks"


def test_the_kept_corrected_evidence_is_the_whole_stores_after_every_match(tmp_path: Path) -> None:
    """Places corrected by the reference, at single heads-up hands (where the
    ladder corrects them)."""
    with open_store(tmp_path) as store:
        ids = add_bots(store, ["a", "b", "c"], game="leduc")
        runner = FakeRunner(strength=dict(zip(ids, [0.0, 0.3, 1.2])))
        config = LadderConfig(game="leduc", sizes=(2,), matches=30, until_stable=True, seed=5, duplicate=False,
                              by_score=False)
        looks = verdicts_checked(Ladder(store, InlinePool(runner), config),
                                 lambda s: corrected_pair_evidence(s, "leduc", DEFAULT_CONFIDENCE))
    assert len(looks) >= 10, f"checked after {len(looks)} looks"
