"""Train a Leduc poker agent with CFR+ and write it as the tabular policy file the bot serves.

    .venv/bin/python examples/trained/train.py [--iterations 100] [--game python_leduc]

CFR+ (open_spiel.python.algorithms.cfr) on `python_leduc`, our engine
registered in OpenSpiel (envs.openspiel), heads-up. The average policy is
written to policy.json beside this script in the SDK's tabular format
(botsdk.policy), keyed by information-state strings, which the bot reads
back from the referee's messages. `--game leduc_poker` trains on
OpenSpiel's C++ game instead, about ten times faster: its strings, legal
actions and returns are ours, state by state (tests/test_openspiel_leduc.py).
The exploitability printed is computed on `leduc_poker` with the written
policy's strings, so it is also a check that the two games agree.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability

import envs.openspiel  # noqa: F401  (registers python_leduc)
from botsdk.policy import read_table, table_from_openspiel, write_table

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=100, help="CFR+ iterations (default %(default)s)")
    parser.add_argument("--game", choices=("python_leduc", "leduc_poker"), default="python_leduc",
                        help="train on our engine (default) or on OpenSpiel's C++ Leduc poker")
    parser.add_argument("--out", type=Path, default=HERE / "policy.json", help="the policy file (default: %(default)s)")
    parser.add_argument("--report", type=int, default=25, help="print progress every N iterations")
    args = parser.parse_args()

    game = pyspiel.load_game(args.game, {"players": 2})
    solver = cfr.CFRPlusSolver(game)
    start = time.monotonic()
    for iteration in range(1, args.iterations + 1):
        solver.evaluate_and_update_policy()
        if iteration % args.report == 0 or iteration == args.iterations:
            print(f"iteration {iteration}/{args.iterations}, {time.monotonic() - start:.0f} s", flush=True)
    states = table_from_openspiel(solver.average_policy())
    write_table(args.out, "leduc", states)

    reference = pyspiel.load_game("leduc_poker", {"players": 2})
    served = read_table(args.out, "leduc")
    print(f"wrote {args.out}: {len(served)} information states; trained in {time.monotonic() - start:.0f} s")
    print(f"exploitability (chips per hand, on OpenSpiel's leduc_poker): "
          f"{exploitability.exploitability(reference, _AsOpenSpiel(reference, served)):.4f}")


class _AsOpenSpiel:
    """The written table as an OpenSpiel policy (the strings are leduc_poker's)."""

    def __init__(self, game: pyspiel.Game, states: dict[str, dict[int, float]]) -> None:
        self.game = game
        self.player_ids = list(range(game.num_players()))
        self.states = states

    def action_probabilities(self, state: pyspiel.State, player_id: int | None = None) -> dict[int, float]:
        legal = state.legal_actions()
        probabilities = self.states.get(state.information_state_string(), {})
        total = sum(probabilities.get(a, 0.0) for a in legal)
        if total <= 0:
            return {a: 1.0 / len(legal) for a in legal}
        return {a: probabilities.get(a, 0.0) / total for a in legal}

    def __call__(self, state: pyspiel.State, player_id: int | None = None) -> dict[int, float]:
        return self.action_probabilities(state, player_id)


if __name__ == "__main__":
    main()
