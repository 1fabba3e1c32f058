"""Hostile bot: takes the CPU from its opponents and never pays for it
(containment issue, property 6).

Before it listens it starts 40 spinning processes, each in a session of
its own (so per-session CPU sharing gives each one a slice), stopped; while
it decides itself it keeps them stopped (SIGSTOP), so its own answers stay
fast and it is never struck, and it resumes them (SIGCONT) right after
answering, while its opponents think. Prints how many spinners run.

Usage: hog.py [SPINNERS] --socket PATH
"""

import os
import random
import signal
import subprocess
import sys
import threading

from bots.sdk import Bot, serve

argv = sys.argv[1:]
SOCKET = argv[argv.index("--socket") + 1]
del argv[argv.index("--socket"):argv.index("--socket") + 2]
COUNT = int(argv[0]) if argv else 40
SPIN = ["/bin/sh", "-c", "while :; do :; done"]


class Hog(Bot):
    name = "hog"
    spinners: list[int] = []

    def decide(self, observation, legal_actions, context):  # type: ignore[no-untyped-def]
        self._signal(signal.SIGSTOP)
        threading.Timer(0.001, self._signal, (signal.SIGCONT,)).start()  # once the answer is on its way
        return random.choice(legal_actions)

    def _signal(self, sig: int) -> None:
        for pid in self.spinners:
            try:
                os.kill(pid, sig)
            except OSError:
                pass


hog = Hog()
hog.spinners = [subprocess.Popen(SPIN, start_new_session=True).pid for _ in range(COUNT)]
hog._signal(signal.SIGSTOP)
print(f"spinners {len(hog.spinners)}", flush=True)
serve(hog, ["--socket", SOCKET])
