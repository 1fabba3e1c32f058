"""Finished matches fanned out to the service's live streams (`Watch`).

The run loop publishes each rated match once; every open stream has a
bounded queue of its own, so a slow reader never holds up the ladder or
another reader: a reader that falls more than `BACKLOG` events behind is
cut off (its stream ends with an error saying so) rather than buffered
without bound. A reader either waits on its queue (`Subscription.next`,
a thread: the live page) or is woken by a callback after each event it is
given (`wake`: a stream on the API's event loop, which holds no thread).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

BACKLOG = 512
"""Events a stream may lag behind before it is cut off."""

CLOSED = object()
"""Put in every queue when the service stops: the streams end."""


class Subscription:
    """One live stream's queue of events."""

    def __init__(self, wake: Callable[[], None] | None = None) -> None:
        self.events: queue.Queue[Any] = queue.Queue(maxsize=BACKLOG)
        self.overrun = False
        self.wake = wake
        """Called (on the publisher's thread) after each event put in the queue."""

    def put(self, event: Any, *, force: bool = False) -> None:
        """Put `event` (with `force`, even into a full queue, dropping the
        oldest); raises queue.Full otherwise."""
        if force:
            _force(self, event)
        else:
            self.events.put_nowait(event)
        if self.wake is not None:
            self.wake()

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
        self.published = 0
        """Events published so far: what a reader has seen when it has drained its queue."""

    def subscribe(self, wake: Callable[[], None] | None = None) -> Subscription:
        subscription = Subscription(wake)
        with self._lock:
            if self._closed:
                subscription.put(CLOSED)
            self._subscribers.add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            self._subscribers.discard(subscription)

    def publish(self, event: Any) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
            self.published += 1
        for subscription in subscribers:
            try:
                subscription.put(event)
            except queue.Full:
                subscription.overrun = True
                self.unsubscribe(subscription)
                subscription.put(CLOSED, force=True)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            subscribers, self._subscribers = list(self._subscribers), set()
        for subscription in subscribers:
            subscription.put(CLOSED, force=True)


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
