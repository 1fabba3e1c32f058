"""A person's table through the ladder service: play the ladder's bots yourself.

From the live page of `referee serve --web` (ladder/service/live.py), a token
holder opens a table against bots of the ladder's roster (the rule set the
service plays), takes a seat, and plays it on a seat page
(referee/web/seat_server.py) served by the live page's own server. The
bots play in their jails under the ladder's sandbox limits, as in a rated
match; the match is played by the one match loop in this process, beside
the ladder, and is never rated: nothing of it reaches the ladder's store
(no match, no rating, no bot log). Its record is kept for the operator in
the data folder's `tables/` (docs/play.md, "Through the ladder service").

The person has a person's clock (5 minutes a decision, the seat's own
time control); the bots keep the ladder's move time, each told only its
own. At most `MAX_TABLES` tables are open at
once, and one per token; a table's page stays served after its match for
its viewer link (`LINGER` at most), then it is gone.
"""

from __future__ import annotations

import html
import json
import logging
import random
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from urllib.parse import urlsplit

from botsdk.contract import TimeControl

from ladder.intake.roster import folder_command
from ladder.scheduling.scheduler import game_roster
from ladder.store.database import BotRow, Store
from referee.builtins import resolve_bot_command
from referee.files import private_folders
from referee.games import load_game
from referee.match import run_match
from referee.process import BotProcess
from referee.protocol.faults import BotFault
from referee.sandbox import SandboxPolicy
from referee.seats import Seat
from referee.seats.person import PERSON_MOVE_TIME, PersonSeat, person_clock
from referee.untrusted import safe_line
from referee.web.page import html_page, static_text
from referee.web.seat_server import (
    LINGER, PREFIX, BrowserDesk, Reply, SeatPages, lower_case, page_policy, refused_host, refused_post, text_reply,
    until_left,
)

log = logging.getLogger(__name__)

PLAY = "/play"
"""The form that opens a table, on the live page's server."""
MAX_BOTS = 16
"""The most bot names a request may carry (any game's seats, with room)."""
MAX_TABLES = 2
"""Tables open at once: each holds its bots' processes for as long as a person plays."""
TABLES_FOLDER = "tables"
"""Where, in the data folder, the person tables' records are kept (never in the store)."""


class TableError(Exception):
    """A table cannot be opened; the message says why, for the person."""


@dataclass
class _Table:
    holder: str
    desk: BrowserDesk
    bots: list[BotProcess]


