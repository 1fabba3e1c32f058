"""A raw-protobuf bot (botsdk) whose warm-up is slow and then raises: its
decide fails unless the warm-up finished first, so it plays only if the
first match waits for the warm-up and the bot serves on after it raised."""

import time

from botsdk import Bot, serve


class SlowWarmUp(Bot):
    name = "slow-warm-up"

    def __init__(self):
        self.warm = False

    def warm_up(self):
        time.sleep(0.5)
        self.warm = True
        raise RuntimeError("the warm-up's last step failed")

    def decide(self, observation, legal_actions, context):
        if not self.warm:
            raise RuntimeError("decide before the warm-up finished")
        return legal_actions[0]


if __name__ == "__main__":
    serve(SlowWarmUp())
