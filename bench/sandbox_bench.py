"""The sandbox: CPU fairness under a hog, covert channels that remain, and its cost.

`python -m bench sandbox` (or `python -m bench.sandbox_bench`) measures, in
one run, side by side, as ratios (the machines are shared and noisy):

1. CPU fairness: Gnadenlos! matches of three real random-bot processes at a
   100 ms move time, alternating with matches where seat 0 is the hostile
   tests/hostile/hog.py (40 spinners in sessions of their own, stopped while
   it decides, resumed while its opponents think). For the two victims:
   median and p99 answer time, strikes, and the hog / baseline ratio (the
   containment issue's target: no strike, median at most 1.5x). The same is
   run on the old sandbox (commit OLD_COMMIT: unshare + setrlimit, no cgroup).
2. Covert channels between two bots at one table, each in a sandbox of its
   own: CPU contention (a sender spins or sleeps per time slot, a receiver
   counts its own loop iterations), and the host-wide figures a jail still
   reads in /proc (CPU busy time in /proc/stat, MemAvailable in
   /proc/meminfo, the thread count in /proc/loadavg). Bit error rate per
   slot width and the binary symmetric channel's capacity (1 - H(p)) / W.
3. Cost against the old sandbox: a bot's start (until the handshake is
   answered) and close, where the start's time goes, and a warm 3-bot
   match's wall time. The old code runs from a git worktree of OLD_COMMIT put
   first on PYTHONPATH, in a subprocess alternating with one of the new code.

The file is also the program the sandboxed senders and receivers run
(`... sandbox_bench.py jail ROLE`, standard library only, so it starts fast
in a jail) and the worker that runs against either referee
(`... sandbox_bench.py worker ROLE`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
THIS_FILE = Path(__file__).resolve()
HOSTILE = REPO / "tests" / "hostile"
OLD_COMMIT = "f7b6bca"
"""The last commit of the sandbox before nsjail (unshare + setrlimit, no cgroup)."""

GAME = "gnadenlos"
RANDOM_BOT = [sys.executable, "-m", "bots.random", "--seed", "1"]
HOG_BOT = [sys.executable, str(HOSTILE / "hog.py")]
FAIR_MOVE_TIME = 0.1
FAIR_GRACE = 0.1

RESULT_TAG = "RESULT "
"""Prefix of the one line a jailed receiver prints its measurements on."""

WORKER_TIMEOUT = 300.0
"""Seconds a worker subprocess may take before the bench gives up on it."""


# ------------------------------------------------------------ statistics


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile by rank (the same rule as the other benches)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def binary_entropy(p: float) -> float:
    """H(p) in bits."""
    if p <= 0.0 or p >= 1.0:
        return 0.0
    return -p * math.log2(p) - (1 - p) * math.log2(1 - p)


def capacity(error_rate: float, width: float) -> float:
    """Bits per second of a binary symmetric channel with crossover
    `error_rate`, one use per `width` seconds."""
    return (1.0 - binary_entropy(error_rate)) / width


def chance_band(bits: int) -> float:
    """Two standard deviations of the error rate a coin toss would show over
    `bits` bits: an error rate within 0.5 +- this carries nothing we can
    tell from chance (and its small capacity is estimation noise)."""
    return 2 * math.sqrt(0.25 / bits)


def decode(values: Sequence[float], one_is_low: bool, window: int = 16) -> list[int]:
    """Bits from per-slot readings by a median threshold. The median is
    taken over a sliding window of neighbouring slots, not the whole run,
    so that a slow drift of the machine's load (other work starting or
    ending) does not push a whole stretch of slots to one side."""
    bits = []
    for i, value in enumerate(values):
        lo = max(0, min(i - window // 2, len(values) - window))
        threshold = statistics.median(values[lo:lo + window])
        bits.append(int(value < threshold) if one_is_low else int(value > threshold))
    return bits


def bit_sequence(seed: int, count: int) -> list[int]:
    """The known pseudo-random bits a sender sends (the same in every process)."""
    rng = random.Random(seed)
    return [rng.getrandbits(1) for _ in range(count)]


# ------------------------------------------------------------ jailed programs

SEGMENT_GAP = 0.1
"""Seconds between the segments (slot widths) of one transmission."""


def slots(start: float, plan: Sequence[tuple[float, int]]) -> list[list[tuple[float, float]]]:
    """(slot start, slot end) on CLOCK_MONOTONIC for each segment of `plan`
    ((width, bits) pairs), back to back from `start`. Sender and receiver
    compute the same table from the same arguments; the clock is the
    machine's in every PID namespace (`transmit` checks that the receiver's
    first reading lies between two of the referee's)."""
    table, at = [], start
    for width, count in plan:
        table.append([(at + i * width, at + (i + 1) * width) for i in range(count)])
        at += width * count + SEGMENT_GAP
    return table


def _sleep_until(moment: float) -> None:
    left = moment - time.monotonic()
    if left > 0:
        time.sleep(left)


def _spin_until(moment: float) -> None:
    while time.monotonic() < moment:
        pass


def cpu_sender(start: float, plan: Sequence[tuple[float, int]], seed: int, spinners: int) -> None:
    """Spin through each 1-slot and sleep through each 0-slot, in
    `spinners` processes at once (more than one is more than the bot's
    1-core share, for as long as its cgroup's quota lasts)."""
    for _ in range(spinners - 1):
        if os.fork() == 0:
            break
    for segment, (_width, count) in zip(slots(start, plan), plan):
        for (_begin, end), bit in zip(segment, bit_sequence(seed, count)):
            (_spin_until if bit else _sleep_until)(end)


def cpu_receiver(start: float, plan: Sequence[tuple[float, int]]) -> dict[str, Any]:
    """Loop iterations done in each slot: less work when the sender's
    spinning takes CPU from us."""
    first = time.monotonic()
    counts: list[list[int]] = []
    for segment in slots(start, plan):
        counts.append([])
        _sleep_until(segment[0][0] - 0.02)
        _spin_until(segment[0][0])
        for _begin, end in segment:
            done = 0
            while time.monotonic() < end:
                done += 1
            counts[-1].append(done)
    return {"clock_at_start": first, "values": {"count": counts}}


