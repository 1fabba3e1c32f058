"""What the calls of `ladder.v1.Ladder` answer (proto/ladder/v1/ladder.proto).

`LadderCalls` holds each call's answer as a plain function of its request
and its `Caller`; ladder/service/servicer.py puts them on gRPC (threads,
rate limits, streams). Each call opens its own connection to the store
(SQLite in WAL mode: the run loop keeps writing meanwhile) and answers
what the matching command answers locally: Submit validates exactly as
`referee submit` does, in two steps (`intake`: the archive unpacked
within the service's submission limits into a private folder, the
request and the name checked, a resubmission of registered files
answered; `validate`: `ladder.intake.submission.submit` from there), Standings
is `referee table --json`'s object, BotLogs what `referee logs` prints.

Rule sets: the reading calls answer for one rule set of the game, the one
the request's `variant` names, else the one the service plays (`referee
serve --variant`): a reader sees the ladder being played unless it asks
for another rule set's.

Every refusal is a `Refusal`: a gRPC status and one line that says what is
wrong and how to fix it, which names no path of the service's machine
(`Scrub`). A refused call changes nothing: the request is checked (names,
versions, games, limits) before anything is written, and a name becomes a
token's only in the transaction that registers a bot under it (ladder/service/access.py).
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import grpc
from rich.console import Console

from botsdk.pb.ladder.v1 import ladder_pb2
from ladder.intake.archive import ArchiveError, unpack
from ladder.intake.copying import Limits, content_hash
from ladder.intake.submission import (
    NAME_PATTERN,
    SubmissionError,
    check_name,
    check_tags,
    read_manifest,
    refusal,
    submit,
)
from ladder.rating.standings import forfeits_of, to_json
from ladder.rating.stopping import DEFAULT_CONFIDENCE, DEFAULT_MARGIN
from ladder.reporting.console import PIPE_WIDTH
from ladder.reporting.report import RECENT_MATCHES, history_points, recent_matches
from ladder.reporting.tables import print_table
from ladder.service.access import Access, AccessError, NameQuotaError
from ladder.service.audit import AuditLog
from ladder.service.bearer import BEARER
from ladder.store.database import BotRow, Store, StoreError, version_log_path
from referee.games import game_names, load_game
from referee.sandbox.logpipe import rotated_path
from referee.untrusted import MESSAGE_LIMIT, safe_line

DEFAULT_LINES = 40
MAX_LINES = 10_000
"""The most lines of a bot's log one BotLogs call returns."""
UPLOAD_PREFIX = "upload-"
"""A submission's archive is received and unpacked in a folder of the data
folder under this prefix (removed when the call ends, and at the next start
after a kill)."""
ARCHIVE = "archive"
"""The received archive's file in its upload folder."""
ARCHIVE_SLACK = 1 << 20
"""What an archive may hold beyond the bot's files (`Limits.max_bytes`): tar headers, padding."""
MAX_RECENT = 100
"""The most matches one RecentMatches call lists."""
MAX_STARTUP_TIMEOUT = 60.0
"""Seconds a submission may ask its bot's start to take (a validation holds one of few threads)."""
MAX_MOVE_TIME = 10.0
"""Seconds a submission may ask per decision of its validation matches."""
MAX_LISTED = 64
"""Games or variants one submission may name."""
SHOWN_PATH_LIMIT = 1000
"""Characters of the submitter's own path kept for its refusals."""
TOKEN_MEMORY = 10.0
"""Seconds a checked token is taken as valid without asking the access
store again: `referee token revoke` takes effect within this."""
KEPT_TOKENS = 10_000
"""Checked tokens remembered at once."""


@dataclass(frozen=True)
class ServiceSettings:
    db_path: Path
    game: str
    limits: Limits
    require_tokens: bool
    """False only on a local socket or 127.0.0.1 (and without --require-tokens)."""
    rule_set: str = ""
    """The rule set the service plays ("" = the base rules): what a request without `variant` reads."""


@dataclass(frozen=True)
class Caller:
    """Who makes a call: the token's holder (None: no token was sent) and
    the client the service's quotas count it against (ladder/service/quotas.py)."""

    submitter: str | None
    client: str


