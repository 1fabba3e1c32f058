"""A bot serving a plain-Python callable policy (botsdk.policy), for tests:
the probabilities it returns favour the lowest legal index, so it plays
every game's decisions through the SDK's tensor, mask and action index."""

import sys

from botsdk.policy import PolicyBot, serve_policy


def lowest_first(tensor, mask):
    assert len(tensor) > 0
    return {index: 1.0 / (rank + 1) for rank, index in enumerate(i for i, legal in enumerate(mask) if legal)}


if __name__ == "__main__":
    game = sys.argv.pop(1)
    serve_policy(PolicyBot.from_callable(lowest_first, game, name=f"callable-{game}", seed=1))
