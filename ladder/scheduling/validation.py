"""Validation by simulation: the ladder's statistics on bots of known strength.

No bot processes and no store: a match is drawn from a model of outcomes
(`Model`) in-process, in microseconds, so thousands of whole ladder runs fit
in minutes. Everything else is the ladder's own code: the TrueSkill updates
(ladder.rating.ratings), the matchmaking with its focus on unsettled pairs
(ladder.scheduling.matchmaking), the pairwise evidence and stopping rule
(ladder.rating.evidence, ladder.rating.stopping) and the SPRT (ladder.rating.sprt). The tests run
it at small sizes; `python -m bench ladder_validation` runs it at the sizes
published in docs/ladder.md.

The model: bot i has a skill s_i. A duplicate set draws one deal, a luck
term per seat (normal, sd `luck`), shared by every rotation of the set as
the cards are; in each match a bot's performance is its skill, plus its
seat's luck, plus its own noise (normal, sd `noise`). Performances are
rounded down to a grid of `tie_width` (0: no ties); equal cells share a
place. So whether a finishes ahead of b depends on them alone, and their
true score (ahead 1, tied 1/2) is known: `Model.true_score`.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist

from ladder.rating.evidence import INDISTINGUISHABLE, ORDERED, PairEvidence, collect, pair_key
from ladder.rating.ratings import initial_skill, make_env, prob_stronger, ranking, rate_match
from ladder.rating.sprt import Sprt
from ladder.rating.stopping import adjacent_pairs, all_settled, focus
from ladder.scheduling import matchmaking
from ladder.scheduling.matchmaking import BotStats
from ladder.store.skill import Skill

Places = tuple[int, ...]
Match = tuple[tuple[int, ...], Places]


def places_of(performances: Sequence[float], tie_width: float) -> Places:
    """Places (0 = first, equal cells share a place, dense) of performances."""
    cells = [math.floor(p / tie_width) if tie_width else p for p in performances]
    order = sorted(set(cells), reverse=True)
    return tuple(order.index(c) for c in cells)


@dataclass(frozen=True)
class Model:
    """Outcomes of matches between bots of known skill (see the module doc)."""

    skills: tuple[float, ...]
    luck: float = 1.0
    noise: float = 1.0
    tie_width: float = 0.0

    @property
    def spread(self) -> float:
        """The sd of the difference of two bots' performances in one match."""
        return math.sqrt(2 * (self.luck**2 + self.noise**2))

    def play_set(self, rotations: Sequence[Sequence[int]], rng: random.Random) -> list[Match]:
        """One duplicate set: the same deal (seat luck) in every rotation."""
        deal = [rng.gauss(0, self.luck) for _ in rotations[0]]
        matches = []
        for seating in rotations:
            performances = [self.skills[b] + deal[s] + rng.gauss(0, self.noise) for s, b in enumerate(seating)]
            matches.append((tuple(seating), places_of(performances, self.tie_width)))
        return matches

    def true_score(self, a: int, b: int) -> float:
        """a's expected score against b (ignoring the grid's rounding, which
        moves it by far less than the margins studied)."""
        return NormalDist().cdf((self.skills[a] - self.skills[b]) / self.spread)


def skills_for_scores(scores: Sequence[float], model_spread: float) -> tuple[float, ...]:
    """Skills, best first, whose adjacent pairs have the given true scores
    (0.5: two copies of one bot)."""
    skills = [0.0]
    for score in scores:
        skills.append(skills[-1] - model_spread * NormalDist().inv_cdf(score))
    return tuple(skills)


def tie_width_for(rate: float, model: Model, rng: random.Random, samples: int = 20000) -> float:
    """The grid width at which two equal bots share a place in about `rate`
    of their matches (bisection on a fixed sample)."""
    diffs = [rng.gauss(0, 1) * model.spread for _ in range(samples)]
    offsets = [rng.random() for _ in range(samples)]

    def measured(width: float) -> float:
        return sum(math.floor(o + d / width) == 0 for d, o in zip(diffs, offsets)) / samples

    low, high = 1e-6, 50 * model.spread
    for _ in range(50):
        middle = (low + high) / 2
        low, high = (middle, high) if measured(middle) < rate else (low, middle)
    return (low + high) / 2


