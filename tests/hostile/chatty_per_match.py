"""Hostile bot: writes 700 KiB to stdout in every match and exits after it,
so the referee starts a fresh process for the next one. A log capped per
process would take another 700 KiB each match, without end. Each match's
output ends with the line "match MATCH_ID said its piece", so a test can
tell which match's output a log holds."""

import os
import sys
import threading

from bots.sdk import Bot, serve

LINE = "x" * 1023 + "\n"


class Chatty(Bot):
    name = "chatty"

    def on_match_start(self, match, observation):
        sys.stdout.write(LINE * 700)
        sys.stdout.write(f"match {match.match_id} said its piece\n")
        sys.stdout.flush()

    def decide(self, observation, legal_actions, context):
        return legal_actions[0]

    def on_match_end(self, outcome):
        threading.Timer(0.05, os._exit, (0,)).start()


if __name__ == "__main__":
    serve(Chatty())
