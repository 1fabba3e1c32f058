"""The heuristic strategy for Gnadenlos!: one rule per decision (G-11).

Each rule scores the legal actions in nugget equivalents (one nugget buys one
field, G-7.1) and takes the best; ties go to the first legal action, so the
policy is deterministic. The reasoning behind every rule is in docs/bots.md.
Each rule comes in two parts: `choose_<decision>(view, legal)` reads what it
needs from a `SeatView` (the heuristic bot's picture of the table, from its
observation), and `<decision>_choice(legal, ...)` scores the actions from
those figures alone. The MCTS rollouts (rollout.py) read the same figures
straight from a determinized state and call the same `<decision>_choice`, so
both play one rule.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

from referee.games.gnadenlos.actions import Bid, BidPosition, Buy, Commit, FinalBuy, OptOut, Order, Pick, Refill, Take
from referee.games.gnadenlos.cards import EVENT_RATING, EVENT_RATINGS, GOLD_REWARDS, RATINGS, EventCard
from referee.games.gnadenlos.config import DEFAULT_CONFIG
from referee.games.gnadenlos.observation import HIDDEN

from referee.games.gnadenlos.strategy.values import CARD_VALUE, unit_value
from referee.games.gnadenlos.strategy.view import SeatView

CFG: Final = DEFAULT_CONFIG

HIGH_NOON_TAKE_VALUE: Final = 2.0
"""G-5.7: what taking one IOU from the market is worth (own IOU: a debt gone;
another colour: a free bid)."""
IOU_COST_FACTOR: Final = 0.9
"""Share of an own IOU's value that is paid in the end (a few come back
unpaid through High Noon takes)."""
VULTURE_COST: Final = 8.0
"""G-8.4: five fields back, and a third vulture loses the match."""
BID_RESERVE: Final = 3.0
"""Nuggets kept back at buying time for the bid that follows (G-4 phase 3)."""
TYPICAL_BID: Final = 3.5
"""Around where later bidders' totals lie; a higher bid beats them more often."""
FOREIGN_IOU_BONUS: Final = 0.3
"""Placing another colour's IOU into the market makes its owner pay it (G-8.2)."""


def decide(view: SeatView, legal: Sequence[Any]) -> Any:
    """The heuristic's choice among `legal` (at least one action)."""
    first = legal[0]
    if len(legal) == 1:
        return first
    if isinstance(first, (Commit, OptOut)):
        return choose_commit(view, legal)
    if isinstance(first, Bid):
        return choose_bid(view, legal)
    if isinstance(first, Buy):
        return choose_buy(view, legal)
    if isinstance(first, FinalBuy):
        return legal[-1]  # G-9.4: fields rank before nuggets, so buy all allowed.
    if isinstance(first, Pick):
        return choose_pick(view, legal)
    if isinstance(first, Take):
        return choose_take(view, legal)
    if isinstance(first, Refill):
        return choose_refill(view, legal)
    if isinstance(first, BidPosition):
        return choose_bid_position(view, legal)
    if isinstance(first, Order):
        return choose_order(view, legal)
    return first


def _best(legal: Sequence[Any], scores: Sequence[float]) -> Any:
    best_index = 0
    for i in range(1, len(scores)):
        if scores[i] > scores[best_index]:
            best_index = i
    return legal[best_index]


# ------------------------------------------------------------------ commit


def rival_estimate(view: SeatView, seat: int, kind: str) -> int:
    """The rating `seat` is expected to commit: the best card this seat knows
    it holds, or the expected best of its unknown cards drawn from the unseen
    pool, whichever is higher."""
    ratings = RATINGS[kind]
    best = best_rating(ratings, view.adv_known[seat])
    unknown = view.adv_unknown[seat]
    if unknown and view.unseen_adventurers:
        pool = sorted(ratings[c] for c in view.unseen_adventurers)
        index = round((len(pool) - 1) * unknown / (unknown + 1))
        best = max(best, pool[index])
    return best


def best_rating(ratings: Sequence[int], cards: Sequence[int]) -> int:
    """The highest of these cards' ratings; -1 for no card."""
    best = -1
    for card in cards:
        if ratings[card] > best:
            best = ratings[card]
    return best


