"""Helpers for the Dask tests: a real `dask scheduler` and `dask worker`s
started as a user would, each in its own working folder, sharing nothing
but the scheduler's address on 127.0.0.1; bots that think by sleeping; and
a worker plugin that kills its worker once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ladder.running.cluster import LadderWorker
from ladder.running.runner import run_task
from ladder.store.tasks import MatchTask, Outcome
from ladder_support import RANDOM_BOT_SOURCE, FakeRunner

DASK = str(Path(sys.executable).parent / "dask")
START_TIMEOUT = 60.0


def sleepy_bot_folder(path: Path, seconds: float) -> Path:
    """A submittable random bot that sleeps `seconds` before each decision
    (thinking without CPU); the folder's name is written in, so copies differ."""
    path.mkdir(parents=True)
    source = RANDOM_BOT_SOURCE.replace(
        "        return random.choice(legal_actions)",
        f"        time.sleep({seconds!r})\n        return random.choice(legal_actions)",
    ).replace("import json\n", "import json\nimport time\n")
    (path / "bot.py").write_text(f"#!{sys.executable}\n# {path.name}\n{source}")
    (path / "bot.py").chmod(0o755)
    (path / "bot.toml").write_text('command = "./bot.py"\ngames = ["gnadenlos"]\n')
    return path


@dataclass
class Member:
    """One process of the cluster and its working folder."""

    name: str
    folder: Path
    process: subprocess.Popen[bytes]

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)


def _start(name: str, folder: Path, argv: Sequence[str]) -> Member:
    folder.mkdir(parents=True)
    log = (folder / f"{name}.log").open("wb")
    process = subprocess.Popen(list(argv), cwd=folder, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    return Member(name, folder, process)


def scheduler_address(member: Member) -> str:
    """The address the scheduler wrote once it listened (the test reads it
    from the scheduler's folder; the workers are only told the address)."""
    path = member.folder / "scheduler.json"
    deadline = time.monotonic() + START_TIMEOUT
    while not path.exists():
        assert member.process.poll() is None, (member.folder / f"{member.name}.log").read_text()
        assert time.monotonic() < deadline, "the dask scheduler did not start"
        time.sleep(0.1)
    return str(json.loads(path.read_text())["address"])


@contextmanager
def real_cluster(root: Path, workers: int) -> Iterator[tuple[str, list[Member]]]:
    """A `dask scheduler` and `workers` `dask worker` processes (one thread
    each, no nanny: killing the process is losing the worker), each in its
    own folder under `root`; all stopped on the way out."""
    members = [_start("scheduler", root / "scheduler", [
        DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
        "--scheduler-file", "scheduler.json"])]
    try:
        address = scheduler_address(members[0])
        for index in range(workers):
            name = f"worker{index}"
            folder = root / name
            members.append(_start(name, folder, [
                DASK, "worker", address, "--name", name, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                "--host", "127.0.0.1", "--local-directory", str(folder / "local")]))
        yield address, members[1:]
    finally:
        for member in reversed(members):
            if member.process.poll() is None:
                member.process.terminate()
        for member in members:
            try:
                member.process.wait(20)
            except subprocess.TimeoutExpired:
                member.kill()


class CrashOnceWorker(LadderWorker):
    """A ladder worker plugin whose matches a FakeRunner plays, and whose
    worker process dies (os._exit) in the middle of its first match: the
    marker file makes that happen once in the whole cluster."""

    def __init__(self, marker: str) -> None:
        super().__init__(1.0)
        self.marker = marker
        self.name = "crash-once-" + Path(marker).parent.name

    def play(self, task: MatchTask) -> Outcome:
        if not os.path.exists(self.marker):
            Path(self.marker).touch()
            os._exit(3)
        return run_task(FakeRunner(), task)
