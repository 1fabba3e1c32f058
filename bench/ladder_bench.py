"""Ladder throughput and overhead: `python -m bench ladder`.

Runs the real ladder (an embedded Dask cluster, warm bot processes, TrueSkill,
SQLite) on a temporary store with four built-in random bots at 4-player
tables, once with 1 worker and once with 2, side by side in the same run:

- matches per minute in the steady state (from the first finished match to
  the last, so worker and bot start-up are left out), and the ratio of 2
  workers to 1 (target: at least 1.7);
- where a match's time goes: waiting for the bots (the referee's measured
  answer times, the slowest seat of each simultaneous decision), the
  referee's own work (the rest of the match), and the ladder's rating and
  storage per match (target: rating + storage under 5% of a match's time).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ladder.intake.roster import register_builtins
from ladder.running.cluster import open_pool
from ladder.scheduling.scheduler import Ladder, LadderConfig, RunStatus
from ladder.store.database import Store

GAME = "gnadenlos"
ROSTER = tuple((f"random-{i}", "random") for i in range(4))


@dataclass
class Measured:
    workers: int
    matches: int
    per_minute: float
    match_seconds: float
    bot_seconds: float
    rating_ms: float
    storage_ms: float


def bot_wait(record: Path) -> float:
    """Seconds the referee waited for bots in a match: for each decision
    the slowest answering seat (simultaneous seats are asked in parallel)."""
    total = 0.0
    with record.open() as lines:
        for line in lines:
            entry = json.loads(line)
            if entry.get("type") == "decision":
                total += max((s.get("time") or 0.0) for s in entry["seats"])
    return total


def measure(workers: int, matches: int, seed: int) -> Measured:
    with tempfile.TemporaryDirectory(prefix="ladder-bench-") as folder:
        store = Store(Path(folder) / "ladder.sqlite")
        register_builtins(store, GAME, ROSTER)
        finished: list[float] = []

        def on_update(status: RunStatus) -> None:
            while len(finished) < status.played:
                finished.append(time.perf_counter())

        ladder = Ladder(store, open_pool(None, 1.0, workers=workers),
                        LadderConfig(game=GAME, matches=matches, sizes=(4,), seed=seed),
                        on_update=on_update)
        status = ladder.run()
        stored = store.matches(GAME)
        waits = [bot_wait(Path(m["record_path"])) for m in stored]
        store.close()
    steady = (len(finished) - 1) / (finished[-1] - finished[0]) * 60
    return Measured(
        workers=workers, matches=status.played, per_minute=steady,
        match_seconds=status.match_seconds / status.played,
        bot_seconds=statistics.fmean(waits),
        rating_ms=status.rating_seconds / status.played * 1000,
        storage_ms=status.storage_seconds / status.played * 1000,
    )


def median_run(runs: list[Measured]) -> Measured:
    """The run with the median matches per minute."""
    return sorted(runs, key=lambda m: m.per_minute)[len(runs) // 2]


def report(one: Measured, two: Measured, runs: int) -> str:
    ratio = two.per_minute / one.per_minute
    rows = []
    for m in (one, two):
        referee = m.match_seconds - m.bot_seconds
        ladder_share = (m.rating_ms + m.storage_ms) / 1000 / m.match_seconds
        rows.append(
            f"| {m.workers} | {m.matches} | {m.per_minute:.0f} | {m.match_seconds * 1000:.0f} | "
            f"{m.bot_seconds * 1000:.0f} | {referee * 1000:.0f} ({referee / m.match_seconds:.0%}) | "
            f"{m.rating_ms:.2f} | {m.storage_ms:.2f} | {ladder_share:.2%} |"
        )
    return "\n".join([
        "Four built-in random bots at 4-player tables (duplicate deals), real ladder: worker processes, "
        "warm bot processes, TrueSkill, SQLite (WAL) on a temporary store. Matches per minute from the "
        "first finished match to the last (start-up left out); the median of "
        f"{runs} runs per setting, the settings alternating.",
        "",
        "| workers | matches | matches/min | match ms | waiting for bots ms | referee ms (share) "
        "| rating ms | storage ms | rating+storage share |",
        "|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        f"**2 workers / 1 worker: {ratio:.2f}x** (target at least 1.7). "
        f"Rating + storage per match: {max(one.rating_ms + one.storage_ms, two.rating_ms + two.storage_ms):.1f} ms, "
        f"at most {max((m.rating_ms + m.storage_ms) / 1000 / m.match_seconds for m in (one, two)):.2%} "
        "of a match's time (target under 5%).",
        "",
        "\"Waiting for bots\" is the referee's measured answer time (request sent to answer received, the "
        "slowest seat of each simultaneous decision), so it includes the gRPC round trip; \"referee\" is the "
        "rest of the match: the engine, observations, legal actions, encoding and the record.",
    ])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=80, help="matches per run")
    parser.add_argument("--runs", type=int, default=3, help="runs per setting, 1 and 2 workers alternating")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-record", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    ones, twos = [], []
    for run in range(args.runs):
        # Alternate the settings so a busy spell of the machine hits both alike.
        ones.append(measure(1, args.matches, args.seed + run))
        twos.append(measure(2, args.matches, args.seed + run))
    body = report(median_run(ones), median_run(twos), args.runs)
    body += (f"\n\nMachine load (1-minute load average) before / after: {load_before:.1f} / "
             f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; other work on the machine skews "
             "every figure above, the 2-worker one most. One match at a time keeps about one core "
             "busy (the referee and the bots take turns), so two workers can at best double it on an "
             "idle 2-core machine.")
    print(body)
    if not args.no_record:
        from bench.recording import machine_summary, write_section

        write_section("Ladder", f"Measured by `python -m bench ladder` (bench/ladder_bench.py) on "
                                f"{machine_summary()}.\n\n{body}")


if __name__ == "__main__":
    main()
