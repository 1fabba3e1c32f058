"""Gnadenlos!'s encoding: a feature vector of the view, one index per decision.

**Action index** (2,253 entries, fixed for 3 and 4 seats and every rule
set), in blocks:

| block | entries | index within the block |
|---|---|---|
| commit (G-5.4) | 29 | the adventurer id |
| opt out (G-5.10) | 1 | |
| take (G-5.7) | 9 rows x 6 columns | `row * 6 + col` |
| refill (G-3.4) | 6 | the column |
| buy (G-7.1) | 6 | the steps, 0..5 |
| final buy (G-9.3) | 4 | the steps, 0..3 |
| bid (G-6.2) | 1,687 | the set of IOUs: `BIDS.index(...)` (below) |
| pick (G-6.5) | 29 + 406 | one adventurer: its id; a pair a < b: 29 + its rank among the 406 pairs |
| bid position (G-6.7.2) | 2 | first 0, last 1 |
| order (G-6.7.1) | 29 | the adventurer id |

Why these bounds cover every decision: an IOU is one of 20 kinds (colour
0..3, value 0..4; one 0 and three each of 1..4 per colour, G-1), a bid is
1 to 3 of them (G-6.2) or a pass (no IOU), so the bids are the multisets of
at most 3 kinds that the counts allow: 1,687 with the pass (`BIDS`, in
order of size, then kinds, each a kind `colour * 5 + value`). The market
holds at most the 52 IOUs of four players and every row but the last is
complete when a take is offered (G-3.4), so 9 rows. Buys are 0..5 (G-7.1)
and final buys 0..3 (G-9.3). A pick is one revealed adventurer or, in the
advanced setup's opening auction, a pair of two (G-2.6), named as a set
(the message's order is the referee's; `action_for` returns it as offered).

**Observation tensor**: 1,968 features (`FEATURES` lists them in order):
per seat 4 entries (zero beyond the table), cards one-hot or counted by
kind, numbers as they are (fields, nuggets, turns).

**Strings**: the observation message in protobuf's text format on one line.
"""

from __future__ import annotations

from array import array
from itertools import combinations_with_replacement
from typing import Any

from google.protobuf import text_format

from botsdk.encoding.base import Encoding, zeros
from botsdk.pb.gnadenlos.v1 import gnadenlos_pb2 as pb

MAX_SEATS = 4
ADVENTURERS = 29
EVENT_CARDS = 5
VALUES = 5
IOU_KINDS = MAX_SEATS * VALUES
"""An IOU's kind: colour * 5 + value."""
COLUMNS = 6
ROWS = 9
MAX_BUY = 5
MAX_FINAL_BUY = 3


def _bids() -> tuple[tuple[int, ...], ...]:
    """Every bid as a sorted tuple of IOU kinds: the pass, then 1, 2, 3 IOUs (G-6.2)."""
    copies = [1 if kind % VALUES == 0 else 3 for kind in range(IOU_KINDS)]
    bids: list[tuple[int, ...]] = [()]
    for size in (1, 2, 3):
        bids.extend(bid for bid in combinations_with_replacement(range(IOU_KINDS), size)
                    if all(bid.count(kind) <= copies[kind] for kind in set(bid)))
    return tuple(bids)


BIDS = _bids()
_BID_INDEX = {bid: i for i, bid in enumerate(BIDS)}
PAIRS = tuple((a, b) for a in range(ADVENTURERS) for b in range(a + 1, ADVENTURERS))
_PAIR_INDEX = {pair: i for i, pair in enumerate(PAIRS)}

COMMIT = 0
OPT_OUT = COMMIT + ADVENTURERS
TAKE = OPT_OUT + 1
REFILL = TAKE + ROWS * COLUMNS
BUY = REFILL + COLUMNS
FINAL_BUY = BUY + MAX_BUY + 1
BID = FINAL_BUY + MAX_FINAL_BUY + 1
PICK = BID + len(BIDS)
BID_POSITION = PICK + ADVENTURERS + len(PAIRS)
ORDER = BID_POSITION + 2
NUM_ACTIONS = ORDER + ADVENTURERS

