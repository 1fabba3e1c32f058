"""Exploitability and NashConv from a bot's answers, with an interval.

**The estimate.** The bot's policy is estimated by its answers' frequencies
in each information state (uniform in a state it never answered: the walk
leaves unanswered only states its own answers do not lead to, where the
policy weighs nothing). OpenSpiel computes the estimate's NashConv and
exploitability (`open_spiel.python.algorithms.exploitability` on a
`TabularPolicy` of OpenSpiel's own `leduc_poker`, whose information-state
strings and action ids are the ones the answers are keyed by). NashConv is
the sum of both seats' best-response values against the policy (the game
is zero-sum); exploitability is half of it.

**Why an interval needs care.** The estimate is too high on average: a
best response is a maximum of functions linear in the policy's reach
probabilities, and those are estimated without bias (products of
independent frequencies), so by Jensen's inequality the best response to
the estimate wins more, on average, than the best response to the policy
— it also exploits the noise of finite answers. Near an equilibrium that
bias dominates (a CFR+ policy of exploitability 0.013 is estimated at
about 0.1 from 100,000 answers), and an interval centred on the estimate,
or a plain bootstrap, misses the truth (the simulation study,
bench/exploitability_bench.py, measures it).

**The interval brackets the truth between two estimates biased in
opposite directions**, each widened by its own sampling error from a
bootstrap over the answers:

- *Upper end*: the plug-in estimate is biased upward, so the
  `(1 + confidence) / 2` quantile of the plug-ins of the resampled answers
  (each state's answers resampled with replacement, as many as it has) is
  above the truth but with probability at most `(1 - confidence) / 2`.
- *Lower end*: a cross-fitted estimate, biased downward. Each state's
  answers are split at random into halves A and B; a best response
  computed from A's frequencies is a fixed strategy as far as B is
  concerned, and its value against B's frequencies estimates, without
  bias, its value against the bot's policy — which no strategy's exceeds
  the best response's. Averaged over both directions and several splits.
  The lower end is that estimate less the spread of its resamples below
  their mean (the `(1 - confidence) / 2` quantile), clipped at 0.
- Each end fails with probability at most `(1 - confidence) / 2`, so the
  interval holds the truth with probability at least `confidence`. It
  assumes what the estimate does: the bot's answers in a state are
  independent draws from one distribution (a stationary policy, what
  exploitability is defined for). States whose quota the walk left unmet
  (its budget or patience ran out) add a bias of either sign, in
  proportion to how rarely the bot reaches them; the command reports them.

A deterministic bot gives every half the same answers: both ends meet at
the estimate, exact. An action a bot never played in a state's n answers
is one no resample or half plays either (the "rule of three" bounds what
was missed: a probability under 3/n at 95%).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import exploitability as openspiel_exploitability

from referee.evaluation.tree import GAME, SEATS, Floats, Tree
from referee.evaluation.walk import frequencies

Counts = npt.NDArray[np.int64]
SPLITS = 16
"""Random splits the cross-fitted estimate averages (each resample uses one)."""
BATCH = 100
"""Resamples computed at once (the arrays of 100 resamples hold about 5 million floats)."""


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


@dataclass(frozen=True)
class Estimate:
    """A policy's exploitability and NashConv (chips per hand) estimated
    from its answers, with `confidence` intervals (the module's docstring)."""

    exploitability: float
    nash_conv: float
    exploitability_interval: Interval
    nash_conv_interval: Interval
    lower_estimate: float
    """The cross-fitted estimate of exploitability, biased downward (the upper estimate is `exploitability`)."""
    confidence: float
    resamples: int


def openspiel_policy_of(tree: Tree, policy: Floats) -> openspiel_policy.TabularPolicy:
    """`policy` (states, 3), rows in `tree.states`' order, as an OpenSpiel
    `TabularPolicy` of `leduc_poker`."""
    game = pyspiel.load_game(GAME, {"players": SEATS})
    tabular = openspiel_policy.TabularPolicy(game)
    index = tree.index
    for state, row in tabular.state_lookup.items():
        tabular.action_probability_array[row] = policy[index[state]]
    return tabular


def openspiel_nash_conv(tree: Tree, policy: Floats) -> float:
    """OpenSpiel's NashConv of `policy` (states, 3) in `leduc_poker`."""
    game = pyspiel.load_game(GAME, {"players": SEATS})
    return float(openspiel_exploitability.nash_conv(game, openspiel_policy_of(tree, policy)))


def estimate(tree: Tree, counts: Counts, *, confidence: float = 0.95, resamples: int = 1000,
             rng: np.random.Generator | None = None) -> Estimate:
    """The exploitability of the policy that answered `counts` (states, 3),
    with its interval (the module's docstring). Raises ValueError for a
    confidence outside (0, 1) or fewer than 10 resamples."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    if resamples < 10:
        raise ValueError(f"a bootstrap needs at least 10 resamples, not {resamples}")
    rng = rng or np.random.default_rng()
    nash_conv = openspiel_nash_conv(tree, frequencies(counts, tree.legal))
    lower = float(cross_fitted(tree, np.broadcast_to(counts, (SPLITS, *counts.shape)), rng).mean())
    plug_ins, lowers = [], []
    for size in _batches(resamples):
        answers = resample(counts, size, rng)
        plug_ins.append(tree.nash_conv(frequencies(answers, tree.legal)))
        lowers.append(cross_fitted(tree, answers, rng))
    plug_in, low_spread = np.concatenate(plug_ins), np.concatenate(lowers)
    tail = (1 - confidence) / 2
    high = float(np.quantile(plug_in, 1 - tail))
    low = max(0.0, lower - (float(low_spread.mean()) - float(np.quantile(low_spread, tail))))
    return Estimate(
        exploitability=nash_conv / SEATS, nash_conv=nash_conv,
        exploitability_interval=Interval(low / SEATS, high / SEATS), nash_conv_interval=Interval(low, high),
        lower_estimate=lower / SEATS, confidence=confidence, resamples=resamples)


def resample(counts: Counts, size: int, rng: np.random.Generator) -> Counts:
    """`size` resamples of the answers (size, states, 3): each state's
    answers drawn with replacement, as many as it has."""
    answers = counts.sum(axis=1)
    policy = frequencies(counts, np.ones_like(counts, dtype=np.bool_))
    drawn: Counts = rng.multinomial(np.broadcast_to(answers, (size, len(answers))),
                                    np.broadcast_to(policy, (size, *policy.shape)))
    return drawn


def cross_fitted(tree: Tree, counts: Counts, rng: np.random.Generator) -> Floats:
    """For each stack entry of answers (K, states, 3): NashConv estimated
    from below, with one random split into halves (the module's docstring)."""
    half = split(counts, rng)
    a, b = frequencies(half, tree.legal), frequencies(counts - half, tree.legal)
    total = np.zeros(counts.shape[0])
    for seat in range(SEATS):
        from_a = tree.best_response(seat, a)[1]
        from_b = tree.best_response(seat, b)[1]
        total += (tree.value(seat, from_a, b) + tree.value(seat, from_b, a)) / 2
    return total


def split(counts: Counts, rng: np.random.Generator) -> Counts:
    """Half of each state's answers (rounded down), drawn at random without
    replacement, for a stack (K, states, 3): the rest is the other half,
    which so holds at least one answer of every state that has one."""
    taken = counts.sum(axis=-1) // 2
    fold, call, raised = counts[..., 0], counts[..., 1], counts[..., 2]
    folds = rng.hypergeometric(fold, call + raised, taken)
    calls = rng.hypergeometric(call, raised, taken - folds)
    half: Counts = np.stack([folds, calls, taken - folds - calls], axis=-1)
    return half


def _batches(total: int) -> list[int]:
    return [BATCH] * (total // BATCH) + ([total % BATCH] if total % BATCH else [])
