"""Pairwise evidence and its verdicts, the SPRT, and both validated by
simulation at small sizes (ladder/scheduling/validation.py: bots of known skill)."""

from __future__ import annotations

import random
from statistics import NormalDist

import pytest

from ladder.rating.evidence import (
    INDISTINGUISHABLE,
    OPEN,
    ORDERED,
    REVERSED,
    PairEvidence,
    collect,
    judge,
    set_score,
    sets_to_settle,
)
from ladder.rating.sprt import H0, H1, Sprt
from ladder.scheduling.validation import (
    Model,
    Rule,
    run_ladder,
    run_versus,
    skills_for_scores,
    wrongly_indistinguishable,
    wrongly_ordered,
)

NEW_RULE = Rule("new", 0.0, 0.02, True)


def evidence_of(scores: list[float], alpha: float = 0.05) -> PairEvidence:
    found = PairEvidence(alpha)
    for x in scores:
        found.add(x)
    return found


def test_a_set_scores_ahead_one_tie_half_and_behind_nothing() -> None:
    # bots 1 and 2 at three rotations of one deal: ahead, tied, behind
    matches = [((1, 2, 3), (0, 1, 2)), ((2, 3, 1), (0, 1, 0)), ((3, 1, 2), (0, 2, 1))]
    assert set_score(1, 2, matches) == (1 + 0.5 + 0) / 3
    assert set_score(1, 4, matches) is None
    assert collect([matches], 0.05)[(1, 2)].scores == [0.5]


def test_verdicts_follow_the_interval() -> None:
    assert judge(evidence_of([1.0] * 40), 0.1).kind == ORDERED
    assert judge(evidence_of([0.0] * 40), 0.1).kind == REVERSED
    assert judge(evidence_of([0.5] * 200), 0.1).kind == INDISTINGUISHABLE
    few = judge(evidence_of([1.0, 0.0, 1.0]), 0.1)
    assert few.kind == OPEN and few.more_sets is not None and few.more_sets > 0


def test_the_interval_is_the_same_from_either_side() -> None:
    scores = [0.75, 0.25, 1.0, 0.5, 0.625, 0.875] * 5
    upper, lower = evidence_of(scores), evidence_of([1 - x for x in scores])
    assert abs(upper.low - (1 - lower.high)) < 1e-12 and abs(upper.high - (1 - lower.low)) < 1e-12
    assert upper.flipped().low == lower.low


def test_noisier_pairs_need_more_sets() -> None:
    quiet = evidence_of([0.5, 0.625, 0.5, 0.375, 0.5, 0.625])
    loud = evidence_of([0.0, 1.0, 0.5, 1.0, 0.0, 1.0])
    assert sets_to_settle(quiet, 0.1) < sets_to_settle(loud, 0.1)


def test_equal_bots_are_never_ordered_however_often_one_looks() -> None:
    # 40 pairs of identical bots, each looked at after every one of 300 sets:
    # an interval that is only valid at a fixed count would order a few of them.
    rng = random.Random(1)
    ordered = 0
    for _ in range(40):
        found = PairEvidence(0.05)
        for _ in range(300):
            found.add(sum(rng.random() < 0.5 for _ in range(4)) / 4)
            if judge(found, 0.1).kind in (ORDERED, REVERSED):
                ordered += 1
                break
    assert ordered <= 2  # nominal 5% of 40; the rule's guarantee holds at every look


@pytest.mark.slow
def test_the_stopping_rule_settles_a_small_roster_with_few_wrong_verdicts() -> None:
    # 3 bots: a clear leader, then two copies of one bot, at 3-player tables
    model = Model(skills_for_scores((0.8, 0.5), Model((0.0,)).spread), tie_width=0.1)
    wrong = 0
    for seed in range(20):
        run = run_ladder(model, NEW_RULE, (3,), confidence=0.95, margin=0.2, budget=3000, rng=random.Random(seed))
        assert run.settled, run
        assert run.pairs[0].kind == ORDERED and run.pairs[1].kind in (ORDERED, INDISTINGUISHABLE)
        wrong += sum(wrongly_ordered(p) or wrongly_indistinguishable(p, 0.2) for p in run.pairs)
    assert wrong <= 2  # nominal: 5% of the 40 verdicts (the copies ordered either way, alpha / 2 each)


def test_the_rule_before_could_only_stop_by_ordering_two_copies() -> None:
    # TrueSkill's posterior with tau = sigma/100, looked at after every match:
    # it stopped after a lucky start with the copies "ordered at 95%", or not at all.
    model = Model(skills_for_scores((0.8, 0.5), Model((0.0,)).spread))
    before = Rule("before", 25 / 300, 0.02, False)
    runs = [run_ladder(model, before, (3,), confidence=0.95, margin=0.2, budget=300, rng=random.Random(seed))
            for seed in range(4)]
    assert any(r.settled for r in runs)
    assert all(r.pairs[1].kind == ORDERED and wrongly_ordered(r.pairs[1]) for r in runs if r.settled)
    assert all(r.matches >= 300 for r in runs if not r.settled)


@pytest.mark.slow
def test_the_sprt_accepts_each_hypothesis_at_about_its_error_rate() -> None:
    sprt = Sprt(margin=0.1, alpha=0.05, beta=0.05)
    spread = Model((0.0,)).spread

    def verdicts(score: float, runs: int) -> list[str | None]:
        skills = (spread * NormalDist().inv_cdf(score), 0.0, 0.3, -0.5)
        model = Model(skills, tie_width=0.1)
        return [run_versus(model, 0, 1, (3,), sprt, budget=5000, rng=random.Random(i)).verdict
                for i in range(runs)]

    at_h0 = verdicts(0.5, 60)
    assert None not in at_h0 and at_h0.count(H1) <= 6  # alpha 5%: 3 expected
    at_h1 = verdicts(0.6, 60)
    assert None not in at_h1 and at_h1.count(H0) <= 6  # beta 5%
    assert verdicts(0.75, 10).count(H1) == 10


def test_an_undecided_sprt_estimates_the_sets_it_still_needs() -> None:
    from ladder.rating.sprt import sets_to_decide

    sprt = Sprt()
    heading_up = [0.75, 0.5, 0.25, 1.0, 0.5, 0.75] * 3  # mean 0.625: towards H1
    assert sprt.decide(sprt.llr(heading_up)) is None
    more = heading_up + heading_up[:12]
    assert sprt.decide(sprt.llr(more)) is None
    early, later = sets_to_decide(sprt, heading_up), sets_to_decide(sprt, more)
    assert 0 < later < early < 100
    assert sets_to_decide(sprt, [0.5, 0.55] * 10) > 100_000  # halfway between H0 and H1: (almost) no drift
