"""Speed of the Saboteur engine, in-process, on one core (issue 7).

Measures:
- random complete matches (three rounds) per second for 4, 7 and 10 players:
  a fresh deal, then legal_actions + apply_unchecked with uniformly random
  choices until the end;
- legal-move generation on the largest mazes met in play (path-heavy random
  play, 30-odd cards): legal_actions of a hand of path cards with cold caches
  (the candidate cells computed from scratch, as on a fresh position), the
  candidate cells alone (maze.frontier), and a placement (connectivity and the
  candidate cells kept up to date incrementally) against connectivity
  recomputed from the start, side by side;
- the candidate cells of a synthetic 20 x 20 maze of crossroads (400 cards),
  beyond any real match, to show the cost follows the maze's size, not a board's;
- microseconds per call of observe(), determinize(), clone() and apply().

Rates are the median of `--repeat` runs; per-call costs the best of
`--repeat` runs. Prints a table and rewrites the "Saboteur engine" section of
docs/benchmarks.md (unless --no-record). Run as `python bench/saboteur_bench.py`
or `python -m bench saboteur`.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench` and `referee` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console
from rich.table import Table

from bench.recording import machine_summary, write_section
from referee.games.saboteur import GAME, maze
from referee.games.saboteur.actions import PlacePath
from referee.games.saboteur.cards import EDGES, KIND_INDEX, CARD_KIND
from referee.games.saboteur.state import SaboteurState

SECTION = "Saboteur engine"
TABLES = (4, 7, 10)
Row = tuple[str, str, str]


def random_match(seats: int, seed: int) -> int:
    """One complete random match from a fresh deal; returns its decisions."""
    state = GAME.new_state(seats, seed)
    rng = random.Random(seed)
    decisions = 0
    while not state.is_terminal():
        (seat,) = state.to_act()
        state.apply_unchecked({seat: rng.choice(state.legal_actions(seat))})
        decisions += 1
    return decisions


def match_rate(seats: int, games: int, repeat: int, seed: int) -> tuple[float, float, float, float]:
    """(median, min, max matches per second, decisions per match) over `repeat` runs of fresh seeds."""
    rates: list[float] = []
    decisions = 0
    for run in range(repeat):
        start = time.process_time()
        for k in range(games):
            decisions += random_match(seats, seed + run * games + k)
        rates.append(games / (time.process_time() - start))
    return statistics.median(rates), min(rates), max(rates), decisions / (games * repeat)


MIN_CPU_SECONDS = 0.2
"""Each per-call figure repeats its work until it has used this much CPU time,
far above the clock's resolution."""


def best_per_call(run: Callable[[], int], repeat: int) -> float:
    """Microseconds per call: the fastest of `repeat` runs, each repeating `run`
    (which returns its call count) for at least MIN_CPU_SECONDS."""
    best = float("inf")
    for _ in range(repeat):
        calls = 0
        start = time.process_time()
        while time.process_time() - start < MIN_CPU_SECONDS:
            calls += run()
        best = min(best, (time.process_time() - start) / calls * 1e6)
    return best


def best_on_fresh(prepare: Callable[[], list[SaboteurState]], run: Callable[[list[SaboteurState]], int], repeat: int) -> float:
    """Like best_per_call, for work that changes its states: `prepare` makes
    fresh ones outside the timed part."""
    best = float("inf")
    for _ in range(repeat):
        calls, elapsed = 0, 0.0
        while elapsed < MIN_CPU_SECONDS:
            fresh = prepare()
            start = time.process_time()
            calls += run(fresh)
            elapsed += time.process_time() - start
        best = min(best, elapsed / calls * 1e6)
    return best