def sampling_receiver(start: float, plan: Sequence[tuple[float, int]], figures: Sequence[str],
                      at: float) -> dict[str, Any]:
    """Readings of host-wide /proc figures, one of each per slot, taken
    `at` of the way through it, sleeping in between (so the receiver itself
    adds no load). "cpu_busy" is the machine's busy time from the slot's
    start to its end instead."""
    first = time.monotonic()
    values: dict[str, list[list[float]]] = {figure: [] for figure in figures}
    for segment in slots(start, plan):
        for figure in figures:
            values[figure].append([])
        for begin, end in segment:
            _sleep_until(begin)
            busy = _cpu_busy_seconds()
            _sleep_until(begin + at * (end - begin))
            readings = {figure: PROC_READINGS[figure]() for figure in figures if figure != "cpu_busy"}
            if "cpu_busy" in figures:
                _sleep_until(end)
                readings["cpu_busy"] = _cpu_busy_seconds() - busy
            for figure in figures:
                values[figure][-1].append(readings[figure])
    return {"clock_at_start": first, "values": values}


def memory_sender(start: float, plan: Sequence[tuple[float, int]], seed: int, mib: int) -> None:
    """Hold `mib` MiB of resident memory through each 1-slot (mapped with
    MAP_POPULATE, so the pages are really taken), none through a 0-slot."""
    import mmap

    flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | getattr(mmap, "MAP_POPULATE", 0)
    for segment, (_width, count) in zip(slots(start, plan), plan):
        for (begin, end), bit in zip(segment, bit_sequence(seed, count)):
            _sleep_until(begin)
            if bit:
                block = mmap.mmap(-1, mib << 20, flags=flags)
                _sleep_until(end)
                block.close()
            else:
                _sleep_until(end)


def thread_sender(start: float, plan: Sequence[tuple[float, int]], seed: int, threads: int) -> None:
    """Keep `threads` idle threads alive through each 1-slot (they count in
    /proc/loadavg's thread total), none through a 0-slot."""
    import threading

    for segment, (_width, count) in zip(slots(start, plan), plan):
        for (begin, end), bit in zip(segment, bit_sequence(seed, count)):
            _sleep_until(begin)
            if bit:
                release = threading.Event()
                crowd = [threading.Thread(target=release.wait) for _ in range(threads)]
                for thread in crowd:
                    thread.start()
                _sleep_until(end)
                release.set()
                for thread in crowd:
                    thread.join()
            else:
                _sleep_until(end)


