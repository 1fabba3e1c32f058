"""In-process simulation of many random matches: the balance study behind `referee simulate`.

A game designer asks "does seat 0 win too often?", "how do matches end?",
"how long do they last?". This module answers by playing N matches of any
registered game with uniformly random legal decisions, entirely in-process
(no bots, no gRPC), and aggregating what happened.

Each match is played by the referee's one match loop (referee/match.py),
untimed and unrecorded, with policy seats (referee/seats/policy.py): a
policy over the whole state is a trusted seat, and a table of them takes
the loop's fast path (`apply_unchecked`, no requests; bench/loop_bench.py
measures it against the loop simulate had of its own). It is game-neutral:
it only uses the `referee.games` interface. What a
game's matches are worth reporting beyond that (Gnadenlos!'s winner field and
nuggets and win share by turn order, Saboteur's win share per role) comes
from a small `Summariser` in the game's package (`summary.SUMMARISER`,
declared in its `GamePlugin`); a game without one still gets turns (counted
as decisions), end reasons and seat win shares.

Reproducibility: match i is dealt from seed `seed + i` and its decisions are
drawn from a `random.Random` seeded from that same match seed (through
`derive_seed`, so the decision stream is independent of the game's own chance
streams). Same arguments, same report, apart from the timing.

The decisions are uniformly random unless seats are given other policies
(`SEAT_POLICIES`: "heuristic" seats the built-in heuristic of the game's
strategy, deciding from its seat's observation and the events that seat is
told, exactly as the heuristic bot does over the protocol): random play
never shows some of a game's outcomes (in Saboteur a random tunnel almost
never reaches the gold), and a study with real players asks what a
designer asks. A caller may also pass a scripted `Policy` for every seat.

Rules cited: G-9.4 (ranking, shared places: a shared win is split).
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from referee.games import Event, Game, Outcome, RuleSet, State
from referee.games.base import derive_seed
from referee.games.plugin import plugins
from referee.match import Match
from referee.seats import Seat
from referee.seats.policy import StatePolicy, StatePolicySeat, heuristic_seat, random_policy

FactValue = float | tuple[float, ...]
"""A per-match figure: one number, or one number per seat."""

Policy = StatePolicy
"""Chooses a legal action for a seat of a state, drawing any chance from the rng."""

SEAT_POLICIES: Mapping[str, Callable[[Game, random.Random], Seat]] = {
    "random": lambda game, rng: StatePolicySeat(random_policy, rng, "random"),
    "heuristic": lambda game, rng: heuristic_seat(game),
}
"""The policies `referee simulate --policy` can seat, by name: each makes
one seat of one match from the game and the match's decision generator."""


def seat_policies(names: Sequence[str], players: int) -> tuple[str, ...]:
    """One policy name per seat from what the command line gave: one name for
    every seat, or exactly one per seat. Raises ValueError naming the problem."""
    unknown = sorted(set(names) - set(SEAT_POLICIES))
    if unknown:
        raise ValueError(f"unknown policy {unknown[0]!r}; policies: {', '.join(SEAT_POLICIES)}")
    if len(names) == 1:
        return tuple(names) * players
    if len(names) != players:
        raise ValueError(f"give one policy for every seat or one per seat: {len(names)} policies "
                         f"for {players} seats")
    return tuple(names)


class MatchWatch(Protocol):
    """Follows one match step by step, for figures that only a moment in
    the middle of a match shows (Gnadenlos!'s standings after its first
    payday): the first and last states alone do not."""

    def step(self, state: State, events: Sequence[Event]) -> None:
        """The state after a step (the setup, then each decision) and every
        event of that step, whoever may see it."""

    def facts(self, outcome: Outcome) -> Mapping[str, FactValue]:
        """The match's figures, once it is over (every match gives the same keys)."""


@dataclass(frozen=True)
class Summariser:
    """What one game adds to the game-neutral report.

    `turns(state)` counts the turns of a finished match in the game's own
    sense (None: count decisions instead). `facts(first, last, outcome)` gets
    the match's state at its first decision and at its end and returns
    per-match figures whose means the report shows: a key `x` becomes `x_mean`
    in the JSON; a tuple (one number per seat or position) is averaged element
    by element. Facts named in `percent_facts` are shares, shown as percentages.
    `end_reasons` lists the reasons the game can end with, in display order,
    so a reason that never happened still shows as 0 %. `watch`, if set,
    makes a `MatchWatch` for each match, whose facts join the others (the
    simulation then builds every step's events, as `apply` does).
    """

    end_reasons: tuple[str, ...] = ()
    end_labels: Mapping[str, str] = field(default_factory=dict)
    turns: Callable[[State], int] | None = None
    facts: Callable[[State, State, Outcome], Mapping[str, FactValue]] = lambda first, last, outcome: {}
    fact_labels: Mapping[str, str] = field(default_factory=dict)
    percent_facts: frozenset[str] = frozenset()
    watch: Callable[[], MatchWatch] | None = None


