"""The referee's speed: complete matches between bot processes, and one decision.

`python -m bench match` (or `python -m bench.match_bench`) measures, in one run:

- complete 4-player Gnadenlos! matches between out-of-process random bots
  (warm processes, started before the clock runs): matches per second with
  one match at a time, and with two at a time (two referee worker processes,
  each with its own four bots, as the ladder's workers run them) over the
  same seeds; target (issue 3): two at least 1.6 times one;
- the in-process time of the very same matches: the engine replays each
  recorded match, building every observation and legal-action list the
  referee built, so the difference is the cost of the processes and the wire;
- the decision round trip through the referee: a `ProcessSeat`'s `send`
  and `collect` (what the match loop does per decision) on positions from
  random matches, with the observation and legal actions built inside the
  timed region, the random bot answering; p50 and p99.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

GAME = "gnadenlos"
SEATS = 4
MOVE_TIME = 1.0
RANDOM_BOT = [sys.executable, "-m", "bots.random"]


# -------------------------------------------------------------- matches


def play_matches(seeds: list[int], record_dir: str, warmup: int, start: Any, results: Any) -> None:
    """A worker process: start four warm random bots, play `warmup` matches,
    say it is ready, wait for the common start, then play `seeds` and report
    the wall time."""
    from referee.match import run_match
    from referee.process import start_bots
    from botsdk.contract import TimeControl

    bots = start_bots([RANDOM_BOT + ["--seed", str(i)] for i in range(SEATS)], [f"random{i}" for i in range(SEATS)])
    control = TimeControl(move_time=MOVE_TIME)
    try:
        for seed in range(10**6, 10**6 + warmup):
            run_match(GAME, bots, seed=seed, time_control=control)
        results.put("ready")
        start.wait()
        began = time.perf_counter()
        referee_cpu, bots_cpu = time.process_time(), _cpu_seconds(bots)
        decisions = 0
        for seed in seeds:
            result = run_match(GAME, bots, seed=seed, time_control=control,
                               record_path=Path(record_dir) / f"{seed}.jsonl")
            decisions += result.decisions
            if any(s.forfeit or s.strikes for s in result.seats):
                raise RuntimeError(f"match {seed}: a random bot was struck; the figures would be wrong")
        results.put((time.perf_counter() - began, decisions, time.process_time() - referee_cpu,
                     _cpu_seconds(bots) - bots_cpu))
    except Exception as exc:
        results.put(f"error: {exc!r}")
        raise
    finally:
        for bot in bots:
            bot.close()


def _cpu_seconds(bots: list[Any]) -> float:
    """User + system CPU seconds the bot processes have used so far."""
    import psutil

    return sum(sum(psutil.Process(bot.pid).cpu_times()[:2]) for bot in bots)


def timed_run(groups: list[list[int]], record_dir: str, warmup: int) -> tuple[float, float, float]:
    """Wall seconds of playing every group of seeds in its own worker process,
    all at once, and the CPU seconds per decision of the referees and the bots."""
    context = multiprocessing.get_context("spawn")  # no gRPC state inherited through fork
    start = context.Event()
    results = context.Queue()
    workers = [context.Process(target=play_matches, args=(group, record_dir, warmup, start, results))
               for group in groups]
    for worker in workers:
        worker.start()
    for _ in workers:
        _expect(results.get(timeout=600), "ready")
    began = time.perf_counter()
    start.set()
    reports = [results.get(timeout=600) for _ in workers]
    wall = time.perf_counter() - began
    for report in reports:
        _expect(report, "times")
    for worker in workers:
        worker.join()
    decisions = sum(r[1] for r in reports)
    return wall, sum(r[2] for r in reports) / decisions, sum(r[3] for r in reports) / decisions


def _expect(message: Any, what: str) -> None:
    if isinstance(message, str) and message.startswith("error"):
        raise RuntimeError(f"a benchmark worker failed: {message}")
    if what == "ready" and message != "ready":
        raise RuntimeError(f"unexpected worker message {message!r}")


def in_process_seconds(record_dir: Path) -> tuple[float, int]:
    """Replay every recorded match in process, building what the referee
    builds per decision (observations and legal actions of the deciding seats)."""
    from referee.games import load_game
    from referee.records import read_record

    game = load_game(GAME)
    records = [read_record(path) for path in sorted(record_dir.glob("*.jsonl"))]
    began = time.perf_counter()
    decisions = 0
    for record in records:
        rules = load_game(game.name, record.header["variant"])
        state, _ = rules.new_state_with_events(SEATS, record.header["seed"])
        for seat in range(SEATS):
            state.observe(seat)
        for decision in record.decisions:
            actions = {}
            for line in decision["seats"]:
                state.observe(line["seat"])
                state.legal_actions(line["seat"])
                actions[line["seat"]] = game.action_from_json(line["action"])
            state.apply(actions)
            decisions += 1
    return time.perf_counter() - began, decisions


def recorded_decisions(record_dir: Path) -> int:
    from referee.records import read_record

    return sum(len(read_record(path).decisions) for path in record_dir.glob("*.jsonl"))


# ------------------------------------------------------- one decision


def positions(count: int, seed: int) -> list[tuple[Any, int]]:
    """(state, deciding seat) pairs sampled from random matches."""
    from referee.games import load_game

    game = load_game(GAME)
    rng = random.Random(seed)
    found: list[tuple[Any, int]] = []
    match_seed = seed
    while len(found) < count:
        state = game.new_state(SEATS, match_seed)
        match_seed += 1
        while not state.is_terminal():
            deciding = sorted(state.to_act())
            if rng.random() < 0.3:
                found.append((state.clone(), deciding[0]))
            state.apply({s: rng.choice(state.legal_actions(s)) for s in deciding})
    return found[:count]


def round_trips(count: int, seed: int) -> list[float]:
    """Seconds per decision through a `ProcessSeat`'s `send` + `collect` with a warm random bot."""
    from referee.process import BotProcess
    from referee.seats import MatchStart, Request
    from referee.seats.process import ProcessSeat
    from botsdk.contract import TimeControl

    samples = positions(count, seed)
    control = TimeControl(move_time=MOVE_TIME)
    bot = BotProcess.start(RANDOM_BOT, label="random")
    try:
        first_state, first_seat = samples[0]
        player = ProcessSeat(bot)
        player.start(MatchStart(match_id="bench", game=GAME, variant={}, seat=first_seat, num_seats=SEATS,
                                seat_names=("random",) * SEATS, time_control=control,
                                observation=first_state.observe(first_seat), seed_commitment=b""))
        times = []
        for request_id, (state, seat) in enumerate(samples * 2, 1):
            began = time.perf_counter()
            legal = state.legal_actions(seat)
            player.send(Request(request_id, state.observe(seat), legal, control.move_time, control.grace))
            answer = player.collect()
            if answer.action is None:
                raise RuntimeError(f"the random bot failed: {answer.fault}")
            times.append(time.perf_counter() - began)
        return times[len(samples):]  # the first pass warms the bot's and our caches
    finally:
        bot.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -------------------------------------------------------------- profile

