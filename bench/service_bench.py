"""The ladder service under load: `python -m bench service`.

A real `referee serve` (an embedded Dask cluster of one worker playing
3-player matches of bots that think 20 ms a decision, so matches finish
and every live stream gets events) is put under the load of issue 24 for
`--seconds` (60 by default):

- `--watchers` (200) open `Watch` streams, 8 per token, each reading
  every event; then `--extra` (20) more from one token, beyond the
  service's caps (`--max-watchers` 210, 16 per client): these must be
  refused RESOURCE_EXHAUSTED, and are the only calls allowed to fail;
- `--clients` (20) submitters, each with its own token, reading the
  standings and the bots about once a second, submitting its own bot once
  (a validation match) and the same files again every 15 s (recognised
  as identical);
- a probe in this process: the health check and `Standings` every 100 ms,
  timed one by one.

The probe runs first for 10 s against the idle service (the same calls,
the same service, before the load), then through the load. Reported: the
probe's p50, p99 and worst latency idle and under load, the clients'
Standings latency, what failed (by status), the events the watchers got,
and the service's resident memory (its main process) before, at its peak
and after the load. Rates are raised for the clients (this measures
streams and threads, not the rate limits, which tests/ show).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import grpc
import psutil
from grpc_health.v1 import health_pb2, health_pb2_grpc

from botsdk.pb.ladder.v1 import ladder_pb2, ladder_pb2_grpc
from ladder.intake.archive import pack
from ladder.intake.copying import content_hash
from ladder.store.database import Store

GAME = "gnadenlos"
WATCHERS_PER_TOKEN = 8
PROBE_EVERY = 0.1
IDLE_SECONDS = 10.0
START_TIMEOUT = 120.0
BOT = """#!{python}
import random
import time

from bots.sdk import Bot, serve


class Thinker(Bot):
    name = "thinker"
    version = "{name}"

    def decide(self, observation, legal_actions, context):
        time.sleep(0.02)
        return random.choice(legal_actions)


if __name__ == "__main__":
    serve(Thinker())
"""


def bot_folder(path: Path, name: str) -> Path:
    path.mkdir(parents=True)
    (path / "bot.py").write_text(BOT.format(python=sys.executable, name=name))
    (path / "bot.py").chmod(0o755)
    (path / "bot.toml").write_text(f'command = "./bot.py"\ngames = ["{GAME}"]\n')
    return path


def make_store(folder: Path) -> Path:
    """A store with three bots, registered as `referee submit` stores them: the ladder plays at once."""
    db = folder / "data" / "ladder.sqlite"
    with Store(db) as store:
        for name in ("t1", "t2", "t3"):
            source = bot_folder(folder / "src" / name, name)
            digest = content_hash(source)
            relative = Path("bots") / name / digest[:16]
            shutil.copytree(source, store.root / relative)
            for path in [store.root / relative, *(store.root / relative).rglob("*")]:
                path.chmod(path.stat().st_mode | 0o444 | (0o111 if path.is_dir() else 0))
            with store.transaction() as conn:
                store.add_bot(conn, name=name, version="v1", content_hash=digest, kind="submitted",
                              command=["./bot.py"], folder=str(relative), games=[GAME])
    return db


def tokens(db: Path, names: list[str]) -> dict[str, str]:
    from ladder.service.access import Access

    access = Access(db.parent)
    try:
        return {name: access.add_token(name) for name in names}
    finally:
        access.close()


def free_address() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"


def wait_healthy(address: str, service: subprocess.Popen[bytes]) -> None:
    channel = grpc.insecure_channel(address)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if service.poll() is not None:
            raise SystemExit(f"the service exited ({service.returncode})")
        try:
            answer = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=1)
            if answer.status == health_pb2.HealthCheckResponse.SERVING:
                return
        except grpc.RpcError:
            pass
        time.sleep(0.2)
    raise SystemExit("the service did not start")


# -- the probe (this process) ---------------------------------------------------


class Probe(threading.Thread):
    """The health check and Standings, one after the other, every PROBE_EVERY seconds."""

    def __init__(self, address: str) -> None:
        super().__init__(daemon=True)
        self.channel = grpc.insecure_channel(address)
        self.health: list[float] = []
        self.standings: list[float] = []
        self.failures: Counter[str] = Counter()
        self.stopped = threading.Event()

    def run(self) -> None:
        health = health_pb2_grpc.HealthStub(self.channel)
        ladder = ladder_pb2_grpc.LadderStub(self.channel)
        while not self.stopped.is_set():
            for times, call in ((self.health, lambda: health.Check(health_pb2.HealthCheckRequest(), timeout=10)),
                                (self.standings, lambda: ladder.Standings(ladder_pb2.StandingsRequest(), timeout=10))):
                started = time.perf_counter()
                try:
                    call()
                    times.append(time.perf_counter() - started)
                except grpc.RpcError as exc:
                    self.failures[f"probe: {exc.code().name}"] += 1
            self.stopped.wait(PROBE_EVERY)


class Memory(threading.Thread):
    """The service's resident memory (its main process), sampled every 0.2 s."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.process = psutil.Process(pid)
        self.samples: list[float] = []
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            self.samples.append(self.process.memory_info().rss / (1 << 20))
            self.stopped.wait(0.2)


