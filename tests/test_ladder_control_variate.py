"""The reference's correction of the pairs' scores (ladder.rating.control_variate):
unbiased, shown by simulation with known truths, and lower in spread when the
reference's results follow the bots'.

The simulated game: a deal gives every seat a luck L_s ~ N(0, LUCK) (drawn
from the deal's seed alone, as a real engine's chance streams are); a bot of
skill k in seat s scores k + L_s + N(0, NOISE) in a match, its own noise;
places follow the scores. The reference is the same game played by equal
bots: its places follow L_s + N(0, REFERENCE_NOISE) on the same deal. Then
a bot a of skill k_a in seat 0 finishes ahead of b in seat 1 with
probability mu = Phi((k_a - k_b) / sqrt(2 LUCK^2 + 2 NOISE^2)), the truth.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pytest

from ladder.rating.control_variate import (
    MIN_SETS, CorrectedCollector, CorrectedPair, Deal, collect_corrected, corrected_pair_evidence, correction,
    reference_places, shadow_seeds,
)
from ladder.rating.evidence import PairEvidence, collect, pair_key, verdict_for
from ladder.rating.sprt import Sprt
from ladder.rating.standings import pair_evidence
from ladder.rating.stopping import DEFAULT_CONFIDENCE, DEFAULT_MARGIN
from ladder.running.dispatch import InlinePool
from ladder.scheduling import scheduler
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import Store
from ladder_support import FakeRunner, add_bots, open_store

LUCK = 1.0
NOISE = 0.4
SETS = 2000


def luck(deal: Deal) -> list[float]:
    rng = random.Random(f"luck-{deal.seed}")
    return [rng.gauss(0, LUCK) for _ in range(deal.seats)]


def places_of(values: Sequence[float]) -> tuple[int, ...]:
    order = sorted(range(len(values)), key=lambda s: -values[s])
    places = [0] * len(values)
    for place, seat in enumerate(order):
        places[seat] = place
    return tuple(places)


def model_reference(noise: float):  # type: ignore[no-untyped-def]
    """The reference's places on a deal: its luck plus the reference's own noise."""
    def places(deal: Deal) -> tuple[int, ...]:
        rng = random.Random(f"reference-{deal.seed}")
        return places_of([v + rng.gauss(0, noise) for v in luck(deal)])
    return places


def unrelated_reference(deal: Deal) -> tuple[int, ...]:
    """A reference that knows nothing of the deal's luck."""
    rng = random.Random(f"unrelated-{deal.seed}")
    return places_of([rng.random() for _ in range(deal.seats)])


def simulated_sets(skill_a: float, skill_b: float, count: int, seed: int) -> list[tuple[Deal, list[tuple[tuple[int, ...], tuple[int, ...]]]]]:
    """Single matches, bot 1 (skill_a) in seat 0 and bot 2 (skill_b) in seat 1."""
    rng = random.Random(seed)
    sets = []
    for _ in range(count):
        deal = Deal("model", 2, rng.getrandbits(62))
        values = [k + v + rng.gauss(0, NOISE) for k, v in zip((skill_a, skill_b), luck(deal))]
        sets.append((deal, [((1, 2), places_of(values))]))
    return sets


def truth(skill_a: float, skill_b: float) -> float:
    return NormalDist().cdf((skill_a - skill_b) / math.sqrt(2 * LUCK**2 + 2 * NOISE**2))


def scores(sets, places) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    """x and z = x - (y - y') of every set."""
    xs, zs = [], []
    for deal, [(_, ranks)] in sets:
        x = 1.0 if ranks[0] < ranks[1] else 0.5 if ranks[0] == ranks[1] else 0.0
        xs.append(x)
        zs.append(x - correction(deal, [(0, 1)], places))
    return xs, zs