def _cpu_busy_seconds() -> float:
    """Busy CPU seconds of the whole machine (/proc/stat: all but idle and iowait)."""
    with open("/proc/stat") as handle:
        fields = [int(v) for v in handle.readline().split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def _meminfo_kib(field: str) -> float:
    with open("/proc/meminfo") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return float(line.split()[1])
    return 0.0


def _mem_available_kib() -> float:
    return _meminfo_kib("MemAvailable")


def _anon_pages_kib() -> float:
    return _meminfo_kib("AnonPages")


def _thread_total() -> float:
    with open("/proc/loadavg") as handle:
        return float(handle.read().split()[3].split("/")[1])


PROC_READINGS: dict[str, Callable[[], float]] = {
    "cpu_busy": _cpu_busy_seconds, "mem_available": _mem_available_kib, "anon_pages": _anon_pages_kib,
    "threads": _thread_total,
}


def proc_view() -> dict[str, Any]:
    """What a jailed process reads of the machine in /proc."""
    with open("/proc/loadavg") as handle:
        loadavg = handle.read().split()
    return {"mem_available_kib": _mem_available_kib(), "threads": _thread_total(), "last_pid": int(loadavg[4]),
            "cpu_busy": _cpu_busy_seconds(), "pressure": os.path.exists("/proc/pressure/cpu"),
            "visible_pids": sum(1 for name in os.listdir("/proc") if name.isdigit())}


def jail_main(argv: list[str]) -> None:
    """Entry of the programs run inside a sandbox: ROLE START PLAN SEED ARG."""
    role = argv[0]
    if role == "view":
        print(RESULT_TAG + json.dumps(proc_view()), flush=True)
        return
    start, plan, seed, arg = float(argv[1]), [tuple(p) for p in json.loads(argv[2])], int(argv[3]), argv[4]
    if role == "cpu-send":
        cpu_sender(start, plan, seed, int(arg))
    elif role == "memory-send":
        memory_sender(start, plan, seed, int(arg))
    elif role == "thread-send":
        thread_sender(start, plan, seed, int(arg))
    elif role == "count":
        print(RESULT_TAG + json.dumps(cpu_receiver(start, plan)), flush=True)
    elif role == "sample":
        figures, _sep, at = arg.partition("@")
        print(RESULT_TAG + json.dumps(sampling_receiver(start, plan, figures.split(","), float(at or 0.9))),
              flush=True)
    else:
        raise SystemExit(f"unknown jail role {role!r}")


# ------------------------------------------------------------ workers (either referee)


def fairness_worker(pairs: int, seed: int, scratch: Path) -> dict[str, Any]:
    """Alternate baseline matches (three random bots) with hog matches (the
    hog in seat 0, the same two victims in seats 1 and 2) on the same seeds.
    The hog is started fresh for each of its matches and closed after it:
    alive, its spinners would run through the next baseline match too."""
    import referee
    from referee.match import run_match
    from referee.process import BotProcess, start_bots
    from botsdk.contract import TimeControl

    control = TimeControl(move_time=FAIR_MOVE_TIME, grace=FAIR_GRACE)
    table = start_bots([RANDOM_BOT] * 3, ["random-0", "victim-1", "victim-2"])
    found: dict[str, Any] = {"referee": referee.__file__, "baseline": [], "hog": [], "hog_spinners": []}
    try:
        run_match(GAME, table, seed=seed - 1, time_control=control)  # warm the bots
        for i in range(pairs):
            record = scratch / f"baseline{i}.jsonl"
            run_match(GAME, table, seed=seed + i, time_control=control, record_path=record)
            found["baseline"].append(_victims(record))
            log_path = scratch / f"hog{i}.log"
            hog = BotProcess.start(HOG_BOT, label="hog", log_path=log_path, expose=[HOSTILE])
            try:
                record = scratch / f"hog{i}.jsonl"
                run_match(GAME, [hog, *table[1:]], seed=seed + i, time_control=control, record_path=record)
                found["hog"].append(_victims(record))
            finally:
                hog.close()
            found["hog_spinners"].append("spinners 40" in log_path.read_text())
    finally:
        for bot in table:
            bot.close()
    return found


def _victims(record_path: Path) -> dict[str, Any]:
    """Seats 1 and 2's answer times (a struck answer at the time it was
    given up on) with their decision numbers, strikes and forfeits in one
    record, the times split at seat 0's forfeit: a forfeiting bot is killed
    at once, so only the answers before it were given with the hog at the
    table."""
    from referee.records import read_record

    record = read_record(record_path)
    seat0_out = next((entry["decision"] for entry in record.forfeits if entry["seat"] == 0), None)
    seated: list[tuple[int, float]] = []
    after: list[float] = []
    seat0_strikes: list[str] = []
    strikes = 0
    for index, decision in enumerate(record.decisions):
        for line in decision["seats"]:
            if line["seat"] == 0:
                if "strike" in line:
                    seat0_strikes.append(line["strike"]["reason"])
                continue
            strikes += "strike" in line
            if line.get("by") == "bot" or "strike" in line:
                if seat0_out is None or index < seat0_out:
                    seated.append((index, line["time"]))
                else:
                    after.append(line["time"])
    return {"timed": seated, "after": after, "strikes": strikes, "seat0_strikes": seat0_strikes,
            "seat0_out": seat0_out, "decisions": len(record.decisions),
            "forfeits": sum(1 for entry in record.forfeits if entry["seat"] != 0)}


START_PHASES = (
    ("sandbox", "Sandbox.__init__", "folders, uid, control group"),
    ("spawn", "Sandbox.spawn", "supervisor and jail, until the bot's program is exec'd"),
    ("socket", "_wait_for_socket", "the bot's own start: interpreter, imports, gRPC server, until its socket exists"),
    ("check", "_claim_socket/_verify_peer", "the socket claimed (new) or verified (old): SO_PEERCRED"),
    ("handshake", "BotClient.wait_ready", "the gRPC channel and the handshake"),
)


def _instrument_start(marks: dict[str, float]) -> None:
    """Time the phases of BotProcess.start by wrapping the functions it
    calls (the same names in the old and the new referee), adding each
    call's seconds to `marks`."""
    import referee.process as process

    def timed(owner: Any, name: str, key: str) -> None:
        inner = getattr(owner, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                marks[key] = marks.get(key, 0.0) + time.perf_counter() - began

        setattr(owner, name, wrapper)

    timed(process.Sandbox, "__init__", "sandbox")
    timed(process.Sandbox, "spawn", "spawn")
    timed(process, "_wait_for_socket", "socket")
    timed(process, "_claim_socket" if hasattr(process, "_claim_socket") else "_verify_peer", "check")
    timed(process.BotClient, "wait_ready", "handshake")


def cost_worker(starts: int, seeds: Sequence[int]) -> dict[str, Any]:
    """Starts and closes of one random bot (after one untimed start, which
    also probes the machine's capabilities), then matches of three warm
    random bots, each timed alone."""
    import referee
    from referee.match import run_match
    from referee.process import BotProcess, start_bots
    from botsdk.contract import TimeControl

    marks: dict[str, float] = {}
    _instrument_start(marks)
    BotProcess.start(RANDOM_BOT, label="warm-up").close()
    found: dict[str, Any] = {"referee": referee.__file__, "start": [], "close": [], "phases": [], "match": []}
    for k in range(starts):
        marks.clear()
        began = time.perf_counter()
        bot = BotProcess.start(RANDOM_BOT, label=f"random{k}")
        started = time.perf_counter()
        bot.close()
        found["start"].append(started - began)
        found["close"].append(time.perf_counter() - started)
        found["phases"].append(dict(marks))
    table = start_bots([RANDOM_BOT] * 3, [f"random{i}" for i in range(3)])
    control = TimeControl(move_time=1.0)
    try:
        run_match(GAME, table, seed=10**6, time_control=control)  # warm
        for seed in seeds:
            began = time.perf_counter()
            run_match(GAME, table, seed=seed, time_control=control)
            found["match"].append(time.perf_counter() - began)
    finally:
        for bot in table:
            bot.close()
    return found


def worker_main(argv: list[str]) -> None:
    """Entry of a worker subprocess: ROLE OUT_JSON ARGS..."""
    role, out = argv[0], Path(argv[1])
    if role == "fairness":
        with tempfile.TemporaryDirectory(prefix="sandbox-bench-fair-") as scratch:
            result = fairness_worker(int(argv[2]), int(argv[3]), Path(scratch))
    elif role == "cost":
        result = cost_worker(int(argv[2]), json.loads(argv[3]))
    else:
        raise SystemExit(f"unknown worker role {role!r}")
    out.write_text(json.dumps(result))


# ------------------------------------------------------------ running both referees


@contextlib.contextmanager
def old_checkout(path: Path) -> Iterator[Path]:
    """A git worktree of OLD_COMMIT at `path`, removed afterwards."""
    made = subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "--force", str(path), OLD_COMMIT],
                          check=False, capture_output=True, text=True)
    if made.returncode != 0:
        raise RuntimeError(f"cannot check out the old sandbox ({OLD_COMMIT}) for comparison: {made.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(path)],
                       check=False, capture_output=True)


def run_worker(code_root: Path, role: str, *args: str) -> dict[str, Any]:
    """Run a worker against the referee found in `code_root` (first on
    PYTHONPATH, so it wins over the editable install's finder) and return
    what it measured. Raises RuntimeError if it fails or imported the
    wrong referee."""
    with tempfile.NamedTemporaryFile(prefix="sandbox-bench-", suffix=".json") as out:
        env = {**os.environ, "PYTHONPATH": str(code_root)}
        done = subprocess.run([sys.executable, str(THIS_FILE), "worker", role, out.name, *args], env=env,
                              capture_output=True, text=True, timeout=WORKER_TIMEOUT, cwd=tempfile.gettempdir())
        if done.returncode != 0:
            raise RuntimeError(f"worker {role} ({code_root}) failed:\n{done.stderr[-3000:]}")
        result = json.loads(Path(out.name).read_text())
    expected = str(code_root / "referee" / "__init__.py")
    if result["referee"] != expected:
        raise RuntimeError(f"worker {role} imported {result['referee']}, not {expected}")
    return result