def percentiles(times: list[float]) -> tuple[float, float, float]:
    """p50, p99 and the worst, in milliseconds."""
    ordered = sorted(times)
    return (1000 * statistics.median(ordered), 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
            1000 * ordered[-1])


# -- the load (processes of their own: their client work does not slow the probe) ---


async def watchers(address: str, tokens: list[str], greedy: str, extra: int, seconds: float) -> dict[str, Any]:
    """WATCHERS_PER_TOKEN streams for each of `tokens` (one connection per
    token), then `extra` more from `greedy`, beyond the caps; all read every
    event for `seconds`."""
    failures: Counter[str] = Counter()
    refused = 0
    events: list[int] = []

    async def watch(stub: Any, token: str, expect_refusal: bool) -> None:
        nonlocal refused
        stream = stub.Watch(ladder_pb2.WatchRequest(), metadata=(("authorization", f"Bearer {token}"),))
        got = 0
        try:
            async for event in stream:
                got += event.WhichOneof("event") == "match"
        except grpc.aio.AioRpcError as exc:
            if exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and expect_refusal:
                refused += 1
                return
            if exc.code() != grpc.StatusCode.CANCELLED:
                failures[f"watch: {exc.code().name}"] += 1
        except asyncio.CancelledError:
            pass
        events.append(got)

    # a connection each, as watchers on machines of their own have (gRPC shares one among a process's channels)
    channels = [grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
                for _ in [*tokens, greedy]]
    stubs = [ladder_pb2_grpc.LadderStub(channel) for channel in channels]
    tasks = [asyncio.ensure_future(watch(stub, token, False)) for stub, token in zip(stubs, tokens)
             for _ in range(WATCHERS_PER_TOKEN)]
    await asyncio.sleep(5)  # all open: the extra ones come beyond the caps
    tasks += [asyncio.ensure_future(watch(stubs[-1], greedy, True)) for _ in range(extra)]
    await asyncio.sleep(seconds)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for channel in channels:
        await channel.close()
    return {"failures": dict(failures), "refused": refused, "events": events}


async def clients(address: str, tokens: list[str], folder: Path, seconds: float) -> dict[str, Any]:
    """A submitter per token: the standings and the bots about once a
    second, its own bot submitted once at a random moment, then the same
    files every 15 s."""
    failures: Counter[str] = Counter()
    standings: list[float] = []
    submissions: Counter[str] = Counter()
    ends = time.monotonic() + seconds

    async def client(index: int, token: str) -> None:
        async with grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)]) as channel:
            stub = ladder_pb2_grpc.LadderStub(channel)
            metadata = (("authorization", f"Bearer {token}"),)
            archive = pack(bot_folder(folder / f"c{index}", f"c{index}"))
            next_submit = time.monotonic() + random.uniform(0, seconds * 0.8)
            while time.monotonic() < ends:
                try:
                    started = time.perf_counter()
                    await stub.Standings(ladder_pb2.StandingsRequest(), metadata=metadata, timeout=30)
                    standings.append(time.perf_counter() - started)
                    await stub.ListBots(ladder_pb2.ListBotsRequest(), metadata=metadata, timeout=30)
                    if time.monotonic() >= next_submit:
                        reply = await stub.Submit(ladder_pb2.SubmitRequest(archive=archive, name=f"c{index}",
                                                                           move_time=1),
                                                  metadata=metadata, timeout=120)
                        submissions["registered" if reply.new else "identical"] += 1
                        next_submit = time.monotonic() + 15
                except grpc.aio.AioRpcError as exc:
                    failures[f"client: {exc.code().name}: {exc.details()}"[:120]] += 1
                await asyncio.sleep(random.uniform(0.5, 1.5))

    await asyncio.gather(*(client(i, token) for i, token in enumerate(tokens)))
    return {"failures": dict(failures), "client_standings": standings, "submissions": dict(submissions)}


def run_load(argv: list[str]) -> None:
    """A load process: its job in one JSON argument, its result as JSON on stdout."""
    job = json.loads(argv[0])
    if job["kind"] == "watchers":
        result = asyncio.run(watchers(job["address"], job["tokens"], job["greedy"], job["extra"], job["seconds"]))
    else:
        result = asyncio.run(clients(job["address"], job["tokens"], Path(job["folder"]), job["seconds"]))
    print(json.dumps(result))


