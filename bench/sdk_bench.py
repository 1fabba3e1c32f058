"""What each Python bot SDK costs a bot: `botsdk` (protocol messages) against `bots.sdk` (engine values).

`python -m bench sdk` (or `python -m bench.sdk_bench`) measures side by side
in one run, interleaved so that machine noise hits both alike:

- imports: the modules `import botsdk` and `import bots.sdk` load (and of
  them the project's), and the time each takes in a fresh interpreter;
- the decision round trip through the referee's `BotClient` with a random
  bot on each SDK (sdk/python/examples/random_bot.py and `bots.random`), and
  the bot's own share of it, timed inside the bot process (the SDK's
  per-decision work: unwrap, for `bots.sdk` decode, decide, answer);
- cold start: from spawning each bot to its first decision.

Positions are Gnadenlos! decisions sampled from random matches
(bench.protocol_bench.sample_positions).
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import runpy
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.protocol_bench import measure_interleaved, quantile, sample_positions, start_match, stop

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "sdk" / "python" / "examples" / "random_bot.py"
SDKS = ("botsdk", "bots.sdk")
BOTS = {"botsdk": "the example bot (botsdk)", "bots.sdk": "bots.random (bots.sdk)"}
OURS = ("botsdk", "bots", "referee", "ladder")


def serve_bot(sdk: str, socket_path: str, out_path: str) -> None:
    """The child mode: serve the random bot of `sdk`; with `out_path`, time
    the SDK's per-decision work from inside and write the median at exit."""
    from botsdk import servicer

    if out_path:
        durations: list[float] = []
        decide = servicer._Match.decide

        def timed(self: Any, message: Any, *rest: Any) -> Any:
            begin = time.perf_counter()
            answer = decide(self, message, *rest)
            answer.SerializeToString()  # as gRPC's serializer will
            durations.append(time.perf_counter() - begin)
            return answer

        setattr(servicer._Match, "decide", timed)  # the method swapped for its timed twin
        atexit.register(lambda: Path(out_path).write_text(str(statistics.median(durations))))
    if sdk == "botsdk":
        namespace = runpy.run_path(str(EXAMPLE))
        namespace["serve"](namespace["RandomBot"](), ["--socket", socket_path])
    else:
        from bots.random import RandomBot
        from bots.sdk import serve

        serve(RandomBot(1), ["--socket", socket_path])


def start(sdk: str, socket_path: str, out_path: str = "") -> tuple[subprocess.Popen[bytes], Any]:
    """Start the random bot of `sdk` (the child mode of this benchmark) and a ready client."""
    from referee.protocol.client import BotClient

    process = subprocess.Popen([sys.executable, "-m", "bench.sdk_bench", "--bot", sdk, socket_path, out_path],
                               cwd=ROOT)
    client = BotClient(socket_path)
    client.wait_ready(20)
    return process, client


def imports(runs: int) -> dict[str, dict[str, float]]:
    """Per SDK: modules loaded (all, the project's) and the median import time in ms."""
    code = ("import json, sys, time; before = set(sys.modules); t = time.perf_counter(); import {0}; "
            "t = time.perf_counter() - t; new = set(sys.modules) - before; "
            "print(json.dumps([len(new), sum(m.split('.')[0] in {1!r} for m in new), t]))")
    found: dict[str, dict[str, Any]] = {sdk: {"times": []} for sdk in SDKS}
    for _ in range(runs):
        for sdk in SDKS:
            done = subprocess.run([sys.executable, "-c", code.format(sdk, OURS)], capture_output=True, text=True,
                                  check=True, cwd=tempfile.gettempdir())
            total, ours, seconds = json.loads(done.stdout)
            found[sdk].update(total=total, ours=ours)
            found[sdk]["times"].append(seconds)
    return {sdk: {"modules": f["total"], "project modules": f["ours"], "ms": statistics.median(f["times"]) * 1e3}
            for sdk, f in found.items()}


def round_trips(folder: str, positions: list[tuple[Any, tuple[Any, ...]]], blocks: int,
                per_block: int) -> dict[str, list[float]]:
    """Decision round trips with each SDK's random bot, interleaved block by block."""
    bots = {sdk: start(sdk, os.path.join(folder, f"{sdk}.sock")) for sdk in SDKS}
    request_ids = dict.fromkeys(SDKS, 0)
    for sdk, (_, client) in bots.items():
        start_match(client, positions[0][0])

    def trip(sdk: str) -> Any:
        client = bots[sdk][1]

        def run(index: int) -> None:
            observation, legal = positions[index % len(positions)]
            request_ids[sdk] += 1
            client.send_decide(request_id=request_ids[sdk], observation=observation, legal_actions=legal,
                               allowance=1.0)
            client.receive_decision(request_id=request_ids[sdk], legal_actions=legal, timeout=1.05)
        return run

    try:
        runs = {sdk: trip(sdk) for sdk in SDKS}
        measure_interleaved(runs, blocks=1, per_block=200)  # warm-up
        return measure_interleaved(runs, blocks=blocks, per_block=per_block)
    finally:
        for process, client in bots.values():
            client.close()
            stop(process)