def alternate(rounds: int, run: Callable[[str, int], dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """`run(code, round)` for code "new" and "old" in each round, the order
    swapped every round, so a slow spell of the machine hits both alike."""
    found: dict[str, list[dict[str, Any]]] = {"new": [], "old": []}
    for r in range(rounds):
        for code in (("new", "old") if r % 2 == 0 else ("old", "new")):
            found[code].append(run(code, r))
    return found


# ------------------------------------------------------------ 1. fairness


@dataclass
class Fairness:
    """Victims' answer times and strikes at baseline and with the hog, for one sandbox."""

    baseline_times: list[float]
    """The victims' answers over whole baseline matches."""
    matched_times: list[float]
    """Their baseline answers at the decisions the hog was present for in
    the paired hog match (same seed): an early forfeit would otherwise
    compare the opening's decisions with a whole match's."""
    seated_times: list[float]
    """The victims' answers while the hog was at the table (before its forfeit, if any)."""
    after_times: list[float]
    """Their answers after the hog forfeited (and was killed)."""
    baseline_strikes: int
    hog_strikes: int
    """The victims' strikes in the hog matches."""
    victim_forfeits: int
    hog_struck: list[str]
    """Reasons of the hog's own strikes."""
    hog_out: list[int]
    """For each hog match the hog forfeited: the decision it forfeited at."""
    decisions: list[int]
    """Decisions of each hog match."""
    spinners_seen: bool


def measure_fairness(roots: dict[str, Path], pairs: int, seed: int) -> dict[str, Fairness]:
    """Baseline and hog matches alternated, on the new and the old sandbox
    (in two rounds each, alternated, so both see the same machine load)."""
    half = max(1, pairs // 2)
    runs = alternate(2, lambda code, r: run_worker(roots[code], "fairness", str(half if r == 0 else pairs - half),
                                                   str(seed + 1000 * r)))
    found = {}
    for code, results in runs.items():
        baseline = [m for result in results for m in result["baseline"]]
        hog = [m for result in results for m in result["hog"]]
        matched = [t for b, h in zip(baseline, hog) for i, t in b["timed"]
                   if i < (h["decisions"] if h["seat0_out"] is None else h["seat0_out"])]
        found[code] = Fairness(
            baseline_times=[t for m in baseline for _i, t in m["timed"]], matched_times=matched,
            seated_times=[t for m in hog for _i, t in m["timed"]], after_times=[t for m in hog for t in m["after"]],
            baseline_strikes=sum(m["strikes"] for m in baseline), hog_strikes=sum(m["strikes"] for m in hog),
            victim_forfeits=sum(m["forfeits"] for m in hog), hog_struck=[r for m in hog for r in m["seat0_strikes"]],
            hog_out=[m["seat0_out"] for m in hog if m["seat0_out"] is not None],
            decisions=[m["decisions"] for m in hog],
            spinners_seen=all(s for result in results for s in result["hog_spinners"]),
        )
    return found


# ------------------------------------------------------------ 2. covert channels


@dataclass
class Channel:
    """One covert channel's measured error rate at one slot width."""

    name: str
    width: float
    bits: int
    error_rate: float

    @property
    def capacity(self) -> float:
        return capacity(self.error_rate, self.width)

    @property
    def above_chance(self) -> bool:
        return abs(self.error_rate - 0.5) > chance_band(self.bits)


@dataclass(frozen=True)
class Reading:
    """One figure a receiver reads per slot, decoded as a channel of its own."""

    channel: str
    """The channel's name in the report."""
    figure: str
    """"count" (the receiver's own loop iterations) or a key of PROC_READINGS."""
    one_is_low: bool
    """A 1 lowers the reading (CPU work done, memory available)."""


@dataclass(frozen=True)
class ChannelSetup:
    """How one transmission is sent, and the readings taken of it."""

    sender: tuple[str, str]
    """(jail role, its argument)."""
    readings: tuple[Reading, ...]
    """All "count", or all /proc figures (one sampling receiver reads them all)."""
    at: float
    """How far through each slot a sampling receiver reads."""
    plan: tuple[tuple[float, int], ...]
    """(slot width in seconds, bits) per segment."""

    def receiver(self) -> tuple[str, str]:
        """(jail role, its argument) of the receiver."""
        if self.readings[0].figure == "count":
            return "count", ""
        return "sample", ",".join(r.figure for r in self.readings) + f"@{self.at}"


def channel_setups(scale: float) -> list[ChannelSetup]:
    """The transmissions measured; `scale` shortens them (for a quick run)."""

    def plan(*segments: tuple[float, int]) -> tuple[tuple[float, int], ...]:
        return tuple((w, max(32, int(n * scale))) for w, n in segments)

    cpu_plan = plan((0.005, 400), (0.01, 400), (0.02, 300), (0.05, 200))
    return [
        ChannelSetup(("cpu-send", "1"),
                     (Reading("CPU contention, sender 1 spinner (its 1-core share)", "count", True),), 1.0, cpu_plan),
        ChannelSetup(("cpu-send", "2"),
                     (Reading("CPU contention, sender 2 spinners (past its share while its quota lasts)", "count",
                              True),), 1.0, cpu_plan),
        ChannelSetup(("cpu-send", "1"), (Reading("/proc/stat, the machine's busy CPU time; sender 1 spinner",
                                                 "cpu_busy", False),), 0.0, plan((0.02, 200), (0.05, 200))),
        ChannelSetup(("memory-send", "200"),
                     (Reading("/proc/meminfo MemAvailable; sender holds 200 MiB", "mem_available", True),
                      Reading("/proc/meminfo AnonPages; sender holds 200 MiB", "anon_pages", False)),
                     0.9, plan((0.1, 100), (0.2, 60))),
        ChannelSetup(("thread-send", "32"),
                     (Reading("/proc/loadavg thread count; sender holds 32 idle threads", "threads", False),),
                     0.8, plan((0.005, 300), (0.01, 300), (0.02, 300))),
    ]


START_LEAD = 3.0
"""Seconds from spawning the pair to the first slot: time for both to start
in their jails even on a busy machine (a late receiver is detected)."""


def jailed(role: str, *args: str, log_path: Path, name: str) -> Any:
    """Start this file's `jail ROLE` program in a sandbox of its own (default policy)."""
    from referee.sandbox import spawn

    return spawn([sys.executable, str(THIS_FILE), "jail", role, *args], log_path=log_path, name=name,
                 expose=[BENCH_DIR])


def _result_line(proc: Any) -> dict[str, Any]:
    for line in reversed(proc.read_log(limit=4 << 20).splitlines()):
        if line.startswith(RESULT_TAG):
            return json.loads(line[len(RESULT_TAG):])
    raise RuntimeError(f"{proc.name} printed no result: {proc.read_log()[-2000:]}")


def transmit(setup: ChannelSetup, seed: int, scratch: Path) -> tuple[list[Channel], bool]:
    """Run one transmission's sender and receiver in two sandboxes; the
    error rate per reading and slot width, and whether the receiver read
    the same clock."""
    duration = sum(w * n + SEGMENT_GAP for w, n in setup.plan)
    before = time.monotonic()
    start = before + START_LEAD
    args = [f"{start:.6f}", json.dumps(setup.plan), str(seed)]
    sender = jailed(setup.sender[0], *args, setup.sender[1], log_path=scratch / "send.log", name="covert-send")
    try:
        role, arg = setup.receiver()
        receiver = jailed(role, *args, arg, log_path=scratch / "receive.log", name="covert-receive")
        try:
            receiver.wait(START_LEAD + duration + 30)
            result = _result_line(receiver)
        finally:
            receiver.kill_tree()
        if sender.wait(10) != 0:
            raise RuntimeError(f"the sender {setup.sender} failed: {sender.read_log()[-2000:]}")
    finally:
        sender.kill_tree()
    if result["clock_at_start"] > start:
        raise RuntimeError(f"{setup.sender}: the receiver started after the first slot; raise START_LEAD")
    shared_clock = before <= result["clock_at_start"] <= start
    channels = []
    for reading in setup.readings:
        for (width, count), values in zip(setup.plan, result["values"][reading.figure]):
            got = decode(values, reading.one_is_low)
            errors = sum(a != b for a, b in zip(bit_sequence(seed, count), got))
            channels.append(Channel(reading.channel, width, count, errors / count))
    return channels, shared_clock


def proc_is_global(scratch: Path) -> dict[str, Any]:
    """Read /proc inside a jail and, around it, outside: equal figures (but
    the last pid) mean the jail sees the machine's, not its own."""
    outside_before = proc_view()
    proc = jailed("view", log_path=scratch / "view.log", name="proc-view")
    try:
        proc.wait(30)
        inside = _result_line(proc)
    finally:
        proc.kill_tree()
    outside_after = proc_view()
    lo_mem = min(outside_before["mem_available_kib"], outside_after["mem_available_kib"])
    hi_mem = max(outside_before["mem_available_kib"], outside_after["mem_available_kib"])
    return {
        "inside": inside, "outside": outside_after,
        "meminfo_global": lo_mem - 65536 <= inside["mem_available_kib"] <= hi_mem + 65536,
        "threads_global": inside["threads"] > 3 * inside["visible_pids"] and inside["threads"] > 50,
        "stat_global": inside["cpu_busy"] >= outside_before["cpu_busy"],
    }


def measure_covert(seed: int, scale: float) -> tuple[list[Channel], dict[str, Any], bool]:
    with tempfile.TemporaryDirectory(prefix="sandbox-bench-covert-") as scratch:
        view = proc_is_global(Path(scratch))
        channels: list[Channel] = []
        clock_shared = True
        for k, setup in enumerate(channel_setups(scale)):
            found, shared = transmit(setup, seed + k, Path(scratch))
            channels += found
            clock_shared &= shared
    return channels, view, clock_shared


# ------------------------------------------------------------ 3. cost


def measure_cost(roots: dict[str, Path], rounds: int, starts: int, matches: int, seed: int, split_runs: int
                 ) -> tuple[dict[str, list[dict[str, Any]]], dict[str, Any]]:
    """Bot starts and warm matches, old and new alternated over `rounds`
    rounds (each round a fresh worker per referee, the same seeds for both);
    and the parts of the new start measured apart, `split_runs` of each
    right after each new worker, so they see the machine as it did."""
    samples: dict[str, Any] = {}

    def one(code: str, r: int) -> dict[str, Any]:
        seeds = list(range(seed + r * matches, seed + (r + 1) * matches))
        result = run_worker(roots[code], "cost", str(starts), json.dumps(seeds))
        if code == "new":
            _merge(samples, split_samples(split_runs))
        return result

    return alternate(rounds, one), summarize_split(samples)


def _merge(into: dict[str, Any], more: dict[str, Any]) -> None:
    """Extend the sample lists of `into` (nested dicts too) with those of `more`."""
    for key, value in more.items():
        if isinstance(value, dict):
            _merge(into.setdefault(key, {}), value)
        else:
            into.setdefault(key, []).extend(value)


def _runs(run: Callable[[], float], count: int) -> list[float]:
    return [run() for _ in range(count)]


def _wall(argv: Sequence[str], **kwargs: Any) -> float:
    began = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)
    return time.perf_counter() - began


def nsjail_to_exec(box: Any) -> float:
    """Seconds from starting nsjail with a bot's jail (its mounts, its
    namespaces, its seccomp filter) to the program running in it: the jail
    runs `date +%s.%N`, which prints the wall clock right after its exec."""
    import dataclasses

    from referee.sandbox import jail

    spec = dataclasses.replace(box._jail_spec(["/bin/date", "+%s.%N"], {}, []), log_fd=2)
    began = time.time()
    done = subprocess.run(jail.command(box.caps.jail_binary, spec), capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1]) - began


def bare_to_exec() -> float:
    """The same for `date` started directly: the process creation that any
    start pays, subtracted from nsjail's figure."""
    began = time.time()
    done = subprocess.run(["/bin/date", "+%s.%N"], capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1]) - began


