"""Helpers for the protocol and SDK tests: real bot processes on temporary sockets."""

from __future__ import annotations

import importlib.util
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.games import load_game
from botsdk.contract import TimeControl
from referee.protocol.client import BotClient

BOTS = Path(__file__).resolve().parent / "bots"
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class RunningBot:
    process: subprocess.Popen[bytes]
    client: BotClient
    socket_path: str


@contextmanager
def bot_process(command: Sequence[str], *, ready: bool = True, env: dict[str, str] | None = None) -> Iterator[RunningBot]:
    """Start `command` with `--socket` on a fresh short socket path (Unix
    socket paths are limited to about 107 bytes); kill it afterwards."""
    folder = tempfile.mkdtemp(prefix="bot", dir="/tmp")
    socket_path = os.path.join(folder, "s")
    process = subprocess.Popen([*command, "--socket", socket_path], cwd=ROOT, env=env)
    client = BotClient(socket_path)
    try:
        if ready:
            client.wait_ready(20)
        yield RunningBot(process, client, socket_path)
    finally:
        client.close()
        if process.poll() is None:
            process.kill()
        process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def first_v1_module() -> Any:
    """tests/bots/first_v1.py (the first gnadenlos.v1 schema's loader), which
    the bot scripts beside it import by their folder."""
    spec = importlib.util.spec_from_file_location("first_v1", BOTS / "first_v1.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def script(name: str, *args: str) -> list[str]:
    return [sys.executable, str(BOTS / name), *args]


def random_bot(seed: int = 1) -> list[str]:
    return [sys.executable, "-m", "bots.random", "--seed", str(seed)]


def a_decision(seed: int = 3) -> tuple[Any, Any, int]:
    """A state with a decision of at least two legal actions, and its seat."""
    game = load_game("gnadenlos")
    state = game.new_state(4, seed)
    rng = random.Random(seed)
    while True:
        for seat in sorted(state.to_act()):
            if len(state.legal_actions(seat)) > 1:
                return game, state, seat
        state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})


def start_match(client: BotClient, state: Any, seat: int, match_id: str = "m1") -> None:
    client.start_match(
        match_id=match_id, game="gnadenlos", variant={}, seat=seat, num_seats=state.num_seats,
        seat_names=[f"bot{s}" for s in range(state.num_seats)], time_control=TimeControl(move_time=0.2),
        observation=state.observe(seat),
    )


def ask(client: BotClient, state: Any, seat: int, request_id: int, timeout: float = 5.0) -> Any:
    legal = state.legal_actions(seat)
    client.send_decide(request_id=request_id, observation=state.observe(seat), legal_actions=legal, allowance=timeout)
    return client.receive_decision(request_id=request_id, legal_actions=legal, timeout=timeout)