def large_mazes(count: int, seed: int) -> list[SaboteurState]:
    """The position with the most maze cards from each of `count` path-heavy random matches
    (through cards placed whenever possible, no rockfall), where the seat to act may build."""
    found: list[SaboteurState] = []
    for k in range(count):
        state = GAME.new_state(5, seed + k)
        assert isinstance(state, SaboteurState)
        rng = random.Random(seed + k)
        best: SaboteurState | None = None
        while not state.is_terminal() and state.observe(0).round == 1:
            (seat,) = state.to_act()
            actions = state.legal_actions(seat)
            paths = [a for a in actions if isinstance(a, PlacePath) and not a.card.startswith("dead_")]
            if paths and (best is None or len(state.cells) > len(best.cells)):
                best = state.clone()
            others = [a for a in actions if type(a).__name__ not in ("Rockfall", "BreakTool")]
            state.apply_unchecked({seat: rng.choice(paths or others)})
        if best is not None:
            found.append(best)
    return found


def cold_copies(states: Sequence[SaboteurState]) -> list[SaboteurState]:
    """Clones with the per-position caches dropped, as a position is when first reached."""
    copies = []
    for state in states:
        fresh = state.clone()
        fresh._legal = None
        fresh._maze_changed()
        copies.append(fresh)
    return copies


def legal_actions_of(states: Sequence[SaboteurState]) -> int:
    for state in states:
        (seat,) = state.to_act()
        state.legal_actions(seat)
    return len(states)


def clone_only(states: Sequence[SaboteurState]) -> int:
    for state in states:
        state.clone()
    return len(states)


def frontier_only(states: Sequence[SaboteurState]) -> int:
    for state in states:
        maze.frontier(state.cells, state.edges, state.conn)
    return len(states)


def placements(states: Sequence[SaboteurState], moves: Sequence[PlacePath]) -> int:
    """A placement: connectivity spreads from the new card only."""
    for state, move in zip(states, moves):
        (seat,) = state.to_act()
        state.apply_unchecked({seat: move})
    return len(states)


def recomputed_connectivity(states: Sequence[SaboteurState]) -> int:
    """Connectivity from the start from scratch, as a rockfall needs."""
    for state in states:
        maze.connected(state.cells, state.edges, state.cfg.start_cell)
    return len(states)


