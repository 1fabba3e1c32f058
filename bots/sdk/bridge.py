"""An engine-object `Bot` served through `botsdk`: the game codecs turn the
protocol's messages into engine values and the chosen action back.

The bridge is a `botsdk.Bot` whose hooks decode and forward: `botsdk` owns
the wire (socket, handshake, stream, failure statuses), the codecs own the
translation, the wrapped bot sees only engine values.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import botsdk
from botsdk import DecisionContext, MatchInfo, MatchResult
from google.protobuf.message import Message

from bots.sdk.bot import Bot
from referee.games.base import Action, Outcome
from referee.protocol.codec import GameCodec, codec_for

log = logging.getLogger(__name__)

_ACTION_CACHE_SIZE = 1 << 16
_ACTION_CACHES: dict[str, dict[bytes, Action]] = {}


def _action_cache(game: str) -> dict[bytes, Action]:
    """The process-wide decoded-action cache of one game (kept across matches)."""
    return _ACTION_CACHES.setdefault(game, {})


class EngineBot(botsdk.Bot):
    """Serves `bot`, an engine-object bot, one match at a time."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.version = bot.version
        self.games = tuple(bot.games)
        self.variants = tuple(bot.variants)
        self._codec: GameCodec | None = None
        self._actions: dict[bytes, Action] = {}
        self._seat = 0

    def warm_up(self) -> None:
        """Import the codecs (and rules engines) of the bot's games before
        the first match needs them: it shortens the cold start to the first
        decision."""
        for game in self.games:
            try:
                codec_for(game)
            except ValueError:
                log.warning("the protocol has no messages for game %r", game)

    def on_match_start(self, match: MatchInfo, observation: Message) -> None:
        codec = self._codec = codec_for(match.game)
        self._actions = _action_cache(match.game)
        self._seat = match.seat
        self.bot.on_match_start(match, codec.decode_observation(observation))

    def decide(self, observation: Message, legal_actions: Sequence[Message], context: DecisionContext) -> Message:
        codec = self._require_codec()
        legal = tuple([self._action(m) for m in legal_actions])
        action = self.bot.decide(codec.decode_observation(observation), legal, context)
        for index, candidate in enumerate(legal):
            if candidate is action:
                return legal_actions[index]
        return codec.encode_action(action)

    def _action(self, message: Message) -> Action:
        """Decode a legal action, through a cache keyed by its bytes: the same
        few actions recur all match long, and re-serialising a tiny message
        costs a fraction of building the engine value from it."""
        key = message.SerializeToString()
        action = self._actions.get(key)
        if action is None:
            if len(self._actions) >= _ACTION_CACHE_SIZE:
                self._actions.clear()
            action = self._actions[key] = self._require_codec().decode_action(message)
        return action

    def on_events(self, events: Sequence[Message]) -> None:
        codec, seat = self._require_codec(), self._seat
        self.bot.on_events([codec.decode_event(e, seat) for e in events])

    def on_match_end(self, result: MatchResult) -> None:
        self.bot.on_match_end(Outcome(result.reason, result.ranks, result.detail))

    def _require_codec(self) -> GameCodec:
        if self._codec is None:
            raise RuntimeError("no match in progress: botsdk calls on_match_start first")
        return self._codec
