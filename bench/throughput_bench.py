"""Referee throughput against a baseline commit (issue 18): `python -m bench throughput`.

One command for every target of the issue, each a ratio measured side by
side in the same run (the machine is shared, so absolute figures drift; the
rounds alternate the set-ups so that a busy spell hits both alike):

- random-bot ladder matches per minute, one worker, this tree against a git
  worktree of the baseline commit (default f7b6bca; target at least 3x),
  each tree running its own `bench.ladder_bench.measure` in a fresh
  interpreter with that tree first on PYTHONPATH;
- two matches at a time against one: the same ladder with two workers
  against one, this tree (target at least 1.7x);
- the decision round trip p50 against the bare gRPC stream floor (target at
  most 1.3x) and a random bot's cold start to its first decision (target at
  most 150 ms), with bench/protocol_bench.py's own harness;
- CPU per decision of the referee process and of the four bot processes,
  baseline and this tree, each tree playing matches of four warm random bots
  one at a time with its own referee (the bots' figure sums every process
  the referee started: the bots and their sandboxes).

Every figure is printed per round and as the median (range) over rounds.
`--no-record` leaves docs/benchmarks.md alone.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "f7b6bca"

LAUNCHER = "_throughput_random_bot.py"
"""Written into the baseline's worktree: starts that tree's random bot. A bot
runs in a sandbox with a clean environment (no PYTHONPATH), so `-m
bots.random` would import this tree's bots through the editable install; a
script's own folder comes first on its path instead."""

LAUNCHER_TEXT = "import runpy\nrunpy.run_module('bots.random', run_name='__main__', alter_sys=True)\n"

LADDER_PROBE = """
import json, sys
from bench.ladder_bench import measure
if len(sys.argv) > 4:  # the baseline: its own random bot
    import ladder.intake.roster
    resolve = ladder.intake.roster.resolve_bot_command
    ladder.intake.roster.resolve_bot_command = lambda spec: [sys.executable, sys.argv[4], *resolve(spec)[3:]]
m = measure(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
print(json.dumps({"per_minute": m.per_minute, "match_ms": m.match_seconds * 1000}))
"""

CPU_PROBE = """
import json, sys, time, psutil
from referee.match import run_match
from referee.process import start_bots
from referee.protocol.client import TimeControl  # the baseline's place for it; re-exported since
count, first = int(sys.argv[1]), int(sys.argv[2])
program = [sys.executable, sys.argv[3]] if len(sys.argv) > 3 else [sys.executable, "-m", "bots.random"]
bots = start_bots([[*program, "--seed", str(i)] for i in range(4)],
                  [f"random{i}" for i in range(4)])
control = TimeControl(move_time=1.0)
for seed in range(10**6, 10**6 + 2):  # warm
    run_match("gnadenlos", bots, seed=seed, time_control=control)
me = psutil.Process()
tree = me.children(recursive=True)  # the bots and whatever runs them (sandbox included)
def bots_cpu():
    return sum(sum(p.cpu_times()[:2]) for p in tree)
referee, others, began, decisions = time.process_time(), bots_cpu(), time.perf_counter(), 0
for seed in range(first, first + count):
    decisions += run_match("gnadenlos", bots, seed=seed, time_control=control).decisions
wall = time.perf_counter() - began
referee, others = time.process_time() - referee, bots_cpu() - others
for bot in bots:
    bot.close()
print(json.dumps({"referee_us": referee / decisions * 1e6, "bots_us": others / decisions * 1e6,
                  "wall_us": wall / decisions * 1e6}))
"""


@contextlib.contextmanager
def baseline_tree(commit: str) -> Iterator[Path]:
    """A detached git worktree of `commit`, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="throughput-base-"))
    tree = folder / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), commit], check=True)
    (tree / LAUNCHER).write_text(LAUNCHER_TEXT)
    try:
        yield tree
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
        shutil.rmtree(folder, ignore_errors=True)


def in_tree(tree: Path, probe: str, *args: object) -> dict[str, float]:
    """Run `probe` in a fresh interpreter with `tree` first on the path; its last line is JSON."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", probe, *map(str, args)], cwd=tree, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"probe failed in {tree}:\n{done.stderr[-3000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


