"""The numbers of Leduc poker (rules/leduc.md, L-1 to L-5), in one place.

They are OpenSpiel's `leduc_poker` defaults (leduc_poker.h): changing one
changes the rules, so it bumps RULES_VERSION, and the cross-check against
OpenSpiel (tests/test_leduc_openspiel.py) would then fail.
"""

from __future__ import annotations

RULES_VERSION = "leduc-1"
"""Bumped when the same decisions would give another match."""

MIN_PLAYERS = 2
MAX_PLAYERS = 10
"""L-1.1: OpenSpiel's min_num_players and max_num_players."""
SUITS = 2
"""L-1.2: two suits of players + 1 ranks."""
STARTING_CHIPS = 100
"""L-1.3: every player's chips before the ante (kStartingMoney)."""
ANTE = 1
"""L-2.1: what every player puts in the pot first (kAnte)."""
RAISE_AMOUNTS = (2, 4)
"""L-3.5: a raise's size in rounds 1 and 2 (kFirstRaiseAmount, kSecondRaiseAmount)."""
MAX_RAISES = 2
"""L-3.5: raises per round, all players together (kMaxRaises)."""
FIRST_PLAYER = 0
"""L-3.1: the seat that starts each betting round (OpenSpiel's starting_player)."""


LUCK_SEATS = 3
"""L-7.5: the largest table whose hands' luck is measured. The values of
uniform play are cached by position: heads-up 486 of them, found in under
0.01 s; 3 seats 31,176 more in 0.17 s; 4 seats 2.1 million in 20 s, too
much for a referee's process (referee.games.leduc.luck)."""


def max_decisions(players: int) -> int:
    """The longest match in decisions: two rounds of at most 3N - 2 bets
    each (OpenSpiel's MaxGameLength)."""
    return 2 * (3 * players - 2)
