"""The live ladder page: the report, served over HTTP and updated as matches finish.

`referee ladder --web PORT` (and `referee report --web PORT`, for a store
that another process fills) starts this server beside the run, and
`referee serve --web PORT` beside the ladder service. It serves:

- `/`: the report page (ladder/reporting/report_page.py) in live mode;
- `/events`: server-sent events, one message with the report's data each
  time a finished match is rated (the page redraws from it);
- `/match/<id>`: the viewer of a finished match, made from its record;
- beside the service, on 127.0.0.1: `/play`, where a token holder opens a
  table against the ladder's bots, and the seat pages it is played on
  (ladder/service/tables.py).

It only reads the store, through a connection of its own per request, so
it never gets in the ladder's way. Beside a batch run it learns of new
matches by looking at the store; beside the service, from the service's
own stream of finished matches (the one `Watch` sends). As the report and
the service's GetRecord, it shows no viewer of a match whose duplicate deal
is still to be played in another seat rotation (its record shows that
deal; docs/security.md, "The report and the live page"). It shows one
rule set of the game (the one the run or the service plays, or `referee
report --web --variant` asks for), names it in its title and lists the
others that have matches. It listens on 127.0.0.1 unless told otherwise.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from ladder.reporting.report import report_data
from ladder.reporting.report_page import NO_RECORD, SAFE_ID, WITHHELD, match_viewer, report_html
from ladder.service.events import CLOSED, Broadcaster
from ladder.service.tables import PLAY, PersonTables
from ladder.store.database import Store, StoreError
from referee.web.seat_server import read_body, send_reply

POLL_SECONDS = 0.5
"""How often an open event stream looks for new matches (or whether the server stops)."""
KEEPALIVE_SECONDS = 15.0
"""An event stream's comment line when nothing happens, so proxies keep it open."""


Changed = Callable[[float], "bool | None"]
"""Waits up to that many seconds for a new rated match: True when one came,
False when none did, None when no more will (the service stopped)."""


