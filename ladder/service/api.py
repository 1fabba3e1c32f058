"""The calls of `ladder.v1.Ladder` (proto/ladder/v1/ladder.proto).

Each call opens its own connection to the store (SQLite in WAL mode: the
run loop keeps writing meanwhile) and answers what the matching command
answers locally: Submit validates exactly as `referee submit` does (the
archive is unpacked within the service's submission limits into a private
folder, and `ladder.submission.submit` takes it from there), Standings is
`referee table --json`'s object, BotLogs what `referee logs` prints.

Rule sets: the reading calls answer for one rule set of the game, the one
the request's `variant` names, else the one the service plays (`referee
serve --variant`): a reader sees the ladder being played unless it asks
for another rule set's.

Every refusal is a gRPC error with one line that says what is wrong and how
to fix it; a refused call changes nothing (a refused submission leaves the
store as it was, as `referee submit` does).
"""

from __future__ import annotations

import io
import json
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import grpc

from botsdk.pb.ladder.v1 import ladder_pb2, ladder_pb2_grpc
from ladder.access import Access, AccessError
from ladder.archive import ArchiveError, unpack
from ladder.intake import Limits
from ladder.service.events import CLOSED, Broadcaster
from ladder.store import Store, StoreError, version_log_path
from referee.untrusted import MESSAGE_LIMIT, safe_line

AUTH_HEADER = "authorization"
BEARER = "Bearer "
DEFAULT_LINES = 40
UPLOAD_PREFIX = "upload-"
"""A submission's archive is unpacked in the data folder under this prefix
(removed when the call ends, and at the next start after a kill)."""
MAX_RECENT = 100
"""The most matches one RecentMatches call lists."""
WATCH_WAKE = 1.0
"""Seconds between looks whether a live stream's reader is still there."""


@dataclass(frozen=True)
class ServiceSettings:
    db_path: Path
    game: str
    limits: Limits
    require_tokens: bool
    """False only on a local socket or 127.0.0.1 (and without --require-tokens)."""
    rule_set: str = ""
    """The rule set the service plays ("" = the base rules): what a request without `variant` reads."""


def remove_stale_uploads(data_dir: Path) -> None:
    """Uploads a killed service left behind (none is in use before it starts)."""
    for folder in data_dir.glob(UPLOAD_PREFIX + "*"):
        shutil.rmtree(folder, ignore_errors=True)


def _abort(context: grpc.ServicerContext, code: grpc.StatusCode, message: str) -> NoReturn:
    context.abort(code, safe_line(message, MESSAGE_LIMIT))
    raise AssertionError("unreachable: abort raises")