PHASES = ("", "commit", "take", "refill", "buy", "bid", "pick", "bid_position", "order", "final_buy", "over")
STAGES = ("setup", "event", "buy", "auction", "payday", "end")
END_REASONS = ("", "vultures", "undertaker", "goal", "safety_valve")

_S = MAX_SEATS
FEATURES: tuple[tuple[str, int], ...] = (
    ("observer", _S), ("num_seats", 2), ("variant", 6), ("phase", len(PHASES)), ("stage", len(STAGES)),
    ("turn", 1), ("quiet_turns", 1), ("active", _S), ("to_act", _S),
    ("fields", _S), ("nuggets", _S), ("vultures", _S), ("undertaker", 1),
    ("event", EVENT_CARDS + 1), ("event_revealed", EVENT_CARDS), ("event_deck_count", 1),
    ("adv_hands", _S * ADVENTURERS), ("adv_hand_unknown", _S), ("adv_private", ADVENTURERS),
    ("adv_deck_known", ADVENTURERS), ("adv_deck_unknown", 1), ("adv_discard", ADVENTURERS),
    ("units", _S * ADVENTURERS), ("ordered", 1), ("bought", _S),
    ("iou_hands", _S * IOU_KINDS), ("iou_hand_unknown", _S), ("iou_private", IOU_KINDS),
    ("market", ROWS * COLUMNS * (2 + IOU_KINDS)),
    ("participants", _S), ("deciding", _S), ("commits", _S * (ADVENTURERS + 2)), ("shot", _S),
    ("takers", _S), ("next_taker", _S), ("bid_order", _S * _S), ("bid_made", _S), ("bids", _S * IOU_KINDS),
    ("pick_order", _S * _S), ("final_order", _S * _S), ("end_reason", len(END_REASONS)), ("end_detail", 2),
)
"""The tensor's parts, (name, size) in order. Per-seat parts have 4 entries;
`adv_hands`, `units`, `iou_hands`, `bids` one group per seat or unit;
`market` per slot (row, column): empty, hidden, then the IOU's kind;
`commits` per seat: the adventurer, opted out, none; an order part per
position the seat there, one-hot."""
OFFSETS: dict[str, int] = {}
_at = 0
for _name, _size in FEATURES:
    OFFSETS[_name] = _at
    _at += _size
SIZE = _at


def _kinds(colours: Any, values: Any) -> list[int]:
    return [c * VALUES + v for c, v in zip(colours, values)]