@pytest.mark.parametrize(("skills", "spread_kept"), [((0.0, 0.0), 0.8), ((0.3, 0.0), 0.8), ((0.0, 0.8), 1.0)])
def test_the_corrected_mean_is_the_truth_and_spreads_less_with_a_reference_that_follows_the_luck(
        skills: tuple[float, float], spread_kept: float) -> None:
    """The lopsided pair gains less: its results follow the luck less than
    the reference's do, and the correction subtracts the reference's whole
    swing (the baseline method's coefficient 1)."""
    sets = simulated_sets(*skills, SETS, seed=28)
    xs, zs = scores(sets, model_reference(0.3))
    mu = truth(*skills)
    error = statistics.stdev(zs) / math.sqrt(len(zs))
    assert abs(statistics.fmean(zs) - mu) < 4 * error, (statistics.fmean(zs), mu, error)
    assert abs(statistics.fmean(xs) - mu) < 4 * statistics.stdev(xs) / math.sqrt(len(xs))
    ratio = statistics.variance(zs) / statistics.variance(xs)
    assert ratio < spread_kept, ratio


def test_a_reference_unrelated_to_the_luck_leaves_the_mean_alone_and_only_adds_spread() -> None:
    sets = simulated_sets(0.5, 0.0, SETS, seed=29)
    xs, zs = scores(sets, unrelated_reference)
    mu = truth(0.5, 0.0)
    assert abs(statistics.fmean(zs) - mu) < 4 * statistics.stdev(zs) / math.sqrt(len(zs))
    assert statistics.variance(zs) > statistics.variance(xs)


def test_the_corrected_evidence_holds_the_truth_in_a_narrower_interval() -> None:
    """Through the ladder's own evidence, in six runs of 600 sets: the
    corrected scores, with their wider range, give intervals that hold the
    truth as often as a 95 % sequence should (each run may miss with
    probability 5 %: one miss is allowed) and are narrower than the raw
    scores' after as many sets."""
    mu = truth(0.4, 0.0)
    held, widths, raw_widths = 0, [], []
    for seed in range(31, 37):
        sets = simulated_sets(0.4, 0.0, 600, seed=seed)
        corrected = collect_corrected(sets, 0.05, model_reference(0.2))[(1, 2)]
        raw = collect([matches for _, matches in sets], 0.05)[(1, 2)]
        assert corrected.n == raw.n == 600 and -1.0 <= corrected.least < 0.0 and corrected.most == 1 - corrected.least
        held += corrected.low < mu < corrected.high
        widths.append(corrected.high - corrected.low)
        raw_widths.append(raw.high - raw.low)
    assert held >= 5, held
    assert statistics.fmean(widths) < 0.8 * statistics.fmean(raw_widths), (widths, raw_widths)


def test_a_gambler_survives_every_score_of_the_wider_range() -> None:
    """The bets are capped by each score's range: a run of the worst scores
    for every candidate leaves each gambler's wealth above 0."""
    for worst in (-1.0, 2.0):
        evidence = PairEvidence(0.05)
        for _ in range(5):
            evidence.add(1.0 if worst < 0 else 0.0, (-1.0, 2.0))  # the bets grow one way ...
        evidence.add(worst, (-1.0, 2.0))  # ... and the range's far end comes
        assert np.isfinite(evidence.up).all() and np.isfinite(evidence.down).all()
        assert 0.0 <= evidence.low < evidence.high <= 1.0 and (evidence.least, evidence.most) == (-1.0, 2.0)


def test_the_coefficient_is_learned_from_the_sets_before_and_stays_near_0_for_an_unrelated_reference() -> None:
    rng = random.Random(5)
    following, unrelated = CorrectedPair(PairEvidence(0.05)), CorrectedPair(PairEvidence(0.05))
    for n in range(400):
        c = rng.uniform(-0.5, 0.5)
        x = min(1.0, max(0.0, 0.5 + 0.8 * c + rng.gauss(0, 0.1)))
        assert following.beta == (0.0 if n < MIN_SETS else following.beta)
        following.add(x, c)
        unrelated.add(x, rng.uniform(-0.5, 0.5))
    assert 0.7 < following.beta <= 1.0 and unrelated.beta < 0.15
    assert following.evidence.high - following.evidence.low < unrelated.evidence.high - unrelated.evidence.low