class PersonTables:
    """The person tables of one service: who may open one (`holder`: a
    token's holder, None for an unknown token), what they may play (the
    roster of `game` under `variant`), and the pages they play on."""

    def __init__(self, store_path: Path, game: str, variant: dict[str, str], holder: Callable[[str], str | None],
                 policy: SandboxPolicy, *, builtins: bool = True, max_tables: int = MAX_TABLES,
                 move_time: float, person_time: float = PERSON_MOVE_TIME) -> None:
        self.store_path = store_path
        self.game = game
        self.variant = variant
        self.holder = holder
        self.policy = policy
        self.builtins = builtins
        self.max_tables = max_tables
        self.move_time = move_time
        self.person_time = person_time
        self.pages = SeatPages()
        self.records = store_path.parent / TABLES_FOLDER
        self._tables: list[_Table] = []
        self._guard = threading.Lock()

    def roster(self) -> list[BotRow]:
        """The bots a table may seat: the ladder's, for the rule set it plays."""
        with Store(self.store_path, create=False) as store:
            return game_roster(store, self.game, self.variant, builtins=self.builtins)

    def open(self, token: str, bots: Sequence[str], seat: int) -> BrowserDesk:
        """Open a table: `bots` (labels NAME@VERSION, or names: the latest
        version) in the other seats, in order, the person at `seat`; the
        match starts at once on a thread of its own. Raises TableError."""
        holder = self.holder(token)
        if holder is None:
            raise TableError("not a token of this ladder: ask its operator for one (referee token add)")
        rows = self._chosen(bots)
        seats = len(rows) + 1
        try:
            load_game(self.game).check_seats(seats)
        except ValueError as exc:
            raise TableError(f"{exc}: choose other bots") from None
        if not 0 <= seat < seats:
            raise TableError(f"seat {seat} is not a seat of a table of {seats}: choose 0 to {seats - 1}")
        with self._guard:
            if any(table.holder == holder for table in self._tables):
                raise TableError("you have a table open already: finish it (or let it time out) first")
            if len(self._tables) >= self.max_tables:
                raise TableError(f"all {self.max_tables} tables are in play: try again later")
            table = _Table(holder, self.pages.add(self.game), [])
            self._tables.append(table)
        threading.Thread(target=self._play, args=(table, rows, seat), name="person-table", daemon=True).start()
        return table.desk

    def _chosen(self, bots: Sequence[str]) -> list[BotRow]:
        roster = self.roster()
        by_label = {row.label: row for row in roster}
        latest = {row.name: row for row in sorted(roster, key=lambda row: row.bot_id)}
        chosen = []
        for name in bots:
            row = by_label.get(name) or latest.get(name)
            if row is None:
                raise TableError(f"{safe_line(name)!r} is not a bot of this ladder's roster")
            chosen.append(row)
        return chosen

    def _play(self, table: _Table, rows: list[BotRow], seat: int) -> None:
        """Start the bots, play the match, close the bots; keep the page for
        its viewer a while; then the table's place is free."""
        try:
            try:
                table.bots = [self._start(row) for row in rows]
                players: list[BotProcess | Seat] = list(table.bots)
                # the record names the token's holder; the bots are told only that a person plays
                players.insert(seat, PersonSeat(table.desk, f"person:{table.holder}", "person",
                                                clock=person_clock(self.person_time)))
                private_folders(self.records)
                match_id = f"table-{random.SystemRandom().getrandbits(48):012x}"
                run_match(load_game(self.game, self.variant), players, seed=random.SystemRandom().randrange(2**32),
                          time_control=TimeControl(move_time=self.move_time), match_id=match_id,
                          record_path=self.records / f"{match_id}.jsonl",
                          on_event=self.pages.recorder([table.desk]))
            finally:
                for bot in table.bots:
                    bot.close()
            until_left([table.desk], LINGER)
        except Exception as exc:  # the service goes on; the person's page says the seat is the referee's
            log.warning("a person's table failed: %s", safe_line(repr(exc)))
            table.desk.dismissed()
        finally:
            with self._guard:
                self._tables.remove(table)
            self.pages.remove(table.desk)

    def _start(self, row: BotRow) -> BotProcess:
        """`row`'s bot in its jail, as a ladder worker starts it (ladder/runner.py)."""
        if row.kind == "builtin" or row.folder is None:
            command, expose = resolve_bot_command(row.command[0]), []
        else:
            folder = self.store_path.parent / row.folder  # the ladder's own copy of its files
            command, expose = folder_command(row.command, folder), [folder]
        try:
            return BotProcess.start(command, label=row.label, policy=self.policy, expose=expose)
        except BotFault as fault:
            return BotProcess.failed(row.label, fault)

    def close(self) -> None:
        """The service stops: every page's waits end (the tables' matches then end by timeouts)."""
        self.pages.close()

    # -------------------------------------------------------------- requests

    def handle(self, method: str, target: str, headers: Mapping[str, str], body: bytes,
               origins: Collection[str]) -> Reply | None:
        """The reply to a request of the live page's server for /play (the
        form), /play/table (open a table) or /seat/... (a seat page); None
        for any other path. `origins`: the server's own."""
        path = urlsplit(target).path
        if path.startswith(PREFIX):
            return self.pages.handle(method, target, headers, body, origins)
        if path not in (PLAY, PLAY + "/table"):
            return None
        named = lower_case(headers)
        refused = refused_host(named, origins)
        if refused is not None:
            return refused
        if method == "GET" and path == PLAY:
            return self._form()
        if method == "POST" and path == PLAY + "/table":
            return self._open(named, body, origins)
        return text_reply(HTTPStatus.METHOD_NOT_ALLOWED, "GET /play, POST /play/table")

    def _form(self) -> Reply:
        rules = load_game(self.game)
        scripts = [static_text("ladder.service", "static/table.js")]
        title = rules.title + "".join(f" {key}={value}" for key, value in sorted(self.variant.items()))
        body = static_text("ladder.service", "static/table.html").replace("{{title}}", html.escape(title))
        page = html_page(title=f"{title}: play a table yourself", body=body, scripts=scripts,
                         styles=[static_text("ladder.reporting", "static/report.css"), static_text("ladder.service", "static/table.css")],
                         connect_self=True,
                         data={"bots": [row.label for row in self.roster()],
                               "seats": [rules.min_seats, rules.max_seats]})
        return Reply(HTTPStatus.OK, "text/html; charset=utf-8", page.encode(),
                     {"Content-Security-Policy": page_policy(scripts, connect_self=True)})

    def _open(self, headers: Mapping[str, str], body: bytes, origins: Collection[str]) -> Reply:
        refused = refused_post(headers, origins, "a table is opened from this ladder's own page")
        if refused is not None:
            return refused
        try:
            asked = json.loads(body)
            token, bots, seat = asked["token"], asked["bots"], asked["seat"]
        except (ValueError, TypeError, KeyError):
            return text_reply(HTTPStatus.BAD_REQUEST, 'a table is {"token": "...", "bots": ["NAME", ...], "seat": N}')
        if (not isinstance(token, str) or not isinstance(bots, list) or not all(isinstance(b, str) for b in bots)
                or type(seat) is not int or len(bots) > MAX_BOTS):
            return text_reply(HTTPStatus.BAD_REQUEST, "token and bot names are text, the seat a whole number")
        try:
            desk = self.open(token, bots, seat)
        except TableError as exc:
            return text_reply(HTTPStatus.FORBIDDEN if "token" in str(exc) else HTTPStatus.CONFLICT, str(exc))
        return Reply(HTTPStatus.OK, "application/json", json.dumps({"href": self.pages.path(desk)}).encode())