@dataclass(frozen=True)
class Rule:
    """A stopping rule and the rating model it ranks with."""

    name: str
    tau: float
    draw_probability: float
    evidence: bool
    """True: the pairwise evidence of ladder.rating.stopping (with focus on open
    pairs); False: the rule before it, TrueSkill's posterior P(upper
    stronger) >= confidence for every adjacent pair."""


@dataclass
class PairOutcome:
    upper: int
    lower: int
    kind: str
    true_score: float


@dataclass
class LadderRun:
    matches: int
    settled: bool
    order: list[int]
    """The final ranking (bot indices, best first)."""
    pairs: list[PairOutcome] = field(default_factory=list)

    def misordered(self, model: Model) -> tuple[int, int]:
        """(truly different neighbours of the true order that the ranking
        puts the wrong way round, truly different neighbours)."""
        truth = sorted(self.order, key=lambda b: -model.skills[b])
        place = {b: i for i, b in enumerate(self.order)}
        different = [(a, b) for a, b in zip(truth, truth[1:]) if model.skills[a] != model.skills[b]]
        return sum(place[a] > place[b] for a, b in different), len(different)


@dataclass
class _Tallies:
    """What the matchmaking knows besides ratings (as ladder.scheduling.scheduler keeps it)."""

    matches: Counter[int] = field(default_factory=Counter)
    last: dict[int, int] = field(default_factory=dict)
    seats: dict[int, Counter[tuple[int, int]]] = field(default_factory=dict)
    seq: int = 0

    def count(self, seating: Sequence[int]) -> None:
        self.seq += 1
        for seat, bot in enumerate(seating):
            self.matches[bot] += 1
            self.last[bot] = self.seq
            self.seats.setdefault(bot, Counter())[(len(seating), seat)] += 1

    def stats(self) -> dict[int, BotStats]:
        return {b: BotStats(self.matches[b], self.last.get(b, 0), dict(self.seats.get(b, {}))) for b in self.matches}


def run_ladder(
    model: Model, rule: Rule, sizes: Sequence[int], *, confidence: float, margin: float, budget: int,
    rng: random.Random,
) -> LadderRun:
    """One ladder run with duplicate sets until the rule stops it or the
    budget (matches) is spent; the verdict on each adjacent pair at the end."""
    env = make_env(rule.tau, rule.draw_probability)
    bots = list(range(len(model.skills)))
    initial = initial_skill(env)
    skills: dict[int, Skill] = {}
    tallies = _Tallies()
    tables: Counter[int] = Counter()
    evidence: dict[tuple[int, int], PairEvidence] = {}
    alpha = 1 - confidence
    played = 0
    while True:
        order = ranking(skills, bots, initial)
        if rule.evidence:
            pairs = adjacent_pairs(order, evidence, confidence=confidence, margin=margin)
            settled, wanted = all_settled(pairs), focus(pairs)
        else:
            settled = all(prob_stronger(skills.get(a, initial), skills.get(b, initial)) >= confidence
                          for a, b in zip(order, order[1:]))
            wanted = []
        if settled or played >= budget:
            break
        size = matchmaking.next_table_size(sizes, tables)
        tables[size] += 1
        table = matchmaking.plan_table(env, bots, size, {b: skills.get(b, initial) for b in bots},
                                       tallies.stats(), tallies.seq, rng, duplicate=True, focus=wanted)
        matches = model.play_set(table.rotations, rng)
        for seating, places in matches:
            after = rate_match(env, [skills.get(b, initial) for b in seating], places)
            skills.update(zip(seating, after))
            tallies.count(seating)
        played += len(matches)
        if rule.evidence:
            for key, found in collect([matches], alpha).items():
                for x in found.scores:
                    evidence.setdefault(key, PairEvidence(alpha)).add(x)
    run = LadderRun(played, settled, order)
    if rule.evidence:
        for p in adjacent_pairs(order, evidence, confidence=confidence, margin=margin):
            run.pairs.append(PairOutcome(p.upper, p.lower, p.verdict.kind, model.true_score(p.upper, p.lower)))
    else:
        for a, b in zip(order, order[1:]):
            ordered = prob_stronger(skills.get(a, initial), skills.get(b, initial)) >= confidence
            run.pairs.append(PairOutcome(a, b, ORDERED if ordered else "open", model.true_score(a, b)))
    return run


