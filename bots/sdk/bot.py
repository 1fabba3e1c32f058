"""The built-in bots' interface: subclass `Bot`, implement `decide`.

Observations and actions arrive decoded into the engine's own types
(`GnadenlosObservation` or `SaboteurObservation`, the action dataclasses),
so a search bot can call `load_game(match.game).determinize(observation, rng)`
directly. A bot object lives as long as its process and plays consecutive
matches, one at a time. `MatchInfo` and `DecisionContext` are `botsdk`'s.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import ClassVar

from botsdk import DecisionContext, MatchInfo

from referee.games.base import Action, Event, Observation, Outcome
from referee.games.plugin import plugin
from referee.games.rule_sets import option_tags
from referee.protocol.codec import protocol_games


def every_variant(games: Sequence[str]) -> tuple[str, ...]:
    """The variant tags of every option value of `games`: what a bot that
    plays every variant of its games declares. Read from each game's
    declared options (GamePlugin.variants), not its engine: a bot that
    needs no engine, such as the random bot, starts without loading one."""
    return tuple(tag for game in games for tag in option_tags(game, plugin(game).load("variants") or {}))


class Bot(abc.ABC):
    """A game-playing bot served by `bots.sdk.serve`.

    Class attributes: `name` (required), `version`, `games` (the games it
    plays; the handshake reports them, and a ladder enters the bot only in
    those). The default is every game the protocol carries: a bot that
    only picks among `legal_actions` plays them all, while a bot that reads
    one game's observation must name that game (the heuristic and MCTS bots
    do). `variants`: the variants it plays beyond the base rules, as
    `GAME:OPTION=VALUE` tags (botsdk.Bot's); none by default, and
    `every_variant(games)` for a bot that plays them all (the built-ins).
    """

    name: ClassVar[str]
    version: ClassVar[str] = "1"
    games: ClassVar[tuple[str, ...]] = tuple(protocol_games())
    variants: ClassVar[tuple[str, ...]] = ()

    def on_match_start(self, match: MatchInfo, observation: Observation) -> None:
        """A match begins; `observation` is the seat's view at the start."""

    @abc.abstractmethod
    def decide(
        self, observation: Observation, legal_actions: tuple[Action, ...], context: DecisionContext
    ) -> Action:
        """Return one of `legal_actions` before `context.deadline`. There are
        at least two: the engine plays forced moves itself. An exception here
        ends the match stream, which the referee treats as a crash (the seat
        forfeits)."""

    def on_events(self, events: Sequence[Event]) -> None:
        """Events this seat may see, in the order they happened."""

    def on_match_end(self, outcome: Outcome) -> None:
        """The match is over; `outcome.ranks[seat]` is each seat's place."""