def commit_payoff(event: int, mine: int, rivals: list[int], card: int, field: int) -> float:
    """G-5.5 to G-5.9: the worth of committing a card rated `mine` against the
    rivals' expected ratings, counting the card lost if it is discarded (it
    showed the highest rating) or shot (the lowest in High Noon)."""
    best = worst = mine  # of the ratings committed: the rivals' and mine (loops: cheaper than max/min compiled)
    for rating in rivals:
        if rating > best:
            best = rating
        elif rating < worst:
            worst = rating
    if best == worst:  # G-5.5: a void event
        return 0.0
    lost = CARD_VALUE[card]
    if event == EventCard.HIGH_NOON:
        if mine == best:
            winners = 1
            for rating in rivals:
                winners += rating == best
            return (2 if winners == 1 else 1) * HIGH_NOON_TAKE_VALUE - lost
        return -lost if mine == worst else 0.0
    if event == EventCard.POKER:
        section = CFG.poker_section(field)
        if mine == best:
            return section.plus - lost
        return -float(section.minus) if mine == worst else 0.0
    first, second = GOLD_REWARDS[event]
    if mine == best:
        return first - lost
    runner_up = mine  # the highest rating below the best (mine is below it here)
    for rating in rivals:
        if runner_up < rating < best:
            runner_up = rating
    return float(second) if mine == runner_up else 0.0


def choose_commit(view: SeatView, legal: Sequence[Any]) -> Any:
    kind = EVENT_RATING[view.event]
    rivals = [rival_estimate(view, s, kind) for s in view.participants if s != view.seat]
    return commit_choice(legal, view.event, rivals, view.fields[view.seat])


def commit_choice(legal: Sequence[Any], event: int, rivals: list[int], field: int) -> Any:
    """Commit the card whose expected payoff against the `rivals`' expected
    ratings, net of losing it, is highest; among equals the least valuable
    card (a sacrifice when losing is certain)."""
    ratings = EVENT_RATINGS[event]
    best: Any = None
    best_score = 0.0
    for action in legal:
        if isinstance(action, OptOut):  # G-5.10: one field back instead
            score = -float(CFG.opt_out_penalty) - 0.01
        else:
            card = action.card
            score = commit_payoff(event, ratings[card], rivals, card, field) - 0.01 * CARD_VALUE[card]
        if best is None or score > best_score:  # the first of equals
            best, best_score = action, score
    return best


# --------------------------------------------------------------------- buy


def choose_buy(view: SeatView, legal: Sequence[Any]) -> Any:
    return buy_choice(legal, view.seat, view.fields, view.nuggets, view.exposure, len(view.hand))


def buy_choice(
    legal: Sequence[Any], seat: int, fields: Sequence[int], nuggets: Sequence[int], exposure: float, hand_size: int
) -> Any:
    """G-7: buy fields with the nuggets not needed for the IOUs in the market
    (`exposure`, and the bid still to come for a hand of fewer than 3
    adventurers); reach the goal only when that wins."""
    field = fields[seat]
    most = legal[-1].steps
    to_goal = CFG.goal_field - field
    if to_goal <= most and nuggets[seat] - to_goal >= exposure and _goal_wins(fields, nuggets, seat, field + to_goal):
        return legal[to_goal]
    reserve = exposure + (BID_RESERVE if hand_size < 3 else 0.0)
    steps = max(0, min(most, math.floor(nuggets[seat] - reserve)))
    if field + steps >= CFG.goal_field:
        steps = max(0, to_goal - 1)
    return legal[steps]


def _goal_wins(fields: Sequence[int], nuggets: Sequence[int], seat: int, field: int) -> bool:
    """G-9.3: after the goal each other player may still buy up to 3 fields."""
    for s in range(len(fields)):
        if s != seat and field <= fields[s] + min(CFG.max_final_buy, nuggets[s]):
            return False
    return True


# --------------------------------------------------------------------- bid


def _most_bid(view: SeatView, seat: int) -> int:
    """The highest total `seat` can bid: its three best IOUs (G-6.2), an
    unknown card counted as a 2."""
    known = sorted((v for _, v in view.iou_known[seat]), reverse=True)
    return sum(known[:3]) + 2 * min(view.iou_unknown[seat], max(0, 3 - len(known)))


def _beat_chance(most: int, total: int) -> float:
    """How likely a later bidder outbids `total`: never beyond the most it can
    bid, otherwise falling around a typical bid."""
    if total >= most:
        return 0.0
    if 0 <= total < len(_BEAT):
        return _BEAT[total]
    return 1.0 / (1.0 + math.exp(total - TYPICAL_BID))


_BEAT: Final[tuple[float, ...]] = tuple(1.0 / (1.0 + math.exp(total - TYPICAL_BID)) for total in range(16))
"""`_beat_chance` below the most, by total: the same numbers, computed once."""


