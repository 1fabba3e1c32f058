"""Hostile bot: tries to read what is not its own — a file only the
referee's user may read, another bot's working folder and a file in it,
another bot's socket, the referee's command line — and to signal the
referee. Prints one JSON line saying what each attempt got.

Usage: snoop.py SECRET_FILE OTHER_WORKDIR OTHER_SOCKET REFEREE_PID
"""

import json
import os
import socket
import sys

secret, other_workdir, other_socket, referee_pid = sys.argv[1:5]


def attempt(action):
    try:
        return f"got: {action()!r}"[:200]
    except OSError as exc:
        return f"denied: {exc.strerror or exc}"


def connect():
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(2.0)
        sock.connect(other_socket)
        return "connected"


print(json.dumps({
    "secret_file": attempt(lambda: open(secret).read()),
    "other_workdir": attempt(lambda: os.listdir(other_workdir)),
    "other_file": attempt(lambda: open(os.path.join(other_workdir, "notes.txt")).read()),
    "other_socket": attempt(connect),
    "referee_cmdline": attempt(lambda: open(f"/proc/{referee_pid}/cmdline").read()),
    "signal_referee": attempt(lambda: os.kill(int(referee_pid), 0)),
}), flush=True)