def bare_bot_start(scratch: Path) -> float:
    """Seconds from starting the random bot outside any sandbox to its
    socket existing: its interpreter, imports and server alone."""
    socket_path = scratch / f"bare-{time.monotonic_ns()}.sock"
    began = time.perf_counter()
    bot = subprocess.Popen([*RANDOM_BOT, "--socket", str(socket_path)], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    try:
        while not socket_path.exists():
            if bot.poll() is not None or time.perf_counter() - began > 30:
                raise RuntimeError("the bare random bot did not start")
            time.sleep(0.001)
        return time.perf_counter() - began
    finally:
        bot.kill()
        bot.wait()


def supervisor_start(count: int) -> dict[str, Any]:
    """Samples of the supervisor's own start, measured on the real file:
    run with no configuration on stdin, it fails right after its imports.
    Also a bare `python -I -S -c pass`, and the cumulative seconds of each
    top-level import (`-X importtime`)."""
    from referee.sandbox.supervised import SUPERVISOR

    def run(extra: Sequence[str] = ()) -> tuple[float, str]:
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "-I", "-S", *extra, str(SUPERVISOR)], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, check=False)
        return time.perf_counter() - began, done.stderr

    imports: dict[str, list[float]] = {}
    for _ in range(count):
        for line in run(["-X", "importtime"])[1].splitlines():
            fields = line.split("|")
            if line.startswith("import time:") and len(fields) == 3 and fields[1].strip().isdigit() \
                    and not fields[2][1:].startswith(" "):
                imports.setdefault(fields[2].strip(), []).append(int(fields[1]) / 1e6)
    return {"supervisor": _runs(lambda: run()[0], count),
            "interpreter": _runs(lambda: _wall([sys.executable, "-I", "-S", "-c", "pass"]), count),
            "imports": imports}


