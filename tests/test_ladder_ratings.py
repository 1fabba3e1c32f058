"""Ratings: TrueSkill free-for-all with ties and forfeits, and the confidence
that one bot is stronger than the next."""

from __future__ import annotations

import math

import pytest
import trueskill

from ladder.rating.ratings import (
    adjacent_confidences,
    make_env,
    prob_stronger,
    rate_match,
    rated_places,
    replay_ratings,
)
from ladder.store.skill import Skill


def test_a_known_sequence_gives_the_same_ratings_as_trueskill_directly() -> None:
    env = make_env()
    results = [((1, 2, 3, 4), (0, 1, 2, 3)), ((2, 3, 4), (0, 0, 1)), ((4, 1, 3), (2, 1, 0)), ((1, 2, 3), (0, 1, 1))]
    ours = replay_ratings(env, results)

    direct_env = trueskill.TrueSkill(mu=25.0, sigma=25 / 3, beta=25 / 6, tau=0.0,
                                     draw_probability=0.02, backend=None)
    direct = {b: direct_env.create_rating() for b in (1, 2, 3, 4)}
    for ids, ranks in results:
        new = direct_env.rate([(direct[b],) for b in ids], ranks=list(ranks))
        for b, group in zip(ids, new):
            direct[b] = group[0]
    assert ours == {b: Skill(r.mu, r.sigma) for b, r in direct.items()}


def test_the_first_free_for_all_update_matches_trueskill_published_behaviour() -> None:
    # Four fresh players, distinct places: the winner gains, the loser loses
    # symmetrically, and every sigma shrinks (trueskill's documented FFA case).
    env = make_env()
    fresh = Skill(env.mu, env.sigma)
    after = rate_match(env, [fresh] * 4, [0, 1, 2, 3])
    assert after[0].mu > after[1].mu > after[2].mu > after[3].mu
    assert math.isclose(after[0].mu - 25, 25 - after[3].mu, rel_tol=1e-9)
    assert all(s.sigma < env.sigma for s in after)


def test_ties_share_a_place_and_move_the_tied_bots_alike() -> None:
    env = make_env()
    fresh = Skill(env.mu, env.sigma)
    after = rate_match(env, [fresh] * 3, [0, 0, 1])
    assert math.isclose(after[0].mu, after[1].mu, rel_tol=1e-4)  # iterative message passing
    assert after[2].mu < after[0].mu


def test_a_bot_that_always_wins_rises_to_the_top() -> None:
    env = make_env()
    results = []
    for i in range(30):
        others = [2, 3, 4][i % 3:] + [2, 3, 4][: i % 3]
        results.append(((1, *others), (0, 1, 2, 3)))
    skills = replay_ratings(env, results)
    best = max(skills, key=lambda b: skills[b].conservative)
    assert best == 1
    assert all(skills[1].conservative > skills[b].mu for b in (2, 3, 4))


def test_a_forfeiting_bot_is_placed_last_whatever_the_referee_ranked() -> None:
    # The referee ranked seat 0 first, but it forfeited: it is rated last.
    assert rated_places((0, 1, 2, 3), ("crashed", None, None, None)) == (3, 0, 1, 2)
    # Two forfeits tie for last; a tie among the others is kept.
    assert rated_places((0, 1, 1, 3), (None, None, "timeout", "strikes")) == (0, 1, 2, 2)


def test_probability_of_being_stronger_leaves_out_beta() -> None:
    upper, lower = Skill(30.0, 1.0), Skill(28.0, 1.0)
    expected = 0.5 * (1 + math.erf(2.0 / (math.sqrt(2.0) * math.sqrt(2.0))))
    assert prob_stronger(upper, lower) == pytest.approx(expected)
    assert prob_stronger(lower, upper) == pytest.approx(1 - expected)
    assert adjacent_confidences([upper, lower]) == [pytest.approx(expected)]


def test_without_drift_sigma_keeps_shrinking_as_matches_accumulate() -> None:
    # The old tau (sigma / 100) held every sigma above about 0.73, so two
    # close bots could never be ordered however long the ladder ran.
    env = make_env()
    results = [((1, 2, 3), ((0, 1, 2), (1, 0, 2), (2, 1, 0))[i % 3]) for i in range(600)]
    skills = replay_ratings(env, results)
    assert all(s.sigma < 0.5 for s in skills.values())
