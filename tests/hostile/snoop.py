"""Hostile bot: tries to read what is not its own — a file only the
referee's user may read, another bot's working folder and a file in it,
another bot's socket, the referee's command line — and to signal the
referee. Prints one JSON line saying what each attempt got.

Usage: snoop.py SECRET_FILE OTHER_WORKDIR OTHER_SOCKET REFEREE_PID
As a bot without arguments it tries its parent's parent (the referee, past
the sandbox's supervisor) and the other sandboxes it can guess in /tmp.
"""

import glob
import json
import os
import socket

from _as_bot import run


def attempt(action):
    try:
        return f"got: {action()!r}"[:200]
    except OSError as exc:
        return f"denied: {exc.strerror or exc}"
    except IndexError:
        return "denied: nothing found"


def guesses():
    """What a bot in a match could aim at without being told."""
    boxes = glob.glob("/tmp/referee-box-*")
    other = next((b for b in boxes if not os.getcwd().startswith(b)), "/tmp/referee-box-none")
    referee = 1
    try:
        with open(f"/proc/{os.getppid()}/stat") as handle:
            referee = int(handle.read().rsplit(")", 1)[1].split()[1])
    except OSError:
        pass
    return ["/root/.ssh/id_rsa", f"{other}/work", f"{other}/sock/bot.sock", str(referee)]


def act(args):
    secret, other_workdir, other_socket, referee_pid = args[:4] if len(args) >= 4 else guesses()

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


run(act, "snoop")
