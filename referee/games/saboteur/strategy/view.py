"""What the Saboteur heuristic reads about its seat's situation, from two sources.

`view_from_observation` builds it from a `SaboteurObservation` (S-8): what the
heuristic bot uses when it plays. `view_from_state` builds it from a full
state for the MCTS bot's rollouts in a determinization it sampled itself:
there a seat reads only what that seat would know in that imagined world (its
own role and hand, the goals it looked at), never the other seats' cards.

Both take the per-seat suspicion scores of the bot's `Suspicion` tracker:
log-odds, from public events, that a seat is a saboteur.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from referee.games.saboteur.cards import NAME, SABOTEUR, THROUGH
from referee.games.saboteur.config import DEFAULT_CONFIG, Cell
from referee.games.saboteur.observation import SaboteurObservation
from referee.games.saboteur.state import SaboteurState

from referee.games.saboteur.strategy.tunnel import GOAL_CELLS, Outlook, Tunnel, card


@dataclass(slots=True)
class SaboteurView:
    """One seat's picture of a Saboteur round."""

    seat: int
    n: int
    saboteur: bool
    hand: Sequence[str]
    broken: Sequence[Collection[str]]
    """Per seat, its broken tools (S-5.1)."""
    outlook: Outlook
    """The tunnel and its distance to where this seat believes the gold is."""
    gold_known: bool
    """This seat knows which goal holds the gold."""
    unknown_goals: tuple[Cell, ...]
    """Face-down goals this seat has not looked at (S-5.4)."""
    suspicion: Sequence[float]
    saboteurs: int
    """Saboteur cards among the dwarf cards dealt (S-1, S-2.1)."""

    def saboteur_chance(self, other: int) -> float:
        """The chance `other` is a saboteur: the prior of the dwarf deal
        (the unseen saboteur cards over the other seats and the set-aside
        card), moved by its suspicion score; exact for this seat."""
        if other == self.seat:
            return 1.0 if self.saboteur else 0.0
        unseen = self.saboteurs - (1 if self.saboteur else 0)
        prior = unseen / self.n  # n - 1 other seats and the set-aside card
        if prior <= 0.0:
            return 0.0
        if prior >= 1.0:
            return 1.0
        logit = math.log(prior / (1 - prior)) + self.suspicion[other]
        return 1.0 / (1.0 + math.exp(-logit))


def gold_weights(goals: Sequence[tuple[Cell, str | None, bool]]) -> tuple[dict[Cell, float], bool]:
    """Per goal cell, the chance it holds the gold, from (cell, card if known,
    revealed) triples; and whether the gold's place is known. A goal seen to
    be stone holds nothing; the unseen ones share the chance equally."""
    for cell, name, _ in goals:
        if name == "gold":
            return {cell: 1.0}, True
    unseen = [cell for cell, name, revealed in goals if name is None and not revealed]
    if not unseen:
        return {}, True
    return {cell: 1.0 / len(unseen) for cell in unseen}, len(unseen) == 1


def tunnel_from_observation(obs: SaboteurObservation) -> Tunnel:
    cards = {(p.x, p.y): card(p.card, p.turned) for p in obs.maze}
    hidden = []
    for goal in obs.goals:
        if goal.revealed:
            assert goal.card is not None
            cards[(goal.x, goal.y)] = card(goal.card, goal.turned)
        else:
            hidden.append((goal.x, goal.y))
    return Tunnel(cards, hidden)


def view_from_observation(obs: SaboteurObservation, suspicion: Sequence[float]) -> SaboteurView:
    """The view of the seat that received `obs`, using nothing else."""
    goals = [((g.x, g.y), g.card, g.revealed) for g in obs.goals]
    weights, known = gold_weights(goals)
    return SaboteurView(
        seat=obs.seat,
        n=obs.num_seats,
        saboteur=obs.role == SABOTEUR,
        hand=obs.hand,
        broken=obs.broken,
        outlook=Outlook(tunnel_from_observation(obs), weights),
        gold_known=known,
        unknown_goals=tuple(cell for cell, name, revealed in goals if name is None and not revealed),
        suspicion=suspicion,
        saboteurs=DEFAULT_CONFIG.role_counts(obs.num_seats)[1],
    )


def tunnel_from_state(state: SaboteurState) -> Tunnel:
    """The maze of a full state (its connectivity as the engine keeps it)."""
    cards: dict[Cell, tuple[int, bool]] = {}
    hidden: list[Cell] = []
    for cell, (instance, _) in state.cells.items():
        edges = state.edges.get(cell)
        if edges is None:
            hidden.append(cell)
        else:
            cards[cell] = (edges, THROUGH[instance])
    return Tunnel(cards, hidden, state.conn)


def view_from_state(state: SaboteurState, seat: int, suspicion: Sequence[float]) -> SaboteurView:
    """The view of `seat` in a full (determinized) state, from that seat's
    knowledge in it only: its role, its hand, the goals it knows. Distances
    are Manhattan distances (referee/games/saboteur/strategy/tunnel.py): rollouts need speed."""
    bit = 1 << seat
    goals = []
    for cell, instance, up in zip(GOAL_CELLS, state.goals, state.goal_up):
        goals.append((cell, NAME[instance] if up or state.known[instance] & bit else None, up))
    weights, known = gold_weights(goals)
    return SaboteurView(
        seat=seat,
        n=state.n,
        saboteur=NAME[state.roles[seat]] == SABOTEUR,
        hand=[NAME[c] for c in state.hands[seat]],
        broken=state.broken,
        outlook=Outlook(tunnel_from_state(state), weights, exact=False),
        gold_known=known,
        unknown_goals=tuple(cell for cell, name, up in goals if name is None and not up),
        suspicion=suspicion,
        saboteurs=state.cfg.role_counts(state.n)[1],
    )