def synthetic_maze(side: int) -> tuple[dict[tuple[int, int], tuple[int, bool]], dict[tuple[int, int], int], set[tuple[int, int]]]:
    """A side x side block of crossroads east of the start (cards repeat: a pure maze test)."""
    cross = next(c for c, k in enumerate(CARD_KIND) if k == KIND_INDEX["nesw"])
    cells = {(x, y): (cross, False) for x in range(side) for y in range(-(side // 2), side - side // 2)}
    edges = {cell: EDGES[cross][0] for cell in cells}
    return cells, edges, maze.connected(cells, edges, (0, 0))


def measure(args: argparse.Namespace) -> list[Row]:
    rows: list[Row] = []
    for seats in TABLES:
        median, low, high, decisions = match_rate(seats, args.games, args.repeat, args.seed)
        rows.append(
            (f"random {seats}-player matches/s (3 rounds)", f"{median:.0f} ({low:.0f}–{high:.0f})",
             f"median (range) of {args.repeat} runs; {decisions:.0f} decisions per match")
        )
    states = large_mazes(args.mazes, args.seed)
    cells = statistics.mean(len(s.cells) for s in states)
    slots = statistics.mean(len(maze.frontier(s.cells, s.edges, s.conn)) for s in states)
    actions = statistics.mean(len(s.legal_actions(next(iter(s.to_act())))) for s in states)
    moves = []
    for state in states:
        (seat,) = state.to_act()
        moves.append(next(a for a in state.legal_actions(seat) if isinstance(a, PlacePath) and not a.card.startswith("dead_")))
    legal_us = best_on_fresh(lambda: cold_copies(states), legal_actions_of, args.repeat)
    frontier_us = best_per_call(lambda: frontier_only(states), args.repeat)
    placement_us = best_on_fresh(lambda: cold_copies(states), lambda fresh: placements(fresh, moves), args.repeat)
    recompute_us = best_per_call(lambda: recomputed_connectivity(states), args.repeat)
    rows += [
        ("large mazes from play", f"{len(states)} positions", f"{cells:.1f} cards on the table, {slots:.1f} candidate cells, {actions:.0f} legal actions (mean)"),
        ("legal_actions, cold caches", f"{legal_us:.1f} µs", "per call on those mazes"),
        ("  of which candidate cells (maze.frontier)", f"{frontier_us:.1f} µs", "per call"),
        ("apply_unchecked of a placement", f"{placement_us:.1f} µs", "connectivity and candidate cells kept incrementally, goal check included"),
        ("connectivity recomputed from the start", f"{recompute_us:.1f} µs", "per call, as after a rockfall"),
        ("recomputed / incremental placement", f"{recompute_us / placement_us:.1f}×", "ratio, measured side by side"),
    ]
    cells400, edges400, conn400 = synthetic_maze(20)
    def big_frontier() -> int:
        for _ in range(20):
            maze.frontier(cells400, edges400, conn400)
        return 20

    big_us = best_per_call(big_frontier, args.repeat)
    rows.append(("candidate cells of a 400-card maze", f"{big_us:.0f} µs", f"{len(maze.frontier(cells400, edges400, conn400))} cells; synthetic, beyond any real match"))
    sample = _sample_positions(args.samples, args.seed)
    views = [s.observe(next(iter(s.to_act()))) for s in sample]
    rng = random.Random(args.seed)

    def observe_all() -> int:
        for state, view in zip(sample, views):
            state.observe(view.seat)
        return len(sample)

    def determinize_all() -> int:
        for view in views:
            GAME.determinize(view, rng)
        return len(views)

    rows += [
        ("observe(seat)", f"{best_per_call(observe_all, args.repeat):.1f} µs", "per call, 7 players"),
        ("determinize(observation)", f"{best_per_call(determinize_all, args.repeat):.1f} µs", "per call, 7 players"),
        ("clone()", f"{best_per_call(lambda: clone_only(sample), args.repeat):.1f} µs", "per call, 7 players"),
    ]
    return rows


def _sample_positions(count: int, seed: int) -> list[SaboteurState]:
    """`count` positions of random 7-player matches, every 10th decision."""
    positions: list[SaboteurState] = []
    k = 0
    while len(positions) < count:
        state = GAME.new_state(7, seed + 10_000 + k)
        assert isinstance(state, SaboteurState)
        rng = random.Random(k)
        step = 0
        while not state.is_terminal() and len(positions) < count:
            if step % 10 == 0:
                positions.append(state.clone())
            (seat,) = state.to_act()
            state.apply_unchecked({seat: rng.choice(state.legal_actions(seat))})
            step += 1
        k += 1
    return positions


def markdown(rows: Sequence[Row], args: argparse.Namespace) -> str:
    lines = [
        f"Measured by `python bench/saboteur_bench.py` on {machine_summary()}.",
        f"One process, one core; times are the process's CPU time (time.process_time), so other load on the machine does not count. Match rates: median and range of {args.repeat} runs of {args.games} matches "
        f"from fresh deals (seed {args.seed} on; uniformly random legal decisions, apply_unchecked). "
        f"Per-call costs: best of {args.repeat} runs. Load average (1 min) at the end of the run: "
        f"{os.getloadavg()[0]:.1f}; with the cores shared, CPU times still vary by about 20% between runs.",
        "",
        "| figure | value | note |",
        "|---|---|---|",
        *(f"| {a} | {b} | {c} |" for a, b, c in rows),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python bench/saboteur_bench.py", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="matches per run and table size (default 100)")
    parser.add_argument("--mazes", type=int, default=40, help="large-maze positions (default 40)")
    parser.add_argument("--samples", type=int, default=300, help="positions for per-call costs (default 300)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-record", action="store_true", help="do not rewrite docs/benchmarks.md")
    args = parser.parse_args(argv)
    rows = measure(args)
    console = Console()
    table = Table(title="Saboteur engine, one core")
    for name in ("figure", "value", "note"):
        table.add_column(name)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    if not args.no_record:
        write_section(SECTION, markdown(rows, args))
        console.print(f"recorded in docs/benchmarks.md, section {SECTION!r}")


if __name__ == "__main__":
    main()
