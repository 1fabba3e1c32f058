"""Speed of the Gnadenlos! engine, in-process, on one core (issue 2).

Measures:
- random playouts of complete 4-player matches per second, with the loop an
  MCTS bot runs (clone a state, then legal_actions + apply_unchecked with
  uniformly random choices until the end) — target: at least 300 per second;
- the same with a fresh `new_state` (the deal) per match, as `referee simulate` plays;
- microseconds per call of observe(), determinize(), clone() and legal_actions(),
  on states sampled from random matches;
- apply() (legality check and events) against apply_unchecked(), as a ratio
  measured side by side on the same decisions;
- where a playout's time goes: by kind of decision, and by function (cProfile).

Playout rates are the median of `--repeat` runs (matches vary in cost);
per-call costs the best of `--repeat` runs, to keep other load on the machine
out of them. Prints a table and rewrites the "Gnadenlos engine" section of
docs/benchmarks.md (unless --no-record).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.recording import machine_summary, write_section
from referee.games import Action, Game, State, load_game

SECTION = "Gnadenlos engine"
CLOCK = time.process_time
"""Every figure is this process's CPU time: the machines are shared, and
wall-clock time would charge the engine for other jobs' use of its core."""
TARGET_PLAYOUTS_PER_SECOND = 300
SEATS = 4
ROOT_PLAYOUTS = 10
"""Playouts per root position in the MCTS-like figure."""
Decision = dict[int, Action]


def random_playout(state: State, rng: random.Random) -> int:
    """Play `state` to the end with uniformly random legal decisions; returns the decisions made."""
    decisions = 0
    while not state.is_terminal():
        deciding = state.to_act()
        state.apply_unchecked({seat: rng.choice(state.legal_actions(seat)) for seat in deciding})
        decisions += len(deciding)
    return decisions


def best_rate(run: Callable[[], int], repeat: int) -> tuple[float, float]:
    """(work units per second, seconds) of the fastest of `repeat` runs of `run`."""
    best = (0.0, 0.0)
    for _ in range(repeat):
        start = CLOCK()
        units = run()
        seconds = CLOCK() - start
        if units / seconds > best[0]:
            best = (units / seconds, seconds)
    return best


def best_microseconds(run: Callable[[], int], repeat: int) -> float:
    """Microseconds per call of the fastest of `repeat` runs (`run` returns its call count)."""
    rate, _ = best_rate(run, repeat)
    return 1e6 / rate


def sample_positions(game: Game, count: int, seed: int) -> list[tuple[State, Decision]]:
    """Positions met in random matches (at a random depth), each with a random legal decision."""
    rng = random.Random(seed)
    samples: list[tuple[State, Decision]] = []
    match_seed = seed
    while len(samples) < count:
        state = game.new_state(SEATS, match_seed)
        match_seed += 1
        trajectory: list[tuple[State, Decision]] = []
        while not state.is_terminal():
            decision = {seat: rng.choice(state.legal_actions(seat)) for seat in state.to_act()}
            trajectory.append((state.clone(), decision))
            state.apply_unchecked(decision)
        samples.extend(rng.sample(trajectory, min(4, len(trajectory))))
    return samples[:count]