DEFAULT_SUMMARISER = Summariser()
"""For a game without its own summariser: turns are counted as decisions."""


def summariser_for(game: Game) -> Summariser:
    """The game's summariser (its package's `summary.SUMMARISER`), or the
    neutral default if it has none."""
    declared = plugins().get(game.name)  # a game object may be simulated without being installed
    summariser = declared.load("summariser") if declared is not None else None
    if summariser is None:
        return DEFAULT_SUMMARISER
    assert isinstance(summariser, Summariser)
    return summariser


@dataclass(frozen=True)
class MatchSummary:
    """One finished random match."""

    seed: int
    decisions: int
    turns: int
    end_reason: str
    ranks: tuple[int, ...]
    facts: Mapping[str, FactValue]


def play_random_match(
    game: Game, players: int, seed: int,
    policy: Policy = random_policy, seating: Sequence[str] = (), summariser: Summariser | None = None,
) -> MatchSummary:
    """Play one match of `game` (under the rule set it is configured with)
    through the match loop (referee/match.py), untimed and unrecorded:
    uniformly random legal decisions, or `policy`'s for every seat, or the
    named `seating` policies (one per seat, SEAT_POLICIES).

    Seats that decide from the state alone are trusted seats: when all are,
    the loop applies their actions with `apply_unchecked` (a policy must
    therefore return a legal action; a summariser's `watch` gets the events
    of that same unchecked step). Seats that are told events (the
    heuristic) get exactly those their seat may see, as a bot would.
    `summariser` defaults to the game's. Raises ValueError for bad seats.
    """
    rng = random.Random(derive_seed(seed, "simulate-decisions"))
    seats = ([SEAT_POLICIES[name](game, rng) for name in seating] if seating
             else [StatePolicySeat(policy, rng) for _ in range(players)])
    summariser = summariser or summariser_for(game)
    watch = summariser.watch() if summariser.watch is not None else None
    match = Match(game, seats, seed=seed, time_control=None, match_id=f"simulate-{seed}",
                  watch=None if watch is None else watch.step, summary=False)
    first = match.deal().clone()
    match.run()
    state, outcome = match.deal(), match.outcome
    assert outcome is not None
    decisions = sum(match.seat_decisions)
    turns = decisions if summariser.turns is None else summariser.turns(state)
    facts = dict(summariser.facts(first, state, outcome))
    if watch is not None:
        facts.update(watch.facts(outcome))
    return MatchSummary(seed, decisions, turns, outcome.reason, outcome.ranks, facts)


def win_shares(ranks: Sequence[int]) -> tuple[float, ...]:
    """Each seat's share of one match's win: 1/k for each of k tied winners (G-9.4)."""
    winners = sum(1 for r in ranks if r == 0)
    return tuple(1.0 / winners if r == 0 else 0.0 for r in ranks)


@dataclass(frozen=True)
class SimulationReport:
    """The aggregate of a simulation; `to_json()` is the `--json` output."""

    game: str
    players: int
    variant: Mapping[str, str]
    seed: int
    games: int
    seconds: float
    turns: tuple[int, ...]
    decisions: tuple[int, ...]
    end_reasons: Mapping[str, float]
    seat_win_share: tuple[float, ...]
    seat_win_share_stderr: tuple[float, ...]
    fact_means: Mapping[str, FactValue]
    fact_stderr: Mapping[str, FactValue] = field(default_factory=dict)
    """Standard error of each fact's mean (a 95 % interval is ±1.96 of it)."""
    policies: tuple[str, ...] = ()
    """Each seat's policy ("random", "heuristic", or "scripted" for a caller's)."""

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    @property
    def turns_mean(self) -> float:
        return statistics.fmean(self.turns)

    @property
    def turns_stdev(self) -> float:
        return statistics.pstdev(self.turns)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "games": self.games,
            "players": self.players,
            "variant": dict(self.variant),
            "seed": self.seed,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "turns_mean": self.turns_mean,
            "turns_stdev": self.turns_stdev,
            "turns_min": min(self.turns),
            "turns_max": max(self.turns),
            "decisions_mean": statistics.fmean(self.decisions),
            "end_reasons": dict(self.end_reasons),
            "seat_win_share": list(self.seat_win_share),
            "seat_win_share_stderr": list(self.seat_win_share_stderr),
            "policies": list(self.policies),
        }
        for key, value in self.fact_means.items():
            data[f"{key}_mean"] = list(value) if isinstance(value, tuple) else value
        for key, value in self.fact_stderr.items():
            data[f"{key}_stderr"] = list(value) if isinstance(value, tuple) else value
        return data


