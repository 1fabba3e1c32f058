"""The balance study of docs/balance.md: who wins, and how matches end, with
the built-in heuristic at every seat.

Random players tell a designer little (random Saboteur gold-diggers never
reach the gold, so the saboteurs win almost every round); the heuristic
plays each game the way its docs/bots.md describes, from its own seat's
observation and events. This plays `referee simulate --policy heuristic` for
Saboteur at every table size from 3 to 10 and for Gnadenlos! at 3 and 4, and
writes the tables, each figure with its 95 % interval, into docs/balance.md.

    make balance                    # or: python -m bench.balance_study [--games N]

Same seeds, same tables (apart from the timing line).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from referee.files import write_atomically
from referee.games import load_game
from referee.simulation import SimulationReport, simulate

DOC = Path(__file__).resolve().parents[1] / "docs" / "balance.md"
SEED = 20261125


def run(game: str, players: int, games: int) -> SimulationReport:
    rules = load_game(game)
    return simulate(rules, players, games, SEED, seating=("heuristic",) * players)


def pm(value: float, stderr: float, percent: bool = True) -> str:
    """"48.2 % ±2.0"": a mean and its 95 % interval's half-width."""
    if percent:
        return f"{100 * value:.1f} % ±{100 * 1.96 * stderr:.1f}"
    return f"{value:.1f} ±{1.96 * stderr:.1f}"


def seat_shares(report: SimulationReport) -> str:
    return " / ".join(f"{100 * share:.0f}" for share in report.seat_win_share)


def widest_seat_interval(report: SimulationReport) -> float:
    return max(1.96 * e for e in report.seat_win_share_stderr)


def saboteur_table(reports: Sequence[SimulationReport]) -> list[str]:
    lines = [
        "| seats | rounds won by the gold-diggers | by the saboteurs | by nobody | gold reached (rounds 1/2/3) "
        "| winner's nuggets | decisions per match | seat win shares, % (±95 %) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in reports:
        means, errs = r.fact_means, r.fact_stderr
        gold = " / ".join(f"{100 * g:.0f} %" for g in means["gold_reached"])  # type: ignore[union-attr]
        lines.append(
            f"| {r.players} | {pm(means['round_win_gold_diggers'], errs['round_win_gold_diggers'])}"  # type: ignore[arg-type]
            f" | {pm(means['round_win_saboteurs'], errs['round_win_saboteurs'])}"  # type: ignore[arg-type]
            f" | {pm(means['round_win_nobody'], errs['round_win_nobody'])}"  # type: ignore[arg-type]
            f" | {gold} | {pm(means['winner_nuggets'], errs['winner_nuggets'], percent=False)}"  # type: ignore[arg-type]
            f" | {sum(r.decisions) / r.games:.0f} | {seat_shares(r)} (±{100 * widest_seat_interval(r):.0f}) |"
        )
    return lines


def gnadenlos_table(reports: Sequence[SimulationReport]) -> list[str]:
    lines = [
        "| seats | ended by vultures (G-9.1 A) | undertaker (B) | goal (C) | safety valve (G-9.5) | turns "
        "| win share by turn order from the start player, % | seat win shares, % (±95 %) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in reports:
        ends = r.end_reasons
        n = r.games

        def share(reason: str) -> str:
            p = ends.get(reason, 0.0)
            return f"{100 * p:.1f} % ±{100 * 1.96 * math.sqrt(p * (1 - p) / n):.1f}"

        order = r.fact_means.get("turn_order_win_share", ())
        order_text = " / ".join(f"{100 * x:.0f}" for x in order) if isinstance(order, tuple) else ""
        lines.append(
            f"| {r.players} | {share('vultures')} | {share('undertaker')} | {share('goal')} | {share('safety_valve')}"
            f" | {r.turns_mean:.1f} | {order_text} | {seat_shares(r)} (±{100 * widest_seat_interval(r):.0f}) |"
        )
    return lines


def write(saboteur: Sequence[SimulationReport], gnadenlos: Sequence[SimulationReport], games: int,
          seconds: float) -> None:
    text = "\n".join([
        "# Balance with real players",
        "",
        "What a designer asks of a game — who wins, from which seat and in which role, and how matches",
        "end — answered with the built-in heuristic at every seat (`referee simulate --policy heuristic`:",
        "each seat decides from its own observation and the events it is told, as the heuristic bot does",
        "over the protocol; docs/bots.md says how it plays). Random players answer a different question",
        "(the game's structure without strategy; random Saboteur gold-diggers almost never reach the gold).",
        "Rule ids refer to [the Saboteur rules](rules/saboteur.md) and [the Gnadenlos! rules](rules/gnadenlos.md).",
        "",
        f"{games} matches per table, seeds {SEED}.., every figure with the half-width of its 95 % interval",
        "(normal approximation over matches). Reproduce with one command: `make balance`",
        f"(`python -m bench.balance_study --games {games}`; {seconds / 60:.0f} minutes here).",
        "",
        "## Saboteur: who wins at each table size, with heuristic players",
        "",
        "Rounds are won by a team (S-6.3 gold-diggers, S-6.4 saboteurs; with 3 or 4 seats a round can",
        "have no saboteur, S-2.1, and cards exhausted then pay nobody). Seat win shares are of the match",
        "(most nuggets after three rounds, S-7.2; a shared win is split).",
        "",
        *saboteur_table(saboteur),
        "",
        "## Gnadenlos!: how matches end and who wins, with heuristic players",
        "",
        "How a match ends (G-9.1: a third vulture, the undertaker reaching a settler, a settler reaching",
        "the goal; G-9.5 the safety valve), its length in turns, and the win share by turn order from the",
        "start player (G-2.5 draws the start player at random, so seat numbers alone hide a first-player",
        "advantage).",
        "",
        *gnadenlos_table(gnadenlos),
        "",
    ])
    write_atomically(DOC, text, mode=0o644)  # a page of the docs, for everyone


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="matches per table (default 1000)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    saboteur, gnadenlos = [], []
    for players in range(3, 11):
        saboteur.append(run("saboteur", players, args.games))
        print(f"saboteur {players}: done", file=sys.stderr, flush=True)
    for players in (3, 4):
        gnadenlos.append(run("gnadenlos", players, args.games))
        print(f"gnadenlos {players}: done", file=sys.stderr, flush=True)
    write(saboteur, gnadenlos, args.games, time.monotonic() - started)
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