class LiveServer(ThreadingHTTPServer):
    """The live page's HTTP server for one store, game and rule set. With `events`
    (the service's broadcaster of finished matches) it follows those;
    without, it looks at the store for new matches."""

    daemon_threads = True

    def __init__(self, db_path: Path, game: str, port: int, host: str = "127.0.0.1", *,
                 events: Broadcaster | None = None, rule_set: str = "", tables: PersonTables | None = None) -> None:
        self.db_path = db_path
        self.game = game
        self.rule_set = rule_set
        self.events = events
        self.tables = tables
        """A person's tables (ladder/service/tables.py), beside the service only: /play and the seat pages."""
        self.stopping = threading.Event()
        super().__init__((host, port), LiveHandler)

    @property
    def origins(self) -> tuple[str, ...]:
        """This server's own origins: the only Host it answers a seat page under."""
        host, port = self.server_address[:2]
        name = host if isinstance(host, str) else host.decode()
        return (f"http://{name}:{port}", *((f"http://localhost:{port}",) if name == "127.0.0.1" else ()))

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host if isinstance(host, str) else host.decode()}:{port}/"

    def start(self) -> threading.Thread:
        """Serve in a background thread (a daemon: it ends with the process)."""
        thread = threading.Thread(target=self.serve_forever, name="live-page", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        self.stopping.set()
        if self.tables is not None:
            self.tables.close()
        self.shutdown()
        self.server_close()

    def data(self) -> dict[str, Any]:
        """The report's data read now, links pointing at this server."""
        with Store(self.db_path, create=False) as store:
            data = report_data(store, self.game, self.rule_set)
        for match in data["recent"]:
            if not match["record_kept"]:
                match["note"] = NO_RECORD
            elif not match["set_finished"]:
                match["note"] = WITHHELD
            elif SAFE_ID.fullmatch(match["match_id"]):
                match["href"] = f"match/{match['match_id']}"
        return {**data, "live": True, **({"tables": PLAY.lstrip("/")} if self.tables is not None else {})}

    def viewer(self, match_id: str) -> tuple[str | None, str]:
        with Store(self.db_path, create=False) as store:
            if store.set_unfinished(match_id):
                return None, WITHHELD
            return match_viewer(store.record_of(match_id))

    @contextmanager
    def changes(self) -> Iterator[Changed]:
        """How an event stream learns of new matches: from the service's
        broadcaster, or by looking at the store's count."""
        if self.events is not None:
            with _broadcast_changes(self.events) as changed:
                yield changed
            return
        shown = self.match_count()

        def polled(timeout: float) -> bool:
            nonlocal shown
            self.stopping.wait(timeout)
            count, shown = shown, self.match_count()
            return count != shown

        yield polled

    def match_count(self) -> int:
        with Store(self.db_path, create=False) as store:
            return store.match_count(self.game, self.rule_set)


@contextmanager
def _broadcast_changes(events: Broadcaster) -> Iterator[Changed]:
    """A subscription to the service's finished matches; a batch of them is one change."""
    subscription = events.subscribe()

    def changed(timeout: float) -> bool | None:
        event = subscription.next(timeout)
        if event is None:
            return False
        while event is not CLOSED and (more := subscription.next(0)) is not None:
            event = more
        return None if event is CLOSED else True

    try:
        yield changed
    finally:
        events.unsubscribe(subscription)


class LiveHandler(BaseHTTPRequestHandler):
    server: LiveServer
    disable_nagle_algorithm = True  # a seat page's replies go out whole (referee/web/seat_server.py)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the ladder's own output is what the terminal is for (and a seat page's path holds its secret)."""

    def _tables(self, method: str, body: bytes) -> bool:
        """A request for a person's tables, answered; False for any other."""
        if self.server.tables is None:
            return False
        reply = self.server.tables.handle(method, self.path, dict(self.headers.items()), body, self.server.origins)
        if reply is None:
            return False
        try:
            send_reply(self, reply)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser went away
        return True

    def do_POST(self) -> None:
        body = read_body(self)
        if body is not None and not self._tables("POST", body):
            self._send(HTTPStatus.NOT_FOUND, "text/plain", "not found\n")

    def do_GET(self) -> None:
        if self._tables("GET", b""):
            return
        path = urlsplit(self.path).path
        try:
            if path == "/":
                self._send(HTTPStatus.OK, "text/html", report_html(self.server.data(), live=True))
            elif path == "/events":
                self._events()
            elif path.startswith("/match/"):
                self._match(unquote(path[len("/match/"):]))
            else:
                self._send(HTTPStatus.NOT_FOUND, "text/plain", "not found: the live page is at /\n")
        except StoreError as exc:
            self._send(HTTPStatus.SERVICE_UNAVAILABLE, "text/plain", f"{exc}\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser went away

    def _send(self, status: HTTPStatus, kind: str, text: str) -> None:
        body = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _match(self, match_id: str) -> None:
        if not SAFE_ID.fullmatch(match_id):
            self._send(HTTPStatus.NOT_FOUND, "text/plain", "no such match\n")
            return
        page, why = self.server.viewer(match_id)
        if page is None:
            self._send(HTTPStatus.NOT_FOUND, "text/plain", f"match {match_id}: {why}\n")
        else:
            self._send(HTTPStatus.OK, "text/html", page)

    def _events(self) -> None:
        """One message now and one per new finished match (a batch of them
        at once), until the browser goes away or the server stops."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        with self.server.changes() as changed:
            self._message(self.server.data())
            quiet_since = time.monotonic()
            while not self.server.stopping.is_set():
                change = changed(POLL_SECONDS)
                if change is None:
                    return
                if change:
                    self._message(self.server.data())
                    quiet_since = time.monotonic()
                elif time.monotonic() - quiet_since > KEEPALIVE_SECONDS:
                    self.wfile.write(b": still here\n\n")
                    self.wfile.flush()
                    quiet_since = time.monotonic()

    def _message(self, data: dict[str, Any]) -> None:
        self.wfile.write(f"data: {json.dumps(data, separators=(',', ':'))}\n\n".encode("utf-8"))
        self.wfile.flush()
