"""Determinization for Leduc poker: a full state consistent with one observation.

The inverse of the observation (L-6), as OpenSpiel's ResampleFromInfostate:
the seat keeps its own card and sees the public card where it is; the cards
it does not know (the other seats' private cards and the deck) are dealt at
random from the rest of the deck, and the betting history is replayed
through the rules. The replay makes every public figure (stakes, pot,
contributions, who is to act) the observation's own.

One observation says more than the betting: the result of a showdown (who
won the pot, L-5.3) tells something of the cards of the seats that were in
it, though they are never shown (L-5.4). A determinization of a finished
showdown therefore deals those seats only hands that give the same winners:
exactly, drawn uniformly among the deals that do (`_showdown_cards`).
Before the end nothing but the betting is known of the others, and the
deal is uniform over the unseen cards; a search may refine it with what it
believes of the others' play. The new state's seed, kept only for its
JSON, comes from the caller's generator, never from the match seed.
"""

from __future__ import annotations

import math
import random

from referee.games.base import Seat
from referee.games.leduc.actions import BY_NAME
from referee.games.leduc.cards import deck_size, hand_strength
from referee.games.leduc.observation import LeducObservation
from referee.games.leduc.state import SHOWDOWN, LeducState


def determinize(obs: LeducObservation, rng: random.Random) -> LeducState:
    """A state drawn at random among those `obs.seat` cannot tell from the truth."""
    known = {obs.card} if obs.public_card is None else {obs.card, obs.public_card}
    unseen = [card for card in range(deck_size(obs.num_seats)) if card not in known]
    hands = {obs.seat: obs.card}
    if obs.end_reason == SHOWDOWN:
        hands.update(_showdown_cards(obs, unseen, rng))
    rest = [card for card in unseen if card not in hands.values()]
    rng.shuffle(rest)
    for seat in range(obs.num_seats):
        if seat not in hands:
            hands[seat] = rest.pop()
    if obs.public_card is not None:
        rest.append(obs.public_card)  # on top: dealt where round 2 begins
    state = LeducState(obs.num_seats, rng.getrandbits(63), [hands[s] for s in range(obs.num_seats)], rest)
    for bets in obs.history:
        for bet in bets:
            state.apply_unchecked({bet.seat: BY_NAME[bet.move]})
    return state


def _showdown_cards(obs: LeducObservation, unseen: list[int], rng: random.Random) -> dict[Seat, int]:
    """Cards for the other seats of a showdown that give its winners (L-5.2,
    L-5.3), uniform among all such deals.

    A deal gives the winners when every winner's hand is worth the same
    value v and every other seat in the showdown's less. For each possible v
    the number of deals is the ordered picks of the other winners' cards
    among the unseen cards worth v, times those of the losers' cards among
    the unseen cards worth less (the cards left over go anywhere, the same
    count for every v); v is drawn by that weight, then the cards uniformly.
    """
    public = obs.public_card
    assert public is not None
    worth = {card: hand_strength(card, public, obs.num_seats) for card in unseen}
    in_showdown = [s for s in range(obs.num_seats) if not obs.folded[s] and s != obs.seat]
    winners = [s for s in in_showdown if s in obs.winners]
    losers = [s for s in in_showdown if s not in obs.winners]
    own = None if obs.folded[obs.seat] else hand_strength(obs.card, public, obs.num_seats)
    if own is None:
        values = sorted(set(worth.values()))
    elif obs.seat in obs.winners:
        values = [own]
    else:
        values = sorted(v for v in set(worth.values()) if v > own)
    choices: list[tuple[list[int], list[int]]] = []
    weights: list[int] = []
    for value in values:
        equal = [card for card in unseen if worth[card] == value]
        below = [card for card in unseen if worth[card] < value]
        weight = math.perm(len(equal), len(winners)) * math.perm(len(below), len(losers))
        if weight:
            choices.append((equal, below))
            weights.append(weight)
    if not choices:
        raise ValueError("no deal of the unseen cards gives this showdown's winners")
    equal, below = rng.choices(choices, weights)[0]
    return dict(zip(winners + losers, rng.sample(equal, len(winners)) + rng.sample(below, len(losers))))
