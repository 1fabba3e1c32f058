"""The web pages people play their seats on, served over HTTP.

`referee play --bot human` seats a `PersonSeat` (referee.seats.person)
whose desk is a `BrowserDesk`: a queue of messages for its page (made by
referee.web.seat_page from what the seat is told) and the slot its answer
comes through. `SeatPages` answers the requests of every seat's page;
`SeatServer` serves them on 127.0.0.1 at a free port, for one match (the
ladder service's live page serves them too, for a person's tables:
ladder/service/tables.py).

A page and its visitor are untrusted. So:

- each seat has its own secret, in its page's address (/seat/SECRET/):
  without it there is nothing to see, and a page acts only for its seat;
- every request must name this server as its Host (a DNS-rebinding page
  cannot reach it under another name), an answer must come from the page's
  own origin (its Origin header, and JSON, which a form of another site
  cannot send without asking first), polls and answers must not come from
  another site (Sec-Fetch-Site); nothing is shared with other origins (no
  CORS header), and no other site may frame the page;
- the page gets only the seat's messages, every name as text (seat_page);
  the record, which the server keeps to make the viewer at the end, is
  shown only as that seat's view of it (`viewer_html(record, seats=[k])`).

The page long-polls for messages (`poll?after=N`, answered when there is
something new or after `POLL_WAIT`): plain HTTP requests, one thread each,
from the standard library. An answer is `POST answer` with the request id
and the index of the chosen legal action; an answer to any request but the
one open now is refused as stale.
"""

from __future__ import annotations

import hmac
import json
import secrets
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from referee.games import Event
from referee.records import FOOTER, Entry, MatchRecord, parse_record
from referee.seats.base import MatchEnd, MatchStart, Request
from referee.seats.person.menu import Menu
from referee.seats.person.seat import Desk
from referee.web.page import content_policy, static_text
from referee.web.seat_page import Message, SeatView, seat_page_html
from referee.web.viewer import viewer_html

PREFIX = "/seat/"
POLL_WAIT = 20.0
"""Seconds a poll waits for a new message before it is answered empty."""
GONE_AFTER = POLL_WAIT + 10.0
"""A page that has not polled for this long is taken to be closed."""
BODY_LIMIT = 1024
"""The most bytes an answer's body may have (one small JSON object)."""
SECRET_BYTES = 24
LINGER = 300.0
"""Seconds a finished match's pages stay served, at most, for their viewer links."""

HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
"""Sent with every response: nothing cached, sniffed, referred, framed or shared."""


