"""A value correction at Gnadenlos!'s chance events, measured: `python -m bench chance_value`.

AIVAT's correction (Burch et al., "AIVAT: a new variance reduction technique
for agent evaluation in imperfect information games", AAAI 2018) at chance
events only, as Leduc's referee takes it out of every hand (rules L-7.5):
after every step, what the step's chance made of a value v, beyond what the
same actions make of it on average,

    C = sum over steps of v(the step's outcome) - mean over K redraws of v,

has expectation 0 whatever the bots do, so x - C estimates the same mean
as the pair's result x. A redraw applies the same actions to the position
before the step with everything nobody has seen drawn again: the chance
streams (docs/chance.md), the order of both decks, and which IOU lies in
which of the market's slots dealt face down at setup (G-2.3); a step
without chance gives back the same position, whose difference is 0. K
redraws estimate the mean without bias, so C keeps its expectation 0.

v of a pair (a, b) is the chance that a finishes ahead of b, modelled from
the MCTS bot's static evaluation of an unfinished match (field, then
nuggets net of the seat's IOUs in the market, then adventurers; three
vultures last: referee.games.gnadenlos.strategy.search.evaluate) as
1 / (1 + exp(-k (e_a - e_b))), for a few scales k.

The roster plays in this process with the engine alone (no referee, no
record): two random bots and two copies of the heuristic at four seats,
seated at random, every cyclic rotation of one deal (a duplicate set).
For each pair the bench gives the share of x's variance that x - C and
x - beta C keep (beta the regression of x on C over the same matches: the
best any multiple of this correction could do, 1 - corr^2), over single
matches (each set's first rotation) and over whole duplicate sets. The
matches a verdict needs grow with that share (docs/ladder.md, "Less luck
per match").
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bench.recording import machine_summary, write_section
from referee.games import load_game
from referee.games.base import Action, ChanceStream, State
from referee.games.gnadenlos.market import EMPTY
from referee.games.gnadenlos.state import GnadenlosState
from referee.games.gnadenlos.strategy import STRATEGY
from referee.games.gnadenlos.strategy.search import evaluate

SECTION = "A value correction at Gnadenlos!'s chance events"
ROSTER = ("heuristic", "heuristic-b", "random", "random-b")
SEATS = 4
SCALES = (0.1, 0.2, 0.4)
"""k: the evaluation's difference that makes a 73 % favourite is 1 / k (10, 5, 2.5 fields)."""
REDRAWS = 6
LIMIT = 60.0
"""|e_a - e_b| is capped here before the logistic (three vultures score -1000)."""

Pair = tuple[str, str]


def redraw(state: GnadenlosState, rng: random.Random) -> GnadenlosState:
    """The position with everything nobody has seen drawn again."""
    again = state.clone()
    again.rng_die = ChanceStream(rng.getrandbits(63))
    again.rng_adv = ChanceStream(rng.getrandbits(63))
    again.rng_event = ChanceStream(rng.getrandbits(63))
    rng.shuffle(again.adv_deck)
    rng.shuffle(again.event_deck)
    unseen = [(r, c) for r, row in enumerate(again.market) for c, card in enumerate(row)
              if card != EMPTY and again.iou_known[card] == 0]
    cards = [again.market[r][c] for r, c in unseen]
    rng.shuffle(cards)
    for (r, c), card in zip(unseen, cards):
        again.market[r][c] = card
    return again


def pair_values(state: State) -> dict[tuple[int, int], list[float]]:
    """v per seat pair (a < b) and scale."""
    scores = evaluate(state)
    values = {}
    for a, b in itertools.combinations(range(len(scores)), 2):
        gap = max(-LIMIT, min(LIMIT, scores[a] - scores[b]))
        values[(a, b)] = [1 / (1 + math.exp(-k * gap)) for k in SCALES]
    return values


Policy = Callable[[GnadenlosState, int, tuple[Action, ...]], Action]


def heuristic() -> Policy:
    """The heuristic bot's choice, from its seat's observation."""
    player = STRATEGY.player()

    def choose(state: GnadenlosState, seat: int, legal: tuple[Action, ...]) -> Action:
        return player.decide(state.observe(seat), legal)

    return choose


def uniform(rng: random.Random) -> Policy:
    """The random bot's choice, with its own generator."""

    def choose(state: GnadenlosState, seat: int, legal: tuple[Action, ...]) -> Action:
        return rng.choice(legal)

    return choose


def policies(names: Sequence[str], rng: random.Random) -> list[Policy]:
    """Each seat's bot, by name."""
    return [heuristic() if name.startswith("heuristic") else uniform(random.Random(rng.getrandbits(32)))
            for name in names]


