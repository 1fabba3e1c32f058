"""What the built-in bots need to play Saboteur (docs/bots.md): the
hand-written heuristic (`policy`, over a seat's view: `view`, `tunnel`), the
suspicion scores it keeps from the events its seat is told (`suspicion`),
and the MCTS pieces (`search`)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.base import Action, Event, Observation
from referee.games.saboteur.observation import SaboteurObservation
from referee.games.saboteur.strategy import policy, search
from referee.games.saboteur.strategy.suspicion import Suspicion
from referee.games.saboteur.strategy.view import view_from_observation
from referee.games.strategy import Player, SearchKit, Strategy


class SaboteurPlayer(Player):
    """The heuristic, with per-seat suspicion scores from the events its seat is told."""

    def __init__(self) -> None:
        self.suspicion = Suspicion()

    def start(self, observation: Observation) -> None:
        assert isinstance(observation, SaboteurObservation)
        self.suspicion = Suspicion()
        self.suspicion.sync(observation)

    def on_events(self, events: Sequence[Event]) -> None:
        self.suspicion.on_events(events)

    def decide(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        assert isinstance(observation, SaboteurObservation)
        self.suspicion.sync(observation)
        action: Action = policy.decide(view_from_observation(observation, self.suspicion.scores), legal_actions)
        return action


class SaboteurStrategy(Strategy):
    rollout_depth = 8
    """About one round of turns at a table of eight."""

    def player(self) -> Player:
        return SaboteurPlayer()

    def search_kit(self, player: Player) -> SearchKit:
        """Rollouts and determinizations use the player's suspicion scores:
        the unseen roles are dealt by them (`search.RoleDeal`)."""
        assert isinstance(player, SaboteurPlayer)
        playout = search.SaboteurPlayout()
        roles = search.RoleDeal()

        def prepare(observation: Observation) -> None:
            assert isinstance(observation, SaboteurObservation)
            player.suspicion.sync(observation)
            playout.suspicion = list(player.suspicion.scores)
            roles.prepare(observation, player.suspicion.scores)

        return SearchKit(rollout=playout, candidates=search.candidates, estimate=search.estimate,
                         seat_key=search.seat_key, refine=roles, prepare=prepare)


STRATEGY = SaboteurStrategy()
