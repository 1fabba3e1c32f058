"""`ladder.v1.Ladder` on gRPC's asyncio server: who may call what, and on which threads.

The answers are ladder/service/api.py's (`LadderCalls`), plain functions
that read the store; here they are put on the server so that no kind of
call can starve another (the service once answered everything from one
pool of 16 threads, which 16 anonymous `Watch` streams held, so Standings,
Submit and the health check timed out):

- live streams (`Watch`) and the health check run on the server's event
  loop and hold no thread: a stream waits for the run loop's next event
  (ladder/service/events.py), and its standings are computed once per
  batch of finished matches for every stream of that rule set together;
- reading calls run on a pool of their own (`READ_THREADS`); Submit
  unpacks and checks its upload on another (`INTAKE_THREADS`: a
  resubmission of registered files ends there) and validates its bot on a
  third (`SUBMIT_THREADS`, with at most `SUBMIT_QUEUE` submissions
  validating or waiting, `SUBMITS_PER_CLIENT` of one client's: beyond,
  RESOURCE_EXHAUSTED), so a burst of validations never holds up a read;
- every call first takes from its client's rate (ladder/service/quotas.py),
  a Watch also a stream slot (at most `Quotas.streams` open, and per
  client), and a stream ends after `Quotas.watch_lifetime` seconds with
  UNAVAILABLE ("watch again"). Beyond a limit the call is refused
  RESOURCE_EXHAUSTED before it costs anything.

A call that fails unexpectedly is INTERNAL with a line that names nothing
of the service's machine; the operator's log has the traceback.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import math
import shutil
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import grpc

from botsdk.pb.ladder.v1 import ladder_pb2, ladder_pb2_grpc
from ladder.service.api import Caller, Intake, LadderCalls, Refusal, archive_file, discard, upload_limit
from ladder.service.bearer import AUTH_HEADER
from ladder.service.events import CLOSED, Broadcaster
from ladder.service.quotas import Quotas, RateLimits, StreamSlots, client_key
from referee.untrusted import MESSAGE_LIMIT, safe_line

log = logging.getLogger(__name__)

READ_THREADS = 8
"""Reading calls answered at once (each a few store queries)."""
SUBMIT_THREADS = 2
"""Submissions validated at once (each starts the bot and plays it: seconds of CPU)."""
SUBMIT_QUEUE = 16
"""Submissions validating or waiting for a thread; more are refused. A
waiting one holds its unpacked upload on disk, not its archive in memory."""
SUBMITS_PER_CLIENT = 2
"""Of those, one client's."""
INTAKE_THREADS = 2
"""Submissions unpacked and checked at once (an archive of --max-mib takes a second or two)."""
INTERNAL_FAILURE = ("the ladder service failed on this call (its operator's log says why); try again, and tell "
                    "the operator if it lasts")

T = TypeVar("T")
R = TypeVar("R")
"""A call's request message."""


STANDINGS_FRESH = 1.0
"""Seconds one computation of the standings answers every identical request
(and not past the next rated match, submission or retirement)."""
SHARED_KEPT = 64
"""Different standings requests whose answers are kept."""


@dataclass
class _Shared:
    """Standings computed once for every request that asks for the same
    ones while they are fresh (the streams of a rule set after a batch of
    matches, readers polling the table)."""

    generation: tuple[int, int]
    at: float
    answer: asyncio.Future[ladder_pb2.StandingsReply]


