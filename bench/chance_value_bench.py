"""A value correction at every chance event, measured: `python -m bench chance_value`.

AIVAT's correction (Burch et al., "AIVAT: a new variance reduction technique
for agent evaluation in imperfect information games", AAAI 2018) at chance
events only, as Leduc's referee takes it out of every hand (rules L-7.5):
after every step, what the step's chance made of a value v, beyond what the
same actions make of it on average,

    C = sum over steps of v(the step's outcome) - mean over K redraws of v,

has expectation 0 whatever the bots do, so x - C estimates the same mean
as the pair's result x. A redraw applies the same actions to the position
before the step with everything nobody has seen drawn again: the chance
streams (docs/chance.md), so every shuffle, draw and roll still to come;
the order of the decks; Gnadenlos!'s IOUs dealt face down into the market
(G-2.3); Saboteur's face-down goals that no map has shown (S-2.2, S-5.4).
A step without chance gives back the same position, whose difference is 0.
The deal itself is the first chance event: its v against K other deals'.
K redraws estimate the mean without bias, so C keeps its expectation 0.

v of a pair (a, b) is the chance that a finishes ahead of b, modelled from
what the MCTS bot reads of an unfinished match: in Gnadenlos! its static
evaluation (field, then nuggets net of the seat's IOUs in the market, then
adventurers; three vultures last) through a logistic, 1 / (1 + exp(-k
(e_a - e_b))); in Saboteur the expected nugget totals after the round with
a normal spread for the rounds to come (referee.games.saboteur.strategy.
search.estimate's, scaled by k), 1/2 (1 + erf((m_a - m_b) / (2 k sigma))).
A few scales k each.

The rosters play in this process with the engine alone (no referee, no
record): random bots and copies of the heuristic, seated at random, every
cyclic rotation of one deal (a duplicate set). For each pair the bench
gives the share of x's variance that x - C and x - beta C keep (beta the
regression of x on C over the same matches: the best any multiple of this
correction could do, 1 - corr^2), over single matches (each set's first
rotation) and over whole duplicate sets. The matches a verdict needs grow
with that share (docs/ladder.md, "Less luck per match").
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
from referee.games.base import Action, ChanceStream, Event, State
from referee.games.gnadenlos.market import EMPTY
from referee.games.gnadenlos.state import GnadenlosState
from referee.games.gnadenlos.strategy import STRATEGY as GNADENLOS_STRATEGY
from referee.games.gnadenlos.strategy.search import evaluate
from referee.games.saboteur.cards import GOLD_CARD
from referee.games.saboteur.state import SaboteurState
from referee.games.saboteur.strategy import STRATEGY as SABOTEUR_STRATEGY
from referee.games.saboteur.strategy.search import ROUND_SPREAD, expected_totals
from referee.games.strategy import Player, Strategy

SECTION = "A value correction at every chance event"
REDRAWS = 6
"""Redraws a step (and other deals for the deal's own correction): more
narrow the estimate of the mean, none moves it."""
LIMIT = 60.0
"""|e_a - e_b| is capped here before Gnadenlos!'s logistic (three vultures score -1000)."""

Pair = tuple[str, str]
Values = dict[tuple[int, int], list[float]]
"""v per seat pair (a < b), one per scale."""


def redraw_gnadenlos(state: State, rng: random.Random) -> State:
    """The position with everything nobody has seen drawn again."""
    assert isinstance(state, GnadenlosState)
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


def redraw_saboteur(state: State, rng: random.Random) -> State:
    """The position with everything nobody has seen drawn again (a goal a
    map showed someone stays where it is; the others trade places)."""
    assert isinstance(state, SaboteurState)
    again = state.clone()
    again.streams = {name: ChanceStream(rng.getrandbits(63)) for name in again.streams}
    rng.shuffle(again.pile)
    unseen = unseen_goals(again)
    cards = [again.goals[i] for i in unseen]
    rng.shuffle(cards)
    for i, card in zip(unseen, cards):
        again.goals[i] = card
        again.cells[again.cfg.goal_cells[i]] = (card, False)
    return again


def values_gnadenlos(state: State, scales: Sequence[float]) -> Values:
    scores = evaluate(state)
    values = {}
    for a, b in itertools.combinations(range(len(scores)), 2):
        gap = max(-LIMIT, min(LIMIT, scores[a] - scores[b]))
        values[(a, b)] = [1 / (1 + math.exp(-k * gap)) for k in scales]
    return values


def unseen_goals(state: SaboteurState) -> list[int]:
    """The goal slots whose card nobody has seen (face down, shown by no map)."""
    return [i for i, up in enumerate(state.goal_up) if not up and state.known[state.goals[i]] == 0]


def values_saboteur(state: State, scales: Sequence[float]) -> Values:
    """From the expected totals averaged over where the gold may lie among
    the goals nobody has seen: a value must not know what the redraws draw
    anew, or every step would count the true layout's worth again."""
    assert isinstance(state, SaboteurState)
    unseen = unseen_goals(state)
    gold = [i for i in unseen if state.goals[i] == GOLD_CARD]
    layouts = []
    for place in unseen if gold else []:
        layout = state.clone()
        layout.goals[gold[0]], layout.goals[place] = layout.goals[place], layout.goals[gold[0]]
        layouts.append(layout)
    each = [expected_totals(s) for s in layouts or [state]]
    means = [statistics.fmean(t[seat] for t in each) for seat in range(state.n)]
    sigma = ROUND_SPREAD * math.sqrt(max(state.cfg.rounds - state.round + 1, 1))
    return {(a, b): [0.5 * (1 + math.erf((means[a] - means[b]) / (2 * k * sigma))) for k in scales]
            for a, b in itertools.combinations(range(len(means)), 2)}


@dataclass(frozen=True)
class Case:
    game: str
    roster: tuple[str, ...]
    scales: tuple[float, ...]
    scale_note: str
    strategy: Strategy
    redraw: Callable[[State, random.Random], State]
    values: Callable[[State, Sequence[float]], Values]

    @property
    def seats(self) -> int:
        return len(self.roster)


CASES = (
    Case("gnadenlos", ("heuristic", "heuristic-b", "random", "random-b"), (0.1, 0.2, 0.4),
         "k: the evaluation's difference that makes a 73 % favourite is 1 / k (10, 5, 2.5 fields)",
         GNADENLOS_STRATEGY, redraw_gnadenlos, values_gnadenlos),
    Case("saboteur", ("heuristic", "heuristic-b", "heuristic-c", "random", "random-b"), (0.5, 1.0, 2.0),
         "k multiplies the normal spread of the rounds to come (the MCTS bot's is k = 1)",
         SABOTEUR_STRATEGY, redraw_saboteur, values_saboteur),
)


class Seated:
    """A bot at one seat: the heuristic (told its seat's events, as the
    match loop tells it) or a random bot with its own generator."""

    def __init__(self, name: str, strategy: Strategy, rng: random.Random) -> None:
        self.player: Player | None = strategy.player() if name.startswith("heuristic") else None
        self.rng = rng

    def start(self, state: State, seat: int, events: Sequence[Event]) -> None:
        if self.player is not None:
            self.player.start(state.observe(seat))
            self.tell(seat, events)

    def tell(self, seat: int, events: Sequence[Event]) -> None:
        if self.player is not None:
            self.player.on_events([e for e in events if seat in e.visible_to])

    def choose(self, state: State, seat: int, legal: tuple[Action, ...]) -> Action:
        if self.player is None:
            return self.rng.choice(legal)
        return self.player.decide(state.observe(seat), legal)


def play(case: Case, names: Sequence[str], seed: int,
         rng: random.Random) -> dict[tuple[int, int], tuple[float, list[float]]]:
    """One match: per seat pair, a's result against b and C per scale."""
    game = load_game(case.game)
    state, setup = game.new_state_with_events(len(names), seed)
    bots = [Seated(name, case.strategy, random.Random(rng.getrandbits(32))) for name in names]
    for seat, bot in enumerate(bots):
        bot.start(state, seat, setup)
    # the deal is the first chance event: its worth beyond that of other deals
    dealt = case.values(state, case.scales)
    others = [case.values(game.new_state(len(names), rng.getrandbits(62)), case.scales) for _ in range(REDRAWS)]
    corrections = {pair: [dealt[pair][i] - math.fsum(o[pair][i] for o in others) / REDRAWS
                          for i in range(len(case.scales))] for pair in dealt}
    while not state.is_terminal():
        actions = {}
        for seat in sorted(state.to_act()):
            legal = state.legal_actions(seat)
            actions[seat] = legal[0] if len(legal) == 1 else bots[seat].choose(state, seat, legal)
        redrawn = [case.redraw(state, rng) for _ in range(REDRAWS)]
        for other in redrawn:
            other.apply_unchecked(actions)
        events = state.apply(actions)
        for seat, bot in enumerate(bots):
            bot.tell(seat, events)
        actual = case.values(state, case.scales)
        others = [case.values(o, case.scales) for o in redrawn]
        for pair, summed in corrections.items():
            for i in range(len(case.scales)):
                summed[i] += actual[pair][i] - math.fsum(o[pair][i] for o in others) / REDRAWS
    ranks = state.outcome().ranks
    return {(a, b): (1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0, corrections[(a, b)])
            for a, b in corrections}


@dataclass
class Samples:
    """Per pair of names (sorted): (x, C per scale) of single matches and of whole sets."""

    single: dict[Pair, list[tuple[float, list[float]]]]
    duplicate: dict[Pair, list[tuple[float, list[float]]]]


def play_sets(case: Case, count: int, seed: int) -> Samples:
    rng = random.Random(seed)
    samples = Samples({}, {})
    for _ in range(count):
        deal = rng.getrandbits(62)
        seating = list(case.roster)
        rng.shuffle(seating)
        per_pair: dict[Pair, list[tuple[float, list[float]]]] = {}
        for rotation in range(case.seats):
            names = [seating[(s + rotation) % case.seats] for s in range(case.seats)]
            for (a, b), (x, c) in play(case, names, deal, rng).items():
                key = (min(names[a], names[b]), max(names[a], names[b]))
                seen = (x, c) if names[a] == key[0] else (1 - x, [-v for v in c])
                per_pair.setdefault(key, []).append(seen)
        for key, results in per_pair.items():
            samples.single.setdefault(key, []).append(results[0])
            mean_c = [statistics.fmean(c[i] for _, c in results) for i in range(len(case.scales))]
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


def table(case: Case, samples: Samples) -> list[str]:
    heads = " | ".join(f"k = {k}: x − C / x − βC (corr)" for k in case.scales)
    rows = [f"| {case.game} | sets as | pair | n | var x | {heads} |",
            f"|---|---|---|---|---|{'---|' * len(case.scales)}"]
    for label, found in (("single", samples.single), ("duplicate", samples.duplicate)):
        pooled = [[0.0, 0.0, 0.0] for _ in case.scales]
        for pair in sorted(found):
            cells = []
            for i in range(len(case.scales)):
                spread, raw, best, corr = kept(found[pair], i)
                pooled[i][0] += spread
                pooled[i][1] += raw
                pooled[i][2] += best
                cells.append(f"{raw / spread:.2f} / {best / spread:.2f} ({corr:+.2f})" if spread else "—")
            rows.append(f"| {case.game} | {label} | {pair[0]} – {pair[1]} | {len(found[pair])} | "
                        f"{statistics.pvariance([x for x, _ in found[pair]]):.4f} | {' | '.join(cells)} |")
        cells = [f"**{raw / spread:.2f} / {best / spread:.2f}**" for spread, raw, best in pooled]
        rows.append(f"| {case.game} | {label} | every pair, pooled | | | {' | '.join(cells)} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=float, default=1.0, help="scale the sets played (1: 1,000 Gnadenlos!, 300 Saboteur)")
    parser.add_argument("--games", default="gnadenlos,saboteur")
    parser.add_argument("--seed", type=int, default=2811)
    parser.add_argument("--no-record", action="store_true", help="print without writing docs/benchmarks.md")
    args = parser.parse_args()
    notes, tables = [], []
    for case, sets in zip(CASES, (1000, 300)):
        if case.game not in args.games.split(","):
            continue
        count = max(10, round(sets * args.sets))
        start = time.perf_counter()
        samples = play_sets(case, count, args.seed)
        notes.append(f"{case.game}: {count} duplicate sets of {case.seats} seats in {time.perf_counter() - start:.0f} s")
        tables.append("\n".join([f"{case.game}: {', '.join(case.roster)}; {case.scale_note}.", "", *table(case, samples)]))
    body = f"""{machine_summary()}; {'; '.join(notes)}; {REDRAWS} redraws a step.

The share of a pair's variance that a value correction at every chance
event keeps (bench/chance_value_bench.py): x − C with the correction as it
is, and x − βC with the best multiple of it (β the regression over these
matches, 1 − corr²: more than any real run could learn). v is what the
MCTS bot reads of an unfinished match, as a chance of finishing ahead, at
three scales k. Bots: random bots and copies of the heuristic, in this
process. Single matches are each set's first rotation; var x is a match's
(a set's) variance of the pair's result.

{(chr(10) * 2).join(tables)}
"""
    print(body)
    if not args.no_record:
        write_section(SECTION, body)


if __name__ == "__main__":
    main()