def _measured(column: Sequence[float]) -> list[float]:
    """A fact's values without NaN: a match that could not measure it
    (a figure after Gnadenlos!'s first payday, in a match that had none)."""
    return [x for x in column if not math.isnan(x)]


def _mean_fact(values: list[FactValue]) -> FactValue:
    """The mean over the matches that measured it (NaN if none did)."""
    def mean(column: Sequence[float]) -> float:
        measured = _measured(column)
        return statistics.fmean(measured) if measured else math.nan

    if isinstance(values[0], tuple):
        return tuple(mean(column) for column in zip(*values))
    return mean(values)  # type: ignore[arg-type]


def _stderr_fact(values: list[FactValue]) -> FactValue:
    """The standard error of a fact's mean over the matches that measured
    it (element-wise for tuples)."""
    def stderr(column: Sequence[float]) -> float:
        measured = _measured(column)
        return statistics.pstdev(measured) / math.sqrt(len(measured)) if measured else math.nan

    if isinstance(values[0], tuple):
        return tuple(stderr(column) for column in zip(*values))
    return stderr(values)  # type: ignore[arg-type]


def summarise(
    game: Game, players: int, seed: int, matches: Sequence[MatchSummary], seconds: float
) -> SimulationReport:
    """Aggregate finished matches of `game` (under its rule set) into a
    report (needs at least one match)."""
    if not matches:
        raise ValueError("a report needs at least one match")
    count = len(matches)
    reasons = Counter(m.end_reason for m in matches)
    ordered = list(summariser_for(game).end_reasons) + sorted(set(reasons) - set(summariser_for(game).end_reasons))
    shares = [win_shares(m.ranks) for m in matches]
    per_seat = list(zip(*shares))
    stderr = tuple(statistics.pstdev(column) / math.sqrt(count) for column in per_seat)
    fact_keys = list(matches[0].facts)
    return SimulationReport(
        game=game.name,
        players=players,
        variant=dict(game.rule_set.options),
        seed=seed,
        games=count,
        seconds=seconds,
        turns=tuple(m.turns for m in matches),
        decisions=tuple(m.decisions for m in matches),
        end_reasons={reason: reasons[reason] / count for reason in ordered},
        seat_win_share=tuple(statistics.fmean(column) for column in per_seat),
        seat_win_share_stderr=stderr,
        fact_means={key: _mean_fact([m.facts[key] for m in matches]) for key in fact_keys},
        fact_stderr={key: _stderr_fact([m.facts[key] for m in matches]) for key in fact_keys},
    )


class MatchFailed(Exception):
    """The engine raised during one simulated match: an engine bug to report."""

    def __init__(self, rule_set: RuleSet, players: int, seed: int, error: Exception) -> None:
        options = ",".join(f"{k}={v}" for k, v in rule_set.options.items())
        super().__init__(
            f"the {rule_set.game} match with seed {seed} ({players} players, variant {options or 'none'}) "
            f"failed: {type(error).__name__}: {error}"
        )
        self.seed = seed


def simulate(
    game: Game,
    players: int,
    games: int,
    seed: int,
    on_match: Callable[[MatchSummary], None] | None = None,
    policy: Policy = random_policy,
    seating: Sequence[str] = (),
) -> SimulationReport:
    """Play `games` matches of `game` (under the rule set it is configured
    with, `load_game(name, rule_set)`; match i from seed `seed + i`) and report.

    `seating` names each seat's policy (SEAT_POLICIES, one name per seat);
    without it `policy` decides for every seat (default: uniformly random
    legal actions).

    Raises ValueError for a bad number of players, before playing,
    and MatchFailed if the engine fails during a match (naming its seed, so
    the failure can be replayed alone with `play_random_match`).
    `on_match` is called after each match (a progress bar hooks in here).
    """
    if games < 1:
        raise ValueError(f"the number of matches must be at least 1, not {games}")
    game.check_seats(players)
    summariser = summariser_for(game)
    matches: list[MatchSummary] = []
    start = time.perf_counter()
    for i in range(games):
        try:
            summary = play_random_match(game, players, seed + i, policy, seating, summariser)
        except Exception as exc:
            raise MatchFailed(game.rule_set, players, seed + i, exc) from exc
        matches.append(summary)
        if on_match is not None:
            on_match(summary)
    seconds = time.perf_counter() - start
    report = summarise(game, players, seed, matches, seconds)
    named = tuple(seating) if seating else ("random" if policy is random_policy else "scripted",) * players
    return dataclasses.replace(report, policies=named)
