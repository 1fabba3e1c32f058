"""A Gnadenlos! position: the flow of a match (G-2 to G-9) and who knows which card (G-10).

The flow is a small stack machine: `_todo` holds the automatic steps still to
run this turn (each a method `_step_<name>`), and `phase` names the decision
the match waits for, if any. After a decision the machine runs on until the
next decision or the end. A decision with a single legal action is applied by
the engine itself (G-11: "a single remaining choice is applied by the
referee"), so bots are only asked real questions.

Card knowledge: every adventurer and IOU instance has a bitmask of the seats
that know its identity where it lies. Public moves keep it, public reveals set
it to all seats, a private look adds one seat. Deck order is unknown to all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, cast

from referee.games.base import (
    JSON,
    Action,
    ChanceStream,
    Event,
    EventLog,
    Game,
    Outcome,
    Seat,
    State,
    derive_seed,
    ranks_from_keys,
)
from referee.games.gnadenlos import market as mk
from referee.games.scenario import fixed_shuffle, next_fixed
from referee.games.gnadenlos.actions import (
    Bid,
    BidPosition,
    Buy,
    Commit,
    FinalBuy,
    GnadenlosAction,
    OptOut,
    Order,
    Pick,
    Refill,
    Take,
    buys,
    final_buys,
    order,
    pick,
    refill,
    take,
)
from referee.games.gnadenlos.cards import (
    AUCTION_VALUE,
    EVENT_DECK,
    EVENT_RATINGS,
    GOLD_REWARDS,
    IOU_COLOUR,
    IOU_SETUP_GIVE_UP,
    IOU_VALUE,
    IOUS,
    IOUS_PER_COLOUR,
    NUM_ADVENTURERS,
    RATINGS,
    EventCard,
    Iou,
    iou,
)
from referee.games.gnadenlos.config import DEFAULT_CONFIG, GnadenlosConfig
from referee.games.gnadenlos.observation import GnadenlosObservation, observe
from referee.games.gnadenlos.variants import set_flags


# Decision phases; None means the machine is running automatic steps.
COMMIT: Final = "commit"
TAKE: Final = "take"
REFILL: Final = "refill"
BUY: Final = "buy"
BID: Final = "bid"
PICK: Final = "pick"
FINAL_BUY: Final = "final_buy"
BID_POSITION: Final = "bid_position"
ORDER: Final = "order"
OVER: Final = "over"

NO_COMMIT: Final = -2
OPTED_OUT: Final = -1
PASSED: Final[tuple[int, ...]] = ()
"""A pass (G-6.3) is recorded as an empty bid."""

PAY_ORDER: Final[tuple[tuple[int, int], ...]] = tuple((value, colour) for colour, value in IOUS)
"""G-6.4: the order paid IOUs enter the market, by instance id: ascending
value, equal values in seat order of their colours."""

COMMITS: Final[tuple[Commit, ...]] = tuple(Commit(c) for c in range(NUM_ADVENTURERS))
OPT_OUT: Final = OptOut()
"""The commit decisions, built once: actions are frozen values, and the
commit choices are listed for every holder at every event."""

END_VULTURES: Final = "vultures"
END_UNDERTAKER: Final = "undertaker"
END_GOAL: Final = "goal"
END_SAFETY_VALVE: Final = "safety_valve"


NOBODY: Final[frozenset[Seat]] = frozenset()
BID_POSITIONS: Final = (BidPosition(True), BidPosition(False))


CACHE_LIMIT: Final = 1 << 16
"""Entries a bid cache holds before it starts afresh (a long simulation meets
tens of thousands of hands; the values are shared Bid objects)."""
_BIDS: Final[dict[tuple[Iou, ...], Bid]] = {}
_EVERY_BID: Final[dict[tuple[Iou, ...], tuple[tuple[Bid, ...], tuple[int, ...]]]] = {}
_BID_CHOICES: Final[dict[int, tuple[Bid, ...]]] = {}
"""`bids_without` by (hand, used totals) as one integer (`GnadenlosState.bid_choices`)."""


def bid_options(hand: tuple[Iou, ...], used_totals: frozenset[int]) -> tuple[Bid, ...]:
    """G-6.2/G-6.4: every set of 1 to 3 IOUs of `hand` (a sorted tuple of
    identities) whose total differs from `used_totals`, in the order of
    `itertools.combinations_with_replacement` over the distinct IOUs."""
    mask = 0
    for total in used_totals:
        mask |= 1 << total
    return bids_without(hand, mask)


def bids_without(hand: tuple[Iou, ...], used: int) -> tuple[Bid, ...]:
    """`bid_options` with the used totals as a bitmask (bit t: total t).

    A hand's bids are built once (`every_bid`) and only filtered by the
    totals here: within an auction a hand meets several sets of earlier
    totals (each bidder's, each card's of a single-card auction, G-6.7), so
    a cache keyed by both misses far more often than one keyed by the hand.
    The caches are plain dicts of shared values: the collector walks every
    object a cache keeps, and with an LRU cache's links and a Bid per entry
    that walk took a quarter of a simulation (issue 30)."""
    bids, totals = every_bid(hand)
    if used:
        bids = tuple([bid for bid, total in zip(bids, totals) if not used >> total & 1])
    return bids


def _bid(ious: tuple[Iou, ...]) -> Bid:
    """The one Bid of these IOUs (at most 1,770 exist: 1 to 3 of 20 identities)."""
    found = _BIDS.get(ious)
    if found is None:
        found = _BIDS[ious] = Bid(ious)
    return found


def every_bid(hand: tuple[Iou, ...]) -> tuple[tuple[Bid, ...], tuple[int, ...]]:
    """G-6.4: every set of 1 to 3 IOUs of `hand` (a sorted tuple of
    identities), in `bid_options`' order, and each one's total.

    Written as explicit index loops with the multiplicity checks hoisted:
    this was the largest cost of a random playout when built from generic
    combinations."""
    found = _EVERY_BID.get(hand)
    if found is not None:
        return found
    counts: dict[Iou, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    kinds = sorted(counts)
    m = len(kinds)
    values = [value for _, value in kinds]
    twice = [counts[k] > 1 for k in kinds]
    thrice = [counts[k] > 2 for k in kinds]
    bids = [_bid((kinds[i],)) for i in range(m)]
    totals = values[:]
    for i in range(m):
        for j in range(i, m):
            if i == j and not twice[i]:
                continue
            bids.append(_bid((kinds[i], kinds[j])))
            totals.append(values[i] + values[j])
    for i in range(m):
        for j in range(i, m):
            if i == j and not twice[i]:
                continue
            for k in range(j, m):
                if j == k and not (thrice[j] if i == j else twice[j]):
                    continue
                bids.append(_bid((kinds[i], kinds[j], kinds[k])))
                totals.append(values[i] + values[j] + values[k])
    found = (tuple(bids), tuple(totals))
    if len(_EVERY_BID) >= CACHE_LIMIT:
        _EVERY_BID.clear()
    _EVERY_BID[hand] = found
    return found


class GnadenlosState(State):
    """One position of a Gnadenlos! match. Build with `Gnadenlos.new_state`."""

    game: ClassVar[Game]

    def __init__(self) -> None:
        """An empty shell; `setup` or the JSON/determinize builders fill it."""
        self.cfg: GnadenlosConfig = DEFAULT_CONFIG
        self.n = 0
        self.advanced = False
        self.opt_out_variant = False
        self.opt_out_soft = False
        self.single_auction = False
        self.order_best = False
        self.buy_limit_one = False
        self.seed = 0
        self.rng_adv = ChanceStream(0)
        self.rng_event = ChanceStream(0)
        self.rng_die = ChanceStream(0)
        self.fixed: dict[str, list[Any]] = {}
        """Outcomes a scenario fixed in advance, per stream (scenario.next_fixed):
        die faces, and event or adventurer orders for the next reshuffles."""
        self.fields: list[int] = []
        self.nuggets: list[int] = []
        self.vultures: list[int] = []
        self.undertaker = 0
        self.adv_deck: list[int] = []
        self.adv_discard: list[int] = []
        self.adv_hands: list[list[int]] = []
        self.adv_known: list[int] = [0] * NUM_ADVENTURERS
        self.units: list[tuple[int, ...]] = []
        self.iou_hands: list[list[int]] = []
        self.iou_known: list[int] = []
        self.market: list[list[int]] = []
        self.event_deck: list[int] = []
        self.event_revealed: list[int] = []
        self.event = -1
        self.active = 0
        self.turn = 0
        self.quiet = 0
        self.activity = False
        self.phase: str | None = None
        self.todo: list[str] = []
        self.participants: list[Seat] = []
        self.deciding: list[Seat] = []
        self.commits: list[int] = []
        self.shot: list[Seat] = []
        self.takers: list[Seat] = []
        self.bid_order: list[Seat] = []
        self.bid_pos = 0
        self.bids: list[tuple[int, ...] | None] = []
        self.pick_order: list[Seat] = []
        self.pick_pos = 0
        self.ordered = 0
        """G-6.7.1: how many of `units` (the single auction's cards, in order)
        have their place fixed; the rest await the active player's `order`."""
        self.bought: list[Seat] = []
        """G-6.7.4: the seats that bought a card in this phase-3 auction."""
        self.final_order: list[Seat] = []
        self.final_pos = 0
        self.end_reason = ""
        self.end_detail = ""
        self.log = EventLog(0)
        """Records the events of the step being applied (base.EventLog)."""

    def set_seats(self, seats: int) -> None:
        """The table size, and an event log for it."""
        self.n = seats
        self.log = EventLog(seats)

    # ----------------------------------------------------------------- setup

    def setup_with_events(self, seats: int, seed: int, options: Mapping[str, str], cfg: GnadenlosConfig,
                          events: list[Event]) -> None:
        """`setup`, appending the setup's events (the deal) to `events`."""
        self.set_seats(seats)
        self.log.events = events
        try:
            self.setup(seats, seed, options, cfg)
        finally:
            self.log.events = None

    def setup(self, seats: int, seed: int, options: Mapping[str, str], cfg: GnadenlosConfig) -> None:
        """G-2: deal a new match; every chance outcome is logged for the record."""
        self.cfg, self.seed = cfg, seed
        if self.n != seats:
            self.set_seats(seats)
        set_flags(self, options)
        self.rng_adv = ChanceStream(derive_seed(seed, "adventurers"))
        self.rng_event = ChanceStream(derive_seed(seed, "events"))
        self.rng_die = ChanceStream(derive_seed(seed, "die"))
        everyone = self._all
        self.fields = [cfg.start_field] * seats
        self.nuggets = [cfg.start_nuggets] * seats
        self.vultures = [0] * seats
        self.adv_hands = [[] for _ in range(seats)]
        self.commits = [NO_COMMIT] * seats
        self.bids = [None] * seats
        # G-2.1: the adventurer deck, order known to nobody.
        self.adv_deck = list(range(NUM_ADVENTURERS))
        self.rng_adv.shuffle(self.adv_deck)
        self.log.add("deck_shuffled", 0, {"deck": "adventurers", "order": list(self.adv_deck)})
        # G-2.2: each player's IOUs, known to all.
        self.iou_hands = [list(range(s * IOUS_PER_COLOUR, (s + 1) * IOUS_PER_COLOUR)) for s in range(seats)]
        self.iou_known = [everyone] * (seats * IOUS_PER_COLOUR)
        # G-2.4: the event deck.
        self.event_deck = list(EVENT_DECK)
        self.rng_event.shuffle(self.event_deck)
        self.log.add("deck_shuffled", 0, {"deck": "events", "order": [int(e) for e in self.event_deck]})
        # G-2.5: the start player.
        start = ChanceStream(derive_seed(seed, "start")).below(seats)
        self.active = start
        self.log.add("start_player", everyone, {"seat": start})
        if self.advanced:
            self._setup_advanced()
        else:
            self._setup_standard()

    def _setup_standard(self) -> None:
        for seat in range(self.n):
            drawn = [self.adv_deck.pop(), self.adv_deck.pop()]
            self.adv_hands[seat].extend(drawn)
            for card in drawn:
                self.adv_known[card] = 1 << seat
            self.log.add("adventurers_drawn", 1 << seat, {"seat": seat, "cards": drawn})
            self.log.add("adventurers_drawn", self._all & ~(1 << seat), {"seat": seat, "count": 2})
        # G-2.3: one IOU of value 1 and one of value 2 from each player, shuffled face down.
        given: list[int] = []
        for seat in range(self.n):
            hand = self.iou_hands[seat]
            for value in IOU_SETUP_GIVE_UP:
                card = next(c for c in hand if IOU_VALUE[c] == value)
                hand.remove(card)
                given.append(card)
        ChanceStream(derive_seed(self.seed, "market")).shuffle(given)
        for card in given:
            self.iou_known[card] = 0
            mk.place(self.market, card, self.cfg.market_columns)
        self.log.add("market_dealt", 0, {"ious": [list(iou(c)) for c in given]})
        self.log.add("market_dealt", self._all, {"count": len(given)})
        self._then("turn")
        self._run()

    def _setup_advanced(self) -> None:
        """G-2.6: reveal N pairs and hold one auction in which everyone wins."""
        cards = self._draw_adventurers(2 * self.n)
        self.units = [tuple(cards[i : i + 2]) for i in range(0, len(cards) - 1, 2)]
        self._start_bidding()
        self._then("bid", "picks", "turn")
        self._run()

    # ------------------------------------------------------------- interface

    @property
    def num_seats(self) -> int:
        return self.n

    @property
    def _all(self) -> int:
        return (1 << self.n) - 1

    def to_act(self) -> frozenset[Seat]:
        phase = self.phase
        if phase is None or phase == OVER:
            return NOBODY
        if phase == COMMIT:
            mask = 0
            for seat in self.deciding:
                mask |= 1 << seat
            return self.log.audiences[mask]
        return self.log.audiences[1 << self._decider()]

    def _decider(self) -> Seat:
        phase = self.phase
        if phase == TAKE:
            return self.takers[0]
        if phase == BID:
            return self.bid_order[self.bid_pos]
        if phase == PICK:
            return self.pick_order[self.pick_pos]
        if phase == FINAL_BUY:
            return self.final_order[self.final_pos]
        return self.active

    def legal_actions(self, seat: Seat) -> tuple[GnadenlosAction, ...]:
        phase = self.phase
        if phase == COMMIT:
            return self.commit_choices(seat) if seat in self.deciding else ()
        if phase is None or phase == OVER or seat != self._decider():  # not in to_act(), without building it
            return ()
        if phase == BID:
            return self.bid_choices(seat)
        if phase == BUY:
            return buys(min(self.cfg.max_prestige_buy, self.nuggets[seat]))
        if phase == TAKE:
            return tuple([take(r, c) for r, c in mk.filled_slots(self.market)])
        if phase == REFILL:
            return tuple([refill(c) for c, card in enumerate(self.market[-1]) if card != mk.EMPTY])
        if phase == PICK:
            return tuple([pick(u) for u in self.units])
        if phase == FINAL_BUY:
            return final_buys(min(self.cfg.max_final_buy, self.nuggets[seat]))
        if phase == BID_POSITION:
            return BID_POSITIONS
        if phase == ORDER:
            return tuple([order(c) for c in self.order_choices()])
        raise AssertionError(phase)

    def commit_choices(self, seat: Seat) -> tuple[Commit | OptOut, ...]:
        """G-5.4/G-5.10: what `seat` may commit to the current event (read by
        the flow and by the scenario checks, whoever is to act)."""
        hand = self.adv_hands[seat]
        if len(hand) == 1 and self.opt_out_variant and self.event == EventCard.HIGH_NOON:
            return COMMITS[hand[0]], OPT_OUT  # G-5.10
        return tuple([COMMITS[c] for c in sorted(hand)])

    def bid_choices(self, seat: Seat) -> tuple[Bid, ...]:
        """G-6.2: the bids `seat` may make in the current auction (read by the
        flow and by the scenario checks, whoever is to act)."""
        used = 0
        for bid in self.bids:
            if bid:
                total = 0
                for card in bid:
                    total += IOU_VALUE[card]
                used |= 1 << total
        # The hand as a multiset of identities in one integer: 2 bits for each
        # of the 20 identities (colour * 5 + value; at most 3 alike, G-1),
        # above 16 bits of used totals: a cheap key, where hashing the hand's
        # tuple of pairs cost more than the bids themselves.
        key = used
        for card in self.iou_hands[seat]:
            key += 1 << (16 + 2 * (IOU_COLOUR[card] * 5 + IOU_VALUE[card]))
        found = _BID_CHOICES.get(key)
        if found is None:
            hand = tuple([IOUS[c] for c in sorted(self.iou_hands[seat])])  # sorted ids: sorted identities
            found = bids_without(hand, used)
            if len(_BID_CHOICES) >= CACHE_LIMIT:
                _BID_CHOICES.clear()
            _BID_CHOICES[key] = found
        return found

    def _apply(self, actions: Mapping[Seat, Action], record: bool) -> list[Event]:
        events: list[Event] = []
        self.log.events = events if record else None
        try:
            phase = self.phase
            if phase == COMMIT:
                self._resolve_commits(dict(actions))
            else:
                ((seat, action),) = actions.items()
                self._apply_decision(phase, seat, action)
            self._run()
        finally:
            self.log.events = None
        return events

    def _apply_decision(self, phase: str | None, seat: Seat, action: Action) -> None:
        """One seat's decision, by the phase that asked it: a legal action of
        that phase (`apply` checked it, `apply_unchecked` trusts it), so of
        the phase's class (a checked cast, compiled)."""
        if phase == BID:
            self._apply_bid(seat, cast(Bid, action))
        elif phase == BUY:
            self._apply_buy(seat, cast(Buy, action))
        elif phase == PICK:
            self._apply_pick(seat, cast(Pick, action))
        elif phase == TAKE:
            self._apply_take(seat, cast(Take, action))
        elif phase == REFILL:
            self._apply_refill(seat, cast(Refill, action))
        elif phase == FINAL_BUY:
            self._apply_final_buy(seat, cast(FinalBuy, action))
        elif phase == BID_POSITION:
            self._apply_bid_position(seat, cast(BidPosition, action))
        elif phase == ORDER:
            self._apply_order(seat, cast(Order, action))
        else:
            raise AssertionError(f"no decision is asked in phase {phase}")

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome:
        """G-9.4: three vultures rank last; the others by field, then nuggets."""
        if self.phase != OVER:
            raise ValueError("the match is not over")
        keys = [
            (self.vultures[s] < self.cfg.vultures_to_lose, self.fields[s], self.nuggets[s])
            for s in range(self.n)
        ]
        return Outcome(self.end_reason, ranks_from_keys(keys), self.end_detail)

    def observe(self, seat: Seat) -> GnadenlosObservation:
        return observe(self, seat)

    def clone(self) -> "GnadenlosState":
        new = GnadenlosState.__new__(GnadenlosState)
        new.cfg = self.cfg
        new.set_seats(self.n)
        new.advanced = self.advanced
        new.opt_out_variant = self.opt_out_variant
        new.opt_out_soft = self.opt_out_soft
        new.single_auction = self.single_auction
        new.order_best = self.order_best
        new.buy_limit_one = self.buy_limit_one
        new.seed = self.seed
        new.rng_adv = self.rng_adv.copy()
        new.rng_event = self.rng_event.copy()
        new.rng_die = self.rng_die.copy()
        new.fixed = {name: queue[:] for name, queue in self.fixed.items()}
        new.fields = self.fields[:]
        new.nuggets = self.nuggets[:]
        new.vultures = self.vultures[:]
        new.undertaker = self.undertaker
        new.adv_deck = self.adv_deck[:]
        new.adv_discard = self.adv_discard[:]
        new.adv_hands = [h[:] for h in self.adv_hands]
        new.adv_known = self.adv_known[:]
        new.units = self.units[:]
        new.iou_hands = [h[:] for h in self.iou_hands]
        new.iou_known = self.iou_known[:]
        new.market = [r[:] for r in self.market]
        new.event_deck = self.event_deck[:]
        new.event_revealed = self.event_revealed[:]
        new.event = self.event
        new.active = self.active
        new.turn = self.turn
        new.quiet = self.quiet
        new.activity = self.activity
        new.phase = self.phase
        new.todo = self.todo[:]
        new.participants = self.participants[:]
        new.deciding = self.deciding[:]
        new.commits = self.commits[:]
        new.shot = self.shot[:]
        new.takers = self.takers[:]
        new.bid_order = self.bid_order[:]
        new.bid_pos = self.bid_pos
        new.bids = self.bids[:]
        new.pick_order = self.pick_order[:]
        new.pick_pos = self.pick_pos
        new.ordered = self.ordered
        new.bought = self.bought[:]
        new.final_order = self.final_order[:]
        new.final_pos = self.final_pos
        new.end_reason = self.end_reason
        new.end_detail = self.end_detail
        return new

    def to_json(self) -> JSON:
        from referee.games.gnadenlos.serialize import state_to_json

        return state_to_json(self)

    # ------------------------------------------------------------ machinery

    def _then(self, *steps: str) -> None:
        """Run these steps next, in this order, before what was already planned."""
        self.todo.extend(reversed(steps))

    def _run(self) -> None:
        """Run the planned steps until a decision is asked or the match is over."""
        while self.phase is None:
            self._step(self.todo.pop())

    def _step(self, name: str) -> None:
        """One automatic step, by name (the most frequent first)."""
        if name == "bid":
            self._step_bid()
        elif name == "turn":
            self._step_turn()
        elif name == "buy":
            self._step_buy()
        elif name == "auction":
            self._step_auction()
        elif name == "payday_check":
            self._step_payday_check()
        elif name == "end_turn":
            self._step_end_turn()
        elif name == "finish_event":
            self._step_finish_event()
        elif name == "picks":
            self._step_picks()
        elif name == "pick":
            self._step_pick()
        elif name == "refill":
            self._step_refill()
        elif name == "payday":
            self._step_payday()
        elif name == "take":
            self._step_take()
        elif name == "lot":
            self._step_lot()
        elif name == "order":
            self._step_order()
        elif name == "final_payday":
            self._step_final_payday()
        elif name == "final_buys":
            self._step_final_buys()
        elif name == "final_buy":
            self._step_final_buy()
        else:
            raise ValueError(f"unknown step {name!r}; the steps are {list(STEPS)}")

    def _ask(self, phase: str) -> None:
        self.phase = phase

    def _end(self, reason: str, detail: str = "") -> None:
        """G-9: the match ends at once; B and C get a final payday (G-9.2)."""
        self.end_reason, self.end_detail = reason, detail
        self.log.add("match_ending", self._all, {"reason": reason, "detail": detail})
        self.todo.clear()
        if reason == END_VULTURES:
            self._then("final_buys")
        else:
            self._then("final_payday", "final_buys")

    def _draw_adventurers(self, count: int) -> list[int]:
        """G-6.1: reveal from the deck, reshuffling the discards when it runs out."""
        drawn: list[int] = []
        while len(drawn) < count:
            if not self.adv_deck:
                if not self.adv_discard:
                    break
                self.adv_deck, self.adv_discard = sorted(self.adv_discard), []
                fixed_shuffle(self.rng_adv, self.adv_deck, next_fixed(self.fixed, "adventurers"), int)
                self.log.add("deck_shuffled", 0, {"deck": "adventurers", "order": list(self.adv_deck)})
                self.log.add("deck_reshuffled", self._all, {"deck": "adventurers", "count": len(self.adv_deck)})
            card = self.adv_deck.pop()
            self.adv_known[card] = self._all
            drawn.append(card)
        if drawn:
            self.log.add("adventurers_revealed", self._all, {"cards": drawn})
        return drawn

    # ----------------------------------------------------------------- events

    def _step_turn(self) -> None:
        """G-4 phase 1, the event (G-5)."""
        holders = [s for s in range(self.n) if self.adv_hands[s]]
        self.log.add("turn_started", self._all, {"turn": self.turn, "active": self.active})
        if len(holders) <= 1:  # G-5.1
            self._then("buy")
            return
        card = self._reveal_event()
        if card is None:
            return
        self.event = card
        if card == EventCard.HIGH_NOON and self._move_undertaker():
            return
        self.participants = holders
        self.deciding = [s for s in holders if len(self.commit_choices(s)) > 1]
        if self.deciding:
            self._ask(COMMIT)
        else:
            self._resolve_commits({})

    def _reveal_event(self) -> int | None:
        """G-5.2/G-5.3: reveal the top card; the seventh is never executed."""
        card = self.event_deck.pop()
        self.event_revealed.append(card)
        self.activity = True
        self.log.add("event_revealed", self._all, {"event": int(card)})
        if self.event_deck:
            return card
        self.log.add("event_ignored", self._all, {"event": int(card)})
        if card == EventCard.HIGH_NOON and self._move_undertaker():
            return None
        self.event_deck = list(EVENT_DECK)
        fixed_shuffle(self.rng_event, self.event_deck, next_fixed(self.fixed, "events"), int)
        self.event_revealed = []
        self.log.add("deck_shuffled", 0, {"deck": "events", "order": [int(e) for e in self.event_deck]})
        self.log.add("deck_reshuffled", self._all, {"deck": "events", "count": len(self.event_deck)})
        card = self.event_deck.pop()
        self.event_revealed.append(card)
        self.log.add("event_revealed", self._all, {"event": int(card)})
        return card

    def _move_undertaker(self) -> bool:
        """G-5.7: the undertaker moves; True if that ended the match (end B)."""
        self.undertaker += 1
        self.log.add("undertaker_moved", self._all, {"position": self.undertaker})
        if self.undertaker >= self.cfg.undertaker_end:
            self._end(END_UNDERTAKER)
            return True
        return False

    def _resolve_commits(self, choices: dict[Seat, Action]) -> None:
        """G-5.4 to G-5.10: reveal all commitments at once and run the event."""
        self.phase = None
        for seat in self.participants:
            if seat not in choices:  # a forced choice (single option)
                choices[seat] = self.commit_choices(seat)[0]
        revealed: dict[str, Any] = {}
        for seat in self.participants:
            choice = choices[seat]
            if isinstance(choice, OptOut):
                self.commits[seat] = OPTED_OUT
                self._move(seat, -self.cfg.opt_out_penalty)
                revealed[str(seat)] = None
            else:
                card = cast(Commit, choice).card  # a commit choice: legal, or the forced one
                self.adv_hands[seat].remove(card)
                self.adv_known[card] = self._all
                self.commits[seat] = card
                revealed[str(seat)] = card
        self.log.add("commitments_revealed", self._all, {"event": int(self.event), "commitments": revealed})
        players = [s for s in self.participants if self.commits[s] >= 0]
        rating = EVENT_RATINGS[self.event]
        values = {s: rating[self.commits[s]] for s in players}
        self.shot = []
        if len(players) < 2 or len(set(values.values())) == 1:  # G-5.5, G-5.10
            self.log.add("event_void", self._all, {"event": int(self.event)})
            self._then("finish_event", "buy")
            return
        best = max(values.values())
        top = [s for s in players if values[s] == best]
        if self.event == EventCard.HIGH_NOON:
            self._high_noon(top, [s for s in players if values[s] == min(values.values())])
            return
        if self.event == EventCard.POKER:
            self._poker(top, [s for s in players if values[s] == min(values.values())])
        else:
            self._gold_fever(values, best)
        self._then("finish_event", "buy")

    def _gold_fever(self, values: dict[Seat, int], best: int) -> None:
        """G-5.6: the highest gold rating gains x, the second-highest distinct one y."""
        first, second = GOLD_REWARDS[self.event]
        lower = [v for v in values.values() if v < best]
        runner_up = max(lower) if lower else None
        for seat, value in values.items():
            gain = first if value == best else second if value == runner_up else 0
            if gain:
                self.nuggets[seat] += gain
                self.activity = True
                self.log.add("nuggets_gained", self._all, {"seat": seat, "amount": gain})

    def _poker(self, top: list[Seat], bottom: list[Seat]) -> None:
        """G-5.8: sections are read before anyone moves."""
        sections = {s: self.cfg.poker_section(self.fields[s]) for s in top + bottom}
        for seat in top:
            self._move(seat, sections[seat].plus)
        for seat in bottom:
            self._move(seat, -sections[seat].minus)

    def _high_noon(self, top: list[Seat], bottom: list[Seat]) -> None:
        """G-5.7: takes (sole winner 2, tied winners 1 each), refill, then the shooting."""
        owed = 2 if len(top) == 1 else 1
        takers: list[Seat] = []
        if mk.card_count(self.market) >= owed * len(top):
            for offset in range(self.n):
                seat = (self.active + offset) % self.n
                if seat in top:
                    takers.extend([seat] * owed)
        else:
            self.log.add("no_takes", self._all, {"owed": owed * len(top)})
        self.takers = takers
        self.shot = bottom
        self._then("take", "refill", "finish_event", "buy")

    def _step_take(self) -> None:
        if not self.takers:
            return
        slots = mk.filled_slots(self.market)
        if len(slots) == 1:
            self._apply_take(self.takers[0], take(*slots[0]))
        else:
            self._ask(TAKE)

    def _apply_take(self, seat: Seat, action: Take) -> None:
        self.phase = None
        self.takers.pop(0)
        card = mk.remove(self.market, action.row, action.col)
        self.iou_hands[seat].append(card)
        self.iou_known[card] |= 1 << seat
        self.log.split("iou_taken", self.iou_known[card], {"iou": list(iou(card))}, {"seat": seat, "row": action.row, "col": action.col})
        self._then("take")

    def _step_finish_event(self) -> None:
        """G-5.9: highest ratings discarded face up, the shot too; the rest go home."""
        rating = EVENT_RATINGS[self.event]
        players = [s for s in self.participants if self.commits[s] >= 0]
        best = max((rating[self.commits[s]] for s in players), default=None)
        void = len(players) < 2 or all(rating[self.commits[s]] == best for s in players)
        spared = self.opt_out_soft and OPTED_OUT in self.commits
        for seat in players:
            card = self.commits[seat]
            if void:
                self.adv_hands[seat].append(card)
            elif rating[card] == best or (seat in self.shot and not spared):
                self.adv_discard.append(card)
                self.log.add("adventurer_discarded", self._all, {"seat": seat, "card": card})
            else:
                self.adv_hands[seat].append(card)
                if seat in self.shot:  # G-5.11: a step back instead of the shot
                    self.log.add("spared", self._all, {"seat": seat, "card": card})
                    self._move(seat, -self.cfg.spared_penalty)
        self.commits = [NO_COMMIT] * self.n
        self.participants, self.deciding, self.shot = [], [], []
        self.event = -1
        if any(f >= self.cfg.goal_field for f in self.fields):
            self._end(END_GOAL)

    def _move(self, seat: Seat, steps: int) -> None:
        self.fields[seat] = self.cfg.clamp_field(self.fields[seat] + steps)
        self.log.add("hat_moved", self._all, {"seat": seat, "steps": steps, "field": self.fields[seat]})

    # ------------------------------------------------------------ prestige

    def _step_buy(self) -> None:
        """G-7: buy prestige."""
        if self.nuggets[self.active] == 0:
            self._apply_buy(self.active, buys(0)[0])
        else:
            self._ask(BUY)

    def _apply_buy(self, seat: Seat, action: Buy) -> None:
        self.phase = None
        if action.steps:
            self.nuggets[seat] -= action.steps
            self.activity = True
            self.log.add("prestige_bought", self._all, {"seat": seat, "steps": action.steps})
            self._move(seat, action.steps)
        if self.fields[seat] >= self.cfg.goal_field:  # G-7.2
            self._end(END_GOAL)
        else:
            self._then("auction")

    # ------------------------------------------------------------- auctions

    def _step_auction(self) -> None:
        """G-4 phase 3 and G-6: an auction when the active player holds fewer than 3."""
        if len(self.adv_hands[self.active]) >= 3:
            self._then("end_turn")
            return
        cards = self._draw_adventurers(self.n - 1)
        if not cards:  # G-6.5: nothing to auction
            self._then("payday_check")
            return
        self.activity = True
        self.units = [(c,) for c in cards]
        if self.single_auction:
            self.ordered = len(cards) if not self.order_best else 0
            self.bought = []
            self._then("order", "lot", "payday_check")  # G-6.7.5: then the payday check
            return
        self._start_bidding()
        self._then("bid", "picks", "payday_check")

    def _start_bidding(self) -> None:
        self.bid_order = [(self.active + k) % self.n for k in range(self.n)]
        self.bid_pos = 0
        self.bids = [None] * self.n

    def _step_bid(self) -> None:
        if self.bid_pos == len(self.bid_order):
            return
        seat = self.bid_order[self.bid_pos]
        options = self.bid_choices(seat)
        if len(options) > 1:
            self._ask(BID)
            return
        if options:  # G-11: a single legal bid is made by the engine, never asked
            self._apply_bid(seat, options[0])
            return
        # G-6.3: no legal bid: pass and show the whole IOU hand.
        for card in self.iou_hands[seat]:
            self.iou_known[card] = self._all
        self.bids[seat] = PASSED
        if self.log.recording:
            self.log.add("passed", self._all, {"seat": seat, "hand": sorted(list(iou(c)) for c in self.iou_hands[seat])})
        self.bid_pos += 1
        self._then("bid")

    def _apply_bid(self, seat: Seat, action: Bid) -> None:
        self.phase = None
        hand = self.iou_hands[seat]
        cards: list[int] = []
        for colour, value in action.ious:
            card = self._bid_instance(hand, colour, value)
            hand.remove(card)
            self.iou_known[card] = self._all
            cards.append(card)
        self.bids[seat] = tuple(cards)
        if self.log.recording:
            self.log.add("bid", self._all, {"seat": seat, "ious": [list(x) for x in action.ious], "total": action.total})
        self.bid_pos += 1
        self._then("bid")

    def _bid_instance(self, hand: list[int], colour: int, value: int) -> int:
        """G-6.4/G-10: of equal cards in hand, the one a bid uses: the one known
        to the most seats, the first in hand order among those.

        Bidding a privately known twin instead would show the others that the
        public one is still held; hand order, not instance ids, breaks ties so
        that a state restored from JSON plays on identically.
        """
        known, everyone = self.iou_known, self._all
        best = -1
        for card in hand:
            if IOU_COLOUR[card] == colour and IOU_VALUE[card] == value:
                if known[card] == everyone:
                    return card
                if best < 0 or known[card].bit_count() > known[best].bit_count():
                    best = card
        return best

    def _ranking(self) -> list[Seat]:
        """G-6.3: bids by total, highest first; passes last, earlier bidder first."""
        keyed: list[tuple[int, int, Seat]] = []
        for place, seat in enumerate(self.bid_order):
            bid = self.bids[seat]
            keyed.append((-sum([IOU_VALUE[c] for c in bid]) if bid else 1, place, seat))
        keyed.sort()
        return [seat for _, _, seat in keyed]

    def _step_picks(self) -> None:
        """G-6.5: winners pick in rank order; the rest take their bids back.
        In a single-card auction (G-6.7, `ordered` counts its card) the card
        is sold instead."""
        if self.ordered:
            self._sell()
            return
        ranking = self._ranking()
        winners, losers = ranking[: len(self.units)], ranking[len(self.units) :]
        for seat in losers:
            self.iou_hands[seat].extend(self.bids[seat] or ())
            self.bids[seat] = None
            self.log.add("bid_returned", self._all, {"seat": seat})
        self.pick_order, self.pick_pos = winners, 0
        self._then("pick")

    def _step_pick(self) -> None:
        if self.pick_pos == len(self.pick_order):
            self.bids = [None] * self.n
            return
        if len(self.units) == 1:
            self._apply_pick(self.pick_order[self.pick_pos], pick(self.units[0]))
        else:
            self._ask(PICK)

    def _apply_pick(self, seat: Seat, action: Pick) -> None:
        self.phase = None
        self._hand_over(seat, action.cards)
        self.pick_pos += 1
        self._then("pick")

    def _hand_over(self, seat: Seat, cards: tuple[int, ...]) -> None:
        """G-6.5, G-6.6: the buyer takes the lot, seen by all, and pays its bid."""
        self.units.remove(cards)
        self.adv_hands[seat].extend(cards)
        # G-6.4: bid cards go to the market in ascending value, colours in seat order.
        paid = sorted(self.bids[seat] or (), key=PAY_ORDER.__getitem__)
        slots = [mk.place(self.market, card, self.cfg.market_columns) for card in paid]
        self.bids[seat] = None
        if self.log.recording:
            self.log.add("picked", self._all, {"seat": seat, "cards": list(cards), "slots": [list(s) for s in slots]})

    # --------------------------------------------- single-card auction (G-6.7)

    def order_choices(self) -> list[int]:
        """G-6.7.1: the cards not yet placed that share the highest value."""
        rest = [unit[0] for unit in self.units[self.ordered:]]
        top = max(AUCTION_VALUE[c] for c in rest)
        return [c for c in rest if AUCTION_VALUE[c] == top]

    def _step_order(self) -> None:
        """G-6.7.1: fix the whole order before the first card's auction; the
        active player picks among tied cards, one pick at a time."""
        while self.ordered < len(self.units):
            tied = self.order_choices()
            if len(tied) > 1:
                self._ask(ORDER)
                return
            self._place_next(tied[0])
        if self.log.recording:
            self.log.add("auction_order", self._all, {"cards": [unit[0] for unit in self.units]})

    def _place_next(self, card: int) -> None:
        """Put `card` at the next free place of the auction order."""
        self.units.remove((card,))
        self.units.insert(self.ordered, (card,))
        self.ordered += 1

    def _apply_order(self, seat: Seat, action: Order) -> None:
        self.phase = None
        self._place_next(action.card)
        self.log.add("ordered", self._all, {"seat": seat, "card": action.card, "place": self.ordered - 1})
        self._then("order")

    def _step_lot(self) -> None:
        """G-6.7.2 to G-6.7.4: the next card's own once-round auction."""
        if not self.units:
            self.ordered = 0
            self.bought = []
            return
        n, active = self.n, self.active
        clockwise = [(active + k) % n for k in range(1, n + 1)]  # from the left; the active player last
        # G-6.7.4: under auction_buy_limit=one the buyers so far sit out. At
        # most N-1 cards are on offer to N players, so someone always remains
        # (the rule's discard of a card without bidders never applies).
        bidders = [s for s in clockwise if s not in self.bought] if self.buy_limit_one else clockwise
        self.bids = [None] * n
        self.bid_pos = 0
        self.bid_order = bidders
        if self.log.recording:
            self.log.add("lot", self._all, {"card": self.units[0][0], "bidders": list(bidders)})
        if self.active in bidders and len(bidders) > 1:
            self._ask(BID_POSITION)
            return
        self._then("bid", "picks")

    def _apply_bid_position(self, seat: Seat, action: BidPosition) -> None:
        """G-6.7.2: first or last; the others bid clockwise from the left."""
        self.phase = None
        others = [s for s in self.bid_order if s != seat]
        self.bid_order = [seat] + others if action.first else others + [seat]
        self.log.add("bid_position", self._all, {"seat": seat, "first": action.first, "bid_order": list(self.bid_order)})
        self._then("bid", "picks")

    def _sell(self) -> None:
        """G-6.7.3: the highest-ranked bidder (or passer) takes the card and
        pays its bid into the market; the others take their bids back. Then
        the next card (the step `lot`)."""
        winner, *losers = self._ranking()
        for seat in losers:
            self.iou_hands[seat].extend(self.bids[seat] or ())
            self.log.add("bid_returned", self._all, {"seat": seat})
        self.ordered -= 1
        self.bought.append(winner)
        self._hand_over(winner, self.units[0])
        self.bid_order, self.bids = [], [None] * self.n
        self._then("lot")

    # -------------------------------------------------------------- paydays

    def _step_payday_check(self) -> None:
        """G-8.1: a payday while the market has at least N complete rows."""
        if mk.complete_rows(self.market) >= self.n:
            self._then("payday", "refill", "payday_check")
        else:
            self._then("end_turn")

    def _step_payday(self) -> None:
        if self._payday():
            self._end(END_VULTURES)

    def _payday(self) -> bool:
        """G-8.2 to G-8.5: roll, turn up, pay; True if someone took a third vulture."""
        self.log.add("payday", self._all, {})
        turned: list[tuple[int, int]] = []
        third_vulture = False
        while True:
            col = self._roll() - 1
            self.log.add("die_rolled", self._all, {"face": col + 1})
            row = next(
                (r for r in range(len(self.market) - 1, -1, -1)
                 if self.market[r][col] != mk.EMPTY and (r, col) not in turned),
                None,
            )
            if row is None:  # G-8.3 (A)
                break
            card = self.market[row][col]
            turned.append((row, col))
            self.iou_known[card] = self._all
            owner, value = iou(card)
            if self.log.recording:
                self.log.add("iou_turned_up", self._all, {"row": row, "col": col, "iou": [owner, value]})
            if self.nuggets[owner] >= value:
                if value:
                    self.nuggets[owner] -= value
                    self.activity = True
                    self.log.add("nuggets_paid", self._all, {"seat": owner, "amount": value})
                continue
            # G-8.4 (B): cannot pay: a vulture and five fields back.
            self.vultures[owner] += 1
            self.log.add("vulture_taken", self._all, {"seat": owner, "vultures": self.vultures[owner]})
            self._move(owner, -self.cfg.vulture_penalty)
            third_vulture = self.vultures[owner] >= self.cfg.vultures_to_lose
            break
        for row, col in turned:  # G-8.5: turned-up cards go home
            card = self.market[row][col]
            self.market[row][col] = mk.EMPTY
            self.iou_hands[IOU_COLOUR[card]].append(card)
        mk.trim(self.market)
        return third_vulture

    def _roll(self) -> int:
        """G-8.2: a die face, 1 to 6: the next one a scenario fixed, else the die stream's."""
        fixed = next_fixed(self.fixed, "die")
        return int(fixed) if fixed is not None else self.rng_die.below(6) + 1

    def _step_refill(self) -> None:
        """G-3.4: fill gaps from the last row, the active player choosing."""
        gap = mk.first_gap(self.market)
        if gap is None:
            return
        sources = [c for c, card in enumerate(self.market[-1]) if card != mk.EMPTY]
        if len(sources) == 1:
            self._apply_refill(self.active, refill(sources[0]))
        else:
            self._ask(REFILL)

    def _apply_refill(self, seat: Seat, action: Refill) -> None:
        self.phase = None
        gap_row, gap_col = mk.first_gap(self.market)  # type: ignore[misc]
        from_row = len(self.market) - 1
        self.market[gap_row][gap_col] = mk.remove(self.market, from_row, action.col)
        if self.log.recording:
            self.log.add("refilled", self._all, {"from_slot": [from_row, action.col], "to_slot": [gap_row, gap_col]})
        self._then("refill")

    # ------------------------------------------------------------ turn end

    def _step_end_turn(self) -> None:
        """G-9.5: the safety valve, then the next player clockwise."""
        self.turn += 1
        self.quiet = 0 if self.activity else self.quiet + 1
        self.activity = False
        if self.quiet >= self.n * self.cfg.stall_rounds:
            self._end(END_SAFETY_VALVE, "stalled")
        elif self.turn >= self.cfg.turn_limit:
            self._end(END_SAFETY_VALVE, "turn_limit")
        else:
            self.active = (self.active + 1) % self.n
            self._then("turn")

    def _step_final_payday(self) -> None:
        """G-9.2: one payday whatever the rows, not followed by another."""
        if mk.card_count(self.market):
            self._payday()

    def _step_final_buys(self) -> None:
        """G-9.3: final buys from the active player on, three-vulture players excluded."""
        order = [(self.active + k) % self.n for k in range(self.n)]
        self.final_order = [s for s in order if self.vultures[s] < self.cfg.vultures_to_lose]
        self.final_pos = 0
        self._then("final_buy")

    def _step_final_buy(self) -> None:
        if self.final_pos == len(self.final_order):
            self.phase = OVER
            if self.log.recording:
                self.log.add("match_over", self._all, {"reason": self.end_reason, "ranks": list(self.outcome().ranks)})
            return
        seat = self.final_order[self.final_pos]
        if self.nuggets[seat] == 0:
            self._apply_final_buy(seat, final_buys(0)[0])
        else:
            self._ask(FINAL_BUY)

    def _apply_final_buy(self, seat: Seat, action: FinalBuy) -> None:
        self.phase = None
        if action.steps:
            self.nuggets[seat] -= action.steps
            self.log.add("prestige_bought", self._all, {"seat": seat, "steps": action.steps, "final": True})
            self._move(seat, action.steps)
        self.final_pos += 1
        self._then("final_buy")


STEPS: tuple[str, ...] = tuple(name[len("_step_"):] for name in dir(GnadenlosState) if name.startswith("_step_"))
"""The automatic steps a state's plan (`todo`) may hold, by name (`GnadenlosState._step`)."""
