"""`python -m bots.random [--seed S] --socket PATH`: serve the random bot."""

from __future__ import annotations

import argparse
import sys

import botsdk

from bots.random.bot import ProtocolRandomBot


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--seed", type=int, default=None)
    args, rest = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    botsdk.serve(ProtocolRandomBot(args.seed), rest)


if __name__ == "__main__":
    main()