@dataclass
class LadderServicer(ladder_pb2_grpc.LadderServicer):
    """The gRPC face of `LadderCalls`; see the module doc."""

    calls: LadderCalls
    events: Broadcaster
    quotas: Quotas = Quotas()
    rates: RateLimits = field(init=False)
    slots: StreamSlots = field(init=False)

    def __post_init__(self) -> None:
        self.rates = RateLimits({"submit": self.quotas.submits, "read": self.quotas.reads})
        self.slots = StreamSlots(self.quotas.streams, self.quotas.streams_per_client)
        self._reads = concurrent.futures.ThreadPoolExecutor(READ_THREADS, thread_name_prefix="ladder-read")
        self._submits = concurrent.futures.ThreadPoolExecutor(SUBMIT_THREADS, thread_name_prefix="ladder-submit")
        self._intake = concurrent.futures.ThreadPoolExecutor(INTAKE_THREADS, thread_name_prefix="ladder-intake")
        self._submitting = 0
        self._validating: dict[str, int] = {}
        """Validations waiting or running, by client."""
        self._changes = 0
        """Submissions and retirements answered: with the events published, when the standings change."""
        self._shared: dict[bytes, _Shared] = {}

    def close(self) -> None:
        """Drop the calls still waiting for a thread (a running one finishes)."""
        for pool in (self._reads, self._intake, self._submits):
            pool.shutdown(wait=False, cancel_futures=True)

    # -- plumbing -------------------------------------------------------------

    @staticmethod
    def _who(context: grpc.aio.ServicerContext) -> tuple[str | None, str]:
        """The authorization metadata sent (None: none) and the client it counts against."""
        sent = [str(value) for key, value in context.invocation_metadata() or () if key == AUTH_HEADER]
        bearer = sent[0] if sent else None
        return bearer, client_key(bearer, context.peer())

    async def _admit(self, kind: str, client: str, context: grpc.aio.ServicerContext) -> None:
        wait = self.rates.take(kind, client)
        if wait:
            what = "submissions" if kind == "submit" else "calls"
            rate = self.quotas.submits if kind == "submit" else self.quotas.reads
            await _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED,
                          f"too many {what} from you: this ladder takes at most {rate.describe()} from one client "
                          f"(a token, else a host); try again in {math.ceil(wait)}s")

    async def _in(self, pool: concurrent.futures.ThreadPoolExecutor, call: Callable[..., T], *args: Any) -> T:
        """`call(*args)` on a thread of `pool`; a caller that leaves takes
        its call out of the queue if it has not started."""
        return await asyncio.wrap_future(pool.submit(call, *args))

    async def _answer(self, pool: concurrent.futures.ThreadPoolExecutor, call: Callable[[R, Caller], T],
                      request: R, context: grpc.aio.ServicerContext, bearer: str | None, client: str) -> T:
        """The caller authenticated and `call` answered on `pool`; a Refusal
        or a failure becomes the call's gRPC status."""
        def answer() -> T:
            return call(request, self.calls.authenticate(bearer, client))

        try:
            return await self._in(pool, answer)
        except Refusal as refused:
            failure = (refused.code, refused.message)
        except (asyncio.CancelledError, concurrent.futures.CancelledError):
            raise
        except Exception:
            log.exception("%s failed", getattr(call, "__name__", "a call"))
            failure = (grpc.StatusCode.INTERNAL, INTERNAL_FAILURE)
        await _refuse(context, *failure)

    async def _unary(self, call: Callable[[R, Caller], T], request: R, context: grpc.aio.ServicerContext) -> T:
        bearer, client = self._who(context)
        await self._admit("read", client, context)
        return await self._answer(self._reads, call, request, context, bearer, client)

    # -- calls ----------------------------------------------------------------

    async def Submit(self, request: ladder_pb2.SubmitRequest,
                     context: grpc.aio.ServicerContext) -> ladder_pb2.SubmitReply:
        """The archive in the request (at most the server's message limit)."""
        bearer, client = self._who(context)
        await self._admit("submit", client, context)
        await self._answer(self._intake, self.calls.screen, request, context, bearer, client)
        upload = await self._in(self._intake, self.calls.receive, request.archive)
        request.ClearField("archive")  # on disk now
        return await self._submit(request, upload, context, bearer, client)

    async def SubmitStream(self, pieces: AsyncIterator[ladder_pb2.SubmitPiece],
                           context: grpc.aio.ServicerContext) -> ladder_pb2.SubmitReply:
        """The archive in pieces, written to disk as they come and refused
        as soon as they pass the upload limit: memory holds one piece."""
        bearer, client = self._who(context)
        await self._admit("submit", client, context)
        first = await anext(aiter(pieces), None)
        if first is None or first.WhichOneof("piece") != "request":
            await _refuse(context, grpc.StatusCode.INVALID_ARGUMENT, "a SubmitStream sends its SubmitRequest first, "
                          "then the archive's bytes; `referee submit --server` does")
        request = first.request
        await self._answer(self._intake, self.calls.screen, request, context, bearer, client)
        upload = await self._in(self._intake, self.calls.open_upload)
        try:
            await self._received(pieces, upload, context)
        except BaseException:  # on the loop, at once: the call may be over (one file to remove)
            shutil.rmtree(upload, ignore_errors=True)
            raise
        return await self._submit(request, upload, context, bearer, client)

    async def _received(self, pieces: AsyncIterator[ladder_pb2.SubmitPiece], upload: Path,
                        context: grpc.aio.ServicerContext) -> None:
        """The archive the pieces after the first carry, into `upload`.
        Refuses a piece that is not archive, or bytes over the limit."""
        limit = upload_limit(self.calls.settings.limits)
        received = 0
        out = await self._in(self._intake, archive_file, upload)
        try:
            async for piece in pieces:
                if piece.WhichOneof("piece") != "archive":
                    await _refuse(context, grpc.StatusCode.INVALID_ARGUMENT, "a SubmitStream sends one SubmitRequest, "
                                  "then only the archive's bytes; `referee submit --server` does")
                received += len(piece.archive)
                if received > limit:
                    await _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED,
                                  f"the bot's archive is larger than the ladder service accepts ({limit >> 20} MiB, "
                                  "its --max-mib and headers): leave data files, build outputs and caches out, or "
                                  "ask the operator to raise --max-mib")
                await self._in(self._intake, out.write, piece.archive)
        finally:
            out.close()

    async def _submit(self, request: ladder_pb2.SubmitRequest, upload: Path, context: grpc.aio.ServicerContext,
                      bearer: str | None, client: str) -> ladder_pb2.SubmitReply:
        """Its intake on a thread of its own (quick: an identical resubmission
        ends there), then its validation on one of SUBMIT_THREADS, at most
        SUBMIT_QUEUE waiting or running and SUBMITS_PER_CLIENT of one client's."""
        def take() -> Intake | ladder_pb2.SubmitReply:
            try:
                caller = self.calls.authenticate(bearer, client)
            except BaseException:
                shutil.rmtree(upload, ignore_errors=True)
                raise
            return self.calls.intake(request, caller, upload)  # which removes the upload unless it is taken

        intake = self._intake.submit(take)
        try:
            taken = await asyncio.wrap_future(intake)
        except (asyncio.CancelledError, concurrent.futures.CancelledError):
            if intake.cancelled():  # never started: its upload is still there
                shutil.rmtree(upload, ignore_errors=True)
            else:  # the caller left: its upload goes when the intake ends
                intake.add_done_callback(_discard_unclaimed)
            raise
        except Refusal as refused:
            await _refuse(context, refused.code, refused.message)
        except Exception:
            log.exception("Submit failed")
            await _refuse(context, grpc.StatusCode.INTERNAL, INTERNAL_FAILURE)
        if not isinstance(taken, Intake):
            return taken
        busy = None
        if self._submitting >= SUBMIT_QUEUE:
            busy = f"the ladder service is validating {self._submitting} submissions already; try again in a minute"
        elif self._validating.get(client, 0) >= SUBMITS_PER_CLIENT:
            busy = f"{SUBMITS_PER_CLIENT} of your submissions are being validated; wait for their answers"
        if busy is not None:
            await self._in(self._intake, self.calls.turned_away, taken, busy)
            await _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED, busy)
        self._submitting += 1
        self._validating[client] = self._validating.get(client, 0) + 1
        loop = asyncio.get_running_loop()
        future = self._submits.submit(self.calls.validate, taken)
        # counted until its thread is done with it, even when the caller has left
        future.add_done_callback(_soon(loop, lambda: self._validated(client)))
        try:
            reply = await asyncio.wrap_future(future)
            self._changes += 1
            return reply
        except Refusal as refused:
            failure = (refused.code, refused.message)
        except (asyncio.CancelledError, concurrent.futures.CancelledError):
            if future.cancelled():  # it never started: its upload is still there
                discard(taken)
            raise
        except Exception:
            log.exception("Submit failed")
            failure = (grpc.StatusCode.INTERNAL, INTERNAL_FAILURE)
        await _refuse(context, *failure)

    def _validated(self, client: str) -> None:
        self._submitting -= 1
        left = self._validating.pop(client, 1) - 1
        if left:
            self._validating[client] = left

    async def Retire(self, request: ladder_pb2.RetireRequest,
                     context: grpc.aio.ServicerContext) -> ladder_pb2.RetireReply:
        reply = await self._unary(self.calls.retire, request, context)
        self._changes += 1
        return reply

    async def ListBots(self, request: ladder_pb2.ListBotsRequest,
                       context: grpc.aio.ServicerContext) -> ladder_pb2.ListBotsReply:
        return await self._unary(self.calls.list_bots, request, context)

    async def Standings(self, request: ladder_pb2.StandingsRequest,
                        context: grpc.aio.ServicerContext) -> ladder_pb2.StandingsReply:
        """Shared with every identical request while fresh (`STANDINGS_FRESH`)."""
        bearer, client = self._who(context)
        await self._admit("read", client, context)
        if self.calls.known_caller(bearer, client) is None:  # a token that is sent must be valid
            await self._answer(self._reads, lambda request, caller: None, request, context, bearer, client)
        return await self._standings(request.SerializeToString(deterministic=True), request, context)

    async def GetRecord(self, request: ladder_pb2.GetRecordRequest,
                        context: grpc.aio.ServicerContext) -> ladder_pb2.GetRecordReply:
        return await self._unary(self.calls.get_record, request, context)

    async def RatingHistory(self, request: ladder_pb2.RatingHistoryRequest,
                            context: grpc.aio.ServicerContext) -> ladder_pb2.RatingHistoryReply:
        return await self._unary(self.calls.rating_history, request, context)

    async def RecentMatches(self, request: ladder_pb2.RecentMatchesRequest,
                            context: grpc.aio.ServicerContext) -> ladder_pb2.RecentMatchesReply:
        return await self._unary(self.calls.recent_matches, request, context)

    async def BotLogs(self, request: ladder_pb2.BotLogsRequest,
                      context: grpc.aio.ServicerContext) -> ladder_pb2.BotLogsReply:
        return await self._unary(self.calls.bot_logs, request, context)

    async def BotRecords(self, request: ladder_pb2.BotRecordsRequest,
                         context: grpc.aio.ServicerContext) -> AsyncIterator[ladder_pb2.BotRecordsItem]:
        """Each record read on a reading thread as the stream reaches it."""
        bearer, client = self._who(context)
        await self._admit("read", client, context)
        records, withheld = await self._answer(self._reads, self.calls.bot_records, request, context, bearer, client)
        for stored in records:
            try:
                data = await self._in(self._reads, stored.path.read_bytes)
            except OSError:
                continue  # removed by the operator meanwhile
            yield ladder_pb2.BotRecordsItem(record=ladder_pb2.MatchRecord(
                match_id=stored.match_id, game=stored.game, rule_set=stored.rule_set, version=stored.version,
                record=data))
        yield ladder_pb2.BotRecordsItem(withheld=withheld)

    async def Watch(self, request: ladder_pb2.WatchRequest,
                    context: grpc.aio.ServicerContext) -> AsyncIterator[ladder_pb2.LadderEvent]:
        """The standings of the rule set asked for now, then each finished
        match of it as it is rated and the standings after each batch of
        them, until the reader leaves, the stream's lifetime ends or the
        service stops."""
        bearer, client = self._who(context)
        await self._admit("read", client, context)
        refused = self.slots.acquire(client)
        if refused is not None:
            await _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED, refused)
        try:
            def rule_set_of(request: ladder_pb2.WatchRequest, caller: Caller) -> str:
                return self.calls.watched_rule_set(request)

            rule_set = await self._answer(self._reads, rule_set_of, request, context, bearer, client)
            asked = ladder_pb2.StandingsRequest(variant=request.variant)
            key = b"watch:" + rule_set.encode()
            loop = asyncio.get_running_loop()
            woken = asyncio.Event()
            subscription = self.events.subscribe(wake=_soon(loop, woken.set))
            try:
                yield ladder_pb2.LadderEvent(standings=await self._standings(key, asked, context))
                ends = loop.time() + self.quotas.watch_lifetime
                while True:
                    try:
                        await asyncio.wait_for(woken.wait(), timeout=max(0.0, ends - loop.time()))
                    except TimeoutError:
                        await _refuse(context, grpc.StatusCode.UNAVAILABLE,
                                      f"this live stream reached its longest life on this service "
                                      f"({self.quotas.watch_lifetime:g}s); watch again")
                    woken.clear()
                    sent = False
                    while (event := subscription.next(0)) is not None:
                        if event is CLOSED:
                            if subscription.overrun:
                                await _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED,
                                              "this stream fell too far behind the ladder and was cut off; "
                                              "watch again")
                            return
                        if event.rule_set == rule_set:
                            yield ladder_pb2.LadderEvent(match=event)
                            sent = True
                    if sent:  # a batch is over: the standings after it
                        yield ladder_pb2.LadderEvent(standings=await self._standings(key, asked, context))
            finally:
                self.events.unsubscribe(subscription)
        finally:
            self.slots.release(client)

    async def _standings(self, key: bytes, request: ladder_pb2.StandingsRequest,
                         context: grpc.aio.ServicerContext) -> ladder_pb2.StandingsReply:
        """The standings `request` asks for (`key` names the request),
        computed once for every request with that key while they are fresh:
        until the next event, submission or retirement, and at most
        STANDINGS_FRESH seconds (the operator may register bots locally).
        Never older than the call: a reader sees its own submission."""
        loop = asyncio.get_running_loop()
        generation = (self.events.published, self._changes)
        shared = self._shared.get(key)
        if shared is None or shared.generation != generation or loop.time() - shared.at > STANDINGS_FRESH:
            if len(self._shared) >= SHARED_KEPT:
                self._shared.clear()
            answer = asyncio.ensure_future(self._in(self._reads, self.calls.standings, request))
            answer.add_done_callback(_retrieved)  # a failure nobody waited for is not "never retrieved"
            shared = self._shared[key] = _Shared(generation, loop.time(), answer)
        try:
            return await asyncio.shield(shared.answer)
        except Refusal as refused:
            failure = (refused.code, refused.message)
        except Exception:
            log.exception("the standings failed")
            failure = (grpc.StatusCode.INTERNAL, INTERNAL_FAILURE)
        if self._shared.get(key) is shared:  # the next request tries again
            del self._shared[key]
        await _refuse(context, *failure)


def _discard_unclaimed(future: concurrent.futures.Future[Any]) -> None:
    """The upload of an intake whose caller left before it ended."""
    if not future.cancelled() and future.exception() is None and isinstance(future.result(), Intake):
        discard(future.result())


def _retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


def _soon(loop: asyncio.AbstractEventLoop, call: Callable[[], None]) -> Callable[..., None]:
    """`call` run on `loop` when called from another thread (the run loop,
    a call's thread); nothing once the loop has closed (the service stopped)."""
    def later(*_: object) -> None:
        try:
            loop.call_soon_threadsafe(call)
        except RuntimeError:
            pass
    return later


async def _refuse(context: grpc.aio.ServicerContext, code: grpc.StatusCode, message: str) -> NoReturn:
    await context.abort(code, safe_line(message, MESSAGE_LIMIT))
    raise AssertionError("unreachable: abort raises")
