"""Less luck per match, measured: `python -m bench luck`.

Real rosters of each game (the built-in bots, in this process: random,
heuristic, a second copy of the heuristic, MCTS at a fixed number of
iterations so that the load of the machine does not change its play) play
duplicate sets exactly as the ladder deals them: one seed, every cyclic seat
rotation. For every pair at a set the bench keeps the ladder's score x and
the reference's correction (ladder.rating.control_variate), so both
estimators are judged on the very same matches, side by side:

- per pair: the mean and spread of x and of the corrected z = x - (y - y'),
  and their correlation;
- the matches needed to settle every pair (ordered either way or
  indistinguishable; ladder.rating.evidence at the ladder's confidence and
  margin, so at the same error rates) and each pair: the sets are drawn
  again with replacement (the same draws for both estimators) and fed to
  the confidence sequences until every pair is settled; the mean over
  `--replicates` such runs, with a 95 % interval, before and after, and the
  ratio after/before.

Each is measured on whole duplicate sets and on their first rotation alone
(a single match, as `--no-duplicate` plays): the correction is 0 on every
heads-up duplicate set (see the module), and a self-play reference follows
the bots' places at single heads-up hands far better than at tables of
three seats or more. ladder.rating.control_variate.helps follows these
figures (docs/ladder.md, "Less luck per match").

And the most any correction could take out that is computed from the deal
(the match seed, which fixes every shuffle, draw and roll: docs/chance.md),
the reference's included: every set is played a second time on the same
deal with the bots' own seeds changed. For a correction C that is a
function of the deal, Var(x - C) = E[Var(x | deal)] + Var(E[x | deal] - C)
>= E[Var(x | deal)], and half the mean squared difference of the two plays
estimates E[Var(x | deal)]: its share of Var(x) is the **floor**, the least
share of the matches such a correction could leave (the matches a verdict
needs grow with the spread).

`--sets` scales the sets played per game; `--no-record` prints without
writing docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bench.recording import machine_summary, write_section
from bots.heuristic import HeuristicBot
from bots.mcts import MctsBot
from bots.random import RandomBot
from bots.sdk import Bot
from ladder.rating.control_variate import SHADOW_DEALS, CorrectedPair, Deal, Match, correction, pair_results
from ladder.rating.evidence import INDISTINGUISHABLE, ORDERED, REVERSED, PairEvidence, kind_of
from ladder.rating.stopping import DEFAULT_CONFIDENCE, DEFAULT_MARGIN
from referee.match import play_bots

SECTION = "Less luck per match"
MOVE_TIME = 30.0
"""Loose: MCTS stops at its iterations, never at the clock."""
MAX_SETS = 3000
"""A bootstrap run that has not settled every pair by then counts this many sets."""
REPLAY_SALT = 104_729
"""Added to every bot's seed for the second play of a deal (the heuristic
has no seed: it plays a deal the same way twice)."""
FLOOR_RESAMPLES = 400
"""Bootstrap resamples of the sets for the floor's interval."""
SETTLED_EITHER_WAY = frozenset({ORDERED, REVERSED, INDISTINGUISHABLE})

Maker = Callable[[int], Bot]
"""A bot of the roster for one match, from the match's own seed."""


@dataclass(frozen=True)
class Roster:
    game: str
    seats: int
    sets: int
    bots: dict[str, Maker]


def _mcts(iterations: int) -> Maker:
    return lambda seed: MctsBot(move_time=None, iterations=iterations, seed=seed)


ROSTERS = (
    Roster("gnadenlos", 4, 60, {"random": RandomBot, "heuristic": lambda _: HeuristicBot(),
                                "heuristic-b": lambda _: HeuristicBot(), "mcts-i8": _mcts(8)}),
    Roster("saboteur", 5, 60, {"random": RandomBot, "random-b": RandomBot, "heuristic": lambda _: HeuristicBot(),
                               "heuristic-b": lambda _: HeuristicBot(), "mcts-i8": _mcts(8)}),
    Roster("leduc", 2, 300, {"random": RandomBot, "heuristic": lambda _: HeuristicBot(), "mcts-i50": _mcts(50)}),
)


@dataclass(frozen=True)
class Arm:
    """One way of playing and judging: whole duplicate sets or their first
    rotation alone (one match, as `--no-duplicate` plays), raw or corrected."""

    name: str
    duplicate: bool
    corrected: bool