def bot_side(folder: str, positions: list[tuple[Any, tuple[Any, ...]]], count: int) -> dict[str, float]:
    """Median µs of each SDK's per-decision work, timed inside the bot."""
    medians = {}
    for sdk in SDKS:
        out = os.path.join(folder, f"{sdk}.timed")
        process, client = start(sdk, os.path.join(folder, f"{sdk}-timed.sock"), out)
        start_match(client, positions[0][0])
        for i in range(count):
            observation, legal = positions[i % len(positions)]
            client.send_decide(request_id=i + 1, observation=observation, legal_actions=legal, allowance=1.0)
            client.receive_decision(request_id=i + 1, legal_actions=legal, timeout=1.05)
        client.close()
        stop(process)
        medians[sdk] = float(Path(out).read_text()) * 1e6
    return medians


def cold_starts(folder: str, observation: Any, legal: tuple[Any, ...], runs: int) -> dict[str, list[float]]:
    """Seconds from spawning each SDK's bot to its first validated decision, alternated."""
    times: dict[str, list[float]] = {sdk: [] for sdk in SDKS}
    for _ in range(runs):
        for sdk in SDKS:
            begin = time.perf_counter()
            process, client = start(sdk, os.path.join(folder, "cold.sock"))
            start_match(client, observation)
            client.send_decide(request_id=1, observation=observation, legal_actions=legal, allowance=1.0)
            client.receive_decision(request_id=1, legal_actions=legal, timeout=5.0)
            times[sdk].append(time.perf_counter() - begin)
            client.close()
            stop(process)
    return times


def report(found: dict[str, Any], args: argparse.Namespace) -> str:
    from bench.recording import machine_summary

    raw, engine = "botsdk", "bots.sdk"
    rows = [
        ("modules loaded by the import (of them the project's)",
         *(f"{found['imports'][s]['modules']} ({found['imports'][s]['project modules']})" for s in SDKS), ""),
        ("import time, median", *(f"{found['imports'][s]['ms']:.0f} ms" for s in SDKS),
         f"{found['imports'][engine]['ms'] / found['imports'][raw]['ms']:.2f}×"),
        ("decision round trip via BotClient, p50",
         *(f"{quantile(found['trips'][s], 0.5) * 1e6:.0f} µs" for s in SDKS),
         f"{quantile(found['trips'][engine], 0.5) / quantile(found['trips'][raw], 0.5):.2f}×"),
        ("decision round trip via BotClient, p99",
         *(f"{quantile(found['trips'][s], 0.99) * 1e6:.0f} µs" for s in SDKS), ""),
        ("the SDK's work per decision inside the bot, median",
         *(f"{found['side'][s]:.0f} µs" for s in SDKS), f"{found['side'][engine] / found['side'][raw]:.2f}×"),
        ("cold start to first decision, p50",
         *(f"{statistics.median(found['colds'][s]) * 1e3:.0f} ms" for s in SDKS),
         f"{statistics.median(found['colds'][engine]) / statistics.median(found['colds'][raw]):.2f}×"),
    ]
    table = "\n".join(["| figure | " + " | ".join(BOTS[s] for s in SDKS) + " | bots.sdk / botsdk |",
                       "|---|---|---|---|", *(f"| {' | '.join(row)} |" for row in rows)])
    return (
        f"Measured by `python -m bench sdk` (bench/sdk_bench.py) on {machine_summary()}.\n"
        f"{args.blocks * args.per_block} round trips per SDK, interleaved in blocks of {args.per_block}; "
        f"{args.imports} imports and {args.cold_starts} cold starts per SDK, alternated; Gnadenlos! positions "
        f"sampled from random 4-seat matches. Load average at the end of the run: {os.getloadavg()[0]:.1f}.\n\n"
        f"{table}\n\n"
        "`botsdk` is what a bot author installs alone (`pip install ./sdk/python`): gRPC, protobuf and the "
        "generated code, nothing of the referee. `bots.sdk` adds the rules engines and codecs (every "
        "registered game's, through the game registry) and decodes every message into engine values, which "
        "the built-in bots need for their search; its warm-up loads the codecs of all its games before the "
        "first match. When the SDK was split out (issue 12), the bot-side work of `bots.sdk` was measured "
        "against the commit before, side by side: 71 µs against 78 µs per decision (0.91×), round trip "
        "0.95×; that comparison is not re-run here."
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", nargs=3, metavar=("SDK", "SOCKET", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--blocks", type=int, default=10)
    parser.add_argument("--per-block", type=int, default=200)
    parser.add_argument("--imports", type=int, default=10)
    parser.add_argument("--cold-starts", type=int, default=10)
    parser.add_argument("--no-record", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    if args.bot:
        serve_bot(*args.bot)
        return
    positions = sample_positions(1000, seed=7)
    folder = tempfile.mkdtemp(prefix="sdkbench", dir="/tmp")
    try:
        found = {
            "imports": imports(args.imports),
            "trips": round_trips(folder, positions, args.blocks, args.per_block),
            "side": bot_side(folder, positions, 1500),
            "colds": cold_starts(folder, *positions[0], args.cold_starts),
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    text = report(found, args)
    print(text)
    if not args.no_record:
        from bench.recording import write_section

        write_section("Bot SDK", text)


if __name__ == "__main__":
    main()