class BrowserDesk(Desk):
    """One seat's page: its messages, in order, and its answer slot."""

    def __init__(self, secret: str, game: str) -> None:
        self.secret = secret
        self.game = game
        self.seat = -1
        """The seat, once the match started."""
        self._changed = threading.Condition()
        self._messages: list[str] = []
        self._view: SeatView | None = None
        self._open: tuple[int, int] | None = None
        """The request open now: its id and how many legal actions it offers."""
        self._deadline = 0.0
        """When the open request's allowance runs out (time.monotonic(); the grace is the referee's)."""
        self._chosen: tuple[int, int] | None = None
        """The answer given: request id, index."""
        self._closed = False
        self.last_poll: float | None = None
        """When the page last asked for messages (time.monotonic())."""
        self.viewer: Callable[[], str] | None = None
        self.viewer_opened = False

    # ------------------------------------------------------- the seat's side

    def opened(self, start: MatchStart) -> None:
        self.seat = start.seat
        self._view = SeatView(start)
        self._post(self._view.opened())

    def heard(self, events: Sequence[Event]) -> None:
        self._post(self._require_view().heard(events))

    def asked(self, request: Request, menu: Menu) -> None:
        text = _json(self._require_view().asked(request, menu))
        with self._changed:  # the request opens with its message: a poll sees both or neither
            self._open = (request.request_id, len(request.legal_actions))
            self._deadline = time.monotonic() + request.allowance
            self._chosen = None
            self._messages.append(text)
            self._changed.notify_all()

    def answer(self, request_id: int, until: float) -> int | None:
        with self._changed:
            while True:
                chosen = self._chosen
                if chosen is not None and chosen[0] == request_id:
                    self._open = None
                    return chosen[1]
                left = until - time.monotonic()
                if left <= 0 or self._closed:
                    self._open = None  # an answer from now on is stale
                    return None
                self._changed.wait(left)

    def expired(self, request_id: int) -> None:
        self._post({"type": "expired", "request": request_id})

    def ended(self, end: MatchEnd) -> None:
        self._post(SeatView.ended(end))

    def dismissed(self) -> None:
        self._post({"type": "dismissed"})

    # ------------------------------------------------------- the page's side

    def submit(self, request_id: int, index: int) -> HTTPStatus:
        """The page's answer: OK, CONFLICT (not the open request: stale) or
        UNPROCESSABLE_ENTITY (no such choice)."""
        with self._changed:
            if self._open is None or self._open[0] != request_id or self._chosen is not None:
                return HTTPStatus.CONFLICT
            if not 0 <= index < self._open[1]:
                return HTTPStatus.UNPROCESSABLE_ENTITY
            self._chosen = (request_id, index)
            self._messages.append(_json({"type": "answered", "request": request_id, "i": index}))
            self._changed.notify_all()
        return HTTPStatus.OK

    def messages_after(self, seen: int, wait: float) -> tuple[int, list[str], dict[str, float] | None]:
        """The messages after the first `seen`, waiting up to `wait` seconds
        for one; how many there are in all; and the request open as of the
        last of them, with the seconds left of its allowance (or None)."""
        with self._changed:
            self.last_poll = time.monotonic()
            deadline = self.last_poll + wait
            while len(self._messages) <= seen and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._changed.wait(left)
            self.last_poll = time.monotonic()
            open_now = None
            if self._open is not None and self._chosen is None:
                open_now = {"request": self._open[0], "left": round(max(0.0, self._deadline - self.last_poll), 3)}
            return len(self._messages), self._messages[seen:], open_now

    def finished(self, viewer: Callable[[], str]) -> None:
        """The match's record is complete: the page may open the seat's view of it."""
        self.viewer = viewer
        self._post({"type": "viewer", "href": "view"})

    def gone(self, now: float) -> bool:
        """The page has not asked for messages for a while (or never did)."""
        return self.last_poll is None or now - self.last_poll > GONE_AFTER

    def close(self) -> None:
        """Wake every waiting poll and answer: the server is stopping."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def _post(self, message: Message) -> None:
        text = _json(message)
        with self._changed:
            self._messages.append(text)
            self._changed.notify_all()

    def _require_view(self) -> SeatView:
        if self._view is None:
            raise RuntimeError("the match has not started")
        return self._view


def _json(message: Message) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Reply:
    status: HTTPStatus
    content_type: str = "text/plain; charset=utf-8"
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)
    sent: Callable[[], None] | None = None
    """Called once the reply is written (the server may stop after it)."""


def text_reply(status: HTTPStatus, text: str) -> Reply:
    return Reply(status, body=(text + "\n").encode())


NOT_FOUND = text_reply(HTTPStatus.NOT_FOUND, "not found")


class SeatPages:
    """Every seat page of a server: routes, checks, replies (no sockets)."""

    def __init__(self) -> None:
        self._desks: list[BrowserDesk] = []
        self._guard = threading.Lock()
        self._pages: dict[str, tuple[str, str]] = {}

    @property
    def desks(self) -> list[BrowserDesk]:
        with self._guard:
            return list(self._desks)

    def add(self, game: str, desk_type: type[BrowserDesk] = BrowserDesk) -> BrowserDesk:
        """A new seat's desk (a `desk_type`), with a fresh secret."""
        desk = desk_type(secrets.token_urlsafe(SECRET_BYTES), game)
        with self._guard:
            self._desks.append(desk)
        return desk

    def remove(self, desk: BrowserDesk) -> None:
        """The seat's page is gone for good (its match over, its viewer seen)."""
        desk.close()
        with self._guard:
            self._desks.remove(desk)

    @staticmethod
    def path(desk: BrowserDesk) -> str:
        return f"{PREFIX}{desk.secret}/"

    @staticmethod
    def recorder(desks: Sequence[BrowserDesk]) -> Callable[[Entry], None]:
        """A listener for one match's record lines (`run_match`'s on_event):
        at its footer, each of `desks` (the match's pages) may open its
        seat's view of the match."""
        lines: list[str] = []

        def listen(entry: Entry) -> None:
            lines.append(json.dumps(entry))
            if entry["type"] == FOOTER:
                match = parse_record(lines, source="the match")
                for desk in desks:
                    desk.finished(_viewer_of(match, desk.seat))
        return listen

    def close(self) -> None:
        for desk in self.desks:
            desk.close()

    # -------------------------------------------------------------- requests

    def handle(self, method: str, target: str, headers: Mapping[str, str], body: bytes,
               origins: Iterable[str]) -> Reply:
        """The reply to one request. `origins`: this server's own origins
        (scheme://host:port), the only ones it answers (Host) and takes
        answers from (Origin)."""
        allowed = set(origins)
        named = lower_case(headers)
        refused = refused_host(named, allowed)
        if refused is not None:
            return refused
        url = urlsplit(target)
        if not url.path.startswith(PREFIX):
            return NOT_FOUND
        secret, _, rest = url.path[len(PREFIX):].partition("/")
        desk = self._find(secret)
        if desk is None:
            return NOT_FOUND
        if rest in ("poll", "answer") and not same_site(named):
            return text_reply(HTTPStatus.FORBIDDEN, "only the seat's own page may ask this")
        if method == "GET" and rest == "":
            return self._page(desk.game)
        if method == "GET" and rest == "poll":
            return self._poll(desk, url.query)
        if method == "POST" and rest == "answer":
            return self._answer(desk, named, body, allowed)
        if method == "GET" and rest == "view":
            return self._viewer(desk)
        return NOT_FOUND

    def _find(self, secret: str) -> BrowserDesk | None:
        found = None
        for desk in self.desks:  # every secret compared, in constant time each
            if hmac.compare_digest(desk.secret.encode(), secret.encode()):
                found = desk
        return found

    def _page(self, game: str) -> Reply:
        if game not in self._pages:
            scripts = [static_text("referee.web", "static/seat.js")]
            self._pages[game] = (seat_page_html(game), page_policy(scripts, connect_self=True))
        page, policy = self._pages[game]
        return Reply(HTTPStatus.OK, "text/html; charset=utf-8", page.encode(), {"Content-Security-Policy": policy})

    @staticmethod
    def _poll(desk: BrowserDesk, query: str) -> Reply:
        try:
            seen = int(parse_qs(query).get("after", ["0"])[0])
        except ValueError:
            return text_reply(HTTPStatus.BAD_REQUEST, "after must be a number")
        if seen < 0:
            return text_reply(HTTPStatus.BAD_REQUEST, "after must be 0 or more")
        count, messages, open_now = desk.messages_after(seen, POLL_WAIT)
        body = '{"next":%d,"open":%s,"messages":[%s]}' % (count, json.dumps(open_now), ",".join(messages))
        return Reply(HTTPStatus.OK, "application/json", body.encode())

    @staticmethod
    def _answer(desk: BrowserDesk, headers: Mapping[str, str], body: bytes, allowed: set[str]) -> Reply:
        """`headers` by lower-case name."""
        refused = refused_post(headers, allowed, "an answer must come from the seat's own page")
        if refused is not None:
            return refused
        try:
            answer = json.loads(body)
            request, choice = answer["request"], answer["choice"]
        except (ValueError, TypeError, KeyError):
            return text_reply(HTTPStatus.BAD_REQUEST, 'an answer is {"request": ID, "choice": INDEX}')
        if type(request) is not int or type(choice) is not int:
            return text_reply(HTTPStatus.BAD_REQUEST, "request and choice are whole numbers")
        status = desk.submit(request, choice)
        return text_reply(status, {HTTPStatus.OK: "taken", HTTPStatus.CONFLICT: "not the open request",
                              HTTPStatus.UNPROCESSABLE_ENTITY: "no such choice"}[status])

    @staticmethod
    def _viewer(desk: BrowserDesk) -> Reply:
        if desk.viewer is None:
            return text_reply(HTTPStatus.NOT_FOUND, "the match is not over yet")
        page = desk.viewer()
        policy = page_policy([static_text("referee.web", "static/viewer.js")])

        def sent() -> None:
            desk.viewer_opened = True
        return Reply(HTTPStatus.OK, "text/html; charset=utf-8", page.encode(), {"Content-Security-Policy": policy},
                     sent)