@dataclass
class Intake:
    """A submission between its two steps (`LadderCalls.intake`, `validate`):
    its request (without the archive), its caller, its unpacked upload."""

    request: ladder_pb2.SubmitRequest
    caller: Caller
    upload: Path
    path: Path
    """The bot in the upload: its folder, or its one file."""
    name: str | None
    scrub: Scrub


def discard(intake: Intake) -> None:
    """Remove a submission's upload (after its validation, or instead of it)."""
    shutil.rmtree(intake.upload, ignore_errors=True)


def upload_limit(limits: Limits) -> int:
    """The most bytes a submission's archive may have as it is received."""
    return limits.max_bytes + ARCHIVE_SLACK


def archive_file(upload: Path) -> BinaryIO:
    """The upload's archive file, new, for writing (0600)."""
    return os.fdopen(os.open(upload / ARCHIVE, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600), "wb")


class Refusal(Exception):
    """A call refused: its gRPC status and its one-line message."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Scrub:
    """Takes the service's own paths out of a message for a remote caller:
    each known path becomes what the caller knows it as, and anything else
    under the service's folders becomes "…"."""

    known: dict[str, str] = field(default_factory=dict)
    roots: tuple[str, ...] = ()

    def __call__(self, text: str) -> str:
        shown = sorted(self.known.items(), key=lambda item: -len(item[0]))
        for number, (path, _) in enumerate(shown):  # marked first: what replaces them may lie under a root
            text = text.replace(path, f"\0{number}\0")
        for root in self.roots:
            text = re.sub(re.escape(root) + r"[^\s'\",;)\0]*", "…", text)
        for number, (_, name) in enumerate(shown):
            text = text.replace(f"\0{number}\0", name)
        return text


def service_roots(data_dir: Path) -> tuple[str, ...]:
    """The service's folders whose paths no remote caller reads: its data
    folder (as given and resolved) and the temporary folder."""
    found = {str(data_dir), str(data_dir.resolve()), tempfile.gettempdir(), str(Path(tempfile.gettempdir()).resolve())}
    return tuple(sorted(found, key=len, reverse=True))


def remove_stale_uploads(data_dir: Path) -> None:
    """Uploads a killed service left behind (none is in use before it starts)."""
    for folder in data_dir.glob(UPLOAD_PREFIX + "*"):
        shutil.rmtree(folder, ignore_errors=True)


