"""Speed of the training environments: PettingZoo's performance_benchmark, beside the bare engine (issue 27).

For each game and table size, in one process, alternately:

- **PettingZoo**: `pettingzoo.test.performance_benchmark` on the AEC
  environment (`envs.pettingzoo.env`): random legal actions from the
  observation's action mask for five seconds of wall clock, every agent's
  `last()` (its observation tensor and mask) read each turn; the turns per
  second it prints;
- **OpenSpiel**: random play of the registered game (`envs.openspiel`):
  `legal_actions()` and `apply_action` with a uniformly random choice, the
  acting seat's `information_state_tensor` read each turn, for as long;
- **the engine alone**: the same random play on `referee.games` directly
  (`legal_actions`, `apply`), no views.

The ratios say what the views cost: each environment's turns per second
over the engine's. Prints a table and rewrites the "Training
environments" section of docs/benchmarks.md (unless --no-record).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench` and `envs` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel
from pettingzoo.test import performance_benchmark
from rich.console import Console
from rich.table import Table

import envs.openspiel  # noqa: F401  (registers the games)
from bench.recording import machine_summary, write_section
from envs.pettingzoo import env
from referee.games import load_game

SECTION = "Training environments"
TABLES = (("leduc", 2), ("gnadenlos", 4), ("saboteur", 4))
SECONDS = 5.0
"""performance_benchmark's own fixed duration; the other loops run as long."""


def pettingzoo_turns(game: str, seats: int) -> float:
    """Turns per second as performance_benchmark prints them."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        performance_benchmark(env(game, num_seats=seats))
    found = re.search(r"([0-9.]+) turns per second", out.getvalue())
    assert found, out.getvalue()
    return float(found.group(1))


def timed(step: Callable[[], int]) -> float:
    """Units per second of wall clock of `step` run for SECONDS (as performance_benchmark counts)."""
    units, start = 0, time.time()
    while time.time() - start < SECONDS:
        units += step()
    return units / (time.time() - start)


def openspiel_turns(game: str, seats: int, rng: random.Random) -> float:
    spiel = pyspiel.load_game(f"python_{game}", {"players": seats, **({"simultaneous": False} if game == "gnadenlos" else {})})

    def match() -> int:
        state, turns = spiel.new_initial_state(), 0
        while not state.is_terminal():
            if not state.is_chance_node():
                state.information_state_tensor(state.current_player())
                turns += 1
            state.apply_action(rng.choice(state.legal_actions()))
        return turns
    return timed(match)


def engine_turns(game: str, seats: int, rng: random.Random) -> float:
    rules = load_game(game)

    def match() -> int:
        state, turns = rules.new_state(seats, rng.getrandbits(32)), 0
        while not state.is_terminal():
            decision = {}
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                decision[seat] = legal[rng.randrange(len(legal))]
                turns += 1
            state.apply(decision)
        return turns
    return timed(match)


Row = tuple[str, str, str, str, str, str]


def measure(seed: int) -> list[Row]:
    rows: list[Row] = []
    rng = random.Random(seed)
    for game, seats in TABLES:
        zoo = pettingzoo_turns(game, seats)
        spiel = openspiel_turns(game, seats, rng)
        bare = engine_turns(game, seats, rng)
        rows.append((f"{game}, {seats} seats", f"{zoo:,.0f}", f"{spiel:,.0f}", f"{bare:,.0f}",
                     f"{zoo / bare:.2f}", f"{spiel / bare:.2f}"))
    return rows


def report(rows: list[Row]) -> str:
    lines = [
        f"Measured by `python -m bench envs` on {machine_summary()}; OpenSpiel {pyspiel.__version__}.",
        f"Turns per second of wall clock, random legal play, each loop {SECONDS:.0f} s in one process, the three "
        "one after another per game: PettingZoo's own `performance_benchmark` on the AEC environment (each turn "
        "reads the acting agent's observation: its tensor and mask), the OpenSpiel game (each turn the acting seat's "
        "information-state tensor; Gnadenlos! in its sequential form) and the engine alone (no views). "
        "A turn is one seat's decision. Ratios: the environment's turns per second over the engine's. "
        f"Load average (1 min) at the end: {os.getloadavg()[0]:.1f}.",
        "",
        "| table | PettingZoo AEC | OpenSpiel | engine alone | PettingZoo / engine | OpenSpiel / engine |",
        "|---|---|---|---|---|---|",
    ]
    lines += [f"| {' | '.join(row)} |" for row in rows]
    lines += [
        "",
        "Where the time goes: every view is the referee's: the engine's observation, encoded into the protocol "
        "message by the game's codec, then into the tensor by `botsdk.encoding` in plain Python; Saboteur's "
        "tensor holds the 71 x 71 maze planes (55,787 floats, a Python list in OpenSpiel's API) and its mask "
        "the 166,594-entry action index, which the benchmark's random choice scans.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-record", action="store_true", help="do not rewrite docs/benchmarks.md")
    args = parser.parse_args(argv)
    rows = measure(args.seed)
    table = Table(title=f"{SECTION}: turns per second")
    for column in ("table", "PettingZoo AEC", "OpenSpiel", "engine alone", "PZ / engine", "OS / engine"):
        table.add_column(column, justify="left" if column == "table" else "right")
    for row in rows:
        table.add_row(*row)
    Console().print(table)
    if not args.no_record:
        write_section(SECTION, report(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