def split_samples(count: int) -> dict[str, Any]:
    """Samples of the parts of the new sandbox's start, each measured apart."""
    from referee.sandbox import Sandbox

    with Sandbox("split") as box, tempfile.TemporaryDirectory(prefix="sandbox-bench-bare-") as scratch:
        return {**supervisor_start(count), "nsjail": _runs(lambda: nsjail_to_exec(box), count),
                "bare_exec": _runs(bare_to_exec, count),
                "bare_bot": _runs(lambda: bare_bot_start(Path(scratch)), count)}


def summarize_split(samples: dict[str, Any]) -> dict[str, Any]:
    """p50 of each part; the jail's own setup is nsjail's less a bare exec's."""
    found: dict[str, Any] = {key: statistics.median(values) for key, values in samples.items() if key != "imports"}
    found["nsjail_extra"] = found["nsjail"] - found["bare_exec"]
    found["runs"] = len(samples["nsjail"])
    heaviest = sorted(((name, statistics.median(v)) for name, v in samples["imports"].items()), key=lambda x: -x[1])
    found["heaviest_imports"] = heaviest[:3]
    return found


# ------------------------------------------------------------ report


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:.0f} ms" if seconds >= 0.1 else f"{1000 * seconds:.1f} ms"


def fairness_rows(found: dict[str, Fairness], cgroup: str) -> list[str]:
    rows = []
    labels = {"new": f"new (nsjail, cgroup {cgroup or 'none'})", "old": f"old ({OLD_COMMIT}: setrlimit, no cgroup)"}
    for code, label in labels.items():
        f = found[code]
        base_med, hog_med = statistics.median(f.matched_times), statistics.median(f.seated_times)
        base_p99, hog_p99 = percentile(f.matched_times, 0.99), percentile(f.seated_times, 0.99)
        rows.append(
            f"| {label} | {_ms(base_med)} / {_ms(base_p99)} | {_ms(hog_med)} / {_ms(hog_p99)} | "
            f"{hog_med / base_med:.2f}× / {hog_p99 / base_p99:.2f}× | {f.baseline_strikes} / {f.hog_strikes} | "
            f"{f.victim_forfeits} | {len(f.matched_times)} / {len(f.seated_times)} |")
    return rows


def hog_fate(f: Fairness) -> str:
    """How the hog itself fared in its matches."""
    matches = len(f.decisions)
    if not f.hog_out:
        return f"struck {len(f.hog_struck)} times, never forfeited ({matches} matches)"
    reasons = ", ".join(f"{n} {reason}" for reason, n in sorted(Counter(f.hog_struck).items()))
    at = f"{min(f.hog_out)}" if min(f.hog_out) == max(f.hog_out) else f"{min(f.hog_out)}–{max(f.hog_out)}"
    return (f"struck {len(f.hog_struck)} times ({reasons}), forfeited in {len(f.hog_out)} of {matches} matches, "
            f"at decision {at} of about {statistics.median(f.decisions):.0f}")


def fairness_verdict(found: dict[str, Fairness]) -> str:
    """The target's verdict for the new sandbox, and why the hog forfeits there."""
    new = found["new"]
    ratio = statistics.median(new.seated_times) / statistics.median(new.matched_times)
    met = new.hog_strikes == 0 and ratio <= 1.5
    text = (f"Target {'met' if met else 'missed'} on the new sandbox: {new.hog_strikes} strikes, median "
            f"{ratio:.2f}× the baseline.")
    old = found["old"]
    if new.hog_out and set(new.hog_struck) == {"timeout"} and len(new.hog_struck) > len(old.hog_struck):
        text += (f" The hog's own strikes are timeouts, {len(new.hog_struck)} on the new sandbox against "
                 f"{len(old.hog_struck)} on the old: there its 40 spinners share one capped core with its own gRPC "
                 "threads, so the hog pays for its spinners itself.")
    return text


def covert_rows(channels: list[Channel]) -> list[str]:
    rows = []
    for channel in channels:
        verdict = "" if channel.above_chance else " (chance)"
        rows.append(f"| {channel.name} | {_ms(channel.width)} | {channel.bits} | {channel.error_rate:.3f}{verdict} | "
                    f"{channel.capacity:.1f} |")
    return rows