def lower_case(headers: Mapping[str, str]) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


def refused_host(headers: Mapping[str, str], origins: Collection[str]) -> Reply | None:
    """A request that names another host than this server (`headers` by
    lower-case name): a page of another site that resolves its own name to
    this machine (DNS rebinding) gives itself away so."""
    if f"http://{headers.get('host', '')}" not in origins:
        return text_reply(HTTPStatus.MISDIRECTED_REQUEST, "this server answers only to its own address")
    return None


def same_site(headers: Mapping[str, str]) -> bool:
    """Not sent by another site's page (Sec-Fetch-Site; a client without it is no browser)."""
    return headers.get("sec-fetch-site", "same-origin") == "same-origin"


def refused_post(headers: Mapping[str, str], origins: Collection[str], who: str) -> Reply | None:
    """A POST that does not come from this server's own page: its Origin,
    Sec-Fetch-Site, or a body that is not JSON (which another site's form
    can send without asking first)."""
    if headers.get("origin") not in origins or not same_site(headers):
        return text_reply(HTTPStatus.FORBIDDEN, who)
    if not headers.get("content-type", "").startswith("application/json"):
        return text_reply(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send JSON")
    return None


def until_left(desks: Sequence[BrowserDesk], timeout: float) -> None:
    """Wait until every one of `desks` (pages of a finished match) has opened
    its viewer or is gone, at most `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = time.monotonic()
        if all(desk.viewer_opened or desk.gone(now) for desk in desks):
            return
        time.sleep(0.2)


def page_policy(scripts: Sequence[str], connect_self: bool = False) -> str:
    """The page's own policy, sent as a header too, where it can also forbid framing."""
    return content_policy(scripts, connect_self=connect_self) + "; frame-ancestors 'none'"


def _viewer_of(record: MatchRecord, seat: int) -> Callable[[], str]:
    """The seat's view of the finished match in the viewer, made when first asked for."""
    made: list[str] = []

    def page() -> str:
        if not made:
            made.append(viewer_html(record, seats=[seat]))
        return made[0]
    return page


class SeatServer(ThreadingHTTPServer):
    """The seat pages of one match, served on `host` at a free port (or `port`)."""

    daemon_threads = True
    block_on_close = False

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.pages = SeatPages()
        super().__init__((host, port), _Handler)
        self._thread: threading.Thread | None = None

    @property
    def origins(self) -> tuple[str, ...]:
        host, port = self.server_address[:2]
        name = host if isinstance(host, str) else host.decode()
        names = (name, "localhost") if name == "127.0.0.1" else (name,)
        return tuple(f"http://{n}:{port}" for n in names)

    def url(self, desk: BrowserDesk) -> str:
        return self.origins[0] + self.pages.path(desk)

    def start(self) -> None:
        self._thread = threading.Thread(target=self.serve_forever, name="seat-pages", daemon=True)
        self._thread.start()

    def wait_for_pages(self, timeout: float) -> bool:
        """Wait until every seat's page has asked for its messages, at most
        `timeout` seconds: whether they all did."""
        deadline = time.monotonic() + timeout
        while any(desk.last_poll is None for desk in self.pages.desks):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.1)
        return True

    def linger(self, timeout: float) -> None:
        """After the match: serve until every page has opened its viewer or
        is gone, at most `timeout` seconds."""
        until_left(self.pages.desks, timeout)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A page closed or reloaded while its poll was answered: nothing to say."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def close(self) -> None:
        self.pages.close()
        if self._thread is not None:
            self.shutdown()
            self._thread.join(timeout=5)
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    server: SeatServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    """A reply's head and body go out at once: with Nagle's algorithm, the
    body waited for the browser's delayed acknowledgement of the head, some
    40 ms a reply (bench/human_bench.py: click to next decision 120 ms -> ...)."""

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a request's line holds its page's secret."""

    def do_GET(self) -> None:
        self._reply(self.server.pages.handle("GET", self.path, dict(self.headers.items()), b"", self.server.origins))

    def do_POST(self) -> None:
        body = read_body(self)
        if body is not None:
            self._reply(self.server.pages.handle("POST", self.path, dict(self.headers.items()), body,
                                                 self.server.origins))

    def _reply(self, reply: Reply) -> None:
        send_reply(self, reply)


def read_body(handler: BaseHTTPRequestHandler) -> bytes | None:
    """A POST's body, at most BODY_LIMIT bytes as its Content-Length says;
    None after refusing a larger or malformed length (413, the connection
    closed: the rest of such a body is never read)."""
    try:
        length = int(handler.headers.get("Content-Length", "0"))
    except ValueError:
        length = -1
    if not 0 <= length <= BODY_LIMIT:
        handler.close_connection = True
        too_large = text_reply(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a request's body is at most {BODY_LIMIT} bytes")
        send_reply(handler, too_large)
        return None
    return handler.rfile.read(length)


def send_reply(handler: BaseHTTPRequestHandler, reply: Reply) -> None:
    """Write `reply` with the headers every reply of a seat page has (`HEADERS`)."""
    handler.send_response(reply.status)
    handler.send_header("Content-Type", reply.content_type)
    handler.send_header("Content-Length", str(len(reply.body)))
    for name, value in {**HEADERS, **reply.headers}.items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(reply.body)
    handler.wfile.flush()
    if reply.sent is not None:
        reply.sent()