class LadderApi(ladder_pb2_grpc.LadderServicer):
    """The service's answers; see the module doc."""

    def __init__(self, settings: ServiceSettings, access: Access, events: Broadcaster) -> None:
        self.settings = settings
        self.access = access
        self.events = events

    # -- helpers --------------------------------------------------------------

    def _store(self, context: grpc.ServicerContext) -> Store:
        try:
            return Store(self.settings.db_path, create=False)
        except StoreError as exc:
            _abort(context, grpc.StatusCode.UNAVAILABLE, str(exc))

    def _submitter(self, context: grpc.ServicerContext) -> str | None:
        """The token holder's name; None for a tokenless call where tokens
        are not required. Aborts UNAUTHENTICATED otherwise."""
        sent = [value for key, value in context.invocation_metadata() if key == AUTH_HEADER]
        if not sent:
            if self.settings.require_tokens:
                _abort(context, grpc.StatusCode.UNAUTHENTICATED,
                       "this ladder needs a token: pass --token (or set $REFEREE_TOKEN); the ladder's operator "
                       "issues them with `referee token add NAME`")
            return None
        value = str(sent[0])
        if not value.startswith(BEARER):
            _abort(context, grpc.StatusCode.UNAUTHENTICATED, "the authorization metadata must be 'Bearer <token>'")
        try:
            return self.access.holder(value[len(BEARER):].strip())
        except AccessError as exc:
            _abort(context, grpc.StatusCode.UNAUTHENTICATED, str(exc))

    def _rule_set(self, game: str, variant: Any, context: grpc.ServicerContext) -> str:
        """The rule set a request's `variant` names; the service's own when
        it names none. Aborts INVALID_ARGUMENT for an option the game lacks."""
        from referee.games import load_game
        from referee.games.rule_sets import rule_set

        if not variant:
            return self.settings.rule_set if game == self.settings.game else ""
        try:
            return rule_set(load_game(game), dict(variant))
        except ValueError as exc:
            _abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"variant: {exc}")

    # -- calls ----------------------------------------------------------------

    def Submit(self, request: Any, context: grpc.ServicerContext) -> Any:
        from ladder.cli import refusal
        from ladder.submission import SubmissionError, check_tags, read_manifest, submit

        submitter = self._submitter(context)
        store = self._store(context)
        upload = Path(tempfile.mkdtemp(prefix=UPLOAD_PREFIX, dir=store.root))
        try:
            try:
                names = unpack(request.archive, upload / "bot", self.settings.limits)
            except ArchiveError as exc:
                _abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(exc))
            path = upload / "bot"
            if request.single_file:
                if len(names) != 1 or not (path / names[0]).is_file():
                    _abort(context, grpc.StatusCode.INVALID_ARGUMENT,
                           "a single-file submission's archive must hold that one file")
                path = path / names[0]
            name = request.name or None
            if name is None and path.is_dir():
                try:
                    name = read_manifest(path).name
                except SubmissionError:
                    name = None  # submit() refuses it with the same message `referee submit` gives
            if name is not None:
                try:
                    self.access.claim(name, submitter, registered=bool(store.bot_versions(name)))
                except AccessError as exc:
                    _abort(context, grpc.StatusCode.PERMISSION_DENIED, str(exc))
            try:
                check_tags(list(request.variants), tuple(request.games))
                done = submit(store, path, name=name, version=request.version or None, games=tuple(request.games),
                              startup_timeout=request.startup_timeout or 10.0, move_time=request.move_time or 2.0,
                              limits=self.settings.limits, variants=tuple(request.variants))
            except SubmissionError as exc:
                shown = request.shown_path or "the bot"  # the submitter's own path, not the service's folder
                _abort(context, grpc.StatusCode.INVALID_ARGUMENT,
                       refusal(exc, exc.log).replace(str(upload / "bot"), shown))
            return ladder_pb2.SubmitReply(name=done.name, version=done.version, content_hash=done.content_hash,
                                          new=done.new, games=list(done.games), twins=list(done.twins),
                                          variants=list(done.variants))
        finally:
            shutil.rmtree(upload, ignore_errors=True)
            store.close()

    def Retire(self, request: Any, context: grpc.ServicerContext) -> Any:
        submitter = self._submitter(context)
        with self._store(context) as store:
            versions = store.bot_versions(request.name)
            if not versions:
                _abort(context, grpc.StatusCode.NOT_FOUND, f"no bot named {request.name!r}; `referee bots` lists them")
            try:
                self.access.claim(request.name, submitter, registered=True)
            except AccessError as exc:
                _abort(context, grpc.StatusCode.PERMISSION_DENIED, str(exc))
            retired = store.retire(request.name)
            if retired is None:
                _abort(context, grpc.StatusCode.NOT_FOUND, f"{request.name!r} has no active version to retire")
            return ladder_pb2.RetireReply(name=retired.name, version=retired.version)

    def ListBots(self, request: Any, context: grpc.ServicerContext) -> Any:
        with self._store(context) as store:
            rows = store.bots()
        return ladder_pb2.ListBotsReply(bots=[
            ladder_pb2.Bot(id=b.bot_id, name=b.name, version=b.version, kind=b.kind, active=b.active,
                           games=list(b.games), sha256=b.content_hash, description=b.description,
                           registered=b.created_at, variants=list(b.variants))
            for b in rows
        ])

    def Standings(self, request: Any, context: grpc.ServicerContext) -> Any:
        return self._standings(request, context)

    def _standings(self, request: Any, context: grpc.ServicerContext) -> Any:
        """`referee table --json`'s object, and with `text` its tables."""
        from rich.console import Console

        from ladder.cli import PIPE_WIDTH, print_table
        from ladder.standings import to_json
        from ladder.stopping import DEFAULT_CONFIDENCE, DEFAULT_MARGIN

        game = request.game or self.settings.game
        options = {"include_retired": request.include_retired, "confidence": request.confidence or DEFAULT_CONFIDENCE,
                   "margin": request.margin or DEFAULT_MARGIN, "rule_set": self._rule_set(game, request.variant, context)}
        with self._store(context) as store:
            reply = ladder_pb2.StandingsReply(rule_set=options["rule_set"], json=json.dumps(
                to_json(store, game, h2h=request.h2h, seats=request.seats, **options), indent=2))
            if request.text:
                console = Console(file=io.StringIO(), width=request.width or PIPE_WIDTH, force_terminal=request.color,
                                  color_system="standard" if request.color else None)
                print_table(store, console, game, h2h=request.h2h, seats=request.seats, **options)
                reply.text = console.file.getvalue()  # type: ignore[attr-defined]
        return reply

    def Watch(self, request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
        """The standings of the rule set asked for now, then each finished
        match of it as it is rated and the standings after each batch of
        them, until the reader leaves or the service stops."""
        asked = ladder_pb2.StandingsRequest(variant=request.variant)
        rule_set = self._rule_set(self.settings.game, request.variant, context)
        subscription = self.events.subscribe()
        try:
            yield ladder_pb2.LadderEvent(standings=self._standings(asked, context))
            while context.is_active():
                event = subscription.next(WATCH_WAKE)
                if event is None:
                    continue
                if event is CLOSED:
                    if subscription.overrun:
                        _abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED,
                               "this stream fell too far behind the ladder and was cut off; watch again")
                    return
                if event.rule_set == rule_set:
                    yield ladder_pb2.LadderEvent(match=event)
                    if subscription.events.empty():  # a batch is over: the standings after it
                        yield ladder_pb2.LadderEvent(standings=self._standings(asked, context))
        finally:
            self.events.unsubscribe(subscription)

    def GetRecord(self, request: Any, context: grpc.ServicerContext) -> Any:
        """The record, once no seat rotation of its deal is left to play
        (docs/security.md, "What the live page shows")."""
        with self._store(context) as store:
            path = store.record_of(request.match_id)
            unfinished = path is not None and store.set_unfinished(request.match_id)
        if path is None or not path.is_file():
            _abort(context, grpc.StatusCode.NOT_FOUND,
                   f"no record of a match {request.match_id!r}; the match ids are in `referee table` and the live stream")
        if unfinished:
            _abort(context, grpc.StatusCode.FAILED_PRECONDITION,
                   f"match {request.match_id!r} is withheld until its duplicate deal has been played in every seat "
                   "rotation (it shows that deal); ask again when the set's last match is rated")
        return ladder_pb2.GetRecordReply(record=path.read_bytes())

    def RatingHistory(self, request: Any, context: grpc.ServicerContext) -> Any:
        from ladder.report import history_points

        game = request.game or self.settings.game
        rule_set = self._rule_set(game, request.variant, context)
        with self._store(context) as store:
            points = history_points(store, game, rule_set)
        return ladder_pb2.RatingHistoryReply(rule_set=rule_set, bots=[
            ladder_pb2.BotHistory(bot_id=bot_id, points=[ladder_pb2.RatingPoint(**p) for p in rows])
            for bot_id, rows in points.items()
        ])

    def RecentMatches(self, request: Any, context: grpc.ServicerContext) -> Any:
        from ladder.report import RECENT_MATCHES, recent_matches

        limit = min(request.limit or RECENT_MATCHES, MAX_RECENT)
        game = request.game or self.settings.game
        rule_set = self._rule_set(game, request.variant, context)
        with self._store(context) as store:
            recent = recent_matches(store, game, limit, rule_set)
        return ladder_pb2.RecentMatchesReply(rule_set=rule_set, matches=[
            ladder_pb2.RecentMatch(
                number=m["number"], match_id=m["match_id"], finished_at=m["finished_at"], end_reason=m["end_reason"],
                decisions=m["decisions"], record_kept=m["record_kept"], set_finished=m["set_finished"],
                seats=[ladder_pb2.Seat(bot=s["bot"], version=s["version"], rank=s["place"], forfeit=s["forfeit"])
                       for s in m["seats"]])
            for m in recent
        ])

    def BotLogs(self, request: Any, context: grpc.ServicerContext) -> Any:
        from ladder.standings import forfeits_of
        from referee.sandbox.logpipe import rotated_path

        submitter = self._submitter(context)
        with self._store(context) as store:
            versions = store.bot_versions(request.name)
            chosen = [b for b in versions if (b.version == request.version if request.version else b.active)]
            if not chosen:
                known = ", ".join(b.version for b in versions) or "none"
                _abort(context, grpc.StatusCode.NOT_FOUND,
                       f"no bot {request.name!r} version {request.version or '(active)'}; versions: {known}")
            if self.settings.require_tokens:  # a bot's output is its author's
                try:
                    self.access.claim(request.name, submitter, registered=True)
                except AccessError as exc:
                    _abort(context, grpc.StatusCode.PERMISSION_DENIED, str(exc))
            bot = chosen[-1]
            path = version_log_path(store.logs_dir, bot.label)
            forfeits = forfeits_of(store, request.game or self.settings.game, bot.bot_id)
        reply = ladder_pb2.BotLogsReply(label=bot.label, has_log=path.exists(), log_path=str(path),
                                        forfeits=[ladder_pb2.Forfeit(match_id=m, reason=r) for m, r in forfeits])
        if path.exists():
            lines = request.lines or DEFAULT_LINES
            reply.text = "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
            if rotated_path(path).exists():
                reply.rotated_path = str(rotated_path(path))
        return reply

