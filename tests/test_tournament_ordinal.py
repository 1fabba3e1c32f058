"""The ordinal ranking beside TrueSkill (ladder/rating/ordinal.py) on hand-made results."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from open_spiel.python.voting import base, kemeny_young

from ladder.rating.ordinal import (
    COPELAND,
    EXACT_LIMIT,
    KEMENY,
    disagreements,
    ordinal_ranking,
    preferences,
)

MEMPHIS, NASHVILLE, CHATTANOOGA, KNOXVILLE = 1, 2, 3, 4


def counts(finishes: Sequence[tuple[int, Sequence[int]]]) -> dict[tuple[int, int], tuple[int, int]]:
    """(a, b) -> (matches a finished ahead of b, matches together) from (how many, finishing order) rows."""
    ahead: Counter[tuple[int, int]] = Counter()
    together: Counter[tuple[int, int]] = Counter()
    for times, order in finishes:
        for i, a in enumerate(order):
            for b in order[i + 1:]:
                ahead[(a, b)] += times
                together[(a, b)] += times
                together[(b, a)] += times
    return {pair: (ahead[pair], n) for pair, n in together.items()}


def test_the_tennessee_example_gives_its_published_kemeny_order() -> None:
    # Wikipedia, "Kemeny-Young method": 100 voters as 100 four-seat matches; the order is
    # Nashville > Chattanooga > Knoxville > Memphis, though Memphis wins the most matches outright
    results = counts([(42, [MEMPHIS, NASHVILLE, CHATTANOOGA, KNOXVILLE]),
                      (26, [NASHVILLE, CHATTANOOGA, KNOXVILLE, MEMPHIS]),
                      (15, [CHATTANOOGA, KNOXVILLE, NASHVILLE, MEMPHIS]),
                      (17, [KNOXVILLE, CHATTANOOGA, NASHVILLE, MEMPHIS])])
    by_wins = [MEMPHIS, NASHVILLE, KNOXVILLE, CHATTANOOGA]
    ranking = ordinal_ranking(by_wins, results)
    assert ranking.method == KEMENY
    assert ranking.order == (NASHVILLE, CHATTANOOGA, KNOXVILLE, MEMPHIS)
    assert disagreements(by_wins, ranking.order) == [(MEMPHIS, NASHVILLE), (MEMPHIS, KNOXVILLE),
                                                     (MEMPHIS, CHATTANOOGA), (KNOXVILLE, CHATTANOOGA)]


def test_ties_count_half_and_an_even_cycle_keeps_the_given_order() -> None:
    # a beats b, b beats c, c beats a, each 2 of 3: every rotation of the cycle scores the same
    results = counts([(2, [1, 2]), (1, [2, 1]), (2, [2, 3]), (1, [3, 2]), (2, [3, 1]), (1, [1, 3])])
    assert ordinal_ranking([3, 1, 2], results).order == (3, 1, 2)
    drawn = {(1, 2): (1, 4), (2, 1): (0, 4)}  # three of four level
    assert preferences(drawn) == {(1, 2): 2.5, (2, 1): 1.5}


def test_kemeny_young_finds_the_optimum_openspiel_finds_on_random_results() -> None:
    # OpenSpiel's voting.kemeny_young tries every permutation of full ballots: matches of the whole roster
    rng = random.Random(28)
    bots = list(range(6))
    checked = 0
    for _ in range(12):
        finishes = [(1, rng.sample(bots, len(bots))) for _ in range(rng.choice([5, 9, 15]))]
        profile = base.PreferenceProfile(alternatives=bots)
        for _, order in finishes:
            profile.add_vote(list(order))
        theirs = kemeny_young.KemenyYoungVoting().run_election(profile).ranking
        weights = preferences(counts(finishes))
        ours = ordinal_ranking(bots, counts(finishes)).order
        assert _score(ours, weights) == _score(theirs, weights)  # several orders may share the optimum
        checked += 1
    assert checked == 12


def _score(order: Sequence[int], weights: dict[tuple[int, int], float]) -> float:
    return sum(weights.get((a, b), 0.0) for i, a in enumerate(order) for b in order[i + 1:])


def test_beyond_the_exact_limit_the_order_is_copelands() -> None:
    bots = list(range(EXACT_LIMIT + 1))
    results = counts([(1, list(reversed(bots)))])  # a clear order, reversed from the given one
    ranking = ordinal_ranking(bots, results)
    assert ranking.method == COPELAND and ranking.order == tuple(reversed(bots)) and ranking.agreement == 1.0
