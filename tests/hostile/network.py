"""Hostile bot: tries TCP to a port on localhost and to an outside address,
and UDP out; prints one JSON line with what happened to each attempt.

Usage: network.py [LOCAL_PORT]   (default 22)
"""

import json
import socket

from _as_bot import run


def attempt(family, kind, address):
    try:
        with socket.socket(family, kind) as sock:
            sock.settimeout(2.0)
            sock.connect(address)
            if kind == socket.SOCK_DGRAM:
                sock.send(b"x")
        return "connected"
    except OSError as exc:
        return f"failed: {exc.strerror or exc}"


def act(args):
    port = int(args[0]) if args else 22
    print(json.dumps({
        "localhost": attempt(socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", port)),
        "outside": attempt(socket.AF_INET, socket.SOCK_STREAM, ("1.1.1.1", 443)),
        "udp_outside": attempt(socket.AF_INET, socket.SOCK_DGRAM, ("8.8.8.8", 53)),
    }), flush=True)


run(act, "network")
