"""Misbehaving bot: plays its first two decisions, then the process dies (exit code 7)."""

import os

from bots.sdk import Bot, serve


class CrashMidMatch(Bot):
    name = "crash-mid-match"

    def __init__(self) -> None:
        self.decisions = 0

    def decide(self, observation, legal_actions, context):
        self.decisions += 1
        if self.decisions == 3:
            os._exit(7)
        return legal_actions[0]


if __name__ == "__main__":
    serve(CrashMidMatch())
