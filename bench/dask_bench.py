"""The ladder on Dask: overhead per match against the old pool, and scaling
with workers: `python -m bench dask`.

Both parts run the real ladder (Ladder run loop, warm bot processes in the
sandbox, TrueSkill, SQLite on a temporary store) with four bots that think
by sleeping (`--think`, 20 ms a decision by default: little CPU, so the
cores are not what limits), at 4-player tables with duplicate deals.

- Overhead: the same matches through the home-made process pool this
  replaced (ladder/pool.py as of commit POOL_COMMIT, loaded from git) and
  through Dask (an embedded LocalCluster), one worker each, the two
  alternating run by run. Per match: the steady wall time per match (first
  finished match to last) minus the referee's own match time, as a share
  of the match time: what dispatching, moving the result and its record
  back, and rating cost beyond playing.
- Scaling: 1, 2, 4, 8 and 16 worker processes of an embedded cluster;
  matches per minute after the first wave (the first match of each worker
  also starts its bots), against 16 x the 1-worker rate (linear).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ladder.intake.copying import content_hash
from ladder.running.botfiles import StoreFiles
from ladder.running.cluster import open_pool
from ladder.running.dispatch import Pool
from ladder.running.runner import RealRunner
from ladder.scheduling.scheduler import Ladder, LadderConfig, RunStatus
from ladder.store.database import Store

GAME = "gnadenlos"
POOL_COMMIT = "814c902"
"""The last commit with the home-made pool (ladder/pool.py)."""
WORKER_COUNTS = (1, 2, 4, 8, 16)
MOVE_TIME = 2.0

BOT = """#!{python}
import random
import sys
import time

from bots.sdk import Bot, serve


class Sleeper(Bot):
    name = "sleeper"
    version = "{name}"

    def decide(self, observation, legal_actions, context):
        time.sleep({think})
        return random.choice(legal_actions)


if __name__ == "__main__":
    serve(Sleeper())
"""


def make_store(folder: Path, think: float) -> Store:
    """A store with four sleeping bots, registered as `referee submit` stores them."""
    store = Store(folder / "data" / "ladder.sqlite")
    for name in ("s1", "s2", "s3", "s4"):
        source = folder / "src" / name
        source.mkdir(parents=True)
        (source / "bot.py").write_text(BOT.format(python=sys.executable, name=name, think=think))
        (source / "bot.py").chmod(0o755)
        digest = content_hash(source)
        relative = Path("bots") / name / digest[:16]
        shutil.copytree(source, store.root / relative)
        (store.root / relative).chmod(0o755)
        with store.transaction() as conn:
            store.add_bot(conn, name=name, version="v1", content_hash=digest, kind="submitted",
                          command=["./bot.py"], folder=str(relative), games=[GAME])
    return store


@dataclass
class Run:
    played: int
    finished: list[float]
    match_seconds: float
    """The referee's own mean match time."""

    def wall_per_match(self, skip: int = 0) -> float:
        """Steady wall time per match: from the `skip`+1-th finish to the last."""
        span = self.finished[-1] - self.finished[skip]
        return span / (len(self.finished) - 1 - skip)


def run_ladder(make_pool: Callable[[], Pool], matches: int, think: float, seed: int) -> Run:
    with tempfile.TemporaryDirectory(prefix="dask-bench-") as folder:
        store = make_store(Path(folder), think)
        finished: list[float] = []

        def on_update(status: RunStatus) -> None:
            while len(finished) < status.played:
                finished.append(time.perf_counter())

        status = Ladder(store, make_pool(), LadderConfig(game=GAME, matches=matches, sizes=(4,), seed=seed),
                        on_update=on_update).run()
        store.close()
    return Run(status.played, finished, status.match_seconds / status.played)