ARMS = (Arm("duplicate sets (today)", True, False), Arm("duplicate sets, corrected", True, True),
        Arm("single matches", False, False), Arm("single matches, corrected", False, True))


@dataclass(frozen=True)
class SetScores:
    """One set: per pair (names, sorted) and per duplicate (True) or its
    first rotation alone (False), the score x of the first against the
    second and the reference's correction; and x again from the same deal
    played with the bots' own seeds changed."""

    scores: dict[tuple[str, str], dict[bool, tuple[float, float]]]
    replayed: dict[tuple[str, str], dict[bool, float]]


def play_sets(roster: Roster, count: int, seed: int) -> list[SetScores]:
    """`count` duplicate sets of `roster`: each seats `roster.seats` bots
    (chosen and placed at random), every cyclic rotation on one seed, and
    each set played twice, the second time with the bots' seeds changed."""
    rng = random.Random(seed)
    names = sorted(roster.bots)
    played = []
    for _ in range(count):
        deal_seed = rng.getrandbits(62)
        seating = rng.sample(names, roster.seats)
        matches = play_set(roster, deal_seed, seating, 0)
        again = play_set(roster, deal_seed, seating, REPLAY_SALT)
        deal = Deal(roster.game, roster.seats, deal_seed)
        scores, replayed = {}, {}
        for a, b in itertools.combinations(sorted(set(seating)), 2):
            results = pair_results(names.index(a), names.index(b), matches)
            scores[(a, b)] = {duplicate: score(deal, results if duplicate else results[:1])
                              for duplicate in (True, False)}
            results = pair_results(names.index(a), names.index(b), again)
            replayed[(a, b)] = {duplicate: mean_result(results if duplicate else results[:1])
                                for duplicate in (True, False)}
        played.append(SetScores(scores, replayed))
        if len(played) % 10 == 0:
            print(f"{roster.game}: {len(played)}/{count} sets", file=sys.stderr, flush=True)
    return played


def play_set(roster: Roster, deal_seed: int, seating: Sequence[str], salt: int) -> list[Match]:
    """Every cyclic rotation of `seating` on the deal, each bot seeded from
    the deal, its rotation and seat, plus `salt`: (bot indices by seat, places)."""
    names = sorted(roster.bots)
    matches: list[Match] = []
    for r in range(roster.seats):
        seated = [seating[(s + r) % roster.seats] for s in range(roster.seats)]
        bots = [roster.bots[name](deal_seed % 2**31 + 7919 * r + s + salt) for s, name in enumerate(seated)]
        result = play_bots(bots, deal_seed, game=roster.game, move_time=MOVE_TIME)
        matches.append(([names.index(n) for n in seated], list(result.ranks)))
    return matches


def mean_result(results: Sequence[tuple[int, int, float]]) -> float:
    """x: a's mean result against b over `results` (seats and result per match)."""
    return sum(r for _, _, r in results) / len(results)


def score(deal: Deal, results: Sequence[tuple[int, int, float]]) -> tuple[float, float]:
    """x and the correction of a pair's `results` (seats and result per match)."""
    return mean_result(results), correction(deal, [(s, t) for s, t, _ in results])


def sets_to_settle(sets: Sequence[SetScores], arm: Arm, order: Sequence[int], alpha: float,
                   margin: float) -> tuple[int, dict[tuple[str, str], int]]:
    """Sets until every pair is settled when the sets come in `order`
    (indices into `sets`, cycled), and per pair the sets it took."""
    evidence: dict[tuple[str, str], CorrectedPair] = {}
    pairs = {p for s in sets for p in s.scores}
    settled: dict[tuple[str, str], int] = {}
    for n, index in enumerate(itertools.islice(itertools.cycle(order), MAX_SETS), start=1):
        for pair, both in sets[index].scores.items():
            if pair in settled:
                continue
            x, c = both[arm.duplicate]
            found = evidence.setdefault(pair, CorrectedPair(PairEvidence(alpha)))
            if arm.corrected:
                found.add(x, c)  # as the ladder does: the coefficient learned from the sets before
            else:
                found.evidence.add(x)
            if kind_of(found.evidence, margin) in SETTLED_EITHER_WAY:
                settled[pair] = n
        if len(settled) == len(pairs):
            return n, settled
    return MAX_SETS, {p: settled.get(p, MAX_SETS) for p in pairs}


