"""What one client of the ladder service may take: calls per second, live streams.

A client is its token when it sends one (counted by the token's digest,
before the token is checked, so a flood of made-up tokens is refused by
rate, not looked up each time), else the host it calls from. Every call
takes from its client's bucket of its kind (`RateLimits`: a token bucket
per client and kind, as public APIs meter calls): `submit` for Submit,
`read` for everything else. Live streams (`Watch`) are capped overall and
per client (`StreamSlots`). A call over a limit is refused with
RESOURCE_EXHAUSTED and a message saying when to try again; nothing else
happens for it.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

KEPT_CLIENTS = 10_000
"""Buckets kept before the full ones (idle clients) are forgotten: memory stays bounded."""


@dataclass(frozen=True)
class Rate:
    """`per_second` on average, `burst` at once."""

    per_second: float
    burst: float

    def describe(self) -> str:
        """"20 a second", "60 an hour": its average, in the unit that reads best."""
        if self.per_second >= 1:
            return f"{self.per_second:g} a second"
        if self.per_second * 60 >= 1:
            return f"{self.per_second * 60:g} a minute"
        return f"{self.per_second * 3600:g} an hour"


def client_key(bearer: str | None, peer: str) -> str:
    """Whom a call counts against: its token, else its host (`ipv4:1.2.3.4:5678` -> `1.2.3.4`)."""
    if bearer:
        return "token:" + hashlib.sha256(bearer.encode()).hexdigest()[:16]
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return "host:" + rest.rpartition(":")[0].strip("[]")
    return "host:" + kind  # unix: every local user is one client


@dataclass(frozen=True)
class Quotas:
    """What one client may take (`referee serve` options; docs/ladder.md)."""

    submits: Rate = Rate(per_second=60 / 3600, burst=10)
    """Submit calls per client."""
    reads: Rate = Rate(per_second=20, burst=60)
    """Every other call, per client."""
    streams: int = 256
    """Watch streams open at once."""
    streams_per_client: int = 16
    watch_lifetime: float = 3600.0
    """Seconds one Watch stream lives."""


class RateLimits:
    """A token bucket per (kind, client); thread-safe."""

    def __init__(self, rates: dict[str, Rate], clock: Callable[[], float] = time.monotonic) -> None:
        self.rates = rates
        self._clock = clock
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}
        """(kind, client) -> (tokens left, when counted)."""
        self._lock = threading.Lock()

    def take(self, kind: str, client: str) -> float:
        """Take one call of `kind` for `client`: 0 if allowed, else the
        seconds until one is."""
        rate = self.rates[kind]
        now = self._clock()
        with self._lock:
            left, then = self._buckets.get((kind, client), (rate.burst, now))
            left = min(rate.burst, left + (now - then) * rate.per_second)
            if left < 1:
                self._buckets[(kind, client)] = (left, now)
                return (1 - left) / rate.per_second
            self._buckets[(kind, client)] = (left - 1, now)
            if len(self._buckets) > KEPT_CLIENTS:
                self._forget_idle(now)
        return 0.0

    def _forget_idle(self, now: float) -> None:
        """Drop buckets that have refilled: forgetting them changes nothing."""
        for key, (left, then) in list(self._buckets.items()):
            rate = self.rates[key[0]]
            if left + (now - then) * rate.per_second >= rate.burst:
                del self._buckets[key]


class StreamSlots:
    """Live streams open now, at most `total` and `per_client`; thread-safe."""

    def __init__(self, total: int, per_client: int) -> None:
        self.total = total
        self.per_client = per_client
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def acquire(self, client: str) -> str | None:
        """Open a stream for `client`: None, or why not (a refusal's message)."""
        with self._lock:
            if sum(self._open.values()) >= self.total:
                return (f"the ladder service has {self.total} live streams open, the most it keeps; "
                        "try again in a minute, or read `referee table --server` instead")
            if self._open.get(client, 0) >= self.per_client:
                return (f"you have {self.per_client} live streams open, the most one client may; "
                        "close one before watching again")
            self._open[client] = self._open.get(client, 0) + 1
        return None

    def release(self, client: str) -> None:
        with self._lock:
            left = self._open.get(client, 0) - 1
            if left > 0:
                self._open[client] = left
            else:
                self._open.pop(client, None)

    def count(self) -> int:
        with self._lock:
            return sum(self._open.values())
