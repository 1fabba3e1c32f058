"""The heuristic bot: plays the rules of `policy` from its own observation."""

from __future__ import annotations

from referee.games.base import Action, Observation
from referee.games.gnadenlos.observation import GnadenlosObservation

from bots.heuristic.policy import decide
from bots.heuristic.view import view_from_observation
from bots.sdk import Bot, DecisionContext


class HeuristicBot(Bot):
    """A hand-written Gnadenlos! strategy (docs/bots.md); deterministic and fast."""

    name = "heuristic"
    version = "1"
    games = ("gnadenlos",)

    def decide(
        self, observation: Observation, legal_actions: tuple[Action, ...], context: DecisionContext
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        assert isinstance(observation, GnadenlosObservation)
        return decide(view_from_observation(observation), legal_actions)  # type: ignore[no-any-return]
