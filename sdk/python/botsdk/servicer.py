"""The `tournament.v1.Bot` servicer: turns protocol messages into `Bot` calls.

One `Play` stream is one match (docs/protocol.md): `MatchStart`, then
`Decide` (answered with a `Decision` echoing its request id) and `Notify` in
order, then `MatchEnd`. The handshake says the bot takes events in `Decide`
too (`events_in_decide`): they are handed to `on_events` before `decide`.
Message kinds this version does not know (from a newer referee) are
skipped; unknown fields are kept by protobuf and ignored. An exception from
the bot's own code ends the stream with status INTERNAL and the exception's
type and message, which the referee records as a crash (the traceback goes
to the bot's log).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

import grpc
from google.protobuf.message import Message

from botsdk import contract
from botsdk.bot import Bot, DecisionContext, MatchInfo, MatchResult
from botsdk.contract import TimeControl
from botsdk.fairness import Evaluation
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb
from botsdk.pb.tournament.v1 import tournament_pb2_grpc as tgrpc

log = logging.getLogger(__name__)


class BotServicer(tgrpc.BotServicer):
    """Serves one `Bot` object, one match at a time. A match starts only once
    `warm` is set (`serve` clears it while the bot warms up)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.warm = threading.Event()
        self.warm.set()

    def Handshake(self, request: tpb.HandshakeRequest, context: Any) -> tpb.HandshakeResponse:
        log.info("handshake from a referee speaking protocol version %d", request.protocol_version)
        bot = self.bot
        return tpb.HandshakeResponse(
            name=bot.name, version=bot.version, protocol_version=contract.PROTOCOL_VERSION, games=list(bot.games),
            variants=list(bot.variants), events_in_decide=True,
        )

    def Play(self, request_iterator: Iterator[tpb.RefereeMessage], context: Any) -> Iterator[tpb.BotMessage]:
        match: _Match | None = None
        for message in request_iterator:
            kind = message.WhichOneof("kind")
            if kind == "decide":
                if match is None:
                    context.abort(grpc.StatusCode.FAILED_PRECONDITION, "Decide before MatchStart")
                decide = message.decide
                received = time.monotonic()  # the deadline counts from here, events included
                if decide.events:
                    _guarded(context, "on_events", match.notify, decide)  # type: ignore[union-attr]
                yield _guarded(context, "decide", match.decide, decide, received)  # type: ignore[union-attr]
            elif kind == "notify":
                if match is not None:
                    _guarded(context, "on_events", match.notify, message.notify)
            elif kind == "match_start":
                self.warm.wait()
                match = _Match.start(self.bot, message.match_start, context)
            elif kind == "match_end":
                if match is not None:
                    _guarded(context, "on_match_end", match.end, message.match_end)
                    match = None
            else:
                log.debug("skipping a referee message of a kind this SDK does not know")


def _guarded(context: Any, hook: str, call: Any, *args: Any) -> Any:
    """`call(*args)`; if the bot's code raises, end the stream saying what."""
    try:
        return call(*args)
    except Exception as exc:  # the bot's own code failed: say what, end the stream
        log.exception("the bot's %s raised", hook)
        _abort(context, grpc.StatusCode.INTERNAL, f"the bot's {hook} raised {describe(exc)}")


def _abort(context: Any, code: grpc.StatusCode, detail: str) -> NoReturn:
    context.abort(code, detail)
    raise AssertionError("context.abort returns only by raising")


def describe(exc: BaseException, limit: int = 200) -> str:
    """The exception's type and the start of its message, for the referee's
    record of the crash (the full traceback goes to the bot's own log)."""
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Match:
    """One match: its game (the envelope's oneof field of that name) and `MatchInfo`."""

    def __init__(self, bot: Bot, info: MatchInfo) -> None:
        self.bot = bot
        self.info = info
        self.game = info.game

    @classmethod
    def start(cls, bot: Bot, start: tpb.MatchStart, context: Any) -> "_Match":
        if start.observation.WhichOneof("game") != start.game:
            _abort(context, grpc.StatusCode.INVALID_ARGUMENT, _unknown_game(start))
        info = MatchInfo(
            match_id=start.match_id,
            game=start.game,
            variant=dict(start.variant),
            seat=start.seat,
            num_seats=start.num_seats,
            seat_names=tuple(start.seat_names),
            time_control=TimeControl.from_message(start.time_control),
            seed_commitment=start.seed_commitment,
            evaluation=Evaluation(start.evaluation.purpose, tuple(start.evaluation.chosen_seats))
            if start.HasField("evaluation") else None,
        )
        log.info("match %s starts: %s, seat %d of %d", info.match_id, info.game, info.seat, info.num_seats)
        _guarded(context, "on_match_start", bot.on_match_start, info, getattr(start.observation, info.game))
        return cls(bot, info)

    def decide(self, decide: tpb.Decide, received: float) -> tpb.BotMessage:
        """Answer `decide`, which arrived at `received` (time.monotonic())."""
        deadline = received + decide.deadline_ms / 1000
        game = self.game
        offered = decide.legal_actions
        legal = [getattr(a, game) for a in offered]
        context = DecisionContext(self.info, decide.request_id, deadline)
        action = self.bot.decide(getattr(decide.observation, game), legal, context)
        return tpb.BotMessage(decision=tpb.Decision(request_id=decide.request_id,
                                                    action=self._envelope(action, legal, offered)))

    def _envelope(self, action: Message, legal: Sequence[Message], offered: Sequence[tpb.GameAction]) -> tpb.GameAction:
        """The `GameAction` that carries `action`: the offered one when the
        bot returned a legal action object itself (no copy, no encoding),
        else a new envelope around the bot's own message. Raises TypeError
        for what is no action message of the match's game."""
        for index, candidate in enumerate(legal):
            if candidate is action:
                return offered[index]
        expected = tpb.GameAction.DESCRIPTOR.fields_by_name[self.game].message_type
        if not isinstance(action, Message) or action.DESCRIPTOR is not expected:
            raise TypeError(f"decide must return one of legal_actions (a {expected.full_name} message), "
                            f"not {type(action).__name__}")
        return tpb.GameAction(**{self.game: action})

    def notify(self, notify: tpb.Notify | tpb.Decide) -> None:
        """Hand the bot the events of a Notify, or those a Decide carries."""
        game = self.game
        self.bot.on_events([getattr(e, game) for e in notify.events])

    def end(self, end: tpb.MatchEnd) -> None:
        log.info("match %s ends: %s", self.info.match_id, end.reason)
        revealed = end.seed if end.seed_salt else None
        self.bot.on_match_end(MatchResult(tuple(end.ranks), end.reason, end.detail, revealed, end.seed_salt))


def _unknown_game(start: tpb.MatchStart) -> str:
    """Why a match cannot start: its game is not one this SDK's protocol code carries."""
    known = ", ".join(contract.protocol_games())
    return (f"cannot start the match: this SDK's protocol code has no messages for game {start.game!r} "
            f"(it knows {known}); update bot-referee-sdk")