class LadderCalls:
    """The service's answers; see the module doc. Thread-safe: every call
    opens its own store connection; `Access` and `AuditLog` lock."""

    def __init__(self, settings: ServiceSettings, access: Access, audit: AuditLog) -> None:
        self.settings = settings
        self.access = access
        self.audit = audit
        self.roots = service_roots(settings.db_path.parent)
        self._holders: dict[str, tuple[str, float]] = {}
        """Tokens checked lately (the authorization metadata) -> (holder, until when)."""
        self._lock = threading.Lock()

    # -- helpers --------------------------------------------------------------

    @contextmanager
    def _store(self) -> Iterator[Store]:
        try:
            store = Store(self.settings.db_path, create=False)
        except StoreError:
            raise Refusal(grpc.StatusCode.UNAVAILABLE, "the ladder's store cannot be opened now; try again in a "
                                                       "minute, and tell the operator if it lasts") from None
        try:
            yield store
        finally:
            store.close()

    def authenticate(self, bearer: str | None, client: str) -> Caller:
        """The caller of a call that sent `bearer` (the authorization
        metadata, None if it sent none). Refuses UNAUTHENTICATED a bad token."""
        known = self.known_caller(bearer, client)
        if known is not None:
            return known
        assert bearer is not None
        if not bearer.startswith(BEARER):
            raise Refusal(grpc.StatusCode.UNAUTHENTICATED, "the authorization metadata must be 'Bearer <token>'")
        try:
            holder = self.access.holder(bearer[len(BEARER):].strip())
        except AccessError as exc:
            raise Refusal(grpc.StatusCode.UNAUTHENTICATED, str(exc)) from None
        with self._lock:
            if len(self._holders) >= KEPT_TOKENS:
                self._holders.clear()
            self._holders[bearer] = (holder, time.monotonic() + TOKEN_MEMORY)
        return Caller(holder, client)

    def known_caller(self, bearer: str | None, client: str) -> Caller | None:
        """The caller without asking the access store: no token, or one
        checked within TOKEN_MEMORY seconds; else None."""
        if bearer is None:
            return Caller(None, client)
        with self._lock:
            holder, until = self._holders.get(bearer, ("", 0.0))
        return Caller(holder, client) if time.monotonic() < until else None

    def _need_token(self, caller: Caller) -> None:
        if caller.submitter is None and self.settings.require_tokens:
            raise Refusal(grpc.StatusCode.UNAUTHENTICATED,
                          "this ladder needs a token: pass --token (or set $REFEREE_TOKEN); the ladder's operator "
                          "issues them with `referee token add NAME`")

    def _may_use(self, name: str, caller: Caller, *, registered: bool) -> None:
        """The caller may register, retire or read the bot `name`. Writes nothing."""
        try:
            self.access.check(name, caller.submitter, registered=registered)
        except NameQuotaError as exc:
            raise Refusal(grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc)) from None
        except AccessError as exc:
            raise Refusal(grpc.StatusCode.PERMISSION_DENIED, str(exc)) from None

    def _rule_set(self, game: str, variant: Mapping[str, str]) -> str:
        """The rule set a request's `variant` names; the service's own when
        it names none. Refuses INVALID_ARGUMENT an option the game lacks."""
        if not variant:
            return self.settings.rule_set if game == self.settings.game else ""
        try:
            return str(load_game(game).make_rule_set(dict(variant)))
        except ValueError as exc:
            raise Refusal(grpc.StatusCode.INVALID_ARGUMENT, f"variant: {exc}") from None

    def _game(self, game: str) -> str:
        """The request's game (empty: the service's), one the referee runs."""
        if not game:
            return self.settings.game
        if game not in game_names():
            raise Refusal(grpc.StatusCode.INVALID_ARGUMENT,
                          f"no game {safe_line(game, 40)!r}; the referee runs {', '.join(game_names())}")
        return game

    # -- writing calls --------------------------------------------------------

    def open_upload(self) -> Path:
        """A new private folder for one submission's archive and files."""
        return Path(tempfile.mkdtemp(prefix=UPLOAD_PREFIX, dir=self.settings.db_path.parent))

    def receive(self, archive: bytes) -> Path:
        """A new upload holding `archive` (a Submit's, sent whole)."""
        upload = self.open_upload()
        with archive_file(upload) as out:
            out.write(archive)
        return upload

    def screen(self, request: ladder_pb2.SubmitRequest, caller: Caller) -> None:
        """A submission's request before its archive is received: the token,
        the name, version, games, variants and times. Audited if refused."""
        try:
            self._need_token(caller)
            check_submission(request)
        except Refusal as refused:
            self._refused("submit", request.name, request.version, caller, refused)
            raise

    def intake(self, request: ladder_pb2.SubmitRequest, caller: Caller,
               upload: Path) -> Intake | ladder_pb2.SubmitReply:
        """A submission's first step, quick (its request `screen`ed): the
        archive received into `upload` unpacked within the limits, the name
        checked; an Intake for `validate`, or, when its files are a
        registered version of that name already, that version's
        SubmitReply. Audited when it ends here (the upload then removed);
        refusals are Refusals."""
        try:
            taken = self._intake(request, caller, upload)
        except BaseException as failed:
            shutil.rmtree(upload, ignore_errors=True)
            if isinstance(failed, Refusal):
                self._refused("submit", request.name, request.version, caller, failed)
            raise
        if not isinstance(taken, Intake):
            shutil.rmtree(upload, ignore_errors=True)
            self.audit.record("submit", submitter=caller.submitter, client=caller.client, name=taken.name,
                              version=taken.version, outcome="identical")
        return taken

    def _intake(self, request: ladder_pb2.SubmitRequest, caller: Caller,
                upload: Path) -> Intake | ladder_pb2.SubmitReply:
        scrub = Scrub({str(upload / "bot"): safe_line(request.shown_path, SHOWN_PATH_LIMIT) or "the bot"}, self.roots)
        path = self._unpacked(request, upload, scrub)
        name = request.name or manifest_name(path)
        if name is None:  # validate() refuses it as `referee submit` does
            return Intake(request, caller, upload, path, name, scrub)
        _checked(check_name_of, name, scrub)
        with self._store() as store:
            versions = store.bot_versions(name)
        self._may_use(name, caller, registered=bool(versions))
        digest = content_hash(upload / "bot")  # what the staged copy will hash to (a folder or one file)
        same = [bot for bot in versions if bot.content_hash == digest]
        if same:
            return ladder_pb2.SubmitReply(name=name, version=same[0].version, content_hash=digest, new=False,
                                          games=list(same[0].games), variants=list(same[0].variants))
        return Intake(request, caller, upload, path, name, scrub)

    def _unpacked(self, request: ladder_pb2.SubmitRequest, upload: Path, scrub: Scrub) -> Path:
        """The bot unpacked from the upload's archive (removed then): its
        folder, or its one file for a single-file submission."""
        if not (upload / ARCHIVE).stat().st_size:
            raise Refusal(grpc.StatusCode.INVALID_ARGUMENT, "the archive is empty; send a gzipped tar of the bot's "
                                                            "folder (`referee submit --server` makes one)")
        try:
            names = unpack(upload / ARCHIVE, upload / "bot", self.settings.limits)
        except ArchiveError as exc:
            raise Refusal(grpc.StatusCode.INVALID_ARGUMENT, scrub(str(exc))) from None
        (upload / ARCHIVE).unlink()
        if not request.single_file:
            return upload / "bot"
        if len(names) != 1 or not (upload / "bot" / names[0]).is_file():
            raise Refusal(grpc.StatusCode.INVALID_ARGUMENT, "a single-file submission's archive must hold that one file")
        return upload / "bot" / names[0]

    def validate(self, intake: Intake) -> ladder_pb2.SubmitReply:
        """A submission's second step, slow: its bot validated (started and
        played) and registered, as `referee submit` does; the name claimed
        in the registering transaction. Audited; its upload removed."""
        request, caller = intake.request, intake.caller
        claimed: list[str] = []

        def claim(bot_name: str, registered: bool) -> None:
            if self.access.claim(bot_name, caller.submitter, registered=registered):
                claimed.append(bot_name)

        try:
            with self._store() as store:
                try:
                    done = submit(store, intake.path, name=intake.name, version=request.version or None,
                                  games=tuple(request.games), startup_timeout=request.startup_timeout or 10.0,
                                  move_time=request.move_time or 2.0, limits=self.settings.limits,
                                  variants=tuple(request.variants), claim=claim, staging_root=intake.upload)
                except SubmissionError as exc:
                    raise Refusal(grpc.StatusCode.INVALID_ARGUMENT, self._refusal(exc, intake.scrub)) from None
                except NameQuotaError as exc:
                    raise Refusal(grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc)) from None
                except AccessError as exc:
                    raise Refusal(grpc.StatusCode.PERMISSION_DENIED, str(exc)) from None
                except BaseException:
                    if claimed and caller.submitter is not None:  # the store did not commit after the claim
                        self.access.release(claimed[0], caller.submitter)
                    raise
        except Refusal as refused:
            self._refused("submit", intake.name or request.name, request.version, caller, refused)
            raise
        finally:
            discard(intake)
        self.audit.record("submit", submitter=caller.submitter, client=caller.client, name=done.name,
                          version=done.version, outcome="registered" if done.new else "identical")
        return ladder_pb2.SubmitReply(name=done.name, version=done.version, content_hash=done.content_hash,
                                      new=done.new, games=list(done.games), twins=list(done.twins),
                                      variants=list(done.variants))

    def turned_away(self, intake: Intake, why: str) -> None:
        """A submission not validated (the service is busy): its upload removed, its refusal audited."""
        discard(intake)
        self._refused("submit", intake.name or intake.request.name, intake.request.version, intake.caller,
                      Refusal(grpc.StatusCode.RESOURCE_EXHAUSTED, why))

    def _refused(self, action: str, name: str, version: str, caller: Caller, refused: Refusal) -> None:
        self.audit.record(action, submitter=caller.submitter, client=caller.client, name=name, version=version,
                          outcome="refused", detail=refused.message)

    @staticmethod
    def _refusal(exc: Exception, scrub: Scrub) -> str:
        """A refused submission's message for its remote author: the bot's
        last lines of output quoted, its log's folder (the service's) gone."""
        log = getattr(exc, "log", None)
        message = refusal(exc, log)
        if isinstance(log, Path):
            scrub.known[str(log)] = "the bot's log (its last lines are below)"
            shutil.rmtree(log.parent, ignore_errors=True)  # the validation's own temporary folder
        return scrub(message)

    def retire(self, request: ladder_pb2.RetireRequest, caller: Caller) -> ladder_pb2.RetireReply:
        try:
            reply = self._retire(request, caller)
        except Refusal as refused:
            self._refused("retire", request.name, "", caller, refused)
            raise
        self.audit.record("retire", submitter=caller.submitter, client=caller.client, name=reply.name,
                          version=reply.version, outcome="retired")
        return reply

    def _retire(self, request: ladder_pb2.RetireRequest, caller: Caller) -> ladder_pb2.RetireReply:
        self._need_token(caller)
        with self._store() as store:
            if not store.bot_versions(request.name):
                raise Refusal(grpc.StatusCode.NOT_FOUND,
                              f"no bot named {safe_line(request.name, 60)!r}; `referee bots` lists them")
            self._may_use(request.name, caller, registered=True)
            retired = store.retire(request.name)
        if retired is None:
            raise Refusal(grpc.StatusCode.NOT_FOUND, f"{request.name!r} has no active version to retire")
        return ladder_pb2.RetireReply(name=retired.name, version=retired.version)

    # -- reading calls --------------------------------------------------------

    def list_bots(self, request: ladder_pb2.ListBotsRequest, caller: Caller) -> ladder_pb2.ListBotsReply:
        with self._store() as store:
            rows = store.bots()
        return ladder_pb2.ListBotsReply(bots=[
            ladder_pb2.Bot(id=b.bot_id, name=b.name, version=b.version, kind=b.kind, active=b.active,
                           games=list(b.games), sha256=b.content_hash, description=b.description,
                           registered=b.created_at, variants=list(b.variants))
            for b in rows
        ])

    def standings(self, request: ladder_pb2.StandingsRequest,
                  caller: Caller | None = None) -> ladder_pb2.StandingsReply:
        """`referee table --json`'s object, and with `text` its tables."""

        game = self._game(request.game)
        options: dict[str, Any] = {
            "include_retired": request.include_retired, "confidence": request.confidence or DEFAULT_CONFIDENCE,
            "margin": request.margin or DEFAULT_MARGIN, "rule_set": self._rule_set(game, request.variant)}
        with self._store() as store:
            reply = ladder_pb2.StandingsReply(rule_set=options["rule_set"], json=json.dumps(
                to_json(store, game, h2h=request.h2h, seats=request.seats, **options), indent=2))
            if request.text:
                console = Console(file=io.StringIO(), width=min(max(request.width, 40), 500) if request.width
                                  else PIPE_WIDTH, force_terminal=request.color,
                                  color_system="standard" if request.color else None)
                print_table(store, console, game, h2h=request.h2h, seats=request.seats, **options)
                reply.text = console.file.getvalue()  # type: ignore[attr-defined]
        return reply

    def watched_rule_set(self, request: ladder_pb2.WatchRequest) -> str:
        """The rule set a Watch request follows."""
        return self._rule_set(self.settings.game, request.variant)

    def get_record(self, request: ladder_pb2.GetRecordRequest, caller: Caller) -> ladder_pb2.GetRecordReply:
        """The record, once no seat rotation of its deal is left to play
        (docs/security.md, "What the live page shows")."""
        with self._store() as store:
            path = store.record_of(request.match_id)
            unfinished = path is not None and store.set_unfinished(request.match_id)
        shown = safe_line(request.match_id, 80)
        if path is None or not path.is_file():
            raise Refusal(grpc.StatusCode.NOT_FOUND, f"no record of a match {shown!r}; the match ids are in "
                                                     "`referee table` and the live stream")
        if unfinished:
            raise Refusal(grpc.StatusCode.FAILED_PRECONDITION,
                          f"match {shown!r} is withheld until its duplicate deal has been played in every seat "
                          "rotation (it shows that deal); ask again when the set's last match is rated")
        return ladder_pb2.GetRecordReply(record=path.read_bytes())

    def rating_history(self, request: ladder_pb2.RatingHistoryRequest, caller: Caller) -> ladder_pb2.RatingHistoryReply:
        game = self._game(request.game)
        rule_set = self._rule_set(game, request.variant)
        with self._store() as store:
            points = history_points(store, game, rule_set)
        return ladder_pb2.RatingHistoryReply(rule_set=rule_set, bots=[
            ladder_pb2.BotHistory(bot_id=bot_id, points=[ladder_pb2.RatingPoint(**p) for p in rows])
            for bot_id, rows in points.items()
        ])

    def recent_matches(self, request: ladder_pb2.RecentMatchesRequest, caller: Caller) -> ladder_pb2.RecentMatchesReply:
        limit = min(request.limit or RECENT_MATCHES, MAX_RECENT)
        game = self._game(request.game)
        rule_set = self._rule_set(game, request.variant)
        with self._store() as store:
            recent = recent_matches(store, game, max(limit, 1), rule_set)
        return ladder_pb2.RecentMatchesReply(rule_set=rule_set, matches=[
            ladder_pb2.RecentMatch(
                number=m["number"], match_id=m["match_id"], finished_at=m["finished_at"], end_reason=m["end_reason"],
                decisions=m["decisions"], record_kept=m["record_kept"], set_finished=m["set_finished"],
                seats=[ladder_pb2.Seat(bot=s["bot"], version=s["version"], rank=s["place"], forfeit=s["forfeit"])
                       for s in m["seats"]])
            for m in recent
        ])

    def bot_logs(self, request: ladder_pb2.BotLogsRequest, caller: Caller) -> ladder_pb2.BotLogsReply:
        """The end of a bot's own output and its forfeits; with tokens
        required, only to its owner. Names no path: the log is the bot's."""
        game = self._game(request.game)
        with self._store() as store:
            bot = self._chosen(store, request.name, request.version)
            if self.settings.require_tokens:  # a bot's output is its author's
                self._need_token(caller)
                self._may_use(request.name, caller, registered=True)
            path = version_log_path(store.logs_dir, bot.label)
            forfeits = forfeits_of(store, game, bot.bot_id)
        reply = ladder_pb2.BotLogsReply(label=bot.label, has_log=path.exists(),
                                        forfeits=[ladder_pb2.Forfeit(match_id=m, reason=r) for m, r in forfeits])
        if path.exists():
            lines = max(1, min(request.lines or DEFAULT_LINES, MAX_LINES))  # the log is capped (referee/sandbox/logpipe.py)
            reply.text = "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
            reply.rotated = rotated_path(path).exists()
        return reply

    @staticmethod
    def _chosen(store: Store, name: str, version: str) -> BotRow:
        """The bot version a request names (empty version: the active one)."""
        versions = store.bot_versions(name)
        chosen = [b for b in versions if (b.version == version if version else b.active)]
        if not chosen:
            known = ", ".join(b.version for b in versions) or "none"
            raise Refusal(grpc.StatusCode.NOT_FOUND, f"no bot {safe_line(name, 60)!r} version "
                                                     f"{safe_line(version, 60) or '(active)'}; versions: {known}")
        return chosen[-1]

    def bot_records(self, request: ladder_pb2.BotRecordsRequest, caller: Caller) -> tuple[list[StoredRecord], int]:
        """The records BotRecords streams, oldest first, and how many more
        are withheld; with tokens required, only to the bot's owner."""
        with self._store() as store:
            if not store.bot_versions(request.name):
                raise Refusal(grpc.StatusCode.NOT_FOUND,
                              f"no bot named {safe_line(request.name, 60)!r}; `referee bots` lists them")
            if request.version:
                self._chosen(store, request.name, request.version)
            if self.settings.require_tokens:
                self._need_token(caller)
                self._may_use(request.name, caller, registered=True)
            records, withheld = revealable_records(store, request.name, request.version,
                                                   self._game(request.game) if request.game else "")
        if request.limit > 0:
            records = records[-request.limit:]
        return records, withheld


