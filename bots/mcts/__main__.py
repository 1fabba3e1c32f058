"""`python -m bots.mcts [--move-time S | --iterations N] [--seed S]
[--rollout random|heuristic] [--rollout-depth D] --socket PATH`: serve the MCTS bot."""

from __future__ import annotations

import argparse
import sys

from bots.mcts.bot import MctsBot
from bots.sdk import serve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(add_help=False)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--move-time", type=float, default=0.2, help="seconds per decision (default 0.2)")
    budget.add_argument("--iterations", type=int, default=None, help="iterations per decision instead of a time")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--rollout", choices=("heuristic", "random"), default="heuristic")
    parser.add_argument("--rollout-depth", type=int, default=None,
                        help="decisions per rollout before the static evaluation (default: the game's, "
                             "24 for Gnadenlos!, 8 for Saboteur; 0: play to the end)")
    args, rest = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    options: dict[str, object] = {}
    if args.rollout_depth is not None:
        options["rollout_depth"] = args.rollout_depth or None
    bot = MctsBot(move_time=args.move_time, iterations=args.iterations, seed=args.seed,
                  rollout=args.rollout, **options)  # type: ignore[arg-type]
    serve(bot, rest)


if __name__ == "__main__":
    main()