def test_the_shadow_deals_are_a_function_of_the_seed_and_differ_from_it() -> None:
    seeds = shadow_seeds(12345)
    assert seeds == shadow_seeds(12345) and len(set(seeds)) == len(seeds) and 12345 not in seeds
    assert all(0 <= s < 2**62 for s in seeds)
    assert shadow_seeds(12346) != seeds


@pytest.mark.parametrize(("game", "seats"), [("gnadenlos", 3), ("saboteur", 4), ("leduc", 2)])
def test_the_reference_replays_a_deal_the_same_way(game: str, seats: int) -> None:
    deal = Deal(game, seats, 987_654_321)
    first = reference_places(deal)
    reference_places.cache_clear()
    assert reference_places(deal) == first and len(first) == seats


def test_at_two_seats_a_duplicate_set_leaves_the_reference_nothing_to_correct() -> None:
    """Both rotations of a heads-up deal: the reference's score from seat 0
    against seat 1 and from seat 1 against seat 0 add up to 1 on every deal,
    so y = y' = 1/2 (the reason the ladder keeps the correction to single matches)."""
    corrections = [correction(Deal("leduc", 2, seed), [(0, 1), (1, 0)]) for seed in range(1, 40)]
    assert corrections == [0.0] * 39
    singles = {correction(Deal("leduc", 2, seed), [(0, 1)]) for seed in range(1, 40)}
    assert len(singles) > 1  # a single hand's correction does vary with the cards


def run(store: Store, runner: FakeRunner, **config: object) -> Ladder:
    ladder = Ladder(store, InlinePool(runner), LadderConfig(**config))  # type: ignore[arg-type]
    ladder.run()
    return ladder


@pytest.mark.parametrize(("game", "size", "duplicate", "corrects"), [
    ("leduc", 2, False, True), ("leduc", 2, True, False), ("gnadenlos", 3, False, False)])
def test_a_ladder_stops_on_corrected_scores_only_where_they_were_measured_to_help(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, size: int, duplicate: bool,
        corrects: bool) -> None:
    """Single heads-up hands: corrected; duplicate sets, or single matches
    of three seats: raw (docs/ladder.md, "Less luck per match")."""
    asked: list[str] = []

    class Corrected(CorrectedCollector):
        def __init__(self, alpha: float) -> None:
            asked.append(game)
            super().__init__(alpha)

    monkeypatch.setattr(scheduler, "CorrectedCollector", Corrected)
    with open_store(tmp_path) as store:
        ids = add_bots(store, ["a", "b", "c"], game=game)
        runner = FakeRunner(strength=dict(zip(ids, [0.0, 0.6, 1.2])), luck=1.0)
        ladder = run(store, runner, game=game, matches=12, until_stable=True, sizes=(size,),
                     duplicate=duplicate, seed=7, by_score=False)  # Leduc's places, not its chips
        expected = (corrected_pair_evidence if corrects else pair_evidence)(store, game, DEFAULT_CONFIDENCE)
        assert bool(asked) == corrects
        assert ladder.status.pairs, "the run judged its pairs"
        for pair in ladder.status.pairs:
            assert pair.verdict == verdict_for(expected, pair.upper, pair.lower, DEFAULT_MARGIN,
                                               1 - DEFAULT_CONFIDENCE)


def test_versus_on_single_hands_tests_the_corrected_scores_in_their_range(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        ids = add_bots(store, ["new", "old"], game="leduc")
        runner = FakeRunner(strength=dict(zip(ids, [3.0, 0.0])), luck=1.0)
        ladder = run(store, runner, game="leduc", matches=8, versus=(ids[0], ids[1]), sprt=Sprt(margin=0.1),
                     sizes=(2,), duplicate=False, seed=8, by_score=False)  # Leduc's places, not its chips
        versus = ladder.status.versus
        assert versus is not None and len(versus.scores) == 8
        held = corrected_pair_evidence(store, "leduc", DEFAULT_CONFIDENCE)[pair_key(ids[0], ids[1])]
        assert versus.scores == tuple(held.scores)  # new has the smaller id: its own side
        assert versus.mean == pytest.approx(held.mean)
        assert versus.bounds == (held.least, held.most)
        assert versus.llr == Sprt(margin=0.1).llr(held.scores, (held.least, held.most))
