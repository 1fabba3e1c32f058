"""What the built-in bots need to play Gnadenlos! (docs/bots.md): the
hand-written heuristic (`policy`, over a seat's view of the table: `view`,
`values`) and the MCTS pieces (`search`)."""

from __future__ import annotations

from referee.games.base import Action, Observation
from referee.games.gnadenlos.observation import GnadenlosObservation
from referee.games.gnadenlos.strategy import search
from referee.games.gnadenlos.strategy.policy import decide
from referee.games.gnadenlos.strategy.view import view_from_observation
from referee.games.strategy import Player, SearchKit, Strategy


class GnadenlosPlayer(Player):
    """The heuristic: it needs nothing but the observation."""

    def decide(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        assert isinstance(observation, GnadenlosObservation)
        action: Action = decide(view_from_observation(observation), legal_actions)
        return action


class GnadenlosStrategy(Strategy):
    rollout_depth = 24
    """Two or three turns."""

    def player(self) -> Player:
        return GnadenlosPlayer()

    def search_kit(self, player: Player) -> SearchKit:
        return SearchKit(rollout=search.heuristic_rollout, candidates=search.candidates, evaluate=search.evaluate)


STRATEGY = GnadenlosStrategy()
