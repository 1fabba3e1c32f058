"""`python -m bots.heuristic --socket PATH`: serve the heuristic bot."""

from __future__ import annotations

from bots.heuristic.bot import HeuristicBot
from bots.sdk import serve


def main(argv: list[str] | None = None) -> None:
    serve(HeuristicBot(), argv)


if __name__ == "__main__":
    main()