def referee_profile(matches: int, seed: int) -> tuple[list[tuple[str, float]], float]:
    """Shares of the referee's main-thread CPU per part over `matches`
    matches of four warm random bots (cProfile, cumulative time of the
    functions doing each part), and the main thread's share of the process's
    CPU (the rest runs in gRPC's threads and the stream readers)."""
    import cProfile
    import pstats

    from referee.match import run_match
    from referee.process import start_bots
    from botsdk.contract import TimeControl

    bots = start_bots([RANDOM_BOT + ["--seed", str(i)] for i in range(SEATS)], [f"random{i}" for i in range(SEATS)])
    control = TimeControl(move_time=MOVE_TIME)
    parts = (
        ("sending events (encode once, queue per seat)", ("seats/process.py", "_flush")),
        ("the engine's apply, with its legality check and events", ("base.py", "apply")),
        ("building observations", ("state.py", "observe")),
        ("encoding each Decide", ("codec.py", "encode")),
        ("the record's JSON lines", ("records.py", "write")),
    )
    try:
        run_match(GAME, bots, seed=seed, time_control=control)  # warm
        profiler = cProfile.Profile(time.thread_time)
        process_cpu = time.process_time()
        profiler.enable()
        with tempfile.TemporaryDirectory() as records:  # recorded, as every real match is
            for offset in range(matches):
                run_match(GAME, bots, seed=seed + 1 + offset, time_control=control,
                          record_path=Path(records) / f"{offset}.jsonl")
        profiler.disable()
        process_cpu = time.process_time() - process_cpu
    finally:
        for bot in bots:
            bot.close()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    main_thread = sum(v[2] for v in stats.values())  # every function's own time
    shares = [
        (label, sum(v[3] for k, v in stats.items() if k[0].endswith(filename) and k[2] == function) / main_thread)
        for label, (filename, function) in parts
    ]
    return shares, main_thread / process_cpu


# ---------------------------------------------------------------- report


