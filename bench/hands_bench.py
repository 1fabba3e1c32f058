"""Leduc pairs judged hand by hand, measured: `python -m bench hands`.

The built-in bots (in this process: random and a second copy of it, the
heuristic, MCTS at two fixed numbers of iterations, so that the machine's
load does not change its play) play duplicate sets of Leduc heads-up exactly as
the ladder deals them: one seed, both seat rotations, 100 hands a match,
through the one match loop (referee.match.play_bots), whose summaries carry
each hand's chips and luck (rules L-7.5). The same sets are judged three
ways, by the ladder's own evidence code at its confidence and chip margin:

- "sets, chips (before)": the set the unit, its chip difference scaled by
  the chips' bound (26 a hand), the betting sequence of
  ladder.rating.evidence: what the ladder did before this change;
- "hands, chips": each duplicate hand the unit (ladder.rating.
  score_evidence.deal_units), its chips alone;
- "hands, chips less luck": the same, each seat's chips less its luck:
  what the ladder does now.

Per pair: chips per 100 hands, the spread of one duplicate hand's
difference with and without the luck, and their variance ratio. Matches to
settle: the sets drawn again with replacement (the same draws for every
arm, each arm's units moved to the pair's common truth: `shifts`) and fed
to each arm's evidence until the pair is ordered either way or
indistinguishable within the chip margin (SCORE_MARGIN per 100 hands); the
mean over `--replicates` runs with a 95 % interval, two matches a set.
"Every pair" is their sum: a heads-up ladder plays one pair a set.

`--sets` sets are played per pair; `--no-record` prints without writing
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bench.luck_bench import interval
from bench.recording import machine_summary, write_section
from bots.heuristic import HeuristicBot
from bots.mcts import MctsBot
from bots.random import RandomBot
from bots.sdk import Bot
from ladder.rating.evidence import INDISTINGUISHABLE, ORDERED, REVERSED, Evidence, PairEvidence, kind_of
from ladder.rating.hand_evidence import HandEvidence
from ladder.rating.score_evidence import SCORE_MARGIN, ScoredMatch, deal_units, judged_deals, set_score
from ladder.rating.stopping import DEFAULT_CONFIDENCE
from referee.games.leduc.hands import hand_swing, judged_swing
from referee.games.plugin import match_game
from referee.match import play_bots

SECTION = "Leduc hand by hand"
HANDS = 100
MOVE_TIME = 30.0
"""Loose: MCTS stops at its iterations, never at the clock."""
MAX_SETS = 5000
"""A bootstrap run that has not settled the pair by then counts this many sets."""
SETTLED_EITHER_WAY = frozenset({ORDERED, REVERSED, INDISTINGUISHABLE})
BEFORE_GRID = 2 * 26 * 100
"""The candidates of the set-level sequence before this change: one chip per 100 hands apart."""

Maker = Callable[[int], Bot]

COPIES = frozenset({("random", "random-b")})
"""Pairs of one bot twice: their mean is even exactly, by symmetry."""

ROSTER: dict[str, Maker] = {
    "random": lambda seed: RandomBot(),
    "random-b": lambda seed: RandomBot(),
    "heuristic": lambda seed: HeuristicBot(),
    "mcts-i50": lambda seed: MctsBot(move_time=None, iterations=50, seed=seed),
    "mcts-i200": lambda seed: MctsBot(move_time=None, iterations=200, seed=seed),
}


@dataclass(frozen=True)
class Arm:
    name: str
    hands: bool
    """Each duplicate hand a unit (else the set)."""
    luck: bool
    """Chips less the hands' luck (else chips alone)."""


ARMS = (Arm("sets, chips (before)", False, False), Arm("hands, chips", True, False),
        Arm("hands, chips less luck", True, True))


@dataclass(frozen=True)
class PlayedSet:
    """One duplicate set of a pair (bot 0 against bot 1): its matches, with
    and without the luck taken out."""

    raw: tuple[ScoredMatch, ...]
    judged: tuple[ScoredMatch, ...]


