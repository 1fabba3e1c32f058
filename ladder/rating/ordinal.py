"""An ordinal ranking of the same results: Kemeny-Young, beside TrueSkill.

TrueSkill fits a strength per bot; an ordinal method asks only who finished
ahead of whom. Kemeny-Young takes every pair's head-to-head counts (a
finished ahead of b in `ahead[a, b]` of their shared matches, a tie counted
half to each) and returns the order that agrees with the most of those
pairwise results: it maximises the sum, over every pair the order puts a
above b, of a's wins over b. It is the one rule that is both Condorcet
consistent and a maximum-likelihood estimate of a true order (Young 1988);
OpenSpiel's `voting.kemeny_young` computes the same order by trying every
permutation (tests/test_tournament_ordinal.py checks ours against it).

Exact search here is a dynamic programme over the subsets of the roster
(O(2^n n^2)), not over the n! permutations: `EXACT_LIMIT` bots took 0.05 s
(measured once, 12 bots of random counts; a live page recomputes it on
every update). Beyond it the order is Copeland's (pairwise wins minus losses; a
tie between two bots' records, or a pair that never met, counts for
neither), which agrees with Kemeny-Young's whenever a Condorcet order
exists and is what `method` then names. Among several optimal orders the
one nearest the given order (the TrueSkill standings') is returned, so a
disagreement shown is one the results force, never an accident of ties.

OpenSpiel's soft Condorcet optimisation (voting/soft_condorcet_optimization)
needs OpenSpiel itself (an extra, for training) and is a stochastic
optimiser; an exact order computed here keeps the base install light and
the report reproducible.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

EXACT_LIMIT = 12
"""Bots ranked by exact Kemeny-Young; more are ranked by Copeland (module doc)."""
KEMENY = "Kemeny-Young"
COPELAND = "Copeland"


@dataclass(frozen=True)
class OrdinalRanking:
    """An order of bots, best first, and the method that made it."""

    order: tuple[int, ...]
    method: str
    """KEMENY, or COPELAND beyond EXACT_LIMIT bots."""
    agreement: float
    """The share of the pairwise results (ties half) the order agrees with."""


def preferences(ahead: Mapping[tuple[int, int], tuple[int, int]]) -> dict[tuple[int, int], float]:
    """`ahead[a, b]` = (matches a finished ahead of b, matches they shared),
    as ladder.rating.standings.head_to_head gives it, as the weight of
    "a above b": a's wins over b plus half the matches neither was ahead."""
    weights: dict[tuple[int, int], float] = {}
    for (a, b), (wins, together) in ahead.items():
        losses = ahead.get((b, a), (0, together))[0]
        weights[(a, b)] = wins + (together - wins - losses) / 2
    return weights


def _score(order: Sequence[int], weights: Mapping[tuple[int, int], float]) -> float:
    return sum(weights.get((a, b), 0.0) for i, a in enumerate(order) for b in order[i + 1:])


def kemeny_young(bots: Sequence[int], weights: Mapping[tuple[int, int], float]) -> tuple[int, ...]:
    """The Kemeny-Young order of `bots` (best first) under `weights` (as
    `preferences`): the best first bot of each remaining subset, chosen in
    `bots`' order so that ties keep it. Raises ValueError beyond EXACT_LIMIT."""
    n = len(bots)
    if n > EXACT_LIMIT:
        raise ValueError(f"exact Kemeny-Young ranks at most {EXACT_LIMIT} bots, not {n}")
    w = [[weights.get((a, b), 0.0) for b in bots] for a in bots]
    # best[mask]: the best score of ordering the bots in `mask` among themselves; first[mask]: who goes first
    best = [0.0] * (1 << n)
    first = [-1] * (1 << n)
    for mask in range(1, 1 << n):
        members = [i for i in range(n) if mask >> i & 1]
        for i in members:
            rest = mask & ~(1 << i)
            value = best[rest] + sum(w[i][j] for j in members if j != i)
            if first[mask] < 0 or value > best[mask] + 1e-9:
                best[mask], first[mask] = value, i
    order, mask = [], (1 << n) - 1
    while mask:
        order.append(bots[first[mask]])
        mask &= ~(1 << first[mask])
    return tuple(order)


def copeland(bots: Sequence[int], weights: Mapping[tuple[int, int], float]) -> tuple[int, ...]:
    """`bots` by Copeland's score, wins minus losses of pairwise majorities
    (stable: equal scores keep `bots`' order)."""
    def score(a: int) -> int:
        return sum((weights.get((a, b), 0.0) > weights.get((b, a), 0.0))
                   - (weights.get((a, b), 0.0) < weights.get((b, a), 0.0)) for b in bots if b != a)
    return tuple(sorted(bots, key=lambda a: -score(a)))


def ordinal_ranking(bots: Sequence[int], ahead: Mapping[tuple[int, int], tuple[int, int]]) -> OrdinalRanking:
    """The ordinal ranking of `bots` (given best first by another rating,
    which breaks ties) from their head-to-head counts (see `preferences`)."""
    weights = preferences(ahead)
    exact = len(bots) <= EXACT_LIMIT
    order = kemeny_young(bots, weights) if exact else copeland(bots, weights)
    total = sum(weights.get((a, b), 0.0) for a in bots for b in bots if a != b)
    return OrdinalRanking(order, KEMENY if exact else COPELAND, _score(order, weights) / total if total else 1.0)


def disagreements(first: Sequence[int], second: Sequence[int]) -> list[tuple[int, int]]:
    """The pairs (a, b) that `first` ranks a above b and `second` the other
    way round, in `first`'s order."""
    where = {bot: i for i, bot in enumerate(second)}
    return [(a, b) for i, a in enumerate(first) for b in first[i + 1:]
            if a in where and b in where and where[a] > where[b]]
