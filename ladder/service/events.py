"""Finished matches fanned out to the service's live streams (`Watch`).

The run loop publishes each rated match once; every open stream has a
bounded queue of its own, so a slow reader never holds up the ladder or
another reader: a reader that falls more than `BACKLOG` events behind is
cut off (its stream ends with an error saying so) rather than buffered
without bound.
"""

from __future__ import annotations

import queue
import threading
from typing import Any

BACKLOG = 512
"""Events a stream may lag behind before it is cut off."""

CLOSED = object()
"""Put in every queue when the service stops: the streams end."""


class Subscription:
    """One live stream's queue of events."""

    def __init__(self) -> None:
        self.events: queue.Queue[Any] = queue.Queue(maxsize=BACKLOG)
        self.overrun = False

    def next(self, timeout: float) -> Any:
        """The next event, CLOSED, or None after `timeout` seconds without one."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None


class Broadcaster:
    def __init__(self) -> None:
        self._subscribers: set[Subscription] = set()
        self._lock = threading.Lock()
        self._closed = False

    def subscribe(self) -> Subscription:
        subscription = Subscription()
        with self._lock:
            if self._closed:
                subscription.events.put(CLOSED)
            self._subscribers.add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            self._subscribers.discard(subscription)

    def publish(self, event: Any) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for subscription in subscribers:
            try:
                subscription.events.put_nowait(event)
            except queue.Full:
                subscription.overrun = True
                self.unsubscribe(subscription)
                _force(subscription, CLOSED)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            subscribers, self._subscribers = list(self._subscribers), set()
        for subscription in subscribers:
            _force(subscription, CLOSED)


def _force(subscription: Subscription, event: Any) -> None:
    """Put `event` even into a full queue (dropping the oldest)."""
    while True:
        try:
            subscription.events.put_nowait(event)
            return
        except queue.Full:
            try:
                subscription.events.get_nowait()
            except queue.Empty:
                pass