def play_set(pair: tuple[str, str], seed: int) -> PlayedSet:
    """Both rotations of one seed, 100 hands each, as the ladder plays them."""
    raw, judged = [], []
    game = match_game("leduc", {"hands": HANDS})
    for rotation in (0, 1):
        seats = pair if rotation == 0 else pair[::-1]
        ids = tuple(0 if name == pair[0] else 1 for name in seats)
        bots = [ROSTER[name](seed % 2**31 + 7919 * rotation + s) for s, name in enumerate(seats)]
        summary = play_bots(bots, seed, game=game, move_time=MOVE_TIME).summary
        scores = tuple(summary["scores"])
        raw.append(ScoredMatch(ids, scores, HANDS, judged_deals({**summary, "deal_luck": None}, 2, HANDS)))
        judged.append(ScoredMatch(ids, scores, HANDS, judged_deals(summary, 2, HANDS)))
    return PlayedSet(tuple(raw), tuple(judged))


def play_pair(pair: tuple[str, str], sets: int, seed: int) -> tuple[tuple[str, str], list[PlayedSet], float]:
    start = time.perf_counter()
    rng = random.Random(f"{seed}-{pair}")
    played = [play_set(pair, rng.getrandbits(62)) for _ in range(sets)]
    return pair, played, time.perf_counter() - start


def units_of(played: PlayedSet, arm: Arm, shift: float = 0.0) -> list[float]:
    """The set's units for `arm`, each moved by `shift` on the arm's scale."""
    matches = played.judged if arm.luck else played.raw
    if arm.hands:
        units = deal_units(0, 1, matches, judged_swing)
    else:
        whole = set_score(0, 1, matches, hand_swing)
        units = None if whole is None else [whole]
    assert units is not None
    return [u + shift for u in units]


def bound_of(arm: Arm) -> float:
    """The arm's bound on a unit's chip difference (heads-up)."""
    return judged_swing(2) if arm.hands else hand_swing(2)


def chips_per_hand(played: Sequence[PlayedSet], arm: Arm) -> list[float]:
    """Each duplicate hand's difference in chips (the hands arms' units back in chips)."""
    return [(u - 0.5) * 2 * bound_of(arm) for s in played for u in units_of(s, arm)]


def shifts(pair: tuple[str, str], played: Sequence[PlayedSet]) -> dict[Arm, float]:
    """Per arm, what moves its mean over the played sets to the pair's
    common truth: 0 for two copies of one bot, else the mean of the two
    estimates (chips alone, less luck; both unbiased). Drawn again, an
    arm's sets would otherwise keep their own sampling luck in the mean,
    and the arm nearer to the edge of the margin would look slower."""
    raw = statistics.fmean(chips_per_hand(played, ARMS[1]))
    judged = statistics.fmean(chips_per_hand(played, ARMS[2]))
    truth = 0.0 if pair in COPIES else (raw + judged) / 2
    return {arm: (truth - (judged if arm.luck else raw)) / (2 * bound_of(arm)) for arm in ARMS}


def margin_of(arm: Arm) -> float:
    """The chip margin on the arm's [0, 1] scale."""
    return SCORE_MARGIN / HANDS / (2 * bound_of(arm))


def sets_to_settle(played: Sequence[PlayedSet], arm: Arm, order: Sequence[int], alpha: float, shift: float) -> int:
    evidence: Evidence
    if arm.hands:
        evidence = hand = HandEvidence(alpha)
    else:
        evidence = whole = PairEvidence(alpha, grid=BEFORE_GRID)
    margin = margin_of(arm)
    for n, index in enumerate(itertools.islice(itertools.cycle(order), MAX_SETS), start=1):
        units = units_of(played[index], arm, shift)
        if arm.hands:
            hand.add_set(units)
        else:
            whole.add(units[0])
        if kind_of(evidence, margin) in SETTLED_EITHER_WAY:
            return n
    return MAX_SETS