class GnadenlosEncoding(Encoding):
    game = "gnadenlos"
    num_actions = NUM_ACTIONS

    def __init__(self, num_seats: int) -> None:
        self.num_seats = num_seats
        self.observation_shape = self.information_state_shape = (SIZE,)

    # ------------------------------------------------------------ observation

    def information_state_string(self, observation: Any) -> str:
        return str(text_format.MessageToString(observation, as_one_line=True))

    def observation_tensor(self, observation: Any) -> array[float]:
        obs: pb.Observation = observation
        t = zeros(SIZE)
        o = OFFSETS

        def one_hot(name: str, index: int) -> None:
            t[o[name] + index] = 1.0

        def per_seat(name: str, values: Any) -> None:
            for seat, value in enumerate(values):
                t[o[name] + seat] = float(value)

        def seats(name: str, members: Any) -> None:
            for seat in members:
                t[o[name] + seat] = 1.0

        def order(name: str, members: Any) -> None:
            for position, seat in enumerate(members):
                t[o[name] + position * _S + seat] = 1.0

        one_hot("observer", obs.seat)
        one_hot("num_seats", obs.num_seats - 3)
        for i, flag in enumerate((obs.advanced, obs.opt_out_variant, obs.opt_out_soft, obs.single_auction,
                                  obs.order_best, obs.buy_limit_one)):
            t[o["variant"] + i] = float(flag)
        one_hot("phase", PHASES.index(obs.phase))
        if obs.stage in STAGES:
            one_hot("stage", STAGES.index(obs.stage))
        t[o["turn"]] = float(obs.turn)
        t[o["quiet_turns"]] = float(obs.quiet_turns)
        one_hot("active", obs.active)
        seats("to_act", obs.to_act)
        per_seat("fields", obs.fields)
        per_seat("nuggets", obs.nuggets)
        per_seat("vultures", obs.vultures)
        t[o["undertaker"]] = float(obs.undertaker)
        one_hot("event", obs.event if obs.event >= 0 else EVENT_CARDS)
        for card in obs.event_revealed:
            t[o["event_revealed"] + card] += 1.0
        t[o["event_deck_count"]] = float(obs.event_deck_count)
        known = iter(obs.adv_hand_known)
        for seat, size in enumerate(obs.adv_hand_sizes):
            for _ in range(size):
                t[o["adv_hands"] + seat * ADVENTURERS + next(known)] = 1.0
        per_seat("adv_hand_unknown", obs.adv_hand_unknown)
        for name, cards in (("adv_private", obs.adv_private), ("adv_deck_known", obs.adv_deck_known),
                            ("adv_discard", obs.adv_discard)):
            for card in cards:
                t[o[name] + card] = 1.0
        t[o["adv_deck_unknown"]] = float(obs.adv_deck_unknown)
        unit_cards = iter(obs.unit_cards)
        for unit, size in enumerate(obs.unit_sizes[:_S]):
            for _ in range(size):
                t[o["units"] + unit * ADVENTURERS + next(unit_cards)] = 1.0
        t[o["ordered"]] = float(obs.ordered)
        seats("bought", obs.bought)
        kinds = iter(_kinds(obs.iou_hand_colours, obs.iou_hand_values))
        for seat, size in enumerate(obs.iou_hand_sizes):
            for _ in range(size):
                t[o["iou_hands"] + seat * IOU_KINDS + next(kinds)] += 1.0
        per_seat("iou_hand_unknown", obs.iou_hand_unknown)
        for kind in _kinds(obs.iou_private_colours, obs.iou_private_values):
            t[o["iou_private"] + kind] += 1.0
        self._market(obs, t)
        seats("participants", obs.participants)
        seats("deciding", obs.deciding)
        for seat, commit in enumerate(obs.commits):
            t[o["commits"] + seat * (ADVENTURERS + 2) + (commit if commit >= 0 else ADVENTURERS - 1 - commit)] = 1.0
        seats("shot", obs.shot)
        for seat in obs.takers:
            t[o["takers"] + seat] += 1.0
        if obs.takers:
            one_hot("next_taker", obs.takers[0])
        order("bid_order", obs.bid_order)
        per_seat("bid_made", obs.bid_made)
        bid_kinds = iter(_kinds(obs.bid_colours, obs.bid_values))
        for seat, size in enumerate(obs.bid_sizes):
            for _ in range(size):
                t[o["bids"] + seat * IOU_KINDS + next(bid_kinds)] += 1.0
        order("pick_order", obs.pick_order)
        order("final_order", obs.final_order)
        one_hot("end_reason", END_REASONS.index(obs.end_reason) if obs.end_reason in END_REASONS else 0)
        if obs.end_detail in ("stalled", "turn_limit"):
            one_hot("end_detail", ("stalled", "turn_limit").index(obs.end_detail))
        return t

    @staticmethod
    def _market(obs: pb.Observation, t: array[float]) -> None:
        slots = iter(zip(obs.market_states, obs.market_colours, obs.market_values))
        for row, size in enumerate(obs.market_row_sizes):
            for col in range(size):
                state, colour, value = next(slots)
                if row >= ROWS:
                    continue
                at = OFFSETS["market"] + (row * COLUMNS + col) * (2 + IOU_KINDS)
                if state == pb.SLOT_STATE_EMPTY:
                    t[at] = 1.0
                elif state == pb.SLOT_STATE_HIDDEN:
                    t[at + 1] = 1.0
                elif state == pb.SLOT_STATE_KNOWN:
                    t[at + 2 + colour * VALUES + value] = 1.0

    # ----------------------------------------------------------------- actions

    def action_index(self, action: Any) -> int:
        kind = action.WhichOneof("kind") if isinstance(action, pb.Action) else None
        if kind == "commit":
            return COMMIT + _adventurer(action.commit.card)
        if kind == "opt_out":
            return OPT_OUT
        if kind == "take":
            row, col = int(action.take.row), int(action.take.col)
            if row >= ROWS or col >= COLUMNS:
                raise ValueError(f"market slot ({row}, {col}) is beyond {ROWS} rows of {COLUMNS}")
            return TAKE + row * COLUMNS + col
        if kind == "refill":
            return REFILL + _below(action.refill.col, COLUMNS, "a refill's column")
        if kind == "buy":
            return BUY + _below(action.buy.steps, MAX_BUY + 1, "a buy's steps")
        if kind == "final_buy":
            return FINAL_BUY + _below(action.final_buy.steps, MAX_FINAL_BUY + 1, "a final buy's steps")
        if kind == "bid":
            bid = action.bid
            if any(c >= MAX_SEATS or v >= VALUES for c, v in zip(bid.colours, bid.values)):
                raise ValueError(f"a bid's IOUs are colours 0..3 and values 0..4: {list(zip(bid.colours, bid.values))}")
            index = _BID_INDEX.get(tuple(sorted(_kinds(bid.colours, bid.values))))
            if index is None or len(bid.colours) != len(bid.values):
                raise ValueError(f"not a bid of the rules (1 to 3 IOUs, G-6.2): {list(zip(bid.colours, bid.values))}")
            return BID + index
        if kind == "pick":
            cards = tuple(sorted(action.pick.cards))
            if len(cards) == 1:
                return PICK + _adventurer(cards[0])
            pair = _PAIR_INDEX.get(cards) if len(cards) == 2 else None
            if pair is None:
                raise ValueError(f"a pick is one adventurer or a pair of two: {list(cards)}")
            return PICK + ADVENTURERS + pair
        if kind == "bid_position":
            return BID_POSITION + (0 if action.bid_position.first else 1)
        if kind == "order":
            return ORDER + _adventurer(action.order.card)
        raise ValueError(f"not a Gnadenlos! action: {action!r}")

    def action_message(self, index: int) -> pb.Action:
        """An action message of an index. A pick of a pair comes with its
        cards in ascending order; the referee's may list them otherwise, and
        it compares field for field: answer with `action_for`."""
        if not 0 <= index < NUM_ACTIONS:
            raise ValueError(f"Gnadenlos! action index {index} is not 0 to {NUM_ACTIONS - 1}")
        if index < OPT_OUT:
            return pb.Action(commit=pb.Commit(card=index - COMMIT))
        if index < TAKE:
            return pb.Action(opt_out=pb.OptOut())
        if index < REFILL:
            row, col = divmod(index - TAKE, COLUMNS)
            return pb.Action(take=pb.Take(row=row, col=col))
        if index < BUY:
            return pb.Action(refill=pb.Refill(col=index - REFILL))
        if index < FINAL_BUY:
            return pb.Action(buy=pb.Buy(steps=index - BUY))
        if index < BID:
            return pb.Action(final_buy=pb.FinalBuy(steps=index - FINAL_BUY))
        if index < PICK:
            bid = sorted(BIDS[index - BID])
            return pb.Action(bid=pb.Bid(colours=[k // VALUES for k in bid], values=[k % VALUES for k in bid]))
        if index < BID_POSITION:
            pick = index - PICK
            cards = (pick,) if pick < ADVENTURERS else PAIRS[pick - ADVENTURERS]
            return pb.Action(pick=pb.Pick(cards=cards))
        if index < ORDER:
            return pb.Action(bid_position=pb.BidPosition(first=index == BID_POSITION))
        return pb.Action(order=pb.Order(card=index - ORDER))

    def action_name(self, index: int) -> str:
        return str(text_format.MessageToString(self.action_message(index), as_one_line=True))


def _below(value: int, bound: int, what: str) -> int:
    if not 0 <= value < bound:
        raise ValueError(f"{what} is 0 to {bound - 1}, not {value}")
    return value


def _adventurer(card: int) -> int:
    return _below(card, ADVENTURERS, "an adventurer id")