class BidGroups:
    """The bids that matter to one seat among `legal`: for each total and
    number of cards (the total ranks a bid, G-6.2; the count fills the
    market, G-8.1), the one costing the seat least of its own colour, in the
    order of `legal` (ties between equal scores go to the first)."""

    __slots__ = ("legal", "bids", "totals", "owns", "sizes")

    def __init__(self, legal: Sequence[Any], seat: int) -> None:
        self.legal = legal
        """Held, so that its id (`bid_groups`' key) is not reused."""
        bids: list[Any] = []
        self.totals: list[int] = []
        self.owns: list[int] = []
        """Per bid, the value of the seat's own colour in it: what it costs."""
        self.sizes: list[int] = []
        where: dict[int, int] = {}  # by total and size, as one int: the place in the lists
        for bid in legal:
            total = own = size = 0
            for colour, value in bid.ious:
                total += value
                size += 1
                if colour == seat:
                    own += value
            key = total << 2 | size  # at most 3 cards
            place = where.get(key, -1)
            if place < 0:
                where[key] = len(bids)
                bids.append(bid)
                self.totals.append(total)
                self.owns.append(own)
                self.sizes.append(size)
            elif own < self.owns[place]:
                bids[place] = bid
                self.owns[place] = own
        self.bids: tuple[Any, ...] = tuple(bids)


_GROUPS: Final[dict[int, BidGroups]] = {}
_GROUPS_LIMIT: Final = 20_000


def bid_groups(legal: Sequence[Any], seat: int) -> BidGroups:
    """`BidGroups` of `legal` for `seat`, cached per legal-action tuple: the
    engine hands out the same tuple for the same hand and used totals."""
    key = id(legal) << 4 | seat  # an int key: no tuple to build and hash per lookup
    cached = _GROUPS.get(key)
    if cached is not None and cached.legal is legal:
        return cached
    groups = BidGroups(legal, seat)
    if len(_GROUPS) >= _GROUPS_LIMIT:
        _GROUPS.clear()
    _GROUPS[key] = groups
    return groups


def choose_bid(view: SeatView, legal: Sequence[Any]) -> Any:
    seat = view.seat
    later = [_most_bid(view, s) for s in view.bid_order[view.bid_order.index(seat) + 1 :]]
    made_totals: list[int] = []
    made_sizes: list[int] = []
    for s, total in enumerate(view.bid_totals):
        if total is not None:
            made_totals.append(total)
            made_sizes.append(view.bid_sizes[s])
    values = sorted([unit_value(u, len(view.hand)) for u in view.units], reverse=True)
    spare = view.nuggets[seat] - view.exposure
    return bid_choice(bid_groups(legal, seat), 0, later, made_totals, made_sizes, values, spare, view.n, view.filled)


def bid_choice(
    groups: BidGroups, used: int, later: list[int], made_totals: list[int], made_sizes: list[int],
    values: list[float], spare: float, n: int, filled: int,
) -> Any:
    """G-6: the best of the `groups`' bids whose total is not `used` (bit t:
    total t taken by an earlier bid, G-6.2). Weighs each bid's chance of
    each place against what it costs: the bids made so far are known
    (`made_totals`, `made_sizes`: per bidder, -1 and 0 for a pass), the later
    bidders guessed from the most each can bid (`later`); the lots are worth
    `values` (highest first); only own-colour IOUs cost anything, and never
    more than the `spare` nuggets left after the market's IOUs, or a vulture
    threatens (G-8.4)."""
    # G-8.1: if we win, our cards and those of the higher bids may complete
    # the N-th row of the market (`filled` slots of it hold cards), and a
    # payday follows at once.
    payday_at = CFG.market_columns * n - filled
    totals, owns, sizes = groups.totals, groups.owns, groups.sizes
    best: Any = None
    best_score = -math.inf
    for i in range(len(totals)):
        total, own = totals[i], owns[i]
        if used >> total & 1:
            continue
        gain, win, cards_above = _win_chances(total, made_totals, made_sizes, later, values)
        cost = IOU_COST_FACTOR * own - FOREIGN_IOU_BONUS * (total - own)
        if own > spare:
            cost += VULTURE_COST + (own - spare)
            if cards_above + sizes[i] >= payday_at:
                cost += VULTURE_COST  # the payday comes now, not later
        score = gain - win * cost - 0.001 * total
        if score > best_score:
            best, best_score = groups.bids[i], score
    return best


def _win_chances(
    total: int, made_totals: list[int], made_sizes: list[int], later: list[int], values: list[float]
) -> tuple[float, float, int]:
    """(expected value won, chance of winning anything, cards of the higher
    bids made so far) for a bid of `total`."""
    ahead = cards_above = 0
    for i in range(len(made_totals)):
        if made_totals[i] > total:
            ahead += 1
            cards_above += made_sizes[i]
    beaten = _beaten(total, later)
    # the final place is `ahead` plus the times beaten; places before `ahead`
    # have chance 0 and would add nothing to either sum
    gain = win = 0.0
    for k in range(min(len(beaten), len(values) - ahead)):
        gain += beaten[k] * values[ahead + k]
        win += beaten[k]
    return gain, win, cards_above


