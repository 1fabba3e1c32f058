"""Which addresses of the ladder service are this machine's own.

Both sides ask: the service needs tokens and TLS on any other address
(ladder/service/server.py), and the client sends a token in clear only to
one of these (ladder/service/client.py). Local means a `unix:` socket, a
loopback address (127.0.0.0/8, ::1) or `localhost`; a host name or any
other form of address is not known to be local, whatever it resolves to.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass


@dataclass(frozen=True)
class Listen:
    address: str
    local: bool
    """A local socket or a loopback address: only this machine's users reach it."""


def parse_address(address: str) -> Listen:
    """`127.0.0.1:50061`, `[::1]:50061`, `unix:/path` or `HOST:PORT`.
    Raises ValueError naming the forms it takes."""
    if address.startswith(("unix:", "unix-abstract:")):
        return Listen(address, True)
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"{address!r} is not HOST:PORT or unix:PATH (e.g. 127.0.0.1:50061)")
    host = host.strip("[]")
    if host == "localhost":
        return Listen(address, True)
    try:
        return Listen(address, ipaddress.ip_address(host).is_loopback)
    except ValueError:
        return Listen(address, False)  # a host name: whatever it resolves to, not known to be local


def is_local(address: str) -> bool:
    """Whether `address` is provably this machine's (anything unparsable is not)."""
    try:
        return parse_address(address).local
    except ValueError:
        return False
