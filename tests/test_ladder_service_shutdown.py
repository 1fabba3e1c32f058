"""SIGTERM and Ctrl-C stop the ladder service within its deadline whatever
it is doing (importing, starting or stopping its Dask cluster, mid-match,
mid-upload and mid-validation), and a restart loses nothing and rates
nothing twice (issue 24). Signalled at 30 moments of its life, not one."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import psutil
import pytest

from botsdk.pb.ladder.v1 import ladder_pb2, ladder_pb2_grpc
from ladder.intake.archive import pack
from ladder.scheduling.scheduler import recompute
from ladder.service.server import STOP_DEADLINE
from ladder.store.database import Store
from ladder_support import install_bot, random_bot_folder
from service_support import free_address, start_service

SERVE = ("--no-builtins", "--players", "3", "--workers", "1", "--move-time", "1s", "--submits-per-hour", "100000")
ROUNDS = 30
LATEST_SIGNAL = 7.0
"""Seconds after its start by which every round's service is signalled."""
OWN_LINES = ("sandbox:", "serving ", "rated ", "deals ", "stopped:", "stopping", "released ", "warning", "the ladder")
"""How the lines the service itself writes begin (ladder/cli/serve.py, server.py)."""
SLACK = 3.0
"""What a loaded two-core machine may add to the deadline (the killing, the exit, being scheduled)."""


class Submitter(threading.Thread):
    """Keeps submitting new versions of a bot while the service lives (a
    submission is in upload or validation at many of the signals)."""

    def __init__(self, address: str, folder: Path) -> None:
        super().__init__(daemon=True)
        self.address = address
        self.folder = folder
        self.stopped = threading.Event()
        self.answers: list[str] = []

    def run(self) -> None:
        with grpc.insecure_channel(self.address) as channel:
            stub = ladder_pb2_grpc.LadderStub(channel)
            version = 0
            while not self.stopped.is_set():
                version += 1
                (self.folder / "bot.py").write_text((self.folder / "bot.py").read_text() + f"# {version}\n")
                try:
                    stub.Submit(ladder_pb2.SubmitRequest(archive=pack(self.folder), name="late", move_time=1),
                                timeout=60, wait_for_ready=False)
                    self.answers.append("registered")
                except grpc.RpcError as exc:
                    self.answers.append(exc.code().name)
                    time.sleep(0.2)


def unexplained_tracebacks(log: str) -> list[str]:
    """The tracebacks in a service's output that are not part of a Dask
    worker's own log record (a worker whose client left mid-transfer logs
    one, from its own process, and goes on stopping): any other means the
    service failed to stop cleanly."""
    found, in_dask_record = [], False
    for line in log.splitlines():
        if " - distributed." in line:
            in_dask_record = True
        elif line.startswith(OWN_LINES):
            in_dask_record = False
        elif line.startswith("Traceback") and not in_dask_record:
            found.append(line)
    return found


@pytest.mark.slow
def test_a_signal_at_any_moment_stops_the_service_in_time_and_a_restart_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "data" / "ladder.sqlite"
    with Store(db) as store:
        for name in ("a", "b", "c"):
            install_bot(store, random_bot_folder(tmp_path / "bots" / name), name)
    late = random_bot_folder(tmp_path / "author" / "late")
    log = tmp_path / "serve.log"
    rng = random.Random(24)
    address = free_address()
    stops: list[tuple[float, float, str]] = []
    for round_number in range(ROUNDS):
        delay = rng.uniform(0, LATEST_SIGNAL)
        sent = signal.SIGTERM if round_number % 2 else signal.SIGINT
        said = tmp_path / f"serve-{round_number}.log"
        service = subprocess.Popen([sys.executable, "-m", "referee.cli.main", "serve", "--db", str(db),
                                    "--listen", address, *SERVE], stdout=said.open("ab"), stderr=subprocess.STDOUT,
                                   start_new_session=True)
        submitter = Submitter(address, late)
        submitter.start()
        time.sleep(delay)
        family = psutil.Process(service.pid).children(recursive=True)
        signalled = time.monotonic()
        service.send_signal(sent)
        code = service.wait(STOP_DEADLINE + 30)
        took = time.monotonic() - signalled
        submitter.stopped.set()
        _, alive = psutil.wait_procs(family, timeout=15)
        assert not alive, f"round {round_number}: left running: {[p.cmdline() for p in alive]}"
        text = said.read_text()
        # before `serve` begins (Python, click and the command's imports), a signal ends the program as it ends
        # any Python program: SIGTERM kills it; Ctrl-C raises KeyboardInterrupt, whose traceback Python prints
        # when it comes before click runs (click says "Aborted!" after)
        started = "sandbox:" in text or "stopped:" in text
        assert not unexplained_tracebacks(text) or (not started and text.rstrip().endswith("KeyboardInterrupt")), text
        assert code == 0 or (code in (-sent, 1) and not started), f"round {round_number} ({delay:.1f}s, " \
            f"{sent.name}): exit {code}\n{text}"
        stops.append((delay, took, sent.name))
        submitter.join(70)
    report = ", ".join(f"{delay:.1f}s:{took:.1f}s" for delay, took, _ in stops)
    print(f"signal delay: seconds to stop, {ROUNDS} rounds: {report}")
    assert max(took for _, took, _ in stops) < STOP_DEADLINE + SLACK, report

    service = start_service(db, address, *SERVE, log=log)  # and once more, to play on after all that
    with Store(db) as store:
        rated = store.match_count("gnadenlos")
    deadline = time.monotonic() + 120
    while True:
        with Store(db) as store:
            if store.match_count("gnadenlos") >= rated + 3:
                break
        assert time.monotonic() < deadline, "the service played nothing after the signals"
        time.sleep(0.5)
    service.send_signal(signal.SIGTERM)
    assert service.wait(STOP_DEADLINE + 30) == 0
    with Store(db) as store:
        ids = [m["match_id"] for m in store.matches("gnadenlos")]
        assert len(ids) == len(set(ids)) >= 3  # nothing rated twice
        assert len(store.rating_history("gnadenlos")) == len(store.seat_rows("gnadenlos"))
        assert recompute(store, "gnadenlos")[0]  # the ratings are exactly those of the stored results
        assert all(Path(m["record_path"]).exists() for m in store.matches("gnadenlos"))
        versions = [b.version for b in store.bot_versions("late")]
        assert len(versions) == len(set(versions))  # each submission registered once, or not at all
    assert not list(db.parent.glob("upload-*")) and not list((db.parent / "bots" / ".incoming").glob("*"))
