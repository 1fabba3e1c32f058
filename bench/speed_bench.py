"""Engine speed against issue 30's starting commit, side by side: `python -m bench speed`.

Each round runs every probe in the baseline (a git worktree of 5ede7ac, as
it was: pure Python) and in this tree (as built: see `referee.games.native`),
alternately, each in a fresh interpreter with its tree first on the path, so
a busy spell of the shared machine falls on both. Every figure is CPU time
of the probe's process (time.process_time). The targets of issue 30:

- `referee simulate` games per second (`referee.simulation.simulate`, as the
  command plays: random decisions, the game's summariser): at least 3x the
  baseline for Gnadenlos! at 3 and 4 players and Saboteur at 5 and 10; both
  trees' reports (every figure but the timing) must be identical;
- Leduc random matches from a fresh deal against OpenSpiel's C++
  `leduc_poker` driven from the same Python loop (bench/leduc_bench.py's
  loops, alternated in one process): at least 0.5x at 2 and 3 players;
- the MCTS bot's iterations per decision at 0.2 s of CPU (its default
  settings, positions of heuristic matches): at least 1,000 for Gnadenlos!
  (4 seats); Saboteur (5 seats) and Leduc (2 and 3 seats) are measured the
  same way, to see that they do not get slower.

Prints each round and the median (range) over rounds, and rewrites the
"Engine speed" section of docs/benchmarks.md (unless --no-record).
`--build` also times a clean build of the compiled engines in a copy of
this tree (`python setup.py build_ext --inplace`: what `make venv` adds).
`--build-baseline` compiles the baseline tree the same way before the
rounds, to compare against a commit that has a compiled build (issue 30's
starting commit has none: it runs as it was).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from bench.recording import machine_summary, write_section
from bench.throughput_bench import baseline_tree, in_tree

ROOT = Path(__file__).resolve().parent.parent
SECTION = "Engine speed"
BASELINE = "5ede7ac"
SIMULATIONS = (("gnadenlos", 3), ("gnadenlos", 4), ("saboteur", 5), ("saboteur", 10))
LEDUC_TABLES = (2, 3)
MCTS_TABLES = (("gnadenlos", 4), ("saboteur", 5), ("leduc", 2), ("leduc", 3))
"""The MCTS probe's games and seats; the target is Gnadenlos!'s."""
TARGETS = {"simulate": 3.0, "leduc": 0.5, "mcts": 1000.0}

SIMULATE_PROBE = """
import json, sys, time
from referee.games import load_game
from referee.simulation import simulate
game, players, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rules = load_game(game)
simulate(rules, players, max(1, games // 10), seed + 10**6)  # warm: imports and the engines' caches
start = time.process_time()
report = simulate(rules, players, games, seed)
seconds = time.process_time() - start
figures = {k: v for k, v in report.to_json().items() if k not in ("seconds", "games_per_second")}
print(json.dumps({"games_per_second": games / seconds, "report": json.dumps(figures, sort_keys=True)}))
"""

LEDUC_PROBE = """
import json, statistics, sys, time
import pyspiel
from bench.leduc_bench import ours_matches, theirs_matches
players, matches, repeat, seed = (int(a) for a in sys.argv[1:5])
theirs = pyspiel.load_game("leduc_poker", {"players": players})
ours_matches(players, matches // 10, seed + 10**6)
theirs_matches(theirs, matches // 10, seed + 10**6)
ratios = []
for _ in range(repeat):
    start = time.process_time(); ours_matches(players, matches, seed); mine = time.process_time() - start
    start = time.process_time(); theirs_matches(theirs, matches, seed); other = time.process_time() - start
    ratios.append(other / mine)
print(json.dumps({"ratio": statistics.median(ratios), "ours_per_second": matches / mine}))
"""

MCTS_PROBE = """
import json, sys, time
from bench.strength_bench import positions, _context
from bots.heuristic import HeuristicBot
from bots.mcts import MctsBot
from bots.sdk import DecisionContext, MatchInfo, TimeControl
from referee.games import load_game
game, seats, count, move_time = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])

def context(seat):
    info = MatchInfo("bench", game, {}, seat, seats, ("bot",) * seats, TimeControl(30.0))
    return DecisionContext(info, 1, time.monotonic() + 30.0)

def heuristic_positions():  # as strength_bench.positions, for any game: one decision in every few
    rules, bot, found, seed = load_game(game), HeuristicBot(), [], 0
    while len(found) < count:
        state, step = rules.new_state(seats, 100_000 + seed), 0
        while not state.is_terminal() and len(found) < count:
            acting = sorted(state.to_act())
            if step % 7 == 3 and len(state.legal_actions(acting[0])) > 1:
                found.append((state.clone(), acting[0]))
            state.apply({s: bot.decide(state.observe(s), state.legal_actions(s), context(s)) for s in acting})
            step += 1
        seed += 1
    return found

if game == "gnadenlos" and seats == 4:  # the positions the figures of issue 30 were first measured on
    work, context = positions(count), _context
else:
    work = heuristic_positions()
bot = MctsBot(move_time=move_time, seed=1, cpu_clock=True)
bot.decide(work[0][0].observe(work[0][1]), work[0][0].legal_actions(work[0][1]), context(work[0][1]))  # warm
before = bot.stats.total_iterations
for state, seat in work:
    bot.decide(state.observe(seat), state.legal_actions(seat), context(seat))
print(json.dumps({"iterations": (bot.stats.total_iterations - before) / len(work)}))
"""

HEURISTIC_PROBE = """
import hashlib, json
from referee.games import load_game
from referee.simulation import simulate
reports = []
for game, seats, games in (("gnadenlos", 4, 40), ("gnadenlos", 3, 30), ("saboteur", 5, 10), ("leduc", 3, 60)):
    report = simulate(load_game(game), seats, games, 77, seating=("heuristic",) * seats).to_json()
    reports.append({k: v for k, v in report.items() if k not in ("seconds", "games_per_second")})
print(json.dumps({"digest": hashlib.sha256(json.dumps(reports, sort_keys=True).encode()).hexdigest()}))
"""
"""The built-in heuristic in every seat (`referee simulate --policy heuristic`):
its reports must be the same in both trees (the strategies were reshaped too)."""

NATIVE_PROBE = "import json; from referee.games import native; print(json.dumps({'code': native.describe()}))"


GAME_TITLES = {"gnadenlos": "Gnadenlos!", "saboteur": "Saboteur", "leduc": "Leduc"}

Figures = dict[str, float | str]


def one_round(trees: tuple[Path, Path], args: argparse.Namespace, seed: int) -> tuple[Figures, Figures]:
    """Every probe once in each tree, the two trees' runs of a probe one
    right after the other (so both meet the machine in the same state)."""
    pair: tuple[Figures, Figures] = ({}, {})
    for figures, tree in zip(pair, trees):
        figures["tree"] = str(tree)
    for game, players in SIMULATIONS:
        games = args.games if game == "gnadenlos" else args.games // 3
        for figures, tree in zip(pair, trees):
            result = in_tree(tree, SIMULATE_PROBE, game, players, games, seed)
            figures[f"simulate {game} {players}"] = result["games_per_second"]
            figures[f"report {game} {players}"] = str(result["report"])
    for players in LEDUC_TABLES:
        for figures, tree in zip(pair, trees):
            figures[f"leduc {players}"] = in_tree(tree, LEDUC_PROBE, players, args.leduc_matches, 3, seed)["ratio"]
    for game, seats in MCTS_TABLES:
        for figures, tree in zip(pair, trees):
            figures[f"mcts {game} {seats}"] = in_tree(tree, MCTS_PROBE, game, seats, args.decisions, 0.2)["iterations"]
    return pair


def build_in(tree: Path) -> None:
    """Compile `tree` as `make venv` does, and check that it runs compiled."""
    if not (tree / "setup.py").exists():
        raise SystemExit(f"--build-baseline: {tree.name} has no setup.py (no compiled build before issue 30)")
    subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tree, check=True, capture_output=True)
    code = str(in_tree(tree, NATIVE_PROBE)["code"])
    if "compiled" not in code:
        raise SystemExit(f"--build-baseline: the baseline still runs {code}")


def build_time() -> tuple[float, float]:
    """(wall seconds, CPU seconds of the build's processes) of a clean build in a copy of this tree."""
    folder = Path(tempfile.mkdtemp(prefix="speed-build-"))
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
        for name in filter(None, archive.decode().split("\0")):
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if (ROOT / name).is_file():
                shutil.copy2(ROOT / name, target)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=folder, check=True,
                       capture_output=True)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        manifest = json.loads((folder / "referee" / "games" / "_native.json").read_text())
        if set(manifest["groups"]) != {"mypyc", "helper"}:
            raise RuntimeError(f"the build made only {sorted(manifest['groups'])}")
        return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def spread(values: Sequence[float], digits: int = 2) -> str:
    """Median (low–high) of `values`."""
    return f"{statistics.median(values):,.{digits}f} ({min(values):,.{digits}f}–{max(values):,.{digits}f})"


def verdict(values: Sequence[float], meets: Callable[[float], bool]) -> str:
    if all(meets(v) for v in values):
        return "met in every round"
    if meets(statistics.median(values)):
        return "met by the median, not in every round"
    return "missed"


def report(rounds: list[tuple[Figures, Figures]], code: str,
           build: tuple[float, float] | None, args: argparse.Namespace, load: tuple[float, float]) -> str:
    def column(side: int, key: str) -> list[float]:
        return [float(pair[side][key]) for pair in rounds]

    baseline = (f"{args.baseline} (compiled by `python setup.py build_ext --inplace`)" if args.build_baseline
                else f"{BASELINE} (issue 30's starting commit, pure Python)" if args.baseline == BASELINE
                else f"{args.baseline} (from its sources)")

    lines = [
        f"Measured by `python -m bench speed` (bench/speed_bench.py) on {machine_summary()}; this tree ran "
        f"{code}; the baseline is {baseline} in a git worktree. "
        f"{len(rounds)} rounds, each running every probe in the baseline and right after it in this tree, each probe "
        f"a fresh interpreter; CPU time of the probe (time.process_time). Load average (1 min) before / after: "
        f"{load[0]:.1f} / {load[1]:.1f} on 2 cores shared with other work. Ratios are taken within each round; "
        "the figures are the median (range) over rounds.",
        "",
        "| figure | baseline | this tree | ratio | target |",
        "|---|---|---|---|---|",
    ]
    for game, players in SIMULATIONS:
        key = f"simulate {game} {players}"
        ratios = [new / old for old, new in zip(column(0, key), column(1, key))]
        same = all(pair[0][f"report {game} {players}"] == pair[1][f"report {game} {players}"] for pair in rounds)
        lines.append(
            f"| `referee simulate --game {game} --players {players}`, games/s "
            f"({args.games if game == 'gnadenlos' else args.games // 3} games; reports "
            f"{'identical' if same else 'DIFFERENT'}) | {spread(column(0, key), 0)} | {spread(column(1, key), 0)} "
            f"| {spread(ratios)}× | ≥ 3× ({verdict(ratios, lambda r: r >= TARGETS['simulate'])}) |"
        )
    for players in LEDUC_TABLES:
        key = f"leduc {players}"
        old, new = column(0, key), column(1, key)
        lines.append(
            f"| Leduc, {players} players: random matches from a fresh deal, ours / OpenSpiel's C++ "
            f"({args.leduc_matches} matches, 3 alternations a probe) | {spread(old)}× | {spread(new)}× "
            f"| {spread([n / o for o, n in zip(old, new)])}× | ≥ 0.5× of OpenSpiel "
            f"({verdict(new, lambda r: r >= TARGETS['leduc'])}) |"
        )
    for game, seats in MCTS_TABLES:
        old, new = column(0, f"mcts {game} {seats}"), column(1, f"mcts {game} {seats}")
        target = (f"≥ 1,000 ({verdict(new, lambda r: r >= TARGETS['mcts'])})" if game == "gnadenlos"
                  else "not slower")
        lines.append(
            f"| MCTS bot, {GAME_TITLES[game]} {seats} seats, iterations a decision at 0.2 s of CPU "
            f"({args.decisions} positions of heuristic matches) | {spread(old, 0)} | {spread(new, 0)} "
            f"| {spread([n / o for o, n in zip(old, new)])}× | {target} |"
        )
    if build is not None:
        lines += ["", f"A clean build of the compiled engines and the C chance helper (`python setup.py build_ext "
                  f"--inplace` in a fresh copy of this tree, as `pip install -e .` runs it): {build[0]:.0f} s "
                  f"wall, {build[1]:.0f} s of CPU."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench speed", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=600, help="Gnadenlos! matches per simulate probe (Saboteur: a third)")
    parser.add_argument("--leduc-matches", type=int, default=20_000)
    parser.add_argument("--decisions", type=int, default=15, help="MCTS decisions per probe")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--build", action="store_true", help="also time a clean build of the compiled engines")
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--build-baseline", action="store_true",
                        help="compile the baseline tree first (for a baseline commit with a compiled build)")
    parser.add_argument("--no-record", action="store_true", help="do not rewrite docs/benchmarks.md")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    code = str(in_tree(ROOT, NATIVE_PROBE)["code"])
    rounds = []
    with baseline_tree(args.baseline) as base:
        if args.build_baseline:
            build_in(base)
        heuristic_same = in_tree(base, HEURISTIC_PROBE)["digest"] == in_tree(ROOT, HEURISTIC_PROBE)["digest"]
        for index in range(args.rounds):
            pair = one_round((base, ROOT), args, args.seed)
            rounds.append(pair)
            print(f"round {index + 1}: " + "; ".join(
                f"{key} {float(pair[0][key]):,.2f} -> {float(pair[1][key]):,.2f}"
                for key in pair[0] if key not in ("tree",) and not key.startswith("report")), flush=True)
    build = build_time() if args.build else None
    text = report(rounds, code, build, args, (load_before, os.getloadavg()[0]))
    text += ("\n\nThe built-in heuristic in every seat (`simulate --policy heuristic`: Gnadenlos! at 4 and 3 "
             "players, Saboteur at 5, Leduc at 3) gives " + ("identical reports in both trees." if heuristic_same
                                                             else "DIFFERENT reports in the two trees."))
    print(text)
    if not args.no_record:
        write_section(SECTION, text)


if __name__ == "__main__":
    main()
