"""What the built-in bots need to play Leduc poker (docs/bots.md): the
hand-strength heuristic (`policy`, over `equity`) and the MCTS pieces (`search`)."""

from __future__ import annotations

from referee.games.base import Action, Observation
from referee.games.leduc.config import MAX_PLAYERS, max_decisions
from referee.games.leduc.observation import LeducObservation
from referee.games.leduc.strategy import policy, search
from referee.games.strategy import Player, SearchKit, Strategy


def view_of_observation(observation: LeducObservation) -> policy.View:
    """The heuristic's view from what the seat knows (L-6)."""
    seat = observation.seat
    return policy.View(
        players=observation.num_seats,
        card=observation.card,
        public=observation.public_card,
        to_call=observation.stakes - observation.contributions[seat],
        pot=observation.pot,
        opponents=observation.folded.count(False) - 1,
    )


class LeducPlayer(Player):
    """The heuristic: it needs nothing but the seat's observation."""

    def decide(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        assert isinstance(observation, LeducObservation)
        return policy.decide(view_of_observation(observation), legal_actions)


class LeducStrategy(Strategy):
    rollout_depth = max_decisions(MAX_PLAYERS)
    """Longer than any match: rollouts play to the end, which costs little
    (a match has at most 2(3N - 2) decisions); `search.evaluate` serves a
    shorter depth given to the bot."""

    def player(self) -> Player:
        return LeducPlayer()

    def search_kit(self, player: Player) -> SearchKit:
        return SearchKit(rollout=search.rollout, candidates=search.candidates, evaluate=search.evaluate,
                         seat_key=search.seat_key)


STRATEGY = LeducStrategy()
