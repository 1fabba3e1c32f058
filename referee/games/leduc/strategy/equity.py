"""How good a Leduc poker hand is: its chance to win a showdown (L-5.2, L-5.3).

The equity of a private card against one other seat is the chance it wins
a showdown against that seat's card, a tie counting half, over every card
the other seat may hold and, before the public card is dealt, every public
card: an exact count over the cards the seat cannot see, cached (there are
at most 22 x 23 positions). Against k seats still in, the heuristic takes
its k-th power: the chance to beat each of them, as if their cards were
independent (they are almost: the deck is small, the error is a few percent).
"""

from __future__ import annotations

from functools import lru_cache

from referee.games.leduc.cards import deck_size, hand_strength


@lru_cache(maxsize=None)
def equity(card: int, public: int | None, players: int) -> float:
    """The chance `card` beats one random other card at the showdown, ties half."""
    cards = [c for c in range(deck_size(players)) if c not in (card, public)]
    publics = [public] if public is not None else cards
    total = 0.0
    count = 0
    for board in publics:
        mine = hand_strength(card, board, players)
        for other in cards:
            if other == board:
                continue
            theirs = hand_strength(other, board, players)
            total += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            count += 1
    return total / count


def win_chance(card: int, public: int | None, players: int, opponents: int) -> float:
    """The chance to beat `opponents` seats still in, each independently."""
    return float(equity(card, public, players) ** opponents)