@dataclass(frozen=True)
class StoredRecord:
    match_id: str
    game: str
    rule_set: str
    version: str
    """The version of the bot that played it."""
    path: Path


def revealable_records(store: Store, name: str, version: str = "", game: str = "") -> tuple[list[StoredRecord], int]:
    """The kept records of the matches the bot `name` played (of `version`
    and `game` when given), in rating order, that show no deal still to be
    played; and how many more are withheld until their set is finished."""
    versions = {b.bot_id: b.version for b in store.bot_versions(name) if not version or b.version == version}
    found: list[StoredRecord] = []
    withheld = 0
    for each_game in [game] if game else store.games():
        for rule_set in store.rule_sets(each_game):
            played = {row.match_id: versions[row.bot_id] for row in store.seat_rows(each_game, rule_set)
                      if row.bot_id in versions}
            for match in store.matches(each_game, rule_set):
                if match["match_id"] not in played or match["record_path"] is None:
                    continue
                if store.set_unfinished(match["match_id"]):
                    withheld += 1
                    continue
                found.append(StoredRecord(match["match_id"], each_game, rule_set, played[match["match_id"]],
                                          Path(match["record_path"])))
    return found, withheld


def check_submission(request: ladder_pb2.SubmitRequest) -> None:
    """Everything of a SubmitRequest but its archive. Refuses INVALID_ARGUMENT."""
    if request.name:
        _checked(check_name_of, request.name)
    if request.version and not NAME_PATTERN.match(request.version):
        raise Refusal(grpc.StatusCode.INVALID_ARGUMENT,
                      f"version {safe_line(request.version, 60)!r} must be 1-40 letters, digits, '.', '_' or '-'")
    if len(request.games) > MAX_LISTED or len(request.variants) > MAX_LISTED:
        raise Refusal(grpc.StatusCode.INVALID_ARGUMENT, f"a submission names at most {MAX_LISTED} games and variants")
    for game in request.games:
        if game not in game_names():
            raise Refusal(grpc.StatusCode.INVALID_ARGUMENT,
                          f"unknown game {safe_line(game, 40)!r}; the referee runs {', '.join(game_names())}")
    try:
        check_tags(list(request.variants), tuple(request.games))
    except SubmissionError as exc:
        raise Refusal(grpc.StatusCode.INVALID_ARGUMENT, safe_line(exc, MESSAGE_LIMIT)) from None
    for what, value, most in (("startup timeout", request.startup_timeout, MAX_STARTUP_TIMEOUT),
                              ("move time", request.move_time, MAX_MOVE_TIME)):
        if not (math.isfinite(value) and 0 <= value <= most):
            raise Refusal(grpc.StatusCode.INVALID_ARGUMENT,
                          f"the {what} must be between 0 and {most:g} seconds on this service (0: the default)")


def manifest_name(path: Path) -> str | None:
    """The name a bot folder's bot.toml gives (None: a file, no name, or a
    manifest `referee submit` will refuse with its own message)."""
    if not path.is_dir():
        return None
    try:
        return read_manifest(path).name
    except SubmissionError:
        return None


def check_name_of(name: str) -> None:
    """A bot name as `referee submit` takes it (ladder.intake.submission.check_name)."""
    check_name(name if len(name) <= 100 else name[:100])  # refused anyway; the message quotes its start


def _checked(check: Callable[[str], object], value: str, scrub: Scrub | None = None) -> None:
    """`check(value)`, a SubmissionError refused INVALID_ARGUMENT."""
    try:
        check(value)
    except SubmissionError as exc:
        raise Refusal(grpc.StatusCode.INVALID_ARGUMENT,
                      (scrub or (lambda text: text))(safe_line(exc, MESSAGE_LIMIT))) from None