def start_load(job: dict[str, Any]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "bench.service_bench", "--load", json.dumps(job)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def result_of(load: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = load.communicate(timeout=600)
    if load.returncode != 0:
        raise SystemExit(f"the load failed: {err[-3000:]}")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


# -- the run --------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--extra", type=int, default=20, help="watchers beyond the caps, which must be refused")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--max-watchers", type=int, default=210)
    parser.add_argument("--no-record", action="store_true", help="print only; leave docs/benchmarks.md alone")
    parser.add_argument("--load", nargs=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.load:
        run_load(args.load)
        return
    folder = Path(tempfile.mkdtemp(prefix="bench-service-"))
    try:
        figures = measure(folder, args)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(figures)
    if not args.no_record:
        from bench.recording import machine_summary, write_section

        write_section("Ladder service", f"Measured by `python -m bench service` (bench/service_bench.py) on "
                                        f"{machine_summary()}.\n\n{figures}")


def measure(folder: Path, args: argparse.Namespace) -> str:
    load_average = os.getloadavg()[0]  # the machine is shared: how busy it was says how far to trust the tail
    db = make_store(folder)
    watcher_tokens = [f"w{i}" for i in range(args.watchers // WATCHERS_PER_TOKEN)]
    client_tokens = [f"c{i}" for i in range(args.clients)]
    issued = tokens(db, [*watcher_tokens, "greedy", *client_tokens])
    address = free_address()
    log = folder / "serve.log"
    service = subprocess.Popen(
        [sys.executable, "-m", "referee.cli.main", "serve", "--db", str(db), "--listen", address, "--no-builtins",
         "--players", "3", "--workers", "1", "--move-time", "1s", "--max-watchers", str(args.max_watchers),
         "--submits-per-hour", "100000", "--calls-per-second", "1000"],
        stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_healthy(address, service)
        memory = Memory(service.pid)
        memory.start()
        idle = Probe(address)
        idle.start()
        time.sleep(IDLE_SECONDS)
        idle.stopped.set()
        idle.join()
        before = memory.samples[-1]
        busy = Probe(address)
        busy.start()
        watching = start_load({"kind": "watchers", "address": address, "tokens": [issued[t] for t in watcher_tokens],
                               "greedy": issued["greedy"], "extra": args.extra, "seconds": args.seconds})
        time.sleep(5)  # the streams open first
        calling = start_load({"kind": "clients", "address": address, "tokens": [issued[t] for t in client_tokens],
                              "folder": str(folder / "clients"), "seconds": args.seconds})
        watched, called = result_of(watching), result_of(calling)
        busy.stopped.set()
        busy.join()
        time.sleep(2)
        after = memory.samples[-1]
        memory.stopped.set()
        memory.join()
        peak = max(memory.samples)
    finally:
        service.send_signal(signal.SIGTERM)
        try:
            service.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(service.pid, signal.SIGKILL)
    with Store(db) as store:
        matches = store.match_count(GAME)
    failures = Counter(watched["failures"]) + Counter(called["failures"]) + busy.failures + idle.failures
    rows = [("health check, idle", idle.health), ("health check, under load", busy.health),
            ("Standings, idle", idle.standings), ("Standings, under load", busy.standings),
            (f"Standings of the {args.clients} clients, under load", called["client_standings"])]
    table = "\n".join(f"| {what} | {len(times)} | " + " | ".join(f"{v:.1f}" for v in percentiles(times)) + " |"
                      for what, times in rows if times)
    events = watched["events"]
    return f"""{args.watchers} watchers open ({WATCHERS_PER_TOKEN} per token) and {args.clients} clients reading
about once a second and submitting for {args.seconds:g} s, while the ladder played {matches} matches in all;
the probe (this process) calls the health check and `Standings` every {PROBE_EVERY * 1000:.0f} ms, first
{IDLE_SECONDS:g} s before the load, then through it (the machine's load average at the start: {load_average:.1f}).
Latency in ms:

| call | calls | p50 | p99 | worst |
|---|---:|---:|---:|---:|
{table}

- Extra streams beyond the caps ({args.extra} from one token; at most {args.max_watchers} open, 16 per client):
  {watched["refused"]} refused RESOURCE_EXHAUSTED.
- Failed otherwise: {sum(failures.values())}{(" (" + ", ".join(f"{k}: {v}" for k, v in failures.items()) + ")") if failures else ""}.
- Submissions: {", ".join(f"{v} {k}" for k, v in sorted(called["submissions"].items())) or "none"}.
- Match events per watcher: {min(events) if events else 0} to {max(events) if events else 0} ({len(events)} watchers).
- Service memory (RSS of its main process): {before:.0f} MiB before the load, {peak:.0f} MiB at its peak,
  {after:.0f} MiB after it.
- Before (the threaded server of 16 threads, as of commit 5ede7ac): with 40 streams open, the health check
  and `Standings` each failed DEADLINE_EXCEEDED after 5 s (issue 24: 16 streams held every thread)."""


if __name__ == "__main__":
    main()