def measure(args: argparse.Namespace) -> list[tuple[str, str, str]]:
    load_before = os.getloadavg()[0]
    seeds = list(range(args.seed, args.seed + args.matches))
    half = len(seeds) // 2
    one_walls: list[float] = []
    two_walls: list[float] = []
    cpu: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory(prefix="match-bench-") as scratch:
        # Alternate the two set-ups so that a busy spell of the machine hits both alike.
        for run in range(args.repeat):
            one_dir, two_dir = Path(scratch, f"one{run}"), Path(scratch, f"two{run}")
            one_dir.mkdir()
            two_dir.mkdir()
            one_wall, referee_cpu, bots_cpu = timed_run([seeds], str(one_dir), args.warmup)
            one_walls.append(one_wall)
            cpu.append((referee_cpu, bots_cpu))
            two_walls.append(timed_run([seeds[:half], seeds[half:]], str(two_dir), args.warmup)[0])
        one_dir = Path(scratch, "one0")
        decisions = recorded_decisions(one_dir)
        engine_seconds, _ = in_process_seconds(one_dir)
    one_wall, two_wall = statistics.median(one_walls), statistics.median(two_walls)
    referee_cpu = statistics.median(c[0] for c in cpu)
    bots_cpu = statistics.median(c[1] for c in cpu)
    trips = round_trips(args.decisions, args.seed)
    load_after = os.getloadavg()[0]
    one_rate = len(seeds) / one_wall
    two_rate = len(seeds) / two_wall
    return [
        ("matches/s, one match at a time", f"{one_rate:.2f}", f"{len(seeds)} matches, {decisions / len(seeds):.0f} decisions each on average"),
        ("matches/s, two at a time", f"{two_rate:.2f}", "two referee worker processes, four bots each"),
        ("two at a time / one at a time", f"{two_rate / one_rate:.2f}×", "target ≥ 1.6×"),
        ("wall time per decision in a match", f"{1000 * one_wall / decisions:.2f} ms", "one match at a time, all included"),
        ("CPU per decision: referee / the four bots", f"{1000 * referee_cpu:.2f} ms / {1000 * bots_cpu:.2f} ms",
         f"one match at a time keeps {(referee_cpu + bots_cpu) * decisions / one_wall:.2f} cores busy "
         "(the ceiling for running matches side by side is what is left of the machine)"),
        ("in-process time of the same matches", f"{1000 * engine_seconds / len(seeds):.1f} ms/match",
         f"engine only (observations, legal actions, apply): {one_wall / engine_seconds:.0f}× faster than out of process"),
        ("decision round trip through the referee, p50", f"{1e6 * percentile(trips, 0.5):.0f} µs",
         "observe + legal actions + send + random bot + receive + validate"),
        ("decision round trip through the referee, p99", f"{1e6 * percentile(trips, 0.99):.0f} µs", f"{len(trips)} decisions"),
        ("machine load (1-minute load average) before / after", f"{load_before:.1f} / {load_after:.1f}",
         "other work on the machine skews every figure above; 2 cores"),
    ]


def markdown(rows: list[tuple[str, str, str]], profile: tuple[list[tuple[str, float]], float],
             args: argparse.Namespace) -> str:
    from bench.recording import machine_summary

    lines = [
        f"Measured by `python -m bench match` (bench/match_bench.py) on {machine_summary()}.",
        f"Random bots as separate processes over gRPC, warm ({args.warmup} matches each before the clock), "
        f"move time {MOVE_TIME:g} s; the same {args.matches} seeds one at a time and split over two workers, "
        f"{args.repeat} runs of each alternated, median.",
        "",
        "| figure | value | note |",
        "|---|---|---|",
        *[f"| {name} | {value} | {note} |" for name, value, note in rows],
        "",
        f"Where the referee's time goes (cProfile of the referee's main thread over {args.profile_matches} "
        "matches, shares of its CPU, each part including what it calls): "
        + "; ".join(f"{label}, {100 * share:.0f}%" for label, share in profile[0])
        + f". The main thread does {100 * profile[1]:.0f}% of the referee process's CPU; the rest runs in "
        "gRPC's own threads and the per-bot stream readers. Each event is encoded once however many seats "
        "see it, and held until a seat's next `Decide`, inside which it travels to a bot that takes events "
        "there (botsdk's do: no `Notify` of their own), which spares the bots a wake-up per event. Because one match at a time already keeps about one of "
        "the two cores busy (row above), two at a time can at best approach 2 / that figure on an idle "
        "machine; on a machine shared with other work the ratio falls towards 1.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench match", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="matches per timed run (default 40)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each set-up, alternated; the median counts (default 3)")
    parser.add_argument("--warmup", type=int, default=2, help="matches each worker plays before the clock (default 2)")
    parser.add_argument("--decisions", type=int, default=1000, help="decisions for the round trip (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile-matches", type=int, default=20,
                        help="matches profiled for where the referee's time goes (default 20)")
    parser.add_argument("--no-record", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    rows = measure(args)
    text = markdown(rows, referee_profile(args.profile_matches, args.seed + 10**5), args)
    print(text)
    if not args.no_record:
        from bench.recording import write_section

        write_section("Referee", text)


if __name__ == "__main__":
    main()
