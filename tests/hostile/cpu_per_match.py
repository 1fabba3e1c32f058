"""Test bot (not hostile, but greedy): at the first decision of its k-th
match it computes until its process has used k x SECONDS of CPU in all,
then plays randomly. So each match costs it about SECONDS of CPU (its
start-up counted in the first), and a warm bot's total grows past any
fixed budget while every match stays within a per-match one.

Usage: cpu_per_match.py SECONDS --socket PATH
"""

import random
import sys
import time

from bots.sdk import Bot, serve


class Greedy(Bot):
    name = "cpu-per-match"
    version = "1"

    def __init__(self, seconds):
        self.seconds = seconds
        self.matches = 0
        self.computed = True

    def on_match_start(self, match, observation):
        self.matches += 1
        self.computed = False

    def decide(self, observation, legal_actions, context):
        if not self.computed:
            self.computed = True
            while time.process_time() < self.matches * self.seconds:
                pass
        return random.choice(legal_actions)


serve(Greedy(float(sys.argv[1])), sys.argv[2:])