def measure(game: Game, games: int, samples: int, repeat: int, seed: int) -> dict[str, float]:
    """All figures. Every timed run of whole matches plays matches (seeds) no
    earlier run played, so caches inside the engine are only as warm as in a
    long simulation, never hot from replaying the very same matches."""
    seeds = iter(range(seed, seed + 10**9, games))

    def fresh_playouts() -> Callable[[], int]:
        first = next(seeds)
        starts = [game.new_state(SEATS, first + i) for i in range(games)]

        def run() -> int:
            rng = random.Random(first)
            for start in starts:
                random_playout(start.clone(), rng)
            return games

        return run

    def fresh_deals() -> Callable[[], int]:
        first = next(seeds)

        def run() -> int:
            rng = random.Random(first)
            for i in range(games):
                random_playout(game.new_state(SEATS, first + i), rng)
            return games

        return run

    roots = [game.new_state(SEATS, next(seeds)) for _ in range(max(1, games // ROOT_PLAYOUTS))]

    def playouts_from_roots() -> int:
        """As an MCTS bot does: many playouts from the same few positions."""
        rng = random.Random(seed)
        for root in roots:
            for _ in range(ROOT_PLAYOUTS):
                random_playout(root.clone(), rng)
        return len(roots) * ROOT_PLAYOUTS

    figures: dict[str, float] = {}
    fresh_deals()()  # warm-up: the engine's caches fill as in any long run
    # Alternate the two kinds run by run, so both meet caches equally warm.
    # Matches differ a lot in cost (a bid decision with a big hand is dear), so
    # these are the median of the runs, with their range, not the best.
    pairs = [(best_rate(fresh_playouts(), 1)[0], best_rate(fresh_deals(), 1)[0]) for _ in range(repeat)]
    for key, rates in (("playouts", [p for p, _ in pairs]), ("playouts_with_deal", [d for _, d in pairs])):
        figures[f"{key}_per_second"] = statistics.median(rates)
        figures[f"{key}_min"], figures[f"{key}_max"] = min(rates), max(rates)
    figures["playouts_from_roots_per_second"], _ = best_rate(playouts_from_roots, repeat)
    rng = random.Random(seed)
    figures["decisions_per_playout"] = sum(random_playout(root.clone(), rng) for root in roots) / len(roots)

    positions = sample_positions(game, samples, next(seeds))
    views = [(state, seat) for state, _ in positions for seat in range(SEATS)]
    observations = [state.observe(seat) for state, seat in views]

    def observe_all() -> int:
        for state, seat in views:
            state.observe(seat)
        return len(views)

    def determinize_all() -> int:
        drng = random.Random(seed)
        for observation in observations:
            game.determinize(observation, drng)
        return len(observations)

    def clone_all() -> int:
        for state, _ in positions:
            state.clone()
        return len(positions)

    def legal_all() -> int:
        calls = 0
        for state, decision in positions:
            for seat in decision:
                state.legal_actions(seat)
                calls += 1
        return calls

    figures["observe_us"] = best_microseconds(observe_all, repeat)
    figures["determinize_us"] = best_microseconds(determinize_all, repeat)
    figures["clone_us"] = best_microseconds(clone_all, repeat)
    figures["legal_actions_us"] = best_microseconds(legal_all, repeat)
    figures["apply_us"], figures["apply_unchecked_us"] = apply_costs(positions, repeat)
    figures["apply_ratio"] = figures["apply_us"] / figures["apply_unchecked_us"]
    figures["profile_seed"] = next(seeds)
    return figures


def apply_costs(positions: Sequence[tuple[State, Decision]], repeat: int) -> tuple[float, float]:
    """µs per apply() and per apply_unchecked() on the same decisions, alternated run by run.

    Clones are made before the clock starts, so only the apply itself is timed.
    """
    best_checked = best_unchecked = float("inf")
    for _ in range(repeat):
        for checked in (True, False):
            copies = [(state.clone(), decision) for state, decision in positions]
            start = CLOCK()
            if checked:
                for state, decision in copies:
                    state.apply(decision)
            else:
                for state, decision in copies:
                    state.apply_unchecked(decision)
            micro = (CLOCK() - start) * 1e6 / len(copies)
            if checked:
                best_checked = min(best_checked, micro)
            else:
                best_unchecked = min(best_unchecked, micro)
    return best_checked, best_unchecked


def profile_playouts(game: Game, games: int, seed: int, top: int = 12) -> list[tuple[str, float, float]]:
    """(function, share of own time, share of time with callees) of the hottest functions,
    over playouts of matches not played before in this process."""
    starts = [game.new_state(SEATS, seed + i) for i in range(games)]
    rng = random.Random(seed)
    profiler = cProfile.Profile()
    profiler.enable()
    for start in starts:
        random_playout(start.clone(), rng)
    profiler.disable()
    stats = pstats.Stats(profiler)
    raw: Mapping[Any, Any] = stats.stats  # type: ignore[attr-defined]
    # The playout loop's own cumulative time is the whole; summing every
    # function's own time instead overshoots by cProfile's bookkeeping.
    total = next(entry[3] for key, entry in raw.items() if key[2] == random_playout.__name__)
    rows = sorted(raw.items(), key=lambda item: item[1][2], reverse=True)[:top]
    return [(_function_name(key), entry[2] / total, entry[3] / total) for key, entry in rows]


PhaseRow = tuple[str, float, float, float]
"""(decision phase, share of decisions, share of time, µs per decision)."""


def time_by_phase(game: Game, games: int, seed: int) -> list[PhaseRow]:
    """Where a fresh playout's time goes, by the kind of decision (G-11).

    A decision's time is choosing it (legal_actions) plus applying it
    (apply_unchecked, with the automatic steps that follow until the next
    decision). The phase is read from the public observation, off the clock.
    """
    spent: Counter[str] = Counter()  # nanoseconds
    count: Counter[str] = Counter()
    rng = random.Random(seed)
    clock = CLOCK
    for i in range(games):
        state = game.new_state(SEATS, seed + i)
        while not state.is_terminal():
            phase = str(getattr(state.observe(0), "phase", "?"))
            start = clock()
            state.apply_unchecked({seat: rng.choice(state.legal_actions(seat)) for seat in state.to_act()})
            spent[phase] += round((clock() - start) * 1e9)
            count[phase] += 1
    total, decisions = sum(spent.values()), sum(count.values())
    rows = [(p, count[p] / decisions, spent[p] / total, spent[p] / count[p] / 1e3) for p in spent]
    return sorted(rows, key=lambda row: -row[2])


def _function_name(key: tuple[str, int, str]) -> str:
    filename, line, name = key
    if filename == "~":
        return name
    path = Path(filename)
    parts = path.parts
    short = "/".join(parts[parts.index("referee"):]) if "referee" in parts else path.name
    return f"{name} ({short}:{line})"


def render(figures: Mapping[str, float]) -> list[tuple[str, str, str]]:
    """(figure, value, target or note) rows shared by the console table and the docs."""
    below = figures["playouts_per_second"] < TARGET_PLAYOUTS_PER_SECOND
    return [
        ("random 4-player playouts/s (clone, legal_actions, apply_unchecked)",
         f"{figures['playouts_per_second']:,.0f} ({figures['playouts_min']:,.0f}–{figures['playouts_max']:,.0f})",
         f"≥ {TARGET_PLAYOUTS_PER_SECOND} ({'below' if below else 'met'}); median (range) of the runs"),
        ("the same with a fresh deal (new_state) per match",
         f"{figures['playouts_with_deal_per_second']:,.0f} "
         f"({figures['playouts_with_deal_min']:,.0f}–{figures['playouts_with_deal_max']:,.0f})",
         "as `referee simulate` plays"),
        (f"playouts/s, {ROOT_PLAYOUTS} from each root position (as MCTS repeats them)",
         f"{figures['playouts_from_roots_per_second']:,.0f}", "engine caches warm"),
        ("decisions per random match", f"{figures['decisions_per_playout']:.1f}", "mean"),
        ("decisions/s in playouts", f"{figures['playouts_per_second'] * figures['decisions_per_playout']:,.0f}", ""),
        ("observe(seat)", f"{figures['observe_us']:.1f} µs", "per call"),
        ("determinize(observation)", f"{figures['determinize_us']:.1f} µs", "per call"),
        ("clone()", f"{figures['clone_us']:.1f} µs", "per call"),
        ("legal_actions(seat)", f"{figures['legal_actions_us']:.1f} µs", "per call"),
        ("apply() with checks and events", f"{figures['apply_us']:.1f} µs", "per decision"),
        ("apply_unchecked()", f"{figures['apply_unchecked_us']:.1f} µs", "per decision"),
        ("apply / apply_unchecked", f"{figures['apply_ratio']:.2f}×", "ratio, measured side by side"),
    ]


def markdown(
    rows: Sequence[tuple[str, str, str]],
    phases: Sequence[PhaseRow],
    hot: Sequence[tuple[str, float, float]],
    args: argparse.Namespace,
) -> str:
    lines = [
        f"Measured by `python -m bench engine` (bench/engine_bench.py) on {machine_summary()}.",
        f"One process, one core; times are the process's CPU time (time.process_time), so other load on the machine does not count. Playout rates: median and range of {args.repeat} runs of {args.games} matches "
        f"(from seed {args.seed} on, after a warm-up of {args.games}; every run plays matches no earlier run played). "
        f"Per-call costs: best of {args.repeat} runs over {args.samples} positions sampled from random matches.",
        "Fresh matches are the figure to hold against the target; playouts repeated from the same",
        "root positions show what the engine's memoisation gains when positions recur, as in MCTS.",
        "",
        "| figure | value | target / note |",
        "|---|---|---|",
        *(f"| {a} | {b} | {c} |" for a, b, c in rows),
        "",
        f"Where a fresh playout's time goes by kind of decision ({args.phase_games} matches; choosing it with "
        "legal_actions plus applying it with the automatic steps that follow):",
        "",
        "| decision | share of decisions | share of time | µs per decision |",
        "|---|---|---|---|",
        *(f"| {p} | {d:.0%} | {t:.0%} | {us:.0f} |" for p, d, t, us in phases),
        "",
        f"Where a random playout's time goes (cProfile over {args.profile_games} playouts; "
        "own time, and time including callees, as shares of the total):",
        "",
        "| function | own | incl. callees |",
        "|---|---|---|",
        *(f"| `{name}` | {own:.0%} | {cum:.0%} |" for name, own, cum in hot),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench engine", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="matches per playout run (default 1000)")
    parser.add_argument("--samples", type=int, default=400, help="positions for the per-call costs (default 400)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best counts (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile-games", type=int, default=100, help="playouts under cProfile (default 100)")
    parser.add_argument("--phase-games", type=int, default=300, help="matches timed by decision kind (default 300)")
    parser.add_argument("--no-record", action="store_true", help="do not rewrite docs/benchmarks.md")
    args = parser.parse_args(argv)

    game = load_game("gnadenlos")
    figures = measure(game, args.games, args.samples, args.repeat, args.seed)
    hot = profile_playouts(game, args.profile_games, int(figures["profile_seed"]))
    phases = time_by_phase(game, args.phase_games, int(figures["profile_seed"]) + args.profile_games)
    rows = render(figures)

    console = Console()
    table = Table(title="Gnadenlos! engine, one core")
    for name in ("figure", "value", "target / note"):
        table.add_column(name)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    by_phase = Table(title="Where a fresh playout's time goes, by kind of decision")
    for name in ("decision", "share of decisions", "share of time", "µs per decision"):
        by_phase.add_column(name)
    for p, d, t, us in phases:
        by_phase.add_row(p, f"{d:.0%}", f"{t:.0%}", f"{us:.0f}")
    console.print(by_phase)
    profile = Table(title="Where a playout's time goes (cProfile)")
    for name in ("function", "own", "incl. callees"):
        profile.add_column(name)
    for name, own, cum in hot:
        profile.add_row(name, f"{own:.0%}", f"{cum:.0%}")
    console.print(profile)
    if not args.no_record:
        write_section(SECTION, markdown(rows, phases, hot, args))
        console.print(f"recorded in docs/benchmarks.md, section {SECTION!r}")


if __name__ == "__main__":
    main()
