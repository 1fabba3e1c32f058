"""What the reviewer's fixes cost the Gnadenlos! engine (issue 20, "Measure").

Runs `referee simulate` (random players, 4 seats, in-process) under the base
rules and under each variant of docs/balance-gnadenlos.md side by side, in
rounds that visit every rule set in turn (so load on the shared machine
falls on all of them alike), and reports:

- games per second and decisions per game of `simulate` itself;
- microseconds per decision by kind (bid, pick, commit, take, buy, refill,
  final_buy, and the single-card auction's bid_position and order, G-6.7):
  choosing it (legal_actions) plus applying it with the automatic steps
  that follow (apply_unchecked), the kind read off the clock;
- each kind's cost under a variant as a ratio to the base rules' — the
  target is at most 1.10 — and games per second against what the extra
  decisions alone would cost (a single-card auction asks more bids per
  game; games per second may fall by that, and by no more).

Times are the process's CPU time; per kind the best round counts (other
load only ever adds). Prints the tables and rewrites the "Gnadenlos
variants" section of docs/benchmarks.md (unless --no-record).

    python -m bench variants [--games N] [--rounds N] [--no-record]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rich.console import Console
from rich.table import Table

from bench.balance_gnadenlos import RULE_SETS
from bench.recording import machine_summary, write_section
from referee.games import Game, load_game
from referee.simulation import simulate

SECTION = "Gnadenlos variants"
CLOCK = time.process_time
SEATS = 4
SEED = 7
TARGET = 1.10
KINDS = ("bid", "pick", "commit", "take", "buy", "bid_position", "order", "refill", "final_buy")


@dataclass
class Measured:
    """One rule set's figures, accumulated over rounds."""

    simulate_seconds: list[float] = field(default_factory=list)
    games: int = 0
    decisions: int = 0
    kind_ns: dict[str, list[float]] = field(default_factory=dict)
    """Per kind, each round's nanoseconds per decision."""
    choose_ns: dict[str, list[float]] = field(default_factory=dict)
    """Per kind, each round's nanoseconds of legal_actions alone per decision."""
    kind_count: Counter[str] = field(default_factory=Counter)

    @property
    def games_per_second(self) -> float:
        """The best round's: `simulate`'s CPU time for its games."""
        return (self.games / len(self.simulate_seconds)) / min(self.simulate_seconds)

    @property
    def decisions_per_game(self) -> float:
        return self.decisions / self.games

    def micros(self, kind: str, choosing: bool = False) -> float:
        return min((self.choose_ns if choosing else self.kind_ns)[kind]) / 1e3


def time_simulate(game: Game, variant: Mapping[str, str], games: int, seed: int) -> tuple[float, int]:
    """`simulate`'s CPU seconds for `games` random matches, and their decisions."""
    start = CLOCK()
    report = simulate(game.configure(game.make_rule_set(variant)), SEATS, games, seed)
    return CLOCK() - start, sum(report.decisions)


def time_by_kind(game: Game, variant: Mapping[str, str], games: int,
                 seed: int) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """Nanoseconds (all, and legal_actions alone) and decisions by kind over `games` random matches."""
    spent: Counter[str] = Counter()
    choosing: Counter[str] = Counter()
    count: Counter[str] = Counter()
    rng = random.Random(seed)
    clock = CLOCK
    game = game.configure(game.make_rule_set(variant))
    for i in range(games):
        state = game.new_state(SEATS, seed + i)
        while not state.is_terminal():
            kind = str(getattr(state.observe(0), "phase", "?"))
            start = clock()
            legal = {seat: state.legal_actions(seat) for seat in state.to_act()}
            chosen = clock()
            state.apply_unchecked({seat: rng.choice(actions) for seat, actions in legal.items()})
            spent[kind] += round((clock() - start) * 1e9)
            choosing[kind] += round((chosen - start) * 1e9)
            count[kind] += 1
    return spent, choosing, count


def measure(names: Sequence[str], games: int, rounds: int) -> dict[str, Measured]:
    game = load_game("gnadenlos")
    results = {name: Measured() for name in names}
    for r in range(rounds):
        seed = SEED + r * games  # each round new matches, the same for every rule set
        for name in names:
            variant = RULE_SETS[name]
            seconds, decisions = time_simulate(game, variant, games, seed)
            m = results[name]
            m.simulate_seconds.append(seconds)
            m.games += games
            m.decisions += decisions
            spent, choosing, count = time_by_kind(game, variant, games, seed)
            for kind, ns in spent.items():
                m.kind_ns.setdefault(kind, []).append(ns / count[kind])
                m.choose_ns.setdefault(kind, []).append(choosing[kind] / count[kind])
            m.kind_count.update(count)
    return results


def ratio_text(value: float) -> str:
    return f"{value:.2f}×" + ("" if value <= TARGET else " (over)")


