"""The [chosen] values of the Gnadenlos! rules (G-1, G-9.5), in one place.

The rulebooks leave these open or describe a physical board; rules/gnadenlos.md
fixes them. Changing one changes the rules, so it bumps RULES_VERSION.
"""

from __future__ import annotations

from dataclasses import dataclass

RULES_VERSION = "gnadenlos-2"
"""Bumped when the same decisions would give another match, so an old record
is refused with a clear message instead of failing mid-replay (2: a single
legal bid is made by the engine, G-11; a reshuffled adventurer discard pile
starts from ascending ids, docs/chance.md)."""


@dataclass(frozen=True, slots=True)
class PokerSection:
    """G-1: a stretch of the success track and its Poker moves (G-5.8)."""

    first: int
    last: int
    plus: int
    minus: int


@dataclass(frozen=True, slots=True)
class GnadenlosConfig:
    """Board values and limits (G-1, G-7, G-9)."""

    track_first: int = 1
    track_last: int = 35
    start_field: int = 6
    goal_field: int = 30
    undertaker_end: int = 7
    start_nuggets: int = 10
    market_columns: int = 6
    max_prestige_buy: int = 5
    max_final_buy: int = 3
    vulture_penalty: int = 5
    vultures_to_lose: int = 3
    opt_out_penalty: int = 1
    spared_penalty: int = 1
    stall_rounds: int = 1
    turn_limit: int = 400
    poker_sections: tuple[PokerSection, ...] = (
        PokerSection(1, 10, 4, 1),
        PokerSection(11, 17, 3, 2),
        PokerSection(18, 25, 2, 3),
        PokerSection(26, 35, 1, 4),
    )

    def poker_section(self, field: int) -> PokerSection:
        for section in self.poker_sections:
            if section.first <= field <= section.last:
                return section
        raise ValueError(f"field {field} is off the track")

    def clamp_field(self, field: int) -> int:
        return max(self.track_first, min(self.track_last, field))


DEFAULT_CONFIG = GnadenlosConfig()
