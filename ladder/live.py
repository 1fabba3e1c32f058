"""The live ladder page: the report, served over HTTP and updated as matches finish.

`referee ladder --web PORT` (and `referee report --web PORT`, for a store
that another process fills) starts this server beside the run. It serves:

- `/`: the report page (ladder/report_page.py) in live mode;
- `/events`: server-sent events, one message with the report's data each
  time the store holds a new finished match (the page redraws from it);
- `/match/<id>`: the viewer of a finished match, made from its record.

It only reads the store, through a connection of its own per request, so
it never gets in the ladder's way. It listens on 127.0.0.1 unless told
otherwise: the viewer pages show every hand of the finished matches, which
is for the ladder's operator, not for anyone who can reach the port.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from ladder.report import report_data
from ladder.report_page import SAFE_ID, match_viewer, report_html
from ladder.store import Store, StoreError

POLL_SECONDS = 0.5
"""How often an open event stream looks for new matches in the store."""
KEEPALIVE_SECONDS = 15.0
"""An event stream's comment line when nothing happens, so proxies keep it open."""


class LiveServer(ThreadingHTTPServer):
    """The live page's HTTP server for one store and game."""

    daemon_threads = True

    def __init__(self, db_path: Path, game: str, port: int, host: str = "127.0.0.1") -> None:
        self.db_path = db_path
        self.game = game
        self.stopping = threading.Event()
        super().__init__((host, port), LiveHandler)

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
        self.shutdown()
        self.server_close()

    def data(self) -> tuple[int, dict[str, Any]]:
        """(matches stored, the report's data) read now, links pointing at this server."""
        with Store(self.db_path, create=False) as store:
            count = store.match_count(self.game)
            data = report_data(store, self.game)
        for match in data["recent"]:
            if match.pop("record_path") is not None and SAFE_ID.fullmatch(match["match_id"]):
                match["href"] = f"match/{match['match_id']}"
            else:
                match["note"] = "no record kept"
        return count, {**data, "live": True}

    def match_count(self) -> int:
        with Store(self.db_path, create=False) as store:
            return store.match_count(self.game)

    def record_path(self, match_id: str) -> str | None:
        with Store(self.db_path, create=False) as store:
            for match in store.matches(self.game):
                if match["match_id"] == match_id:
                    path: str | None = match["record_path"]
                    return path
        return None


class LiveHandler(BaseHTTPRequestHandler):
    server: LiveServer

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the ladder's own output is what the terminal is for."""

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        try:
            if path == "/":
                self._send(HTTPStatus.OK, "text/html", report_html(self.server.data()[1], live=True))
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
        page, why = match_viewer(self.server.record_path(match_id))
        if page is None:
            self._send(HTTPStatus.NOT_FOUND, "text/plain", f"match {match_id}: {why}\n")
        else:
            self._send(HTTPStatus.OK, "text/html", page)

    def _events(self) -> None:
        """One message per new finished match (the first at once), until the
        browser goes away or the server stops."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        shown = -1
        quiet_since = time.monotonic()
        while not self.server.stopping.is_set():
            count = self.server.match_count()
            if count != shown:
                shown, data = self.server.data()
                self.wfile.write(f"data: {json.dumps(data, separators=(',', ':'))}\n\n".encode("utf-8"))
                self.wfile.flush()
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since > KEEPALIVE_SECONDS:
                self.wfile.write(b": still here\n\n")
                self.wfile.flush()
                quiet_since = time.monotonic()
            self.server.stopping.wait(POLL_SECONDS)


@contextmanager
def live_page(db_path: Path, game: str, port: int) -> Iterator[str]:
    """Serve the live page while the block runs; yields its address.
    Raises click.ClickException when the port cannot be had."""
    import click

    try:
        server = LiveServer(db_path, game, port)
    except OSError as exc:
        raise click.ClickException(f"cannot serve the live page on port {port}: {exc.strerror or exc}") from None
    server.start()
    try:
        yield server.url
    finally:
        server.stop()
