"""The hand-written Leduc poker heuristic (docs/bots.md): bet by hand strength and pot odds.

From a seat's view of the table:

- raise (L-3.5) when the chance to win the showdown against the seats still
  in is well above a fair share of the pot: `RAISE_EDGE` times 1 / (seats in);
- call (L-3.3) when that chance is worth the price: at least the pot odds,
  what the call costs over the pot after it; a call that costs nothing (a
  check) always;
- else fold (L-3.4).

Deterministic: the same view gives the same decision. The MCTS bot's
rollouts add a little randomness (`BLUFF`), so that its imagined opponents
do not always play the same hand the same way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from referee.games.base import Action
from referee.games.leduc.actions import CALL, FOLD, RAISE
from referee.games.leduc.strategy.equity import win_chance

RAISE_EDGE = 1.5
"""Raise when the chance to win is this many times a fair share (1 / seats in)."""
BLUFF = 0.1
"""In rollouts, the share of decisions taken at random instead."""


@dataclass(frozen=True, slots=True)
class View:
    """What the heuristic reads of the table, from an observation or a state."""

    players: int
    card: int
    public: int | None
    to_call: int
    """What a call costs now."""
    pot: int
    opponents: int
    """The other seats still in."""


def decide(view: View, legal: tuple[Action, ...]) -> Action:
    """The heuristic's choice among `legal` (at least call and one other)."""
    chance = win_chance(view.card, view.public, view.players, view.opponents)
    if RAISE in legal and chance * (view.opponents + 1) >= RAISE_EDGE:
        return RAISE
    if view.to_call == 0 or FOLD not in legal:
        return CALL
    return CALL if chance >= view.to_call / (view.pot + view.to_call) else FOLD


def rollout_decide(view: View, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """`decide`, or with chance BLUFF a random legal action."""
    if rng.random() < BLUFF:
        return legal[rng.randrange(len(legal))]
    return decide(view, legal)