def interval(values: Sequence[float]) -> str:
    """The mean and its 95 % interval (normal)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:,.0f} ± {half:,.0f}"


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    return statistics.correlation(xs, ys) if statistics.pstdev(xs) > 0 and statistics.pstdev(ys) > 0 else 0.0


def pair_row(game: str, pair: tuple[str, str], duplicate: bool, played: Sequence[SetScores]) -> str:
    """A pair's mean and spread of x and z, x's correlation with the
    correction, and the pair's floor."""
    xs = [s.scores[pair][duplicate][0] for s in played if pair in s.scores]
    cs = [s.scores[pair][duplicate][1] for s in played if pair in s.scores]
    zs = [x - c for x, c in zip(xs, cs)]
    half = 1.96 / math.sqrt(len(xs))
    within, spread = floor_parts(played, [pair], duplicate)
    return (f"| {game} | {pair[0]} – {pair[1]} | {'duplicate' if duplicate else 'single'} | {len(xs)} | "
            f"{statistics.fmean(xs):.3f} ± {half * statistics.stdev(xs):.3f} | "
            f"{statistics.fmean(zs):.3f} ± {half * statistics.stdev(zs):.3f} | {statistics.stdev(xs):.3f} | "
            f"{statistics.stdev(zs):.3f} | {correlation(xs, cs):+.2f} | "
            f"{within / spread if spread else math.nan:.2f} |")


def floor_parts(played: Sequence[SetScores], pairs: Sequence[tuple[str, str]], duplicate: bool) -> tuple[float, float]:
    """Summed over `pairs`: the estimate of E[Var(x | deal)] (half the mean
    squared difference of a deal's two plays) and of Var(x) (over both plays)."""
    within = spread = 0.0
    for pair in pairs:
        first = [s.scores[pair][duplicate][0] for s in played if pair in s.scores]
        second = [s.replayed[pair][duplicate] for s in played if pair in s.scores]
        if len(first) < 2:
            continue
        within += statistics.fmean((u - v) ** 2 / 2 for u, v in zip(first, second))
        spread += statistics.pvariance(first + second)
    return within, spread


def floor_row(game: str, played: Sequence[SetScores], duplicate: bool, seed: int) -> str:
    """The roster's floor, pooled over its pairs (each weighed by its
    variance, as the pairs with the widest spread decide how long a roster
    takes), with a 95 % bootstrap interval over the sets."""
    pairs = sorted({p for s in played for p in s.scores})
    within, spread = floor_parts(played, pairs, duplicate)
    rng = random.Random(seed)
    resampled = []
    for _ in range(FLOOR_RESAMPLES):
        sample = [played[rng.randrange(len(played))] for _ in played]
        w, v = floor_parts(sample, pairs, duplicate)
        if v:
            resampled.append(w / v)
    resampled.sort()
    low, high = resampled[int(0.025 * len(resampled))], resampled[int(0.975 * len(resampled)) - 1]
    return (f"| {game} | {'duplicate' if duplicate else 'single'} | {len(played)} | "
            f"{within / spread:.2f} ({low:.2f}–{high:.2f}) | {1 - within / spread:.2f} |")


def measure(roster: Roster, sets: int, replicates: int, seed: int) -> tuple[list[str], list[str], list[str], float]:
    """Rows of the pair table, the settling table and the floor table for
    one roster, and the seconds it took."""
    start = time.perf_counter()
    played = play_sets(roster, sets, seed)
    alpha, margin = 1 - DEFAULT_CONFIDENCE, DEFAULT_MARGIN
    pairs = sorted({p for s in played for p in s.scores})
    pair_rows = [pair_row(roster.game, pair, duplicate, played) for duplicate in (True, False) for pair in pairs]
    rng = random.Random(seed + 1)
    every: dict[Arm, list[float]] = {arm: [] for arm in ARMS}
    each: dict[Arm, dict[tuple[str, str], list[float]]] = {arm: {p: [] for p in pairs} for arm in ARMS}
    for _ in range(replicates):
        order = [rng.randrange(len(played)) for _ in range(MAX_SETS)]
        for arm in ARMS:
            matches_per_set = roster.seats if arm.duplicate else 1
            sets_needed, per_pair = sets_to_settle(played, arm, order, alpha, margin)
            every[arm].append(sets_needed * matches_per_set)
            for p in pairs:
                each[arm][p].append(per_pair[p] * matches_per_set)
    today = statistics.fmean(every[ARMS[0]])
    settle_rows = []
    for arm in ARMS:
        cells = [interval(every[arm])] + [interval(each[arm][p]) for p in pairs]
        capped = sum(v >= MAX_SETS * (roster.seats if arm.duplicate else 1) for v in every[arm])
        settle_rows.append(f"| {roster.game} | {arm.name} | {' | '.join(cells)} | "
                           f"{statistics.fmean(every[arm]) / today:.2f} | {capped} |")
    header = (f"| {roster.game} | arm | every pair | {' | '.join(f'{a} – {b}' for a, b in pairs)} | "
              f"every pair / today | runs capped |\n|---|---|---|{'---|' * len(pairs)}---|---|")
    floors = [floor_row(roster.game, played, duplicate, seed + 2) for duplicate in (True, False)]
    return pair_rows, [header, *settle_rows], floors, time.perf_counter() - start


