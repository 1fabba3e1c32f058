"""The luck of a Leduc poker hand's cards, to take out of its chips
(rules/leduc.md, L-2.3, L-4.1, L-7.5).

A hand's chips mostly measure its cards: who holds the king, which card
turns up in round 2. Duplicate deals cancel the first when both bots play
a hand's cards from both seats, but not the second, whose worth depends on
the betting that came before it, and the betting differs between the
rotations. AIVAT (Burch, Schmid, Moravcik, Morrill and Bowling, "AIVAT: a
new variance reduction technique for agent evaluation in imperfect
information games", AAAI 2018) subtracts, at each chance event, what the
outcome was worth against what the event was worth on average:

    luck_i = sum over chance events e of  v_i(h_e . c_e) - E_c v_i(h_e . c)

with v_i(h) a value of history h for seat i. The deal of the private cards
(L-2.3) and the public card (L-4.1) are the hand's chance events; the
public card is uniform over the cards nobody holds, whatever was bet, since
no seat sees the deck. So E[luck_i] = 0 for any v and any bots, and
chips - luck is an unbiased measure of what a seat won with the same
expectation as its chips (L-7.5), whatever the bots do: a test checks it
exactly, over every deal and public card.

v is the exact expectation of the returns if every seat played uniformly
at random from h on. Any v keeps the correction unbiased; a better one
takes out more luck. Measured on duplicate hand pairs of the built-in bots
(docs/ladder.md, "Hands as the unit, luck taken out"), uniform play took out
as much as the heuristic with 10 % or 30 % random moves did, and needs no
strategy of any bot: the engine's rules alone define it.

The corrections of a hand are computed from the finished hand (its cards,
betting and end), after it is over, by the referee's state; no seat sees
them during the match. Values depend only on the ranks of the cards (L-5.2
ranks the hands by rank; two players never both pair one rank), so they are
cached by ranks and betting position: after the first hands a hand's luck
costs about 8 us (a 100-hand match of random play took 13.2 us a hand with
it and 5.0 without, in the compiled engine), against milliseconds for a
bot's decision.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from referee.games.leduc.actions import BY_NAME
from referee.games.leduc.cards import deck_size, rank
from referee.games.leduc.config import LUCK_SEATS
from referee.games.leduc.state import LeducState

Values = tuple[float, ...]
"""Each seat's expected return from a history."""

CORRECTED_SWING: dict[int, float] = {2: 31.11, 3: 48.39}
"""The largest difference two seats' chips less luck can have after one
hand, by table size, rounded up: over every deal, betting and public card
(5,520 hands heads-up: 31.109375, against 26 for the chips alone; 1,043,952
at 3 seats: 48.3824..., against 39). tests/test_leduc_luck.py enumerates
them again. Tables of more than LUCK_SEATS have no luck measured: theirs is
hand_swing's."""

_Position = tuple[object, ...]


def _position(state: LeducState) -> _Position:
    """Everything the rest of a hand depends on under uniform play: the
    cards' ranks and the betting position (not how it was reached)."""
    return (state.players, tuple(rank(c) for c in state.hands), rank(state.public) if state.public >= 0 else -1,
            state.round, state.current, state.stakes, state.raises, state.calls, state.pot,
            tuple(state.contributions), tuple(state.folded), state.remaining)


_values: dict[_Position, Values] = {}


def uniform_value(state: LeducState) -> Values:
    """Each seat's expected return if every seat played uniformly at random
    from `state` on, until the hand ends; the public card, when still to
    come, uniform over the cards no seat holds."""
    if state.is_terminal():
        return state.returns
    key = _position(state)
    found = _values.get(key)
    if found is None:
        found = _values[key] = _mean_over_actions(state)
    return found


def _mean_over_actions(state: LeducState) -> Values:
    """The mean over the legal actions of the seat to act; an action that
    ends round 1 leads to the public card, averaged over its outcomes."""
    seat = state.current
    legal = state.legal_actions(seat)
    total = [0.0] * state.players
    for action in legal:
        child = state.clone()  # the walk's states hold the unheld cards, so round 2 finds a deck
        child.apply_unchecked({seat: action})
        opens_round_two = state.round == 1 and child.round == 2 and not child.is_terminal()
        values = public_card_value(child) if opens_round_two else uniform_value(child)
        for i, v in enumerate(values):
            total[i] += v / len(legal)
    return tuple(total)


def public_card_value(state: LeducState) -> Values:
    """The value at round 2's start averaged over the public card (L-4.1):
    each card no seat holds, equally likely."""
    outcomes = _unheld(state)
    total = [0.0] * state.players
    for card in outcomes:
        for i, v in enumerate(uniform_value(_with_public(state, card))):
            total[i] += v / len(outcomes)
    return tuple(total)


def _unheld(state: LeducState) -> list[int]:
    held = set(state.hands)
    return [c for c in range(deck_size(state.players)) if c not in held]


def _dealt(players: int, hands: tuple[int, ...] | list[int]) -> LeducState:
    """A hand just dealt `hands`, the unheld cards its deck (in any order:
    the walk puts every public card in turn)."""
    held = set(hands)
    return LeducState(players, 0, list(hands), [c for c in range(deck_size(players)) if c not in held])


def _with_public(state: LeducState, card: int) -> LeducState:
    twin = state.clone()
    twin.public = card
    return twin


@lru_cache(maxsize=None)
def deal_value(players: int) -> Values:
    """Each seat's value before the deal: the mean of the values after it
    over every ordered deal of one card a seat (L-2.3)."""
    deals = list(itertools.permutations(range(deck_size(players)), players))
    total = [0.0] * players
    for hands in deals:
        for i, v in enumerate(uniform_value(_dealt(players, hands))):
            total[i] += v / len(deals)
    return tuple(total)


def hand_luck(hand: LeducState) -> Values:
    """Each seat's luck in a finished hand: what its private cards and the
    public card were worth to it beyond their average (the module's
    formula). Sums to 0 over the seats, as the chips do (L-5.5)."""
    if not hand.is_terminal():
        raise ValueError("the hand is not over")
    replay = _dealt(hand.players, hand.hands)
    luck = [a - b for a, b in zip(uniform_value(replay), deal_value(hand.players))]
    if hand.public >= 0:
        for bet in hand.history[0]:
            replay.apply_unchecked({bet.seat: BY_NAME[bet.move]})
        dealt = _with_public(replay, hand.public)
        for i, (after, before) in enumerate(zip(uniform_value(dealt), public_card_value(replay))):
            luck[i] += after - before
    return tuple(luck)
