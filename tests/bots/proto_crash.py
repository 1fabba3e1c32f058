"""Protocol test bot: the process dies (exit code 9) when asked its first decision."""

import os

from bots.sdk import Bot, serve


class Crash(Bot):
    name = "crash"

    def decide(self, observation, legal_actions, context):
        os._exit(9)


if __name__ == "__main__":
    serve(Crash())