def _beaten(total: int, later: list[int]) -> tuple[float, ...]:
    """The chances of being outbid 0, 1, 2, ... times by the `later` bidders
    (`_times_beaten`), up to the most times it can happen: every later bidder
    who can beat `total` does so with the same chance, so it is a row of a
    table (the bidders who cannot would only add exact zeros at the end)."""
    able = 0
    for most in later:
        if total < most:
            able += 1
    if 0 <= total < len(_BEATEN) and able < len(_BEATEN[total]):
        return _BEATEN[total][able]
    return tuple(_times_beaten([_beat_chance(most, total) for most in later]))


def _times_beaten(beat: Sequence[float]) -> list[float]:
    """Probabilities of being outbid 0, 1, 2, ... times by later bidders who
    beat us independently with the given chances."""
    dist = [1.0]
    for p in beat:
        nxt = [0.0] * (len(dist) + 1)
        for k in range(len(dist)):
            q = dist[k]
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


_BEATEN: Final[tuple[tuple[tuple[float, ...], ...], ...]] = tuple(
    tuple(tuple(_times_beaten([chance] * able)) for able in range(4)) for chance in _BEAT
)
"""`_beaten` by total (as `_BEAT`) and by how many later bidders can beat it
(at most 3: 4 seats, G-1)."""


# -------------------------------------------------------------------- pick


def choose_pick(view: SeatView, legal: Sequence[Any]) -> Any:
    return pick_choice(legal)


def pick_choice(legal: Sequence[Any]) -> Any:
    """G-6.5: the most valuable adventurer (or pair)."""
    return _best(legal, [sum(CARD_VALUE[c] for c in a.cards) for a in legal])


# ----------------------------------------------------------- take / refill


def _hidden_own_share(view: SeatView) -> float:
    """Expected own value of a hidden market slot (setup IOUs, G-2.3)."""
    hidden = sum(1 for row in view.market for s in row if s == HIDDEN)
    if not hidden:
        return 0.0
    known_own = sum(s[1] for row in view.market for s in row if isinstance(s, tuple) and s[0] == view.seat)
    return max(0.0, view.exposure - known_own) / hidden


def choose_take(view: SeatView, legal: Sequence[Any]) -> Any:
    hidden = _hidden_own_share(view)
    scores = []
    for action in legal:
        slot = view.market[action.row][action.col]
        if slot == HIDDEN:
            score = hidden + 0.5
        else:
            colour, value = slot
            score = take_value(colour, value, view.seat)
        scores.append(score + 0.01 * action.row)
    return _best(legal, scores)


def take_value(colour: int, value: int, seat: int) -> float:
    """G-5.7: take back the own IOU of highest value (a debt gone), else a
    high IOU of another colour (a bid that costs nothing); among equals the
    rows nearest the top (turned up first at a payday, G-8.2: 0.01 a row)."""
    return float(value) if colour == seat else 0.5 * value


def choose_refill(view: SeatView, legal: Sequence[Any]) -> Any:
    hidden = _hidden_own_share(view)
    last = view.market[-1]
    scores = []
    for action in legal:
        slot = last[action.col]
        if slot == HIDDEN:
            scores.append(hidden)
        else:
            colour, value = slot
            scores.append(refill_value(colour, value, view.seat, view.nuggets))
    return _best(legal, scores)


def refill_value(colour: int, value: int, seat: int, nuggets: Sequence[int]) -> float:
    """G-3.4: move the own IOU of highest value down out of the top row (the
    top row is turned up first at a payday, G-8.2) and leave other colours'
    high IOUs on top, above all of players short of nuggets."""
    if colour == seat:
        return float(value)
    short = value > nuggets[colour]
    return -0.3 * value - (2.0 if short else 0.0)


# ------------------------------------------------- single-card auction (G-6.7)


def choose_bid_position(view: SeatView, legal: Sequence[Any]) -> Any:
    return bid_position_choice(legal, bool(view.ious))


def bid_position_choice(legal: Sequence[Any], holds_ious: bool) -> Any:
    """G-6.7.2: bid last. The bid rule (`choose_bid`) knows the bids already
    made exactly and only guesses the later ones, so the last bidder sees
    every rival bid: it outbids by just enough when the card is worth it and
    keeps its IOUs when it is not. Except with no IOU to bid: it must pass
    (G-6.3), and if everyone passes the earliest passer takes the card for
    nothing (G-6.7.3), so it goes first. docs/bots.md compares the two."""
    want_first = not holds_ious
    return next(action for action in legal if action.first == want_first)


def choose_order(view: SeatView, legal: Sequence[Any]) -> Any:
    return order_choice(legal)


def order_choice(legal: Sequence[Any]) -> Any:
    """G-6.7.1: among the tied cards, the one the active player wants least
    goes next, and the one it wants most last: rivals spend their IOUs (and,
    under auction_buy_limit=one, their right to buy) on the earlier cards."""
    return _best(legal, [-CARD_VALUE[a.card] for a in legal])
