"""Misbehaving bot: answers its first decision 0.15 s after the deadline, then plays on in time.

Late by more than the grace allowance, but not so late that it is still
busy when its next decision is due (that one would be late too).
"""

import time

from bots.sdk import Bot, serve

LATE_BY = 0.15


class LateOnce(Bot):
    name = "late-once"

    def __init__(self) -> None:
        self.decisions = 0

    def decide(self, observation, legal_actions, context):
        self.decisions += 1
        if self.decisions == 1:
            time.sleep(max(0.0, context.deadline - time.monotonic()) + LATE_BY)
        return legal_actions[0]


if __name__ == "__main__":
    serve(LateOnce())