def legacy_pool_class(folder: Path) -> Any:
    """ProcessPool from POOL_COMMIT's ladder/pool.py, importable by its spawned workers."""
    source = subprocess.run(["git", "show", f"{POOL_COMMIT}:ladder/pool.py"], check=True, capture_output=True,
                            text=True, cwd=Path(__file__).resolve().parents[1]).stdout
    (folder / "legacy_pool.py").write_text(source)
    sys.path.insert(0, str(folder))  # a spawned worker gets this sys.path too
    spec = importlib.util.spec_from_file_location("legacy_pool", folder / "legacy_pool.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["legacy_pool"] = module
    spec.loader.exec_module(module)
    return module.ProcessPool


def overhead(matches: int, runs: int, think: float) -> dict[str, list[Run]]:
    from botsdk.contract import TimeControl

    with tempfile.TemporaryDirectory(prefix="legacy-pool-") as folder:
        process_pool = legacy_pool_class(Path(folder))
        factory = partial(RealRunner, TimeControl(move_time=MOVE_TIME), StoreFiles(), None)
        makers: dict[str, Callable[[], Pool]] = {
            "old pool": lambda: process_pool(1, factory),
            "Dask": lambda: open_pool(None, MOVE_TIME, workers=1),
        }
        results: dict[str, list[Run]] = {name: [] for name in makers}
        for run in range(runs):
            for name, make in makers.items():  # alternating, so a busy spell of the machine hits both alike
                results[name].append(run_ladder(make, matches, think, seed=run + 1))
    return results


def scaling(matches_per_worker: int, think: float) -> dict[int, float]:
    """Matches per minute after the first wave, per worker count."""
    rates = {}
    for workers in WORKER_COUNTS:
        run = run_ladder(lambda: open_pool(None, MOVE_TIME, workers=workers), matches_per_worker * workers, think,
                         seed=workers)
        rates[workers] = 60.0 / run.wall_per_match(skip=workers - 1)
    return rates


def overhead_table(results: dict[str, list[Run]]) -> tuple[str, dict[str, float]]:
    rows, shares = [], {}
    for name, runs in results.items():
        match = statistics.median(r.match_seconds for r in runs)
        wall = statistics.median(r.wall_per_match(skip=1) for r in runs)  # the first match also starts the bots
        shares[name] = (wall - match) / match
        rows.append(f"| {name} | {len(runs)} x {runs[0].played} | {match * 1000:.0f} | {wall * 1000:.0f} | "
                    f"{(wall - match) * 1000:.1f} | {shares[name]:.2%} |")
    return "\n".join([
        "| pool | runs x matches | match ms (referee) | wall ms per match | overhead ms | overhead share |",
        "|---|---|---|---|---|---|", *rows]), shares


def scaling_table(rates: dict[int, float]) -> str:
    one = rates[1]
    rows = [f"| {k} | {rate:.1f} | {k * one:.1f} | {rate / (k * one):.2f} |" for k, rate in rates.items()]
    return "\n".join(["| workers | matches/min | linear (k x 1 worker) | share of linear |", "|---|---|---|---|", *rows])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--think", type=float, default=0.02, help="seconds each bot sleeps per decision")
    parser.add_argument("--matches", type=int, default=16, help="matches per overhead run")
    parser.add_argument("--runs", type=int, default=3, help="overhead runs per pool, alternating")
    parser.add_argument("--per-worker", type=int, default=5, help="matches per worker in the scaling runs")
    parser.add_argument("--scaling-think", default="0.02,0.1",
                        help="comma-separated seconds of sleep per decision, a scaling run for each")
    parser.add_argument("--no-record", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    table, shares = overhead_table(overhead(args.matches, args.runs, args.think))
    thinks = [float(t) for t in args.scaling_think.split(",")]
    scaled = {think: scaling(args.per_worker, think) for think in thinks}
    worst = {think: min(rate / (k * rates[1]) for k, rate in rates.items()) for think, rates in scaled.items()}
    scaling_parts = []
    for think, rates in scaled.items():
        scaling_parts += [f"Bots sleeping {think * 1000:.0f} ms a decision:", "", scaling_table(rates), "",
                          f"Worst share of linear: **{worst[think]:.2f}** (target at least 0.8 up to 16).", ""]
    body = "\n".join([
        f"Four bots that think by sleeping {args.think * 1000:.0f} ms a decision (random moves), 4-player tables "
        "with duplicate deals, the real ladder (run loop, warm sandboxed bot processes, TrueSkill, SQLite) on a "
        "temporary store.",
        "",
        f"Overhead per match, one worker, the home-made pool (ladder/pool.py of {POOL_COMMIT}) and Dask (an "
        "embedded LocalCluster) alternating; medians. Overhead = the steady wall time per match (second finished "
        "match to last) minus the referee's own match time: dispatching, moving the result and its record back, "
        "rating and storing.",
        "",
        table,
        "",
        f"**Dask's overhead: {shares['Dask']:.2%} of a match** (target under 3%); the old pool's "
        f"{shares['old pool']:.2%}.",
        "",
        f"Scaling with worker processes of an embedded cluster ({args.per_worker} matches per worker; matches per "
        "minute after each worker's first match, which also starts its bots), against linear: k x the 1-worker "
        "rate.",
        "",
        *scaling_parts,
        f"Machine load (1-minute load average) before / after: {load_before:.1f} / {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores, shared with other work. Each decision also costs the referee and the bot a few "
        "ms of CPU (docs/benchmarks.md, Referee: about 4 ms), so at 20 ms of sleep 16 matches at once ask for about "
        "2.7 cores: on 2 cores the CPU, not Dask, is then the limit; at 100 ms about 0.6 cores.",
    ])
    print(body)
    if not args.no_record:
        from bench.recording import machine_summary, write_section

        write_section("Ladder on Dask", f"Measured by `python -m bench dask` (bench/dask_bench.py) on "
                                        f"{machine_summary()}.\n\n{body}")


if __name__ == "__main__":
    main()
