"""The cards of Leduc poker for N players (L-1.2) and how a hand ranks (L-5.2).

A card is its number in OpenSpiel's order, which is also the chance outcome
OpenSpiel deals it with: the lowest rank in the first suit, the lowest rank
in the second suit, the next rank in the first suit, and so on; card c has
rank c // 2 and suit c % 2. With two players the six cards are J J Q Q K K.
Suits never matter for the ranking; they only make the two cards of a rank
two different cards.
"""

from __future__ import annotations

from referee.games.leduc.config import SUITS

RANK_NAMES = "23456789TJQK"
"""Names of the ranks, highest last: N players use the top N + 1 (J Q K for
two players, as in the original Leduc hold'em; 3 to K for ten). Cosmetic."""
SUIT_NAMES = ("♠", "♥")


def deck_size(players: int) -> int:
    """L-1.2: two suits of players + 1 ranks."""
    return SUITS * (players + 1)


def rank(card: int) -> int:
    return card // SUITS


def rank_name(rank_: int, players: int) -> str:
    return RANK_NAMES[len(RANK_NAMES) - (players + 1) + rank_]


def card_name(card: int, players: int) -> str:
    """E.g. "K♥" for card 5 with two players."""
    return rank_name(rank(card), players) + SUIT_NAMES[card % SUITS]


def hand_strength(private: int, public: int, players: int) -> int:
    """L-5.2: a hand's showdown value, higher is better, equal values tie.

    OpenSpiel's RankHand, to the number: a pair (private and public card of
    one rank) is worth deck_size**2 + its lower card, above every other
    hand; any other hand is worth its higher rank * deck_size + its lower rank.
    """
    low, high = sorted((public, private))
    cards = deck_size(players)
    if rank(low) == rank(high):
        return cards * cards + low
    return rank(high) * cards + rank(low)
