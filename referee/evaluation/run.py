"""Evaluation matches over the wire: the walk's scripted matches played by a
bot process in its jail, through the one match loop.

Each match is an ordinary refereed match (`referee.match.run_match`): the
bot's `ProcessSeat`, the scripted opponent's `PlayerSeat`, the time control
and the failure policy, MatchStart and MatchEnd. Only two things differ:
the seed is chosen for the bot's card (referee/evaluation/deals.py), and
MatchStart says so (`evaluation`), with the seed committed to as an
evaluation's. The matches are not recorded: the answers are the evidence
(`referee exploitability --answers` writes them).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from botsdk.contract import TimeControl

from referee.evaluation.deals import evaluation_of, evaluation_seed
from referee.evaluation.seats import SCRIPT, AnsweringSeat, ScriptedOpponent
from referee.evaluation.walk import Walk
from referee.match import run_match
from referee.process import BotProcess
from referee.seats.policy import PlayerSeat
from referee.seats.process import ProcessSeat
from referee.untrusted import safe_line

GAME = "leduc"


class BotForfeited(Exception):
    """The bot forfeited an evaluation match (it crashed, or drew its third
    strike in one match): its answers stop there."""


@dataclass(frozen=True)
class Played:
    """What the walk's matches took."""

    matches: int
    faults: Counter[str]
    """The bot's faults by reason (each played by the referee's fallback, and not an answer)."""
    seconds: float
    bot_seconds: float
    """The bot's own answer times, added up."""


def play_walk(bot: BotProcess, walk: Walk, *, time_control: TimeControl,
              after_match: Callable[[Walk], None] | None = None) -> Played:
    """Play the walk's matches with `bot` until the walk ends. Raises
    BotForfeited when the bot forfeits a match, RefereeError when a match
    fails for a reason that is not the bot's."""
    faults: Counter[str] = Counter()
    bot_seconds = 0.0
    started = time.monotonic()
    for target in walk.targets():
        answering = AnsweringSeat(ProcessSeat(bot), walk, walk.tree)
        opponent = PlayerSeat(ScriptedOpponent(walk, target), SCRIPT)
        seats = [answering, opponent] if target.seat == 0 else [opponent, answering]
        result = run_match(GAME, seats, seed=evaluation_seed(target.seat, target.card),
                           time_control=time_control, evaluation=evaluation_of(target.seat))
        seat = result.seats[target.seat]
        faults.update(answering.faults)
        bot_seconds += seat.seconds
        if seat.forfeit is not None:
            raise BotForfeited(f"the bot forfeited evaluation match {walk.matches} ({seat.forfeit}: "
                               f"{safe_line(seat.forfeit_detail)})")
        if after_match is not None:
            after_match(walk)
    return Played(walk.matches, faults, time.monotonic() - started, bot_seconds)
