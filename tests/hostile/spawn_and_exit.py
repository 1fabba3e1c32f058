"""Hostile bot: leaves a detached grandchild behind (new session, double
fork, ignores SIGHUP/SIGTERM/SIGINT, sleeps for ever), prints its pid, exits.

The forks happen in a fresh interpreter (a Python fork inside a bot's
threaded gRPC process may hang in the child)."""

import os
import subprocess
import sys

from _as_bot import run

STAY = """
import os, signal, time
if os.fork() == 0:
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)
    print(os.getpid(), flush=True)
    while True:
        time.sleep(60)
"""


def act(_args):
    child = subprocess.Popen([sys.executable, "-c", STAY], start_new_session=True, stdout=subprocess.PIPE)
    print(f"grandchild {child.stdout.readline().decode().strip()}", flush=True)
    os._exit(0)


run(act, "spawn-and-exit")