def best_per_channel(channels: list[Channel]) -> dict[str, Channel]:
    best: dict[str, Channel] = {}
    for channel in channels:
        if channel.above_chance and (channel.name not in best or channel.capacity > best[channel.name].capacity):
            best[channel.name] = channel
    return best


def memory_note(channels: list[Channel]) -> str:
    """Whether the brief's MemAvailable channel carried the memory signal,
    or only the resident-anonymous-memory figure in the same file did."""
    best = best_per_channel(channels)
    available = any("MemAvailable" in name for name in best)
    anon = any("AnonPages" in name for name in best)
    if anon and not available:
        return ("MemAvailable did not follow the sender's 200 MiB above chance here, while AnonPages, in the "
                "same /proc/meminfo, did: a memory channel needs only the right line of the file.")
    return ""


def cost_rows(found: dict[str, list[dict[str, Any]]]) -> tuple[list[str], dict[str, dict[str, float]]]:
    """Rows of start, close and match p50s old vs new, and the start phases' p50s."""
    p50: dict[str, dict[str, float]] = {}
    for code, results in found.items():
        phases = [p for r in results for p in r["phases"]]
        p50[code] = {
            "start": statistics.median(t for r in results for t in r["start"]),
            "close": statistics.median(t for r in results for t in r["close"]),
            "match": statistics.median(t for r in results for t in r["match"]),
            "starts": sum(len(r["start"]) for r in results), "matches": sum(len(r["match"]) for r in results),
            **{key: statistics.median(p.get(key, 0.0) for p in phases) for key, _name, _what in START_PHASES},
        }
    rows = []
    for key, label in (("start", "bot start, until the handshake is answered"), ("close", "bot close"),
                       ("match", "3-bot Gnadenlos! match, warm bots")):
        count = p50["new"]["matches" if key == "match" else "starts"]
        rows.append(f"| {label} | {_ms(p50['old'][key])} | {_ms(p50['new'][key])} | "
                    f"{p50['new'][key] / p50['old'][key]:.2f}× | p50 of {count} each |")
    for key, name, what in START_PHASES:
        rows.append(f"| start phase: {what} (`{name}`) | {_ms(p50['old'][key])} | {_ms(p50['new'][key])} | "
                    f"{p50['new'][key] / max(p50['old'][key], 1e-6):.2f}× | p50 |")
    return rows, p50


def split_text(new: dict[str, float], split: dict[str, Any]) -> str:
    """Where the new start's time goes, from the parts measured apart."""
    rest = new["spawn"] - split["supervisor"] - split["nsjail"]
    imports = ", ".join(f"`{name}` {_ms(seconds)}" for name, seconds in split["heaviest_imports"])
    if rest >= 0:
        remainder = (f"the rest, about {_ms(rest)}, is the referee's pipes and configuration, the fork into the "
                     "control group and the supervisor's watch for the exec (1 ms polls)")
    else:
        remainder = (f"the parts measured apart add up to {_ms(-rest)} more than the phase itself (the machine's "
                     "load changed between them)")
    return (
        f"Where the new sandbox's {_ms(new['spawn'])} until exec go, each part measured apart (p50 of "
        f"{split['runs']} runs, taken right after each new cost worker): the supervisor's own start (`python -I -S "
        f"supervisor.py`, standard library only, until its imports are done) {_ms(split['supervisor'])}, of which "
        f"the bare interpreter (`python -I -S -c pass`) {_ms(split['interpreter'])} and its heaviest imports "
        f"{imports} (`-X importtime`, cumulative); nsjail from its start to the program's exec in a bot's jail "
        "(namespaces, the read-only root's bind mounts, tmpfs, seccomp; `date +%s.%N` run in the jail) "
        f"{_ms(split['nsjail'])}, of which {_ms(split['bare_exec'])} any process start pays (the same `date` run "
        f"directly), so {_ms(split['nsjail_extra'])} is the jail's setup; {remainder}. The bot's own start inside "
        f"the jail ({_ms(new['socket'])} from exec to its socket) against the same bot started outside any sandbox "
        f"({_ms(split['bare_bot'])} from Popen to its socket): {new['socket'] / split['bare_bot']:.2f}×."
    )


