"""Misbehaving bot: plays one match properly, then exits (code 0) before the next one."""

import os
import threading

from bots.sdk import Bot, serve


class OneMatchOnly(Bot):
    name = "one-match-only"

    def decide(self, observation, legal_actions, context):
        return legal_actions[0]

    def on_match_end(self, outcome):
        threading.Timer(0.05, os._exit, (0,)).start()


if __name__ == "__main__":
    serve(OneMatchOnly())
