"""The heuristic bot: plays its game's hand-written strategy from its own observation."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.base import Action, Event, Observation
from referee.games.plugin import game_names, game_of, load_strategy
from referee.games.strategy import Player

from bots.sdk import Bot, DecisionContext, MatchInfo, every_variant


class HeuristicBot(Bot):
    """Each game's hand-written heuristic (its package's `strategy`, docs/bots.md);
    deterministic and fast. A fresh `Player` per match keeps what its seat is
    told (in Saboteur, per-seat suspicion scores from the events)."""

    name = "heuristic"
    version = "1"
    games = tuple(game_names())
    variants = every_variant(games)

    def __init__(self) -> None:
        self.player: Player | None = None
        self.game = ""

    def on_match_start(self, match: MatchInfo, observation: Observation) -> None:
        self._start(match.game, observation)

    def _start(self, game: str, observation: Observation) -> Player:
        self.game = game
        self.player = load_strategy(game).player()
        self.player.start(observation)
        return self.player

    def on_events(self, events: Sequence[Event]) -> None:
        if self.player is not None:
            self.player.on_events(events)

    def decide(
        self, observation: Observation, legal_actions: tuple[Action, ...], context: DecisionContext
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        player = self.player
        if player is None or game_of(observation) != self.game:  # asked without a match start (tests, tools)
            player = self._start(game_of(observation), observation)
        return player.decide(observation, legal_actions)