def pair_row(pair: tuple[str, str], played: Sequence[PlayedSet]) -> str:
    """Chips per 100 hands and one duplicate hand's spread, raw and less luck."""
    raw, judged = chips_per_hand(played, ARMS[1]), chips_per_hand(played, ARMS[2])
    half = 1.96 / math.sqrt(len(raw))
    ratio = statistics.variance(judged) / statistics.variance(raw)
    return (f"| {pair[0]} – {pair[1]} | {len(played)} | {100 * statistics.fmean(raw):+.1f} ± "
            f"{100 * half * statistics.stdev(raw):.1f} | {100 * statistics.fmean(judged):+.1f} ± "
            f"{100 * half * statistics.stdev(judged):.1f} | {statistics.stdev(raw):.2f} | "
            f"{statistics.stdev(judged):.2f} | {ratio:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=80, help="duplicate sets played per pair (default 80)")
    parser.add_argument("--replicates", type=int, default=40, help="bootstrap runs of the stopping rule")
    parser.add_argument("--seed", type=int, default=2811)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-record", action="store_true", help="print without writing docs/benchmarks.md")
    args = parser.parse_args()
    pairs = list(itertools.combinations(ROSTER, 2))
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        measured = pool.starmap(play_pair, [(pair, args.sets, args.seed) for pair in pairs])
    alpha = 1 - DEFAULT_CONFIDENCE
    rng = random.Random(args.seed + 1)
    needed: dict[Arm, dict[tuple[str, str], list[float]]] = {arm: {p: [] for p in pairs} for arm in ARMS}
    every: dict[Arm, list[float]] = {arm: [] for arm in ARMS}
    for _ in range(args.replicates):
        totals = dict.fromkeys(ARMS, 0.0)
        for pair, played, _ in measured:
            order = [rng.randrange(len(played)) for _ in range(MAX_SETS)]
            moved = shifts(pair, played)
            for arm in ARMS:
                matches = 2 * sets_to_settle(played, arm, order, alpha, moved[arm])
                needed[arm][pair].append(matches)
                totals[arm] += matches
        for arm in ARMS:
            every[arm].append(totals[arm])
    before = statistics.fmean(every[ARMS[0]])
    pair_rows = [pair_row(pair, played) for pair, played, _ in measured]
    names = [f"{a} – {b}" for a, b in pairs]
    settle_rows = [f"| {arm.name} | {interval(every[arm])} | "
                   f"{' | '.join(interval(needed[arm][p]) for p in pairs)} | "
                   f"{statistics.fmean(every[arm]) / before:.3f} |" for arm in ARMS]
    seconds = time.perf_counter() - start
    body = f"""Measured by `python -m bench hands` (bench/hands_bench.py) on {machine_summary()}; {args.sets} duplicate sets of {HANDS} hands a pair, {len(pairs)} pairs, in {seconds:.0f} s; {args.replicates} bootstrap runs.

One duplicate hand's difference d (a's chips less b's, the mean of the
two rotations' hand h), per pair: its mean as chips per 100 hands with a
95 % interval, chips alone and chips less luck ([rules](rules/leduc.md) L-7.5), its spread
(sd, chips) each way and the variance ratio (less luck / alone).

| pair | sets | chips/100 | less luck, chips/100 | sd | sd less luck | variance ratio |
|---|---|---|---|---|---|---|
{chr(10).join(pair_rows)}

Matches to settle (ordered either way, or indistinguishable within
±{SCORE_MARGIN:g} chips per 100 hands, each verdict wrong at most
{alpha:.0%} of the time), mean ± 95 % over the bootstrap runs; a run stops
at {MAX_SETS} sets; each arm's units moved to the pair's common truth
(0 for {', '.join(' and '.join(p) for p in sorted(COPIES))}, two copies of one bot; else the mean of the two
estimates above); the last column compares every pair with the arm before.

| arm | every pair | {' | '.join(names)} | every pair / before |
|---|---|{'---|' * len(pairs)}---|
{chr(10).join(settle_rows)}
"""
    print(body)
    if not args.no_record:
        write_section(SECTION, body)


if __name__ == "__main__":
    main()
