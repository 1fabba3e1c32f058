"""The two seats of an evaluation match: the bot's, whose answers are
noted, and the scripted opponent, which the walk plays.

Both sit in the one match loop (referee/match.py) as any seat does, so
the bot is told exactly what any match tells its seat — its observation,
its legal actions, the events it may see (L-6) — and its answers go
through the same failure policy.
"""

from __future__ import annotations

from collections.abc import Sequence

from botsdk.encoding import encoding_for

from referee.evaluation.tree import PublicKey, Tree
from referee.evaluation.walk import Target, Walk
from referee.games.base import Action, Event, Observation
from referee.games.leduc.actions import BY_NAME, MOVES, LeducAction
from referee.games.leduc.codec import encode_observation
from referee.games.leduc.observation import Bet, LeducObservation
from referee.games.strategy import Player
from referee.seats.base import Answer, MatchEnd, MatchStart, Request, Seat, SeatInfo

SCRIPT = "script"
"""The scripted opponent's name, which the bot sees among the seat names."""


def public_key(observation: LeducObservation) -> PublicKey:
    """Where the match stands in public: the public card and each round's
    actions as OpenSpiel's ids. Nothing of the observer's own card."""
    def ids(bets: tuple[Bet, ...]) -> tuple[int, ...]:
        return tuple(BY_NAME[bet.move].code for bet in bets)
    return observation.public_card, ids(observation.history[0]), ids(observation.history[1])


class ScriptedOpponent(Player):
    """The opponent of an evaluation match: each action is the walk's
    choice for where the match stands in public (`public_key`). It never
    reads its own card, so its actions tell the bot nothing of it."""

    def __init__(self, walk: Walk, target: Target) -> None:
        self.walk = walk
        self.target = target

    def decide(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        if not isinstance(observation, LeducObservation):
            raise TypeError("the scripted opponent plays Leduc poker")
        action = MOVES[self.walk.opponent_action(self.target, public_key(observation))]
        if action not in legal_actions:  # the walk's tree and the engine disagree: a bug, never repaired
            raise ValueError(f"the walk chose {action}, which is not legal here")
        return action


class AnsweringSeat(Seat):
    """The evaluated bot's seat (`inner`, a process in its jail) with every
    answer it gives noted in the walk, by information state (OpenSpiel's
    string, as the bot SDK computes it from the observation the bot was
    sent). A fault is not an answer: it is counted in `faults`, and the
    loop's fallback plays instead."""

    def __init__(self, inner: Seat, walk: Walk, tree: Tree) -> None:
        self.inner = inner
        self.kind = inner.kind
        self.waits = inner.waits
        self.walk = walk
        self.index = tree.index
        self.encoding = encoding_for("leduc", 2)
        self.faults: list[str] = []
        """The reason of each fault of the bot (timeouts, illegal answers, ...)."""
        self._row = -1
        self._legal: tuple[Action, ...] = ()

    @property
    def info(self) -> SeatInfo:
        return self.inner.info

    def start(self, start: MatchStart) -> None:
        self.inner.start(start)

    def tell(self, events: Sequence[Event]) -> None:
        self.inner.tell(events)

    def send(self, request: Request) -> None:
        observation = request.observation
        if not isinstance(observation, LeducObservation):
            raise TypeError("an evaluation match is a Leduc poker match")
        self._row = self.index[self.encoding.information_state_string(encode_observation(observation))]
        self._legal = request.legal_actions
        self.inner.send(request)

    def collect(self) -> Answer:
        answer = self.inner.collect()
        if answer.fault is not None:
            self.faults.append(answer.fault.reason)
        elif isinstance(answer.action, LeducAction) and answer.action in self._legal:
            self.walk.record(self._row, answer.action.code)
        else:  # the loop strikes it as illegal
            self.faults.append("illegal")
        return answer

    def end(self, end: MatchEnd) -> None:
        self.inner.end(end)

    def dismiss(self) -> None:
        self.inner.dismiss()
