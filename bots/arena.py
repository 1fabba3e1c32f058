"""An in-process match loop for bots: the referee's view of a match, minus processes.

For the strength benchmark and tests. Each seat's bot gets exactly what the
protocol would give it: its own observation (`state.observe(seat)`), its legal
actions, a decision context with a deadline, and the events its seat may see
(the setup's too, after the match start, as the referee sends them).
All seats of a simultaneous decision (G-5.4) are asked before any answer is
applied, each from the same position, so no bot sees another's commitment.
A bot that returns an action not among its legal actions raises
`IllegalActionError`: the arena is for trusted built-in bots and never repairs
a decision.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.games import load_game
from referee.games.base import IllegalActionError, Outcome

from bots.sdk import Bot, DecisionContext, MatchInfo, TimeControl


@dataclass
class ArenaResult:
    """How a match ended, and how long each seat thought."""

    outcome: Outcome
    decisions: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)


def play_match(
    bots: Sequence[Bot],
    seed: int,
    *,
    game: str = "gnadenlos",
    variant: Mapping[str, str] | None = None,
    move_time: float = 1.0,
) -> ArenaResult:
    """Play one match, seat i played by bots[i]; returns the outcome and timings."""
    rules = load_game(game)
    state, setup = rules.new_state_with_events(len(bots), seed, variant)
    names = tuple(b.name for b in bots)
    control = TimeControl(move_time=move_time)
    infos = [
        MatchInfo(f"arena-{seed}", game, dict(variant or {}), seat, len(bots), names, control)
        for seat in range(len(bots))
    ]
    result = ArenaResult(outcome=Outcome("", ()), decisions=[0] * len(bots), seconds=[0.0] * len(bots))
    for seat, bot in enumerate(bots):
        bot.on_match_start(infos[seat], state.observe(seat))
    _notify(bots, setup)
    request = 0
    while not state.is_terminal():
        chosen: dict[int, Any] = {}
        for seat in sorted(state.to_act()):
            legal = state.legal_actions(seat)
            request += 1
            started = time.monotonic()
            context = DecisionContext(infos[seat], request, started + move_time)
            action = bots[seat].decide(state.observe(seat), legal, context)
            result.seconds[seat] += time.monotonic() - started
            result.decisions[seat] += 1
            if action not in legal:
                raise IllegalActionError(f"bot {names[seat]} (seat {seat}) chose {action}, not a legal action")
            chosen[seat] = action
        _notify(bots, state.apply(chosen))
    result.outcome = state.outcome()
    for bot in bots:
        bot.on_match_end(result.outcome)
    return result


def _notify(bots: Sequence[Bot], events: Sequence[Any]) -> None:
    """Tell each seat's bot the events its seat may see, in order."""
    for seat, bot in enumerate(bots):
        seen = [e for e in events if seat in e.visible_to]
        if seen:
            bot.on_events(seen)
