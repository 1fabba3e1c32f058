"""Speed of the Leduc poker engine against OpenSpiel's, side by side (issue 12).

The same work in both, in one process, on one core, from Python (OpenSpiel's
engine is C++ behind its Python bindings, `pyspiel`; ours is Python):

- random complete matches per second from a fresh deal, for 2, 4 and 10
  players: our `new_state` (the shuffle from the seed's stream) then
  `legal_actions` + `apply_unchecked` with uniformly random choices; theirs
  `new_initial_state`, every chance outcome (the private cards, the public
  card) drawn uniformly from its legal outcomes, then `legal_actions` +
  `apply_action` with uniformly random choices;
- random playouts from a cloned position, the loop an MCTS bot runs: a
  position met in random play, `clone()`, then random decisions to the end;
- per call: a seat's information (our `observe(seat)` against OpenSpiel's
  `information_state_string(seat)`) and `clone()`.

The two are measured alternately, `--repeat` times, and each figure is the
median of its runs, so a change of load on the machine falls on both; the
ratio is ours / OpenSpiel's. Prints a table and rewrites the "Leduc poker"
section of docs/benchmarks.md (unless --no-record). Needs the open_spiel
package (the dev extra).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` and `referee` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel
from rich.console import Console
from rich.table import Table

from bench.recording import machine_summary, write_section
from referee.games.leduc import GAME
from referee.games.leduc.state import LeducState

SECTION = "Leduc poker"
CLOCK = time.process_time
"""CPU time of this process: other load on the shared cores does not count."""
TABLES = (2, 4, 10)
Row = tuple[str, str, str, str, str]


def ours_matches(players: int, count: int, seed: int) -> int:
    rng = random.Random(seed)
    for match in range(count):
        state = GAME.new_state(players, seed + match)
        while not state.is_terminal():
            (seat,) = state.to_act()
            legal = state.legal_actions(seat)
            state.apply_unchecked({seat: legal[rng.randrange(len(legal))]})
    return count


def theirs_matches(game: Any, count: int, seed: int) -> int:
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()  # chance outcomes at a chance node, all equally likely
            state.apply_action(legal[rng.randrange(len(legal))])
    return count


def positions(players: int, count: int, seed: int, theirs: Any) -> list[tuple[LeducState, Any]]:
    """Positions met in random matches, at a random decision, in both
    implementations (OpenSpiel dealt the same cards, given the same moves)."""
    rng = random.Random(seed)
    found: list[tuple[LeducState, Any]] = []
    while len(found) < count:
        ours = GAME.new_state(players, rng.getrandbits(32))
        assert isinstance(ours, LeducState)
        state = theirs.new_initial_state()
        for card in ours.hands:
            state.apply_action(card)
        moves = rng.randrange(3)
        while moves and not ours.is_terminal():
            (seat,) = ours.to_act()
            move = rng.choice(ours.legal_actions(seat))
            ours.apply_unchecked({seat: move})
            state.apply_action(move.code)  # type: ignore[attr-defined]
            if state.is_chance_node():
                state.apply_action(ours.public)
            moves -= 1
        if not ours.is_terminal():
            found.append((ours, state))
    return found


def ours_playouts(start: list[tuple[LeducState, Any]], rng: random.Random) -> int:
    for position, _ in start:
        state = position.clone()
        while not state.is_terminal():
            (seat,) = state.to_act()
            legal = state.legal_actions(seat)
            state.apply_unchecked({seat: legal[rng.randrange(len(legal))]})
    return len(start)


def theirs_playouts(start: list[tuple[LeducState, Any]], rng: random.Random) -> int:
    for _, position in start:
        state = position.clone()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return len(start)


def ours_observe(start: list[tuple[LeducState, Any]]) -> int:
    calls = 0
    for position, _ in start:
        for seat in range(position.players):
            position.observe(seat)
            calls += 1
    return calls


def theirs_information(start: list[tuple[LeducState, Any]]) -> int:
    calls = 0
    for _, position in start:
        for seat in range(position.num_players()):
            position.information_state_string(seat)
            calls += 1
    return calls


def ours_clone(start: list[tuple[LeducState, Any]]) -> int:
    for position, _ in start:
        position.clone()
    return len(start)


def theirs_clone(start: list[tuple[LeducState, Any]]) -> int:
    for _, position in start:
        position.clone()
    return len(start)


def side_by_side(ours: Callable[[], int], theirs: Callable[[], int], repeat: int) -> tuple[float, float]:
    """(our rate, their rate) per CPU second: medians of `repeat` alternated runs."""
    our_rates: list[float] = []
    their_rates: list[float] = []
    for _ in range(repeat):
        for run, rates in ((ours, our_rates), (theirs, their_rates)):
            start = CLOCK()
            units = run()
            rates.append(units / (CLOCK() - start))
    return statistics.median(our_rates), statistics.median(their_rates)


def rate_row(what: str, ours: float, theirs: float, unit: str) -> Row:
    return what, f"{ours:,.0f}", f"{theirs:,.0f}", f"{ours / theirs:.2f}", unit


def time_row(what: str, ours: float, theirs: float) -> Row:
    """Per-call times from rates; the ratio is still ours / OpenSpiel's speed."""
    return what, f"{1e6 / ours:.2f} µs", f"{1e6 / theirs:.2f} µs", f"{ours / theirs:.2f}", "per call"


