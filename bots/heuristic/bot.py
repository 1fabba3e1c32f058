"""The heuristic bot: plays the rules of its game's policy from its own observation."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.base import Action, Event, Observation
from referee.games.gnadenlos.observation import GnadenlosObservation
from referee.games.saboteur.observation import SaboteurObservation

from bots.heuristic import policy, saboteur
from bots.heuristic.saboteur_view import view_from_observation as saboteur_view
from bots.heuristic.suspicion import Suspicion
from bots.heuristic.view import view_from_observation
from bots.sdk import Bot, DecisionContext, MatchInfo


class HeuristicBot(Bot):
    """Hand-written strategies for Gnadenlos! and Saboteur (docs/bots.md);
    deterministic and fast. For Saboteur it keeps per-seat suspicion scores
    from the events its seat is told (bots/heuristic/suspicion.py)."""

    name = "heuristic"
    version = "1"
    games = ("gnadenlos", "saboteur")

    def __init__(self) -> None:
        self.suspicion = Suspicion()

    def on_match_start(self, match: MatchInfo, observation: Observation) -> None:
        self.suspicion = Suspicion()
        if isinstance(observation, SaboteurObservation):
            self.suspicion.sync(observation)

    def on_events(self, events: Sequence[Event]) -> None:
        self.suspicion.on_events(events)

    def decide(
        self, observation: Observation, legal_actions: tuple[Action, ...], context: DecisionContext
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if isinstance(observation, SaboteurObservation):
            self.suspicion.sync(observation)
            view = saboteur_view(observation, self.suspicion.scores)
            return saboteur.decide(view, legal_actions)  # type: ignore[no-any-return]
        assert isinstance(observation, GnadenlosObservation)
        return policy.decide(view_from_observation(observation), legal_actions)  # type: ignore[no-any-return]
