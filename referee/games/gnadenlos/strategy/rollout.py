"""The heuristic's rules (policy.py) played from a determinized state: the
MCTS bot's rollout policy and tree hint.

The search samples a full state from its own observation (determinize.py),
so every card of that imagined world may be read, as if the seat saw it:
each rule's figures come straight from the state, and the rule's scoring is
policy.py's own (`<decision>_choice`). Nothing in between is built: a
rollout step once assembled a whole `SeatView` and most of its lists for a
rule that reads a few numbers, and that was a third of the search's time
(issue 30; docs/benchmarks.md, "Engine speed").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from referee.games.gnadenlos.cards import EVENT_RATINGS, IOU_COLOUR, IOU_VALUE, IOUS
from referee.games.gnadenlos.state import (
    BID, BID_POSITION, BUY, COMMIT, FINAL_BUY, ORDER, PICK, REFILL, TAKE, GnadenlosState, every_bid,
)

from referee.games.gnadenlos.strategy.policy import (
    BidGroups,
    bid_choice,
    bid_position_choice,
    best_rating,
    buy_choice,
    commit_choice,
    order_choice,
    pick_choice,
    refill_value,
    take_value,
)
from referee.games.gnadenlos.strategy.values import unit_value


def rollout_choice(state: GnadenlosState, seat: int, legal: Sequence[Any]) -> Any:
    """What the heuristic plays for `seat` among `legal` (at least two actions)."""
    phase = state.phase
    if phase == COMMIT:
        return _commit(state, seat, legal)
    if phase == BID:
        return _bid(state, seat)
    if phase == BUY:
        own = _own_in_market(state, seat)
        return buy_choice(legal, seat, state.fields, state.nuggets, float(own), len(state.adv_hands[seat]))
    if phase == PICK:
        return pick_choice(legal)
    if phase == TAKE:
        return _take(state, seat, legal)
    if phase == REFILL:
        return _refill(state, seat, legal)
    if phase == FINAL_BUY:
        return legal[-1]  # G-9.4: fields rank before nuggets, so buy all allowed.
    if phase == BID_POSITION:
        return bid_position_choice(legal, bool(state.iou_hands[seat]))
    if phase == ORDER:
        return order_choice(legal)
    return legal[0]


def _commit(state: GnadenlosState, seat: int, legal: Sequence[Any]) -> Any:
    """G-5.4: each rival is expected to commit its best card for the event."""
    ratings = EVENT_RATINGS[state.event]
    rivals = [best_rating(ratings, state.adv_hands[s]) for s in state.participants if s != seat]
    return commit_choice(legal, state.event, rivals, state.fields[seat])


def _bid(state: GnadenlosState, seat: int) -> Any:
    """G-6: the bids made (their totals no other bid may use, G-6.2), the
    most each later bidder can bid (its three best IOUs), the lots on offer
    (only the first in a single-card auction, G-6.7) and the nuggets left
    after the seat's IOUs in the market."""
    order = state.bid_order
    later: list[int] = []
    for place in range(order.index(seat) + 1, len(order)):
        later.append(_three_best(state.iou_hands[order[place]]))
    made_totals: list[int] = []
    made_sizes: list[int] = []
    used = 0
    for bid in state.bids:
        if bid is not None:
            total = -1 if not bid else 0  # -1: a pass (G-6.3)
            for card in bid:
                total += IOU_VALUE[card]
            made_totals.append(total)
            made_sizes.append(len(bid))
            if bid:
                used |= 1 << total
    hand = len(state.adv_hands[seat])
    units = state.units
    if state.ordered:
        values = [unit_value(units[0], hand)]
    else:
        values = sorted([unit_value(unit, hand) for unit in units], reverse=True)
    filled = own = 0
    for row in state.market:
        for card in row:
            if card >= 0:
                filled += 1
                if IOU_COLOUR[card] == seat:
                    own += IOU_VALUE[card]
    spare = state.nuggets[seat] - float(own)
    groups = hand_groups(state.iou_hands[seat], seat)
    return bid_choice(groups, used, later, made_totals, made_sizes, values, spare, state.n, filled)


def hand_groups(hand: list[int], seat: int) -> BidGroups:
    """The `BidGroups` of every bid of this IOU hand (G-6.2, G-6.4: 1 to 3 of
    its IOUs, the engine's `every_bid`), cached by the hand's IOUs and the
    seat. The legal bids are those whose total no earlier bid took, so
    `bid_choice` skips the used totals' groups: grouping the legal bids
    would give the others alike, in the same order. Some 1,700 hands meet
    15,000 lists of legal bids in a probe's searches: each list grouped
    anew was a twentieth of the search's time."""
    key = seat  # the hand as a multiset in one integer: 2 bits per identity (at most 3 alike), above the seat
    for card in hand:
        key += 1 << (2 + 2 * (IOU_COLOUR[card] * 5 + IOU_VALUE[card]))
    found = _HAND_GROUPS.get(key)
    if found is None:
        bids = every_bid(tuple(sorted([IOUS[card] for card in hand])))[0]
        found = BidGroups(bids, seat)
        if len(_HAND_GROUPS) >= _HAND_GROUPS_LIMIT:
            _HAND_GROUPS.clear()
        _HAND_GROUPS[key] = found
    return found


_HAND_GROUPS: Final[dict[int, BidGroups]] = {}
_HAND_GROUPS_LIMIT: Final = 20_000


def _three_best(hand: Sequence[int]) -> int:
    """The highest total these IOUs bid (G-6.2: at most three of them)."""
    first = second = third = 0  # values are 0 to 4: a missing card counts 0
    for card in hand:
        value = IOU_VALUE[card]
        if value > first:
            first, second, third = value, first, second
        elif value > second:
            second, third = value, second
        elif value > third:
            third = value
    return first + second + third


def _own_in_market(state: GnadenlosState, seat: int) -> int:
    """The value of `seat`'s IOUs in the market (G-8.2: what it will pay)."""
    own = 0
    for row in state.market:
        for card in row:
            if card >= 0 and IOU_COLOUR[card] == seat:
                own += IOU_VALUE[card]
    return own


def _take(state: GnadenlosState, seat: int, legal: Sequence[Any]) -> Any:
    market = state.market
    best: Any = None
    best_score = 0.0
    for action in legal:
        card = market[action.row][action.col]
        score = take_value(IOU_COLOUR[card], IOU_VALUE[card], seat) + 0.01 * action.row
        if best is None or score > best_score:  # the first of equals
            best, best_score = action, score
    return best


def _refill(state: GnadenlosState, seat: int, legal: Sequence[Any]) -> Any:
    last = state.market[-1]
    best: Any = None
    best_score = 0.0
    for action in legal:
        card = last[action.col]
        score = refill_value(IOU_COLOUR[card], IOU_VALUE[card], seat, state.nuggets)
        if best is None or score > best_score:  # the first of equals
            best, best_score = action, score
    return best