def measure(args: argparse.Namespace) -> list[Row]:
    rows: list[Row] = []
    for players in TABLES:
        theirs = pyspiel.load_game("leduc_poker", {"players": players})
        ours_rate, theirs_rate = side_by_side(lambda: ours_matches(players, args.matches, args.seed),
                                              lambda: theirs_matches(theirs, args.matches, args.seed), args.repeat)
        rows.append(rate_row(f"{players} players: random matches from a fresh deal", ours_rate, theirs_rate,
                             "matches/s"))
        start = positions(players, args.positions, args.seed, theirs)
        rng = random.Random(args.seed)
        ours_rate, theirs_rate = side_by_side(lambda: ours_playouts(start, rng), lambda: theirs_playouts(start, rng),
                                              args.repeat)
        rows.append(rate_row(f"{players} players: clone + random playout", ours_rate, theirs_rate, "playouts/s"))
        ours_rate, theirs_rate = side_by_side(lambda: ours_observe(start), lambda: theirs_information(start),
                                              args.repeat)
        rows.append(time_row(f"{players} players: observe(seat) / information_state_string(seat)",
                             ours_rate, theirs_rate))
        ours_rate, theirs_rate = side_by_side(lambda: ours_clone(start), lambda: theirs_clone(start), args.repeat)
        rows.append(time_row(f"{players} players: clone()", ours_rate, theirs_rate))
    return rows


def report(rows: list[Row], args: argparse.Namespace) -> str:
    load = os.getloadavg()[0]
    lines = [
        f"Measured by `python -m bench leduc` on {machine_summary()}; OpenSpiel {pyspiel.__version__}.",
        "One process, one core, CPU time (time.process_time). Both engines driven from Python with the same "
        "loop, alternately, each figure the median of "
        f"{args.repeat} runs ({args.matches} matches, {args.positions} positions per table size); ratio = ours / "
        f"OpenSpiel's speed (below 1: ours is slower). OpenSpiel's engine is C++ behind its Python bindings; ours "
        f"is Python. OpenSpiel's matches include its chance nodes (one per card dealt), ours deal from the "
        f"shuffle. Load average (1 min) at the end: {load:.1f}.",
        "",
        "| figure | ours | OpenSpiel | ratio | unit |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {' | '.join(row)} |" for row in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3000, help="matches per run and table size")
    parser.add_argument("--positions", type=int, default=1000, help="positions per table size")
    parser.add_argument("--repeat", type=int, default=5, help="alternated runs; figures are their medians")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-record", action="store_true", help="do not rewrite docs/benchmarks.md")
    args = parser.parse_args(argv)
    rows = measure(args)
    table = Table(title=f"{SECTION}: ours against OpenSpiel")
    for column in ("figure", "ours", "OpenSpiel", "ratio", "unit"):
        table.add_column(column, justify="left" if column in ("figure", "unit") else "right")
    for row in rows:
        table.add_row(*row)
    Console().print(table)
    if not args.no_record:
        write_section(SECTION, report(rows, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
