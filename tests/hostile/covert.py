"""Hostile bots: two seats of one author try to pass a secret (a hand)
through every channel outside the protocol (containment issue, property 4).

`covert.py send TOKEN` at its first decision: a key readable by all in the
kernel's keyrings, byte-range read locks on a file every bot can read (the
interpreter's os.py), a file in /dev/shm, an abstract Unix socket, a SysV
shared memory segment; it prints what each attempt returned.

`covert.py receive TOKEN` at its first decision starts looking, for a few
seconds, through each of those channels (and whether it may watch shared
files with inotify, and how many processes kill(pid, 0) finds), then prints
what it found as one JSON line: {"found": [...], ...}.

TOKEN names what they exchange (a key "covert-TOKEN", and so on), so a
test run never finds what an earlier run left on the machine.

Usage: covert.py send|receive TOKEN [--socket PATH]
"""

import ctypes
import fcntl
import json
import os
import socket
import threading
import time

from _as_bot import run

SECRET = b"hand:R3,G5"
NAME = b"covert-"  # + TOKEN, set in main
SHARED = os.__file__  # the same read-only file in every Python bot's jail
LOCK_AT = 1000
SHM_KEY = 0xC0FFEE  # SysV keys live in the IPC namespace: a fixed one is fine
libc = ctypes.CDLL(None, use_errno=True)
SYS_ADD_KEY, SYS_KEYCTL, SYS_INOTIFY_INIT1 = 248, 250, 294
KEY_SPEC_USER_KEYRING, KEYCTL_SETPERM = -4, 5
held = []  # keep descriptors (and their locks) open


def attempt(action):
    try:
        return action()
    except OSError as exc:
        return f"error: {exc.strerror}"


def syscall(*args):
    result = libc.syscall(*args)
    if result < 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))
    return result


def send(_args):
    def key():
        serial = syscall(SYS_ADD_KEY, b"user", NAME, SECRET, len(SECRET), KEY_SPEC_USER_KEYRING)
        syscall(SYS_KEYCTL, KEYCTL_SETPERM, serial, 0x3F3F3F3F)
        return "ok"

    def lock():
        handle = open(SHARED, "rb")
        held.append(handle)
        for index, byte in enumerate(SECRET):  # one read lock per byte, at an offset that is its value
            fcntl.lockf(handle, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, LOCK_AT + index * 256 + byte)
        return "ok"

    def shm_file():
        with open("/dev/shm/covert", "wb") as handle:
            handle.write(SECRET)
        return "ok"

    def abstract():
        server = socket.socket(socket.AF_UNIX)
        server.bind(b"\0" + NAME)
        server.listen(1)
        held.append(server)
        return "ok"

    def sysv():
        return f"ok {syscall(29, SHM_KEY, 4096, 0o1666)}"  # shmget(key, size, IPC_CREAT | 0666)

    print(json.dumps({"sent": {"keyring": attempt(key), "lock": attempt(lock), "dev_shm": attempt(shm_file),
                               "abstract_socket": attempt(abstract), "sysv_shm": attempt(sysv)}}), flush=True)


def look():
    found = set()

    def key():
        with open("/proc/keys") as handle:
            return NAME.decode() in handle.read()

    def lock():
        with open(SHARED, "rb") as handle:
            probe = fcntl.fcntl(handle, fcntl.F_GETLK, _flock(fcntl.F_WRLCK, LOCK_AT, 10 * 256))
            return int.from_bytes(probe[:2], "little") != fcntl.F_UNLCK

    def abstract():
        with socket.socket(socket.AF_UNIX) as client:
            client.connect(b"\0" + NAME)
            return True

    checks = {"keyring": key, "lock": lock, "dev_shm": lambda: os.path.exists("/dev/shm/covert"),
              "abstract_socket": abstract, "sysv_shm": lambda: syscall(29, SHM_KEY, 0, 0) >= 0}
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline:
        for channel, check in checks.items():
            if attempt(check) is True:
                found.add(channel)
        time.sleep(0.1)
    visible = sum(1 for pid in range(1, 1 << 16) if _exists(pid))
    print(json.dumps({"found": sorted(found), "visible_pids": visible,
                      "inotify": attempt(lambda: f"ok {syscall(SYS_INOTIFY_INIT1, 0)}")}), flush=True)


def _flock(kind, start, length):
    # struct flock on x86_64: short l_type, short l_whence, off_t l_start, off_t l_len, pid_t l_pid
    return kind.to_bytes(2, "little") + b"\0\0" + b"\0" * 4 + start.to_bytes(8, "little") + \
        length.to_bytes(8, "little") + b"\0" * 8


def _exists(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def receive(_args):
    threading.Thread(target=look).start()


def main(args):
    global NAME
    NAME = b"covert-" + args[1].encode()
    send(args) if args[0] == "send" else receive(args)


run(main, "covert")
