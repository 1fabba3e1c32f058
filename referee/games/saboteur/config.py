"""The [chosen] values and per-table numbers of the Saboteur rules (S-1, S-2, S-6, S-7), in one place.

rules/saboteur.md fixes what the rulebooks leave open; every such value lives
here rather than as a literal in the engine. Changing one changes the rules, so
it bumps RULES_VERSION.
"""

from __future__ import annotations

from dataclasses import dataclass

RULES_VERSION = "saboteur-3"
"""Bumped when the same decisions would give another match, so an old record
is refused with a clear message instead of failing mid-replay (2: forced
turns are played by the engine; 3: the nugget supply is shuffled anew at
every round's setup, S-2.5)."""

Cell = tuple[int, int]
"""A maze cell (x, y): x grows to the east, y to the north."""


@dataclass(frozen=True, slots=True)
class SaboteurConfig:
    """Table layout, per-player-count numbers and reward amounts."""

    start_cell: Cell = (0, 0)
    """S-2.2: the start card's cell."""
    goal_cells: tuple[Cell, ...] = ((8, 2), (8, 0), (8, -2))
    """S-2.2: the goal cells, listed north to south; goals are shuffled over them."""
    rounds: int = 3
    """S-7.1: rounds per match."""
    roles: tuple[tuple[int, int, int], ...] = (
        (3, 3, 1),
        (4, 4, 1),
        (5, 4, 2),
        (6, 5, 2),
        (7, 5, 3),
        (8, 6, 3),
        (9, 7, 3),
        (10, 7, 4),
    )
    """S-1: (players, gold-diggers, saboteurs) among the dwarf cards dealt."""
    hand_sizes: tuple[tuple[int, int], ...] = ((3, 6), (4, 6), (5, 6), (6, 5), (7, 5), (8, 4), (9, 4), (10, 4))
    """S-1: (players, cards in hand)."""
    gold_draw_max: int = 9
    """S-6.3: nugget cards drawn when the gold is reached: one per player, at most this many."""
    saboteur_rewards: tuple[tuple[int, int], ...] = ((1, 4), (2, 3), (3, 3), (4, 2))
    """S-6.4: (saboteurs in play, nugget value each receives)."""

    def role_counts(self, players: int) -> tuple[int, int]:
        """(gold-diggers, saboteurs) among the players + 1 dwarf cards of S-2.1."""
        for count, diggers, saboteurs in self.roles:
            if count == players:
                return diggers, saboteurs
        raise ValueError(f"Saboteur has no role table for {players} players")

    def hand_size(self, players: int) -> int:
        return dict(self.hand_sizes)[players]

    def gold_draw(self, players: int) -> int:
        return min(players, self.gold_draw_max)

    def saboteur_reward(self, saboteurs: int) -> int:
        """Value each saboteur receives; 0 with no saboteur in play (S-6.4)."""
        return dict(self.saboteur_rewards).get(saboteurs, 0)


DEFAULT_CONFIG = SaboteurConfig()
