"""`referee simulate` through the one match loop against the loop it replaced (issue 25, part 1).

Since issue 25 every match — the referee's, `referee check`'s, the arena's
and simulate's — is played by referee/match.py; simulate's matches take the
loop's fast path for trusted policy seats. This runs `simulate` of the code
at a base commit (default 5ede7ac, the last with simulate's own loop:
exported with `git archive` into a temporary folder and imported from there
in a subprocess) and of this checkout alternately, round after round, for
each table: Gnadenlos! at 3 and 4 seats, Saboteur at 5, Leduc at 2 (random
players, the default), and Gnadenlos! at 4 with heuristic players (the
loop's general path: requests, observations, events). Each run plays the
same seeded matches; their reports must agree exactly (timing aside), which
the bench checks. Times are each subprocess's CPU time, best round counts
(other load on the shared machine only ever adds); the ratio is new / old
games per second (target: at least 0.95).

Prints the table and rewrites the "Match loop" section of
docs/benchmarks.md (unless --no-record).

    python -m bench loop [--rounds N] [--scale X] [--base COMMIT] [--no-record]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.recording import machine_summary, write_section

SECTION = "Match loop"
ROOT = Path(__file__).resolve().parent.parent
BASE = "5ede7ac"
TARGET = 0.95


@dataclass(frozen=True)
class Setting:
    """One simulated table: game, seats, policy, and how many matches a run plays."""

    game: str
    players: int
    games: int
    policy: str = "random"

    @property
    def name(self) -> str:
        return f"{self.game} {self.players}" + ("" if self.policy == "random" else f" {self.policy}")


TABLES = (
    Setting("gnadenlos", 3, 1500),
    Setting("gnadenlos", 4, 1200),
    Setting("saboteur", 5, 600),
    Setting("leduc", 2, 40000),
    Setting("gnadenlos", 4, 150, "heuristic"),
)

RUN = """
import json, sys, time
import referee.simulation as simulation
from referee.games import load_game
game, players, games, policy = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rules = load_game(game)
seating = (policy,) * players if policy != "random" else ()
simulation.simulate(rules, players, max(1, games // 10), 999, seating=seating)  # warm the caches
started = time.process_time()
report = simulation.simulate(rules, players, games, 1, seating=seating)
cpu = time.process_time() - started
figures = report.to_json()
for key in ("seconds", "games_per_second"):
    figures.pop(key)
print(json.dumps({"module": simulation.__file__, "cpu": cpu, "report": figures}))
"""


@dataclass
class Measured:
    cpu: dict[str, list[float]] = field(default_factory=lambda: {"old": [], "new": []})


def export(commit: str, into: Path) -> Path:
    """The `referee` package as it was at `commit`, in `into`."""
    archive = subprocess.run(["git", "archive", commit, "referee"], cwd=ROOT, check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def run(table: Setting, path: Path, scale: float) -> tuple[float, dict[str, Any]]:
    """CPU seconds of one simulate run of `table` with `referee` imported from `path`, and its report."""
    env = {**os.environ, "PYTHONPATH": str(path)}
    done = subprocess.run(
        [sys.executable, "-c", RUN, table.game, str(table.players), str(max(1, int(table.games * scale))),
         table.policy], cwd=path, env=env, check=True, capture_output=True, text=True)
    out = json.loads(done.stdout)
    if not Path(out["module"]).resolve().is_relative_to(path.resolve()):
        raise RuntimeError(f"imported {out['module']}, not the code under {path}")
    return float(out["cpu"]), out["report"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every table's matches per run")
    parser.add_argument("--base", default=BASE, help="the commit whose simulate is compared against")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args(argv)
    console = Console()
    load_before = os.getloadavg()[0]
    folder = Path(tempfile.mkdtemp(prefix="loop-bench-"))
    try:
        old = export(args.base, folder)
        measured = {table: Measured() for table in TABLES}
        for round_ in range(args.rounds):
            for table in TABLES:
                order = [("old", old), ("new", ROOT)]
                if round_ % 2:
                    order.reverse()  # neither side always runs first
                reports = {}
                for side, path in order:
                    cpu, reports[side] = run(table, path, args.scale)
                    measured[table].cpu[side].append(cpu)
                if reports["old"] != reports["new"]:
                    raise SystemExit(f"{table.name}: the reports differ; the loops did not play the same matches")
            console.print(f"round {round_ + 1}/{args.rounds} done", style="dim")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    show = Table(title=f"simulate: one match loop (this checkout) vs {args.base}, games per CPU second")
    for column in ("table", "matches/run", f"{args.base}", "this checkout", "ratio (best)", "ratio (median)"):
        show.add_column(column, justify="left" if column == "table" else "right")
    rows = []
    for table, figures in measured.items():
        games = max(1, int(table.games * args.scale))
        old_best, new_best = games / min(figures.cpu["old"]), games / min(figures.cpu["new"])
        ratio = statistics.median(o / n for o, n in zip(figures.cpu["old"], figures.cpu["new"]))
        rows.append((table.name, games, old_best, new_best, new_best / old_best, ratio))
        show.add_row(table.name, str(games), f"{old_best:,.0f}", f"{new_best:,.0f}", f"{new_best / old_best:.3f}",
                     f"{ratio:.3f}")
    console.print(show)
    if not args.no_record:
        lines = [
            f"`python -m bench loop` ({machine_summary()}; {args.rounds} rounds). `referee simulate` at "
            f"{args.base} (its own loop) and through the one match loop of referee/match.py (fast path "
            "for trusted policy seats; heuristic players take the general path), each run in its own "
            "subprocess, alternately; both play the same seeded matches and their reports agree exactly. "
            "Games per CPU second, best round; the ratio is this checkout's over the base's (target: at "
            f"least {TARGET}), the median ratio is over the rounds' pairs. Machine load (1-minute load "
            f"average) before / after: {load_before:.1f} / {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.",
            "",
            f"| table | matches per run | {args.base} | one loop | ratio (best) | ratio (median) |",
            "|---|---:|---:|---:|---:|---:|",
            *[f"| {name} | {games:,} | {old_best:,.0f} | {new_best:,.0f} | {best:.3f} | {median:.3f} |"
              for name, games, old_best, new_best, best, median in rows],
            "",
            "Random players never leave the fast path: the same engine calls as simulate's own loop made, "
            "plus a few microseconds a match (a `Match` object; no fallback generator, seed commitment or "
            "result is made unless asked for). Heuristic players are asked as any untrusted seat is, "
            "through a request and an answer with the failure policy's bookkeeping, about 4 µs a decision; "
            "the loop checks each action's legality once and has the engine apply it unchecked, which "
            "saves the engine's second look at the legal actions. The one loop's module also imports the "
            "bot SDK and gRPC (about 0.1 s more at start-up, `python -X importtime`), whose objects "
            "every full garbage collection of a long simulation then visits.",
        ]
        write_section(SECTION, "\n".join(lines))


if __name__ == "__main__":
    main()