def tables(results: Mapping[str, Measured],
           choosing: bool = False) -> tuple[list[list[str]], list[list[str]], list[str]]:
    """(games table rows, µs-per-kind rows, kinds shown); `choosing`: legal_actions alone."""
    base = results["base"]
    kinds = [k for k in KINDS if any(k in m.kind_ns for m in results.values())]
    games_rows = []
    for name, m in results.items():
        gps_ratio = m.games_per_second / base.games_per_second
        expected = base.decisions_per_game / m.decisions_per_game
        games_rows.append([
            name, f"{m.games_per_second:.0f}", f"{m.decisions_per_game:.1f}", f"{gps_ratio:.2f}×",
            f"{expected:.2f}×", f"{gps_ratio / expected:.2f}×",
        ])
    kind_rows = []
    for name, m in results.items():
        row = [name]
        for kind in kinds:
            if kind not in m.kind_ns:
                row.append("–")
            elif kind not in base.kind_ns:
                row.append(f"{m.micros(kind, choosing):.0f} (new)")
            else:
                ratio = m.micros(kind, choosing) / base.micros(kind, choosing)
                row.append(f"{m.micros(kind, choosing):.0f}" + ("" if name == "base" else f" ({ratio_text(ratio)})"))
        kind_rows.append(row)
    return games_rows, kind_rows, kinds


GAMES_HEADER = ["rule set", "games/s", "decisions/game", "games/s vs base", "expected from decisions",
                "games/s vs expected"]


def markdown(rows: Sequence[Sequence[str]], header: Sequence[str]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
            *("| " + " | ".join(row) + " |" for row in rows)]


def verdict(results: Mapping[str, Measured], choosing: bool = False) -> str:
    base = results["base"]
    worst = max(((m.micros(k, choosing) / base.micros(k, choosing), name, k) for name, m in results.items()
                 if name != "base" for k in m.kind_ns if k in base.kind_ns), default=(1.0, "", ""))
    met = worst[0] <= TARGET
    what = "choosing" if choosing else "every kind"
    return (f"Target ({what}): within {TARGET:.2f}× of the base rules' — {'met' if met else 'not met'}; the "
            f"highest ratio is {worst[0]:.2f}× ({worst[2]} under {worst[1]}).")


def record(results: Mapping[str, Measured], games: int, rounds: int) -> None:
    games_rows, kind_rows, kinds = tables(results)
    variants = "; ".join(f"{n}: `{', '.join(f'{k}={v}' for k, v in RULE_SETS[n].items()) or 'base rules'}`"
                         for n in results)
    body = "\n".join([
        f"Measured by `python -m bench variants` (bench/variants_bench.py) on {machine_summary()}.",
        f"`referee simulate` with random players at {SEATS} seats under each rule set of",
        "[docs/balance-gnadenlos.md](balance-gnadenlos.md), side by side: "
        f"{rounds} rounds, each playing {games} new matches under every rule set in turn (the same deals",
        "for all); CPU time of this process; the best round counts. Rule sets: " + variants + ".",
        "",
        "Games per second of `simulate` (the deal, the decisions, the summary), and what the extra decisions alone",
        "would make of the base rules' rate (base decisions per game / the variant's): the last column is 1 when a",
        "variant costs exactly its extra decisions.",
        "",
        *markdown(games_rows, GAMES_HEADER),
        "",
        "Microseconds per decision by kind (choosing it with legal_actions and applying it with the automatic steps",
        "that follow), with each variant's ratio to the base rules; bid_position and order exist only under",
        "`auction=single` ([G-6.7](rules/gnadenlos.md)).",
        "",
        *markdown(kind_rows, ["rule set", *kinds]),
        "",
        verdict(results),
        "",
        "A decision's cost includes the automatic steps after it, and these differ by rule: under `auction=single`",
        "the last bid on a card also hands the card over and places the bids in the market (a `pick` under the",
        "base rules), and a `buy` is no longer followed by dealing a whole auction's lots. Choosing alone",
        "(legal_actions), the same work under every rule set:",
        "",
        *markdown(tables(results, choosing=True)[1], ["rule set", *kinds]),
        "",
        verdict(results, choosing=True),
    ])
    write_section(SECTION, body)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150, help="matches per rule set and round (default 150)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over every rule set (default 3)")
    parser.add_argument("--no-record", action="store_true", help="do not rewrite docs/benchmarks.md")
    args = parser.parse_args(argv)
    game = load_game("gnadenlos")
    names = []
    for name, variant in RULE_SETS.items():  # a variant the engine does not have yet is left out, said
        try:
            game.make_rule_set(variant)
            names.append(name)
        except ValueError as exc:
            print(f"skipping {name}: {exc}")
    results = measure(names, args.games, args.rounds)
    games_rows, kind_rows, kinds = tables(results)
    console = Console(width=170)
    for title, header, rows in (("simulate, by rule set", GAMES_HEADER, games_rows),
                                ("µs per decision by kind", ["rule set", *kinds], kind_rows)):
        table = Table(title=title)
        for column in header:
            table.add_column(column)
        for row in rows:
            table.add_row(*row)
        console.print(table)
    console.print(verdict(results))
    choose = Table(title="µs per decision by kind, legal_actions alone")
    for column in ["rule set", *kinds]:
        choose.add_column(column)
    for row in tables(results, choosing=True)[1]:
        choose.add_row(*row)
    console.print(choose)
    console.print(verdict(results, choosing=True))
    if not args.no_record:
        record(results, args.games, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