class AioFloor:
    """The floor's ping-pong through `grpc.aio` on an event loop thread, as
    an asyncio referee would drive a stream while the match logic stays
    synchronous: requests handed to the loop, answers handed back through a
    queue (the design the issue suggests, measured against the threads)."""

    def __init__(self, socket_path: str) -> None:
        import asyncio
        import queue
        import threading

        from bench import protocol_bench as pb
        from referee.protocol.client import _wait_for_socket

        self.process = subprocess.Popen([sys.executable, "-m", "bench.protocol_bench", "--echo-server",
                                         socket_path, "16"], cwd=ROOT)
        _wait_for_socket(socket_path, time.monotonic() + 10)
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.answers: queue.SimpleQueue[bytes] = queue.SimpleQueue()
        self.outbox: Any = None
        self.channel: Any = None
        asyncio.run_coroutine_threadsafe(self._open(socket_path, pb.ECHO_METHOD), self.loop).result(10)

    async def _open(self, socket_path: str, method: str) -> None:
        import asyncio

        import grpc

        self.channel = grpc.aio.insecure_channel(f"unix:{socket_path}")
        await self.channel.channel_ready()
        call = self.channel.stream_stream(method)()
        self.outbox = asyncio.Queue()

        async def write() -> None:
            while True:
                await call.write(await self.outbox.get())

        async def read() -> None:
            while (answer := await call.read()) is not grpc.aio.EOF:
                self.answers.put(answer)

        self._tasks = [asyncio.ensure_future(write()), asyncio.ensure_future(read())]

    def round_trip(self, payload: bytes) -> None:
        self.loop.call_soon_threadsafe(self.outbox.put_nowait, payload)
        self.answers.get(timeout=5)

    def close(self) -> None:
        import asyncio

        from bench import protocol_bench as pb

        async def shut() -> None:
            for task in self._tasks:
                task.cancel()
            await self.channel.close()

        asyncio.run_coroutine_threadsafe(shut(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        pb.stop(self.process)


def protocol_round(blocks: int, per_block: int, cold_starts: int) -> dict[str, float]:
    """Decision p50 / floor p50 (interleaved) and the cold start p50, this tree."""
    from bench import protocol_bench as pb

    positions = pb.sample_positions(500, seed=7)
    # As bench/protocol_bench.py: a real referee holds one match's state, not
    # 500 sampled positions; keep full collections from walking them.
    gc.freeze()
    folder = tempfile.mkdtemp(prefix="tbench", dir="/tmp")
    try:
        floor = pb.Floor(os.path.join(folder, "floor.sock"), answer_size=16)
        reader = pb.Floor(os.path.join(folder, "reader.sock"), answer_size=16)
        reader_round_trip = reader.with_reader_thread()
        aio = AioFloor(os.path.join(folder, "aio.sock"))
        decisions = pb.Decisions(os.path.join(folder, "bot.sock"), positions)
        payload = b"x" * 495
        runs = {"floor": lambda i: floor.round_trip(payload), "decision": decisions.round_trip,
                "reader": lambda i: reader_round_trip(payload), "aio": lambda i: aio.round_trip(payload)}
        pb.measure_interleaved(runs, blocks=2, per_block=100)  # warm-up
        times = pb.measure_interleaved(runs, blocks=blocks, per_block=per_block)
        floor.close()
        reader.close()
        aio.close()
        decisions.close()
        colds = [pb.cold_start(os.path.join(folder, "cold.sock"), *positions[0]) for _ in range(cold_starts)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    f50, d50 = pb.quantile(times["floor"], 0.5), pb.quantile(times["decision"], 0.5)
    return {"floor_us": f50 * 1e6, "decision_us": d50 * 1e6, "ratio": d50 / f50,
            "reader_us": pb.quantile(times["reader"], 0.5) * 1e6, "aio_us": pb.quantile(times["aio"], 0.5) * 1e6,
            "cold_ms": pb.quantile(colds, 0.5) * 1e3}


def engine_round(matches: int, seed: int) -> dict[str, float]:
    """CPU µs per decision of the engine's part of the referee's work, in
    process: who acts, legal actions and observation of each deciding seat,
    apply (random choices, as the random bots make)."""
    import random

    from referee.games import load_game

    game, rng = load_game("gnadenlos"), random.Random(seed)
    began, decisions = time.process_time(), 0
    for match in range(matches):
        state = game.new_state(4, seed + match)
        while not state.is_terminal():
            actions = {}
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                state.observe(seat)
                actions[seat] = rng.choice(legal)
            state.apply(actions)
            decisions += 1
    return {"engine_us": (time.process_time() - began) / decisions * 1e6}


def import_round(runs: int = 3) -> dict[str, float]:
    """Milliseconds (medians of `runs` fresh interpreters) of what a random
    bot's cold start is made of: the interpreter, the SDK (grpc, protobuf,
    the server), and the served random bot whole (no engine: its variant
    list comes from each game's declaration)."""

    def wall(code: str) -> float:
        times = []
        for _ in range(runs):
            began = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
            times.append(time.perf_counter() - began)
        return statistics.median(times) * 1e3

    return {"python_ms": wall("pass"), "sdk_ms": wall("import botsdk.server"),
            "bot_ms": wall("import bots.random.__main__")}


def spread(values: Sequence[float], digits: int = 2) -> str:
    """Median (low-high) of `values`."""
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def run(args: argparse.Namespace) -> str:
    load_before = os.getloadavg()[0]
    rounds: list[dict[str, float]] = []
    with baseline_tree(args.baseline) as base:
        for index in range(args.rounds):
            seed = args.seed + index
            figures: dict[str, float] = {}
            # Alternate the order of the trees from round to round.
            order = [("base", base), ("new", ROOT)] if index % 2 == 0 else [("new", ROOT), ("base", base)]
            for name, tree in order:
                own = [tree / LAUNCHER] if tree == base else []
                figures[f"{name}_per_minute"] = in_tree(tree, LADDER_PROBE, 1, args.matches, seed, *own)["per_minute"]
            figures["two_per_minute"] = in_tree(ROOT, LADDER_PROBE, 2, args.matches, seed)["per_minute"]
            for name, tree in order:
                cpu = in_tree(tree, CPU_PROBE, args.cpu_matches, seed, *([tree / LAUNCHER] if tree == base else []))
                for key in ("referee_us", "bots_us", "wall_us"):
                    figures[f"{name}_{key}"] = cpu[key]
            figures.update(protocol_round(args.blocks, args.per_block, args.cold_starts))
            figures.update(engine_round(args.cpu_matches, seed))
            figures.update(import_round())
            rounds.append(figures)
            print(f"round {index + 1}: " + ", ".join(f"{k} {v:.2f}" for k, v in figures.items()), flush=True)
    return report(rounds, args, load_before)


def report(rounds: list[dict[str, float]], args: argparse.Namespace, load_before: float) -> str:
    def column(key: str) -> list[float]:
        return [r[key] for r in rounds]

    speedup = [r["new_per_minute"] / r["base_per_minute"] for r in rounds]
    scaling = [r["two_per_minute"] / r["new_per_minute"] for r in rounds]
    rows = [
        ("random-bot ladder matches/min, 1 worker: baseline / this tree",
         f"{spread(column('base_per_minute'), 0)} / {spread(column('new_per_minute'), 0)}",
         f"{args.matches} matches a run, 4 random bots at 4-seat tables"),
        ("this tree / baseline", f"{spread(speedup)}×", _verdict(speedup, lambda x: x >= 3.0, "target ≥ 3×")),
        ("two matches at a time / one (2 workers / 1, this tree)", f"{spread(scaling)}×",
         _verdict(scaling, lambda x: x >= 1.7, "target ≥ 1.7×")),
        ("decision round trip p50 / bare stream floor p50", f"{spread(column('ratio'))}×",
         _verdict(column("ratio"), lambda x: x <= 1.3, "target ≤ 1.3×") +
         f"; floor {spread(column('floor_us'), 0)} µs, decision {spread(column('decision_us'), 0)} µs"),
        ("bare stream round trip p50: reader thread (as BotClient) / grpc.aio on a loop thread",
         f"{spread(column('reader_us'), 0)} / {spread(column('aio_us'), 0)} µs",
         "what an asyncio referee's transport would cost under a synchronous match; same echo server"),
        ("random bot cold start to first decision, p50", f"{spread(column('cold_ms'), 0)} ms",
         _verdict(column("cold_ms"), lambda x: x <= 150, "target ≤ 150 ms")),
        ("of which: interpreter start / + the SDK's imports / the served random bot's whole imports",
         f"{spread(column('python_ms'), 0)} / {spread(column('sdk_ms'), 0)} / {spread(column('bot_ms'), 0)} ms",
         "python -c of nothing, `import botsdk.server`, `import bots.random.__main__`"),
        ("CPU per decision, referee process: baseline / this tree",
         f"{spread(column('base_referee_us'), 0)} / {spread(column('new_referee_us'), 0)} µs",
         f"one match at a time, {args.cpu_matches} matches"),
        ("CPU per decision, the four bots: baseline / this tree",
         f"{spread(column('base_bots_us'), 0)} / {spread(column('new_bots_us'), 0)} µs", "summed over the bot processes"),
        ("wall time per decision in a match: baseline / this tree",
         f"{spread(column('base_wall_us'), 0)} / {spread(column('new_wall_us'), 0)} µs", "the CPU runs' matches"),
        ("of which the engine (this tree, in process)", f"{spread(column('engine_us'), 0)} µs",
         "legal actions, observations, apply: CPU per decision"),
    ]
    table = "\n".join(["| figure | median (range) | note |", "|---|---|---|",
                       *(f"| {a} | {b} | {c} |" for a, b, c in rows)])
    table += "\n\n" + analysis(rounds)
    return (
        f"{args.rounds} rounds; each round runs the baseline ({args.baseline}, a git worktree) and this tree "
        f"alternately first, then two workers of this tree, the CPU runs, and the protocol harness "
        f"({args.blocks}×{args.per_block} round trips each, interleaved; {args.cold_starts} cold starts). "
        f"Machine load (1-minute load average) before / after: {load_before:.1f} / {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} cores.\n\n{table}\n"
    )


def analysis(rounds: list[dict[str, float]]) -> str:
    """Where a decision's time goes, and what stands between the code and
    each target, from this run's medians."""
    def med(key: str) -> float:
        return statistics.median(r[key] for r in rounds)

    wall, base_wall, engine = med("new_wall_us"), med("base_wall_us"), med("engine_us")
    floor, decision = med("floor_us"), med("decision_us")
    referee, bots = med("new_referee_us"), med("new_bots_us")
    busy = (referee + bots) / wall
    needed = base_wall / 3
    return "\n".join([
        "What this tree changed for throughput (issue 18): a seat's events ride in its next `Decide` "
        "(botsdk's handshake sets `events_in_decide`; docs/protocol.md), so a bot handles one message per "
        "decision instead of a `Notify` and a `Decide`, and a bot that is not deciding is never woken; the "
        "served random bot chooses among the legal action messages as they come, decoding nothing; the "
        "threads that collect a simultaneous decision's answers live as long as the process instead of "
        "being started for every match; a legal action's canonical JSON (the record's `legal_digest`) is "
        "cached; a match's seats close their streams at once, the wait overlapping the work between matches; "
        "a bot process loads no game engine it does not use (the random bot none).",
        "",
        f"Where a decision's time goes (one match at a time, medians): {wall:.0f} µs of wall time; the referee "
        f"process spends {referee:.0f} µs of CPU on it, of which the engine (legal actions, observations, "
        f"apply) {engine:.0f} µs and the rest encoding, the record and gRPC's own threads (a stream's request "
        f"consumer, its reader and the channel's poller each wake up for every message); the four bots "
        f"spend {bots:.0f} µs together, the deciding bot's gRPC server threads and the SDK around a random "
        f"choice (a bot that is not deciding does nothing). Referee and bots together keep {busy:.2f} cores "
        f"busy while a match plays, so two matches at a time overlap at most about {min(2.0, 2 / busy):.2f}× "
        f"while both play; a ladder's worker also idles between matches (start, dispatch, rating, storage), "
        f"and a second worker fills that time. A bare gRPC stream round trip costs {floor:.0f} µs; a decision's round trip "
        f"through the referee's client and the random bot, alone in a hot loop, {decision:.0f} µs.",
        "",
        "What stands between the code and each target: "
        f"three times the baseline's matches per minute needs about {needed:.0f} µs per decision all in "
        f"(the baseline takes {base_wall:.0f}, this tree {wall:.0f}); a decision's round trip alone "
        f"({decision:.0f} µs) and the engine ({engine:.0f} µs) take {decision + engine:.0f} of it, which "
        f"leaves {max(0.0, needed - decision - engine):.0f} µs for everything else per decision (the "
        f"observation, the record, the extra round trips of simultaneous decisions, the thread wake-ups "
        f"of a busy machine), against {max(0.0, wall - decision - engine):.0f} now. Two matches at a time "
        "need the two cores to themselves: other work on the machine takes its share first. The decision "
        "round trip over the floor is the referee's observation encoding and the Python work of both gRPC "
        "ends around it. An asyncio referee (`grpc.aio` on one event loop for every seat) would not shorten "
        f"it: the same ping-pong through `grpc.aio` on a loop thread takes {med('aio_us'):.0f} µs against "
        f"{med('reader_us'):.0f} µs through the reader thread `BotClient` uses. A cold start is mostly "
        f"imports: the interpreter ({med('python_ms'):.0f} ms), the SDK's grpc and protobuf (to "
        f"{med('sdk_ms'):.0f} ms) and the rest of the served bot's (to {med('bot_ms'):.0f} ms); no game's "
        "engine any more (the game packages import their engines' names lazily and declare their variant "
        "options apart, so the random bot declares every variant without loading a rule).",
    ])


def _verdict(values: list[float], meets: Callable[[float], bool], target: str) -> str:
    """Met in every round, met by the median only (a shared machine's noise
    decides the rest), or missed."""
    if all(meets(v) for v in values):
        return f"{target} (met in every round)"
    if meets(statistics.median(values)):
        return f"{target} (met by the median, not in every round)"
    return f"{target} (missed)"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help="commit to compare with (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--matches", type=int, default=40, help="ladder matches per run")
    parser.add_argument("--cpu-matches", type=int, default=20, help="matches per CPU run")
    parser.add_argument("--blocks", type=int, default=10)
    parser.add_argument("--per-block", type=int, default=200)
    parser.add_argument("--cold-starts", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-record", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    body = run(args)
    print(body)
    if not args.no_record:
        from bench.recording import machine_summary, write_section

        write_section("Referee throughput", f"Measured by `python -m bench throughput` (bench/throughput_bench.py) "
                                            f"on {machine_summary()}.\n\n{body}")


if __name__ == "__main__":
    main()