def markdown(fair: dict[str, Fairness], channels: list[Channel], view: dict[str, Any], clock_shared: bool,
             cost: dict[str, list[dict[str, Any]]], split: dict[str, Any], load: tuple[float, float],
             args: argparse.Namespace, tree_state: str, cgroup: str) -> str:
    from bench.recording import machine_summary

    new = fair["new"]
    cost_table, p50 = cost_rows(cost)
    best = best_per_channel(channels)
    inside, outside = view["inside"], view["outside"]
    lines = [
        f"Measured by `python -m bench sandbox` (bench/sandbox_bench.py) on {machine_summary()}; "
        f"the new sandbox as in the working tree at {tree_state}, the old one from a git worktree of "
        f"{OLD_COMMIT} (first on PYTHONPATH; the workers checked which `referee` they imported). "
        f"Machine load (1-minute load average) before / after: {load[0]:.1f} / {load[1]:.1f} on 2 cores: the machine "
        "is shared with other test suites, whose work skews every absolute figure; the ratios are measured side by side "
        "(old and new workers alternated, baseline and hog matches alternated).",
        "",
        "### CPU fairness under a hog",
        "",
        f"{len(new.decisions)} Gnadenlos! matches per sandbox with tests/hostile/hog.py in seat 0 (40 spinners, "
        "each in a session of its own, stopped while it decides, resumed while its opponents think), each "
        f"alternating with a baseline match of three random bots on the same seed; move time {FAIR_MOVE_TIME:g} s, "
        f"grace {FAIR_GRACE:g} s; real bot processes started with `start_bots`. The victims are the two random "
        "bots in seats 1 and 2; their answer times are the records' per-seat `time` (a struck answer counts at "
        "the time it was given up on). \"With the hog\" counts only the answers given while the hog was at the "
        "table: a bot that forfeits is killed with its whole tree. The baseline is taken over the same decisions "
        "of the paired baseline match (same seed: the same deal), since a hog that forfeits early leaves only "
        "the opening's decisions to compare. Target (containment issue): no strike and a median at most 1.5× "
        "the baseline.",
        "",
        "| sandbox | baseline (same decisions) median / p99 | with the hog median / p99 | hog / baseline | victims' strikes "
        "baseline / hog | victims' forfeits | answers baseline / hog |",
        "|---|---|---|---|---|---|---|",
        *fairness_rows(fair, cgroup),
        "",
        f"The hog's 40 spinners were started in every hog match: "
        f"{'yes' if all(f.spinners_seen for f in fair.values()) else 'NO'}. The hog itself, new sandbox: "
        f"{hog_fate(new)}; old sandbox: {hog_fate(fair['old'])}. Over whole baseline matches the victims' "
        f"median was {_ms(statistics.median(new.baseline_times))} (new) and "
        f"{_ms(statistics.median(fair['old'].baseline_times))} (old). {fairness_verdict(fair)}",
        "",
        "### Covert channels between two bots",
        "",
        "A sender and a receiver, each in a sandbox of its own (default policy: the receiver's and the sender's "
        "trees each in a control group with an equal CPU share and a 1-core cap), agree on time slots on "
        "CLOCK_MONOTONIC (an absolute start passed to both: the clock is the machine's in every PID namespace, "
        f"checked: {'the same clock' if clock_shared else 'NOT the same clock'}). The sender sends a known "
        "pseudo-random bit sequence; the receiver decodes each slot by a median threshold over its 16 "
        "neighbouring slots (so a drift of the machine's load does not count as signal). Capacity of the binary "
        "symmetric channel: C = (1 − H(p)) / W. \"(chance)\": the error rate is within two standard deviations "
        "of a coin's, 0.5 ± 2·√(0.25/n); its small capacity is estimation noise, not a channel. An error rate "
        "above 0.5 means the reading moved the other way than expected: a receiver that inverts its bits gets "
        "the same capacity. The CPU-contention channels are expected to exist only through the machine's "
        "other load (on an idle 2-core machine each bot's tree, capped at one core, would have a core of its "
        "own), so they vary from run to run with that load, the best slot width included.",
        "",
        "| channel | slot W | bits | error rate p | capacity bits/s |",
        "|---|---|---|---|---|",
        *covert_rows(channels),
        "",
        "Best capacity per channel (above chance): "
        + ("; ".join(f"{name}: {c.capacity:.1f} bits/s at W = {_ms(c.width)} (p = {c.error_rate:.3f})"
                     for name, c in best.items()) or "none above chance")
        + ".",
        "",
        "What a jail reads of the machine in /proc (a fresh procfs of its PID namespace): it sees "
        f"{inside['visible_pids']} process(es) of its own, its last pid is {inside['last_pid']}, but "
        f"MemAvailable {inside['mem_available_kib'] / 1024:.0f} MiB (outside: {outside['mem_available_kib'] / 1024:.0f} MiB) "
        f"is {'the machine' if view['meminfo_global'] else 'its own'}'s, /proc/loadavg's thread count "
        f"{inside['threads']:.0f} (outside: {outside['threads']:.0f}) is {'the machine' if view['threads_global'] else 'its own'}'s, "
        f"/proc/stat's CPU times are {'the machine' if view['stat_global'] else 'its own'}'s, and /proc/pressure "
        f"(PSI) is {'readable' if inside['pressure'] else 'absent'}. {memory_note(channels)}",
        "",
        "### Cost against the old sandbox",
        "",
        f"The random bot started and closed {args.starts} times per worker, then {args.matches} matches of three "
        f"warm random bots (move time 1 s) per worker; {args.rounds} rounds, each a fresh worker process per "
        "referee, old and new alternated, the same seeds; p50 over all rounds. Start phases: the time spent in "
        "each function `BotProcess.start` calls, wrapped in the worker (the same names in both referees).",
        "",
        "| figure | old | new | new / old | note |",
        "|---|---|---|---|---|",
        *cost_table,
        "",
        split_text(p50["new"], split),
    ]
    return "\n".join(lines)


def _tree_state() -> str:
    """The commit measured, and whether the sandbox's code had uncommitted changes."""
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=False).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "referee"],
                           capture_output=True, text=True, check=False).stdout.strip()
    return f"{head}" + (" (with uncommitted changes in referee/)" if dirty else "")


def measure(args: argparse.Namespace) -> str:
    from referee.sandbox import capabilities

    caps = capabilities()
    if not caps.cgroup:
        print("warning: no writable cgroup hierarchy: the new sandbox cannot share the CPU per tree here",
              file=sys.stderr)
    load_before = os.getloadavg()[0]
    tree_state = _tree_state()
    with tempfile.TemporaryDirectory(prefix="sandbox-bench-") as scratch, \
            old_checkout(Path(scratch) / "referee-old") as old_root:
        roots = {"new": REPO, "old": old_root}
        print("cost: starts and matches, old and new alternated; the new start's parts", flush=True)
        cost, split = measure_cost(roots, args.rounds, args.starts, args.matches, args.seed, args.split)
        print("fairness: baseline and hog matches, new and old", flush=True)
        fair = measure_fairness(roots, args.pairs, args.seed)
    print("covert channels", flush=True)
    channels, view, clock_shared = measure_covert(args.seed, args.scale)
    load_after = os.getloadavg()[0]
    return markdown(fair, channels, view, clock_shared, cost, split, (load_before, load_after), args, tree_state,
                    caps.cgroup)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "jail":
        jail_main(argv[1:])
        return
    if argv and argv[0] == "worker":
        worker_main(argv[1:])
        return
    parser = argparse.ArgumentParser(prog="python -m bench sandbox", description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10,
                        help="hog matches (each with a baseline match) per sandbox (default 10)")
    parser.add_argument("--rounds", type=int, default=6, help="cost rounds, old and new alternated (default 6)")
    parser.add_argument("--starts", type=int, default=3, help="timed bot starts per cost worker (default 3)")
    parser.add_argument("--matches", type=int, default=4, help="timed matches per cost worker (default 4)")
    parser.add_argument("--split", type=int, default=3,
                        help="runs of each part of the start split after each new cost worker (default 3)")
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the covert channels' bits (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-record", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    text = measure(args)
    print(text)
    if not args.no_record:
        from bench.recording import write_section

        write_section("Sandbox", text)


if __name__ == "__main__":
    main()