def wrongly_ordered(pair: PairOutcome) -> bool:
    """Declared ordered, but the upper bot is not truly better."""
    return pair.kind == ORDERED and pair.true_score <= 0.5


def wrongly_indistinguishable(pair: PairOutcome, margin: float) -> bool:
    """Declared indistinguishable, but the true score is outside the margin."""
    return pair.kind == INDISTINGUISHABLE and abs(pair.true_score - 0.5) >= margin


def round_robin(model: Model, size: int, rounds: int, rng: random.Random) -> list[tuple[int, int, int]]:
    """A fixed duplicate round-robin (every table of `size` of the bots, all
    rotations, `rounds` times), ranked after each round by each bot's mean
    score against all the others: per round (matches so far, truly
    different adjacent pairs in the wrong order, truly different adjacent
    pairs)."""
    bots = list(range(len(model.skills)))
    tables = list(itertools.combinations(bots, size))
    points: dict[int, float] = {b: 0.0 for b in bots}
    meetings: Counter[int] = Counter()
    truth = sorted(bots, key=lambda b: -model.skills[b])
    different = [(a, b) for a, b in zip(truth, truth[1:]) if model.skills[a] != model.skills[b]]
    results = []
    played = 0
    for _ in range(rounds):
        for table in tables:
            for seating, places in model.play_set(matchmaking.rotations(rng.sample(table, len(table))), rng):
                played += 1
                for i, a in enumerate(seating):
                    for j in range(len(seating)):
                        if i != j:
                            points[a] += 1.0 if places[i] < places[j] else 0.5 if places[i] == places[j] else 0.0
                            meetings[a] += 1
        strength = {b: points[b] / meetings[b] for b in bots}
        results.append((played, sum(strength[a] <= strength[b] for a, b in different), len(different)))
    return results


@dataclass
class SprtRun:
    verdict: str | None
    sets: int
    matches: int
    scores: list[float]


def run_versus(
    model: Model, new: int, old: int, sizes: Sequence[int], sprt: Sprt, *, budget: int, rng: random.Random,
) -> SprtRun:
    """One `--versus new old` run: duplicate sets at tables of both and
    fillers from the rest of the roster, until the SPRT decides or the
    budget (matches) is spent."""
    env = make_env()
    bots = list(range(len(model.skills)))
    skills = {b: initial_skill(env) for b in bots}
    tallies = _Tallies()
    tables: Counter[int] = Counter()
    scores: list[float] = []
    played = 0
    verdict = None
    while verdict is None and played < budget:
        size = matchmaking.next_table_size(sizes, tables)
        tables[size] += 1
        table = matchmaking.plan_table(env, bots, size, skills, tallies.stats(), tallies.seq, rng,
                                       duplicate=True, required=(new, old))
        matches = model.play_set(table.rotations, rng)
        for seating, _ in matches:
            tallies.count(seating)
        played += len(matches)
        found = collect([matches], 0.05)[pair_key(new, old)].scores[0]
        scores.append(found if new < old else 1 - found)
        verdict = sprt.decide(sprt.llr(scores))
    return SprtRun(verdict, len(scores), played, scores)