def play(names: Sequence[str], seed: int, rng: random.Random) -> dict[tuple[int, int], tuple[float, list[float]]]:
    """One match: per seat pair, a's result against b and C per scale."""
    state = load_game("gnadenlos").new_state(len(names), seed)
    assert isinstance(state, GnadenlosState)
    bots = policies(names, rng)
    corrections = {p: [0.0] * len(SCALES) for p in itertools.combinations(range(len(names)), 2)}
    while not state.is_terminal():
        actions = {}
        for seat in sorted(state.to_act()):
            legal = state.legal_actions(seat)
            actions[seat] = legal[0] if len(legal) == 1 else bots[seat](state, seat, legal)
        redrawn = [redraw(state, rng) for _ in range(REDRAWS)]
        for other in redrawn:
            other.apply_unchecked(actions)
        state.apply_unchecked(actions)
        actual, others = pair_values(state), [pair_values(o) for o in redrawn]
        for pair, summed in corrections.items():
            for i in range(len(SCALES)):
                summed[i] += actual[pair][i] - math.fsum(o[pair][i] for o in others) / REDRAWS
    ranks = state.outcome().ranks
    return {(a, b): (1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0, corrections[(a, b)])
            for a, b in corrections}


@dataclass
class Samples:
    """Per pair of names (sorted): (x, C per scale) of single matches and of whole sets."""

    single: dict[Pair, list[tuple[float, list[float]]]]
    duplicate: dict[Pair, list[tuple[float, list[float]]]]


def play_sets(count: int, seed: int) -> Samples:
    rng = random.Random(seed)
    samples = Samples({}, {})
    for _ in range(count):
        deal = rng.getrandbits(62)
        seating = list(ROSTER)
        rng.shuffle(seating)
        per_pair: dict[Pair, list[tuple[float, list[float]]]] = {}
        for rotation in range(SEATS):
            names = [seating[(s + rotation) % SEATS] for s in range(SEATS)]
            for (a, b), (x, c) in play(names, deal, rng).items():
                pair = (names[a], names[b])
                key = tuple(sorted(pair))
                seen = (x, c) if pair == key else (1 - x, [-v for v in c])
                per_pair.setdefault(key, []).append(seen)  # type: ignore[arg-type]
        for key, results in per_pair.items():
            samples.single.setdefault(key, []).append(results[0])
            mean_c = [statistics.fmean(c[i] for _, c in results) for i in range(len(SCALES))]
            samples.duplicate.setdefault(key, []).append((statistics.fmean(x for x, _ in results), mean_c))
    return samples


def kept(rows: Sequence[tuple[float, list[float]]], scale: int) -> tuple[float, float, float, float]:
    """Var(x), Var(x - C), Var(x - beta C) and corr(x, C) at one scale."""
    xs = [x for x, _ in rows]
    cs = [c[scale] for _, c in rows]
    spread = statistics.pvariance(xs)
    if spread == 0 or statistics.pvariance(cs) == 0:
        return spread, spread, spread, 0.0
    corr = statistics.correlation(xs, cs)
    return spread, statistics.pvariance([x - c for x, c in zip(xs, cs)]), spread * (1 - corr**2), corr


def table(samples: Samples) -> list[str]:
    rows = []
    for label, found in (("single", samples.single), ("duplicate", samples.duplicate)):
        pooled = [[0.0, 0.0, 0.0] for _ in SCALES]
        for pair in sorted(found):
            cells = []
            for i in range(len(SCALES)):
                spread, raw, best, corr = kept(found[pair], i)
                pooled[i][0] += spread
                pooled[i][1] += raw
                pooled[i][2] += best
                cells.append(f"{raw / spread:.2f} / {best / spread:.2f} ({corr:+.2f})" if spread else "—")
            rows.append(f"| {label} | {pair[0]} – {pair[1]} | {len(found[pair])} | "
                        f"{statistics.pvariance([x for x, _ in found[pair]]):.4f} | {' | '.join(cells)} |")
        cells = [f"**{raw / spread:.2f} / {best / spread:.2f}**" for spread, raw, best in pooled]
        rows.append(f"| {label} | every pair, pooled | | | {' | '.join(cells)} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2811)
    parser.add_argument("--no-record", action="store_true", help="print without writing docs/benchmarks.md")
    args = parser.parse_args()
    start = time.perf_counter()
    samples = play_sets(args.sets, args.seed)
    seconds = time.perf_counter() - start
    heads = " | ".join(f"k = {k}: x − C / x − βC (corr)" for k in SCALES)
    body = f"""{machine_summary()}; {args.sets} duplicate sets of {SEATS} seats ({args.sets * SEATS} matches) in {seconds:.0f} s, {REDRAWS} redraws a step.

The share of a pair's variance that a value correction at every chance
event keeps (bench/chance_value_bench.py): x − C with the correction as it
is, and x − βC with the best multiple of it (β the regression over these
matches, 1 − corr²: more than any real run could learn). v is the MCTS
bot's static evaluation as a chance of finishing ahead, at three scales k.
Bots: two random bots and two copies of the heuristic, in this process.
Single matches are each set's first rotation; var x is a match's (a set's)
variance of the pair's result.

| sets as | pair | n | var x | {heads} |
|---|---|---|---|{'---|' * len(SCALES)}
{chr(10).join(table(samples))}
"""
    print(body)
    if not args.no_record:
        write_section(SECTION, body)


if __name__ == "__main__":
    main()
