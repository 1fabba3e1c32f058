"""Run a hostile act standalone, or as a real protocol bot that commits it.

Standalone (no --socket): the act runs at once; tests/test_sandbox_hostile.py
checks the sandbox against it. With --socket PATH (the way the referee starts
every bot): the program serves as a random bot and commits the act at its
first decision, so full matches can seat it (issue 6: the match finishes,
the offender is struck or forfeits, the others play on). If the act returns,
the bot answers with a legal action and plays on.
"""

import random
import sys
from collections.abc import Callable, Sequence


def run(act: Callable[[Sequence[str]], None], name: str) -> None:
    """Commit `act(args)` now, or at the first decision when serving."""
    argv = sys.argv[1:]
    if "--socket" not in argv:
        act(argv)
        return
    at = argv.index("--socket")
    socket_path, args = argv[at + 1], argv[:at] + argv[at + 2:]

    from bots.sdk import Bot, serve

    class Hostile(Bot):
        done = False

        def decide(self, observation, legal_actions, context):  # type: ignore[no-untyped-def]
            if not self.done:
                self.done = True
                act(args)
            return random.choice(legal_actions)

    Hostile.name = name
    serve(Hostile(), ["--socket", socket_path])
