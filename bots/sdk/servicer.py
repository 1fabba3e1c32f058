"""The `tournament.v1.Bot` servicer: turns protocol messages into `Bot` calls.

One `Play` stream is one match (docs/protocol.md): `MatchStart`, then
`Decide` (answered with a `Decision` echoing its request id) and `Notify` in
order, then `MatchEnd`. Message kinds this version does not know (from a newer
referee) are skipped; unknown fields are kept by protobuf and ignored.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

import grpc

from bots.sdk.bot import Bot, DecisionContext, MatchInfo
from referee.games.base import Action, Outcome
from referee.protocol import codec as wire
from referee.protocol.client import PROTOCOL_VERSION, TimeControl
from referee.protocol.pb.tournament.v1 import tournament_pb2 as tpb
from referee.protocol.pb.tournament.v1 import tournament_pb2_grpc as tgrpc

log = logging.getLogger(__name__)

_ACTION_CACHE_SIZE = 1 << 16
_ACTION_CACHES: dict[str, dict[bytes, Action]] = {}


def _action_cache(game: str) -> dict[bytes, Action]:
    """The process-wide decoded-action cache of one game (kept across matches)."""
    return _ACTION_CACHES.setdefault(game, {})


class BotServicer(tgrpc.BotServicer):
    """Serves one `Bot` object, one match at a time."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def Handshake(self, request: tpb.HandshakeRequest, context: Any) -> tpb.HandshakeResponse:
        log.info("handshake from a referee speaking protocol version %d", request.protocol_version)
        bot = self.bot
        return tpb.HandshakeResponse(
            name=bot.name, version=bot.version, protocol_version=PROTOCOL_VERSION, games=list(bot.games)
        )

    def Play(self, request_iterator: Iterator[tpb.RefereeMessage], context: Any) -> Iterator[tpb.BotMessage]:
        match: _Match | None = None
        for message in request_iterator:
            kind = message.WhichOneof("kind")
            if kind == "decide":
                if match is None:
                    context.abort(grpc.StatusCode.FAILED_PRECONDITION, "Decide before MatchStart")
                try:
                    answer = match.decide(message.decide)  # type: ignore[union-attr]
                except Exception as exc:  # the bot's own code failed: say what, end the stream
                    log.exception("decide failed")
                    context.abort(grpc.StatusCode.INTERNAL, f"the bot's decide raised {_describe(exc)}")
                yield answer
            elif kind == "notify":
                if match is not None:
                    match.notify(message.notify)
            elif kind == "match_start":
                try:
                    match = _Match.start(self.bot, message.match_start)
                except ValueError as exc:  # a game without protocol messages, a broken observation
                    context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"cannot start the match: {exc}")
            elif kind == "match_end":
                if match is not None:
                    match.end(message.match_end)
                    match = None
            else:
                log.debug("skipping a referee message of a kind this SDK does not know")


def _describe(exc: BaseException, limit: int = 200) -> str:
    """The exception's type and the start of its message, for the referee's
    record of the crash (the full traceback goes to the bot's own log)."""
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Match:
    """The decoding state of one match: its game codec and `MatchInfo`."""

    def __init__(self, bot: Bot, codec: wire.GameCodec, info: MatchInfo) -> None:
        self.bot = bot
        self.codec = codec
        self.info = info
        self.actions = _action_cache(codec.game)

    @classmethod
    def start(cls, bot: Bot, start: tpb.MatchStart) -> "_Match":
        codec = wire.codec_for(start.game)
        info = MatchInfo(
            match_id=start.match_id,
            game=start.game,
            variant=dict(start.variant),
            seat=start.seat,
            num_seats=start.num_seats,
            seat_names=tuple(start.seat_names),
            time_control=TimeControl.from_message(start.time_control),
        )
        log.info("match %s starts: %s, seat %d of %d", info.match_id, info.game, info.seat, info.num_seats)
        match = cls(bot, codec, info)
        bot.on_match_start(info, wire.decode_game_observation(codec, start.observation))
        return match

    def decide(self, decide: tpb.Decide) -> tpb.BotMessage:
        deadline = time.monotonic() + decide.deadline_ms / 1000
        codec = self.codec
        observation = wire.decode_game_observation(codec, decide.observation)
        legal = tuple([self._action(a) for a in decide.legal_actions])
        action = self.bot.decide(observation, legal, DecisionContext(self.info, decide.request_id, deadline))
        return tpb.BotMessage(
            decision=tpb.Decision(request_id=decide.request_id, action=wire.game_action(codec, action))
        )

    def _action(self, message: tpb.GameAction) -> Action:
        """Decode a legal action, through a cache keyed by its bytes: the same
        few actions recur all match long, and re-serialising a tiny message
        costs a fraction of building the engine value from it."""
        key = message.SerializeToString()
        action = self.actions.get(key)
        if action is None:
            if len(self.actions) >= _ACTION_CACHE_SIZE:
                self.actions.clear()
            action = self.actions[key] = wire.decode_game_action(self.codec, message)
        return action

    def notify(self, notify: tpb.Notify) -> None:
        seat = self.info.seat
        self.bot.on_events([wire.decode_game_event(self.codec, e, seat) for e in notify.events])

    def end(self, end: tpb.MatchEnd) -> None:
        log.info("match %s ends: %s", self.info.match_id, end.reason)
        self.bot.on_match_end(Outcome(end.reason, tuple(end.ranks), end.detail))