ROSTER_OF = {roster.game: roster for roster in ROSTERS}


def measure_game(game: str, sets: int, replicates: int, seed: int) -> tuple[list[str], list[str], list[str], float]:
    """`measure` of the game's roster (a worker process is given the name: the roster's bot makers are lambdas)."""
    return measure(ROSTER_OF[game], sets, replicates, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=float, default=1.0, help="scale the sets played per game (default 1)")
    parser.add_argument("--replicates", type=int, default=60, help="bootstrap runs of the stopping rule")
    parser.add_argument("--games", default="gnadenlos,saboteur,leduc", help="comma-separated games to measure")
    parser.add_argument("--seed", type=int, default=2811)
    parser.add_argument("--no-record", action="store_true", help="print without writing docs/benchmarks.md")
    args = parser.parse_args()
    chosen = args.games.split(",")
    jobs = [(roster.game, max(10, round(roster.sets * args.sets)), args.replicates, args.seed)
            for roster in ROSTERS if roster.game in chosen]
    with multiprocessing.Pool(len(jobs)) as pool:  # one process per game: each plays its own sets
        measured = pool.starmap(measure_game, jobs)
    pair_rows: list[str] = []
    settle_rows: list[str] = []
    floor_rows: list[str] = []
    notes = []
    for (game, sets, _, _), (rows, settling, floors, seconds) in zip(jobs, measured):
        roster = ROSTER_OF[game]
        pair_rows += rows
        settle_rows += [*settling, ""]
        floor_rows += floors
        notes.append(f"{roster.game}: {sets} sets of {roster.seats} seats in {seconds:.0f} s")
    body = f"""{machine_summary()}; {'; '.join(notes)}; {args.replicates} bootstrap runs.

The ladder's pairwise score x (a's result against b over a duplicate set)
against the corrected z = x - (y - y'), y the heuristic's self-play on the
set's deal from the pair's seats, y' its mean over {SHADOW_DEALS} shadow deals
(ladder/rating/control_variate.py); the stopping rule below weighs the
correction by the coefficient the ladder learns from the sets before. "sets as": the whole duplicate set, or
its first rotation alone (a single match, as `--no-duplicate` plays). Means
with 95 % intervals; sd is one set's spread; corr is x's correlation with
the correction y - y'; floor is the pair's E[Var(x | deal)] / Var(x), from
every set played a second time on its deal with the bots' own seeds
changed (1 = the deal says nothing of the pair's result).

| game | pair | sets as | sets | mean x | mean z | sd x | sd z | corr | floor |
|---|---|---|---|---|---|---|---|---|---|
{chr(10).join(pair_rows)}

Matches to settle (ordered either way, or indistinguishable within
±{DEFAULT_MARGIN}, each verdict wrong at most {1 - DEFAULT_CONFIDENCE:.0%} of
the time): the sets above drawn again with replacement, the same draws for
both, until every pair (or the one pair) is settled; a run stops at
{MAX_SETS} sets. Matches = sets × seats for duplicate sets, = sets for
single matches; "every pair / today" compares with duplicate sets judged raw.

{chr(10).join(settle_rows)}
The floor of each roster: E[Var(x | deal)] / Var(x) summed over its pairs,
with a 95 % bootstrap interval over the sets. No correction computed from
the deal, the reference's or any other, can bring a set's variance, and so
the matches a roster needs, below this share of what the same sets need
judged raw (whole, or by their first rotation); "the deal's share" is the
rest, what such a correction could at best take out (sampling noise can
put it below 0).

| game | sets as | sets | floor (95 %) | the deal's share |
|---|---|---|---|---|
{chr(10).join(floor_rows)}
"""
    print(body)
    if not args.no_record:
        write_section(SECTION, body)


if __name__ == "__main__":
    main()
