"""Protocol test bot: answers its first decision after SLEEP seconds, every
later one at once — so the first answer times out and then arrives stale."""

import time

from bots.sdk import Bot, serve

SLEEP = 0.4


class LateThenPrompt(Bot):
    name = "late-then-prompt"

    def __init__(self) -> None:
        self.decisions = 0

    def decide(self, observation, legal_actions, context):
        self.decisions += 1
        if self.decisions == 1:
            time.sleep(SLEEP)
        return legal_actions[-1]


if __name__ == "__main__":
    serve(LateThenPrompt())
