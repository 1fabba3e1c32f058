"""Leduc pairs judged hand by hand (ladder.rating.hand_evidence): each
duplicate hand a unit, chips less the hand's luck (rules L-7.5), by an
empirical-Bernstein confidence sequence."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from ladder.rating.evidence import INDISTINGUISHABLE, ORDERED, PairEvidence, kind_of, pair_key
from ladder.rating.hand_evidence import HandEvidence
from ladder.rating.score_evidence import (ScoredMatch, ScoreOutOfBounds, basis_of, deal_units, judged_deals,
                                          score_pair_evidence)
from ladder.rating.stopping import DEFAULT_CONFIDENCE, DEFAULT_MARGIN
from ladder.reporting.render import versus_report
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder_support import ChipRunner, add_bots, open_store
from referee.games.leduc.hands import judged_swing

ALPHA = 1 - DEFAULT_CONFIDENCE


def run(tmp_path: Path, runner: ChipRunner, **config: object) -> tuple[Ladder, tuple[int, int]]:
    with open_store(tmp_path) as store:
        a, b = add_bots(store, ["a", "b"], game="leduc")
        runner.edge = {a: runner.edge.get(0, 0.0)}
        ladder = Ladder(store, InlinePool(runner), LadderConfig(game="leduc", sizes=(2,), **config))  # type: ignore[arg-type]
        ladder.run()
    return ladder, (a, b)


def test_the_interval_holds_the_mean_at_every_look_at_the_stated_rate() -> None:
    """Known truths: units from a skewed distribution on [0, 1] with mean
    0.53, in sets of 100; over 300 sequences of 40 sets the interval,
    looked at after every set, ever misses the mean in at most alpha of
    them (a binomial allowance of three standard deviations)."""
    values, weights = (0.0, 0.5, 0.52, 1.0), (0.02, 0.45, 0.5, 0.03)
    mean = sum(v * w for v, w in zip(values, weights))
    rng = random.Random(1)
    missed = narrowed = 0
    for _ in range(300):
        evidence = HandEvidence(ALPHA)
        ever = False
        for _ in range(40):
            evidence.add_set(rng.choices(values, weights, k=100))
            ever |= not evidence.low <= mean <= evidence.high
        missed += ever
        narrowed += evidence.high - evidence.low < 0.05
    assert narrowed == 300, "the sequence must narrow for the test to mean anything"
    assert missed <= 300 * ALPHA + 3 * (300 * ALPHA * (1 - ALPHA)) ** 0.5


def test_the_other_bots_view_mirrors_the_interval() -> None:
    rng = random.Random(2)
    evidence = HandEvidence(ALPHA)
    for _ in range(5):
        evidence.add_set([min(1.0, max(0.0, rng.gauss(0.52, 0.05))) for _ in range(100)])
    other = evidence.flipped()
    assert other.low == pytest.approx(1 - evidence.high) and other.high == pytest.approx(1 - evidence.low)
    assert other.mean == pytest.approx(1 - evidence.mean) and other.n == evidence.n == 5
    assert other.scores == pytest.approx([1 - s for s in evidence.scores])


def test_hands_follow_their_spread_where_whole_sets_are_held_to_the_bound() -> None:
    """The same sets, a pair 1 chip a hand apart with a hand's spread of 3
    chips (scaled by the bound): the betting sequence on whole sets, whose
    bets the bound caps, needs over ten times the sets the hands do."""
    bound = judged_swing(2)
    rng = random.Random(3)
    hands, whole = HandEvidence(ALPHA), PairEvidence(ALPHA, grid=2 * 3200)
    settled = {}
    for n in range(1, 2001):
        units = [0.5 + rng.gauss(1.0, 3.0) / (2 * bound) for _ in range(100)]
        hands.add_set(units)
        whole.add(sum(units) / 100)
        for name, evidence in (("hands", hands), ("whole", whole)):
            if name not in settled and kind_of(evidence, DEFAULT_MARGIN / 10) == ORDERED:
                settled[name] = n
        if len(settled) == 2:
            break
    assert settled["hands"] <= 8 and settled["whole"] >= 10 * settled["hands"], settled


def test_a_projection_is_of_the_right_size() -> None:
    """more_sets after 2 sets of a pair that then needs N more: within a factor of 3 of N."""
    rng = random.Random(4)
    evidence = HandEvidence(ALPHA)
    for _ in range(2):
        evidence.add_set([0.5 + rng.gauss(0.004, 0.05) for _ in range(100)])
    projected = evidence.more_sets(0.0)
    taken = 0
    while kind_of(evidence, 0.0) != ORDERED and taken < 10_000:
        evidence.add_set([0.5 + rng.gauss(0.004, 0.05) for _ in range(100)])
        taken += 1
    assert taken / 3 <= projected <= 3 * taken, (projected, taken)


def test_a_units_difference_is_the_seats_chips_less_luck_from_both_rotations() -> None:
    summary = {"hands": 2, "scores": [3.0, -3.0], "deal_scores": [[5.0, -5.0], [-2.0, 2.0]],
               "deal_luck": [[4.0, -4.0], [0.5, -0.5]]}
    judged = judged_deals(summary, 2, 2)
    assert judged is not None and judged.tolist() == [[1.0, -1.0], [-2.5, 2.5]]
    assert judged_deals({**summary, "deal_luck": [[1.0]]}, 2, 2) is None  # malformed: the set enters whole
    assert judged_deals({**summary, "deal_scores": [[1.0, "x"], [0.0, 0.0]]}, 2, 2) is None
    assert judged_deals({"hands": 2, "scores": [3.0, -3.0]}, 2, 2) is None  # a record before L-7.5
    other = np.array([[0.5, -0.5], [1.5, -1.5]])  # the second rotation, bot 2 in seat 0
    matches = [ScoredMatch((1, 2), (3.0, -3.0), 2, judged), ScoredMatch((2, 1), (2.0, -2.0), 2, other)]
    bound = judged_swing(2)
    # bot 1 less bot 2, hand 1: +2 in the first rotation, -1 in the second; hand 2: -5, then -3
    units = deal_units(1, 2, matches, judged_swing)
    assert units == pytest.approx([0.5 + 0.5 / (2 * bound), 0.5 - 4.0 / (2 * bound)])
    forged = [ScoredMatch((1, 2), (0.0, 0.0), 2, np.array([[16.0, -16.0], [0.0, 0.0]]))]
    with pytest.raises(ScoreOutOfBounds, match="beyond the bound"):
        deal_units(1, 2, forged, judged_swing)


def test_the_ladder_settles_by_hands_in_a_fraction_of_the_matches_whole_sets_take(tmp_path: Path) -> None:
    """ChipRunner: a edges b by 1 chip a hand (difference), each hand with
    its own luck. With each hand's chips in the records the pair is ordered
    after a few sets; records that keep only the match's chips (before
    L-7.5) enter whole, still ordered, at a far higher cost."""
    sizes = dict(least_luck=1.0, most_luck=2.0, noise=1.5, edge={0: 0.5})
    by_hands, (a, b) = run(tmp_path / "hands", ChipRunner(**sizes), matches=2000, until_stable=True, seed=7)
    whole, _ = run(tmp_path / "whole", ChipRunner(per_hand=False, **sizes), matches=2000, until_stable=True, seed=7)
    for ladder in (by_hands, whole):
        (pair,) = ladder.status.pairs
        assert ladder.status.stable and pair.basis == "chips" and pair.settled
        assert (pair.upper == a) == (pair.verdict.kind == ORDERED)  # the chips say a, whichever row is upper
    assert by_hands.status.played <= 20 and whole.status.played >= 20 * by_hands.status.played, (
        by_hands.status.played, whole.status.played)


def test_taking_the_luck_out_settles_a_close_pair_sooner(tmp_path: Path) -> None:
    """Luck the duplicate hands do not cancel (3 chips a hand that differ
    between the rotations, the public card after different bets), which the
    referee reports with each hand: with it taken out the pair needs fewer
    matches, with the same verdict."""
    sizes = dict(least_luck=1.0, most_luck=2.0, noise=1.5, unshared=4.0, edge={0: 0.1})
    played = {}
    for told in (True, False):
        ladder, (a, _) = run(tmp_path / str(told), ChipRunner(luck_told=told, **sizes), matches=3000,
                             until_stable=True, seed=8)
        (pair,) = ladder.status.pairs
        assert ladder.status.stable and (pair.upper == a) == (pair.verdict.kind == ORDERED)
        played[told] = ladder.status.played
    assert played[True] * 1.5 <= played[False], played


def test_an_even_pair_is_indistinguishable_by_its_hands(tmp_path: Path) -> None:
    ladder, (a, b) = run(tmp_path, ChipRunner(least_luck=1.0, most_luck=2.0, noise=0.5), matches=2000,
                         until_stable=True, seed=9)
    (pair,) = ladder.status.pairs
    assert ladder.status.stable and pair.verdict.kind == INDISTINGUISHABLE
    with open_store(tmp_path) as store:
        basis = basis_of("leduc", DEFAULT_MARGIN)
        evidence = score_pair_evidence(store, "leduc", basis, DEFAULT_CONFIDENCE)[pair_key(a, b)]
    assert isinstance(evidence, HandEvidence) and evidence.units == 100 * evidence.n
    assert -10 <= basis.rate(evidence.low) and basis.rate(evidence.high) <= 10


@pytest.mark.parametrize(("edge", "verdict", "most"), [(0.5, "H1", 20), (0.0, "H0", 200)])
def test_versus_by_chips_decides_from_the_hands_interval(tmp_path: Path, edge: float, verdict: str, most: int) -> None:
    """--versus by chips: H1 once the hands' interval lies above 0, H0 once
    it lies below the +10 chips per 100 hands H1 claims (each at most
    min(alpha, beta) wrong); the report shows the interval."""
    with open_store(tmp_path) as store:
        new, old = add_bots(store, ["new", "old"], game="leduc")
        runner = ChipRunner(edge={new: edge}, least_luck=1.0, most_luck=2.0, noise=0.5)
        ladder = Ladder(store, InlinePool(runner), LadderConfig(game="leduc", sizes=(2,), matches=400, versus=(new, old),
                                                                seed=10))
        ladder.run()
    versus = ladder.status.versus
    assert versus is not None and versus.basis == "chips" and versus.verdict == verdict
    assert versus.interval is not None and ladder.status.played <= most, ladder.status.played
    low, high = versus.interval
    assert (low >= 0) if verdict == "H1" else (high <= 10 and low > -10)
    text = versus_report(versus, {new: "new", old: "old"}, 2).plain
    assert f"({verdict} accepted)" in text and "hand by hand" in text and f"[{low:+.1f}, {high:+.1f}] at 90%" in text


def test_versus_by_chips_says_what_an_undecided_pair_still_needs(tmp_path: Path) -> None:
    """A budget spent before the interval decides: no verdict, and the
    report estimates the sets that would narrow it enough."""
    with open_store(tmp_path) as store:
        new, old = add_bots(store, ["new", "old"], game="leduc")
        runner = ChipRunner(edge={new: 0.05}, least_luck=1.0, most_luck=2.0, noise=2.0)
        ladder = Ladder(store, InlinePool(runner), LadderConfig(game="leduc", sizes=(2,), matches=4, versus=(new, old),
                                                                seed=11))
        ladder.run()
    versus = ladder.status.versus
    assert versus is not None and versus.verdict is None and versus.more_sets is not None and versus.more_sets > 1
    text = versus_report(versus, {new: "new", old: "old"}, 2).plain
    assert "the budget ran out" in text and f"about {versus.more_sets} more shared sets" in text
