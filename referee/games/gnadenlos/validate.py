"""The invariants of a reachable Gnadenlos! state, checked on a scenario read from JSON.

The reader (serialize.py) already refuses a card it cannot place: an unknown
adventurer or one placed twice, a 14th IOU of a colour, a colour with no seat
(G-1). Everything else a match keeps true is checked here, on the state it
built, before any step runs: the ranges of the board (G-1), the game end
(G-9), the event deck (G-5.3), the market's holes (G-3.4), and what each
decision phase needs to be asked at all: the seats it asks must have a real
choice (G-11), else the engine would have decided for them. Each refusal is
a `ScenarioError` naming the field, what is wrong, and the rule.
"""

from __future__ import annotations

from collections import Counter

from referee.games.gnadenlos import market as mk
from referee.games.gnadenlos.cards import EVENT_DECK, IOU_VALUE, NUM_ADVENTURERS, EventCard
from referee.games.gnadenlos.state import (
    BID,
    BID_POSITION,
    BUY,
    COMMIT,
    END_GOAL,
    END_SAFETY_VALVE,
    END_UNDERTAKER,
    END_VULTURES,
    FINAL_BUY,
    NO_COMMIT,
    OPTED_OUT,
    ORDER,
    OVER,
    PICK,
    REFILL,
    TAKE,
    GnadenlosState,
)
from referee.games.scenario import ScenarioError

END_DETAILS = {END_VULTURES: ("",), END_UNDERTAKER: ("",), END_GOAL: ("",),
               END_SAFETY_VALVE: ("stalled", "turn_limit")}
"""G-9.1, G-9.5: each end reason and its possible details."""
FINAL_STEPS = ("final_payday", "final_buys", "final_buy")
"""G-9.2, G-9.3: the steps left once the match is ending."""


def check_state(state: GnadenlosState) -> None:
    """Raise ScenarioError unless `state` could arise in a match."""
    _check_board(state)
    _check_end(state)
    _check_events(state)
    _check_market(state)
    _check_auction(state)
    _check_phase(state)


def check_choices(state: GnadenlosState) -> None:
    """G-11: every seat asked has at least two choices (run after the steps)."""
    for seat in sorted(state.to_act()):
        count = len(state.legal_actions(seat))
        if count < 2:
            raise ScenarioError("phase", f"{state.phase}: seat {seat} would be asked with {count} legal "
                                "action(s); the engine decides a single choice itself", "G-11")


def _per_seat(state: GnadenlosState, field: str, values: list[int], low: int, high: int | None, rule: str) -> None:
    if len(values) != state.n:
        raise ScenarioError(field, f"{len(values)} values: one per seat", rule)
    for seat, value in enumerate(values):
        if not isinstance(value, int) or value < low or (high is not None and value > high):
            bounds = f"{low} to {high}" if high is not None else f"at least {low}"
            raise ScenarioError(f"{field}[{seat}]", f"{value!r}: {bounds}", rule)


def _check_board(state: GnadenlosState) -> None:
    """G-1: the tracks, nuggets, vultures; turn and active seat."""
    cfg = state.cfg
    _per_seat(state, "fields", state.fields, cfg.track_first, cfg.track_last, "G-1: the success track")
    _per_seat(state, "nuggets", state.nuggets, 0, None, "G-1")
    _per_seat(state, "vultures", state.vultures, 0, cfg.vultures_to_lose, "G-1")
    if not 0 <= state.undertaker <= cfg.undertaker_end:
        raise ScenarioError("undertaker", f"{state.undertaker}: positions 0 to {cfg.undertaker_end}", "G-1")
    if not 0 <= state.turn <= cfg.turn_limit:
        raise ScenarioError("turn", f"{state.turn}: 0 to {cfg.turn_limit}", "G-9.5")
    if not 0 <= state.active < state.n:
        raise ScenarioError("active", f"{state.active}: the seats are 0 to {state.n - 1}", "G-2.5")
    if not 0 <= state.quiet < state.n * cfg.stall_rounds:
        raise ScenarioError("quiet", f"{state.quiet}: 0 to {state.n * cfg.stall_rounds - 1} turns without "
                            "activity; a whole round of them ends the match", "G-9.5")


def _check_end(state: GnadenlosState) -> None:
    """G-9.1: what ends the match is set exactly when it is ending."""
    cfg, reason = state.cfg, state.end_reason
    if reason and reason not in END_DETAILS:
        raise ScenarioError("end_reason", f"{reason!r}: one of {sorted(END_DETAILS)} or empty", "G-9.1, G-9.5")
    if state.end_detail not in END_DETAILS.get(reason, ("",)):
        raise ScenarioError("end_detail", f"{state.end_detail!r}: for {reason or 'a running match'} one of "
                            f"{list(END_DETAILS.get(reason, ('',)))}", "G-9.5")
    ending_phases = (FINAL_BUY, OVER)
    if state.phase in ending_phases and not reason:
        raise ScenarioError("end_reason", f"empty, but phase {state.phase} comes only after the end", "G-9.3")
    if reason and state.phase not in (*ending_phases, None):
        raise ScenarioError("phase", f"{state.phase}: after the end ({reason}) only final buys remain", "G-9.3")
    if reason and state.phase is None and not set(state.todo) <= set(FINAL_STEPS):
        raise ScenarioError("todo", f"{state.todo}: after the end ({reason}) only {list(FINAL_STEPS)} remain",
                            "G-9.2, G-9.3")
    if reason:
        return
    for seat, (field, vultures) in enumerate(zip(state.fields, state.vultures)):
        if vultures >= cfg.vultures_to_lose:
            raise ScenarioError(f"vultures[{seat}]", f"{vultures}: a third vulture ends the match "
                                "(set end_reason)", "G-9.1")
        if field >= cfg.goal_field:
            raise ScenarioError(f"fields[{seat}]", f"{field}: a hat on field {cfg.goal_field} or beyond ends "
                                "the match (set end_reason)", "G-9.1")
    if state.undertaker >= cfg.undertaker_end:
        raise ScenarioError("undertaker", f"{state.undertaker}: reaching {cfg.undertaker_end} ends the match "
                            "(set end_reason)", "G-9.1")
    if state.turn >= cfg.turn_limit:
        raise ScenarioError("turn", f"{state.turn}: the safety valve ends the match at {cfg.turn_limit}", "G-9.5")


def _check_events(state: GnadenlosState) -> None:
    """G-1, G-5.2, G-5.3: the seven event cards, the one being executed."""
    deck, revealed = Counter(state.event_deck), Counter(state.event_revealed)
    if deck + revealed != Counter(EVENT_DECK):
        raise ScenarioError("event_deck", f"{state.event_deck} with event_revealed {state.event_revealed}: "
                            "together they are the seven event cards (ids 0, 1, 2, 3, 3, 4, 4)", "G-1")
    if len(state.event_revealed) > len(EVENT_DECK) - 1:
        raise ScenarioError("event_revealed", "the seventh card is never executed: the deck is reshuffled "
                            "as it is revealed", "G-5.3")
    if state.event != -1 and (not state.event_revealed or state.event_revealed[-1] != state.event):
        raise ScenarioError("event", f"{state.event}: the event executed is the last card revealed "
                            f"(event_revealed ends with it)", "G-5.2")
    in_event = state.phase in (COMMIT, TAKE) or (state.phase == REFILL and state.event != -1)
    if state.phase in (COMMIT, TAKE) and state.event == -1:
        raise ScenarioError("event", f"-1, but phase {state.phase} is part of an event", "G-5")
    if state.phase == TAKE and state.event != EventCard.HIGH_NOON:
        raise ScenarioError("event", f"{state.event}: takes are made only at a High Noon (4)", "G-5.7")
    if state.phase is not None and not in_event and state.event != -1:
        raise ScenarioError("event", f"{state.event}: no event is executed during phase {state.phase}", "G-4")
    if state.phase is not None and not in_event:
        for field in ("participants", "deciding", "shot", "takers"):
            if getattr(state, field):
                raise ScenarioError(field, f"must be empty outside an event (phase {state.phase})", "G-5")
    high_noon_takes = state.phase in (TAKE, REFILL) and state.event == EventCard.HIGH_NOON
    _per_seat(state, "commits", state.commits, NO_COMMIT, NUM_ADVENTURERS - 1, "G-5.4")
    if OPTED_OUT in state.commits and not state.opt_out_variant:
        raise ScenarioError("commits", f"{OPTED_OUT} (opted out) needs the variant gunfight_opt_out", "G-5.10")
    if state.phase is not None and not high_noon_takes and any(c != NO_COMMIT for c in state.commits):
        raise ScenarioError("commits", f"revealed commitments lie on the table only during a High Noon's "
                            f"takes and refill, not in phase {state.phase}", "G-5.4, G-5.9")


def _check_market(state: GnadenlosState) -> None:
    """G-3.4: a hole below the last row exists only until the refill, and
    after the final payday, which no refill follows (G-9.2)."""
    refilling = state.phase in (TAKE, REFILL) or (state.phase is None and "refill" in state.todo)
    gap = mk.first_gap(state.market)
    if gap is not None and not refilling and not state.end_reason:
        raise ScenarioError("ious.market", f"slot {list(gap)} is empty below the last row; the market is "
                            f"refilled before any other decision (phase {state.phase})", "G-3.4")


AUCTION_STEPS = {"bid", "pick", "picks", "order", "lot"}
"""The steps that run an auction (G-6, G-6.7)."""


def _check_auction(state: GnadenlosState) -> None:
    """G-6: lots and bids exist only while an auction runs; bid totals differ."""
    auction = state.phase in (BID, PICK, BID_POSITION, ORDER) or (
        state.phase is None and bool(AUCTION_STEPS & set(state.todo)))
    _check_single_auction(state, auction)
    if not auction:
        if state.units:
            raise ScenarioError("adventurers.units", f"revealed lots lie out only during an auction, not in "
                                f"phase {state.phase}", "G-6.1")
        if any(bid is not None for bid in state.bids):
            raise ScenarioError("ious.bids", f"bids lie out only during an auction, not in phase {state.phase}",
                                "G-6.2")
        return
    sizes = {len(unit) for unit in state.units}
    if sizes - {1, 2} or (2 in sizes and not state.advanced) or len(sizes) > 1:
        raise ScenarioError("adventurers.units", "lots of one adventurer (pairs only in the advanced setup's "
                            "opening auction)", "G-6.1, G-2.6")
    totals = [sum(IOU_VALUE[c] for c in bid) for bid in state.bids if bid]
    if len(set(totals)) != len(totals):
        raise ScenarioError("ious.bids", f"totals {totals}: every bid's value differs from the earlier ones", "G-6.2")
    if any(bid is not None and len(bid) > 3 for bid in state.bids):
        raise ScenarioError("ious.bids", "a bid is 1 to 3 IOUs (an empty list is a pass)", "G-6.2")


def _check_single_auction(state: GnadenlosState, auction: bool) -> None:
    """G-6.7: the single-card auction's order and buyers, only under its variant."""
    if not state.single_auction:
        if state.phase in (BID_POSITION, ORDER) or state.ordered or state.bought:
            raise ScenarioError("phase" if state.phase in (BID_POSITION, ORDER) else "ordered, bought",
                                "the single-card auction's decisions and bookkeeping need the variant auction=single",
                                "G-6.7")
        return
    if _opening_auction(state):
        return  # G-6.7: the advanced setup's opening auction (G-2.6) is unchanged
    if not auction and (state.ordered or state.bought):
        raise ScenarioError("ordered, bought", f"0 and [] outside an auction, not in phase {state.phase}", "G-6.7")
    if state.phase == ORDER and not state.order_best:
        raise ScenarioError("phase", "order is decided only under auction_order=best", "G-6.7.1")
    if not 0 <= state.ordered <= len(state.units):
        raise ScenarioError("ordered", f"{state.ordered}: 0 to the {len(state.units)} cards on offer", "G-6.7.1")
    if state.ordered < len(state.units) and not (state.order_best and (state.phase == ORDER or "order" in state.todo)):
        raise ScenarioError("ordered", f"{state.ordered} of {len(state.units)} cards placed: the whole order is "
                            "fixed before the first card's auction (auction_order=best only)", "G-6.7.1")
    if any(not 0 <= s < state.n for s in state.bought) or (
            state.buy_limit_one and len(set(state.bought)) != len(state.bought)):
        raise ScenarioError("bought", f"{state.bought}: seats, each once under auction_buy_limit=one", "G-6.7.4")
    if len(state.bought) + len(state.units) > state.n - 1:
        raise ScenarioError("bought", f"{state.bought} with {len(state.units)} cards still on offer: at most "
                            f"{state.n - 1} cards are revealed (N-1), each bought once", "G-6.7, G-6.1")
    if state.phase == ORDER and len(state.units) - state.ordered < 2:
        raise ScenarioError("ordered", f"{state.ordered} of {len(state.units)} cards placed: an order decision "
                            "needs two cards not yet placed", "G-6.7.1, G-11")


def _opening_auction(state: GnadenlosState) -> bool:
    """G-2.6: the advanced setup's auction, the only one of pairs."""
    return state.advanced and bool(state.units) and len(state.units[0]) == 2


def single_bidders(state: GnadenlosState) -> list[int]:
    """G-6.7.2, G-6.7.4: the seats taking part in the card's auction, clockwise
    from the active player's left, the active player last."""
    seats = [(state.active + k) % state.n for k in range(1, state.n + 1)]
    return [s for s in seats if not (state.buy_limit_one and s in state.bought)]


def _check_phase(state: GnadenlosState) -> None:
    """G-11: what the awaited decision needs, so the seats asked have a choice."""
    phase, n = state.phase, state.n
    if phase == COMMIT:
        holders = [s for s in range(n) if state.adv_hands[s]]
        if state.participants != holders:
            raise ScenarioError("participants", f"{state.participants}: every seat holding an adventurer, in "
                                f"seat order: {holders}", "G-5.4")
        if len(holders) < 2:
            raise ScenarioError("participants", "an event needs two seats holding adventurers", "G-5.1")
        deciding = [s for s in holders if len(state.commit_choices(s)) > 1]
        if state.deciding != deciding or not deciding:
            raise ScenarioError("deciding", f"{state.deciding}: the participants with more than one choice, "
                                f"{deciding}; the engine commits a single choice itself", "G-5.4, G-11")
    elif phase == TAKE:
        if not state.takers or any(not 0 <= s < n for s in state.takers):
            raise ScenarioError("takers", f"{state.takers}: the takes still to make, one seat per card", "G-5.7")
        if len(mk.filled_slots(state.market)) < 2:
            raise ScenarioError("ious.market", "a take with fewer than two cards in the market is made by the "
                                "engine", "G-5.7, G-11")
    elif phase == REFILL:
        if mk.first_gap(state.market) is None:
            raise ScenarioError("ious.market", "a refill needs an empty slot below the last row", "G-3.4")
        if sum(1 for c in state.market[-1] if c != mk.EMPTY) < 2:
            raise ScenarioError("ious.market", "the last row holds one card: the engine moves it itself",
                                "G-3.4, G-11")
    elif phase in (BUY, FINAL_BUY):
        _check_order_phase(state)
    elif phase == BID:
        _check_bidding(state)
    elif phase == BID_POSITION:
        bidders = single_bidders(state)
        if state.bid_order != bidders or state.active not in bidders or len(bidders) < 2:
            raise ScenarioError("bid_order", f"{state.bid_order}: the card's bidders clockwise from the active "
                                f"player's left, the active one last, {bidders}, the active player and another "
                                "among them", "G-6.7.2")
        if state.bid_pos or any(b is not None for b in state.bids) or not state.units:
            raise ScenarioError("ious.bids", "the bid position is chosen before any bid on a card on offer",
                                "G-6.7.2")
    elif phase == PICK:
        if len(state.units) < 2:
            raise ScenarioError("adventurers.units", "a pick needs two lots at least; the engine hands over a "
                                "single one", "G-6.5, G-11")
        if len(set(state.pick_order)) != len(state.pick_order) or not 0 <= state.pick_pos < len(state.pick_order):
            raise ScenarioError("pick_order", f"{state.pick_order} at pick_pos {state.pick_pos}: distinct "
                                "seats, and a picker still to choose", "G-6.5")
        picker = state.pick_order[state.pick_pos]
        if not 0 <= picker < n or state.bids[picker] is None:
            raise ScenarioError("ious.bids", f"seat {picker} picks, so it holds a bid (or a pass, [])", "G-6.5")


def _check_order_phase(state: GnadenlosState) -> None:
    """G-7.1, G-9.3: a buy is asked of a seat holding nuggets."""
    if state.phase == BUY:
        seat = state.active
    else:
        order = [(state.active + k) % state.n for k in range(state.n)]
        expected = [s for s in order if state.vultures[s] < state.cfg.vultures_to_lose]
        if state.final_order != expected or not 0 <= state.final_pos < len(expected):
            raise ScenarioError("final_order", f"{state.final_order} at final_pos {state.final_pos}: the seats "
                                f"from the active one without three vultures, {expected}", "G-9.3")
        seat = state.final_order[state.final_pos]
    if state.nuggets[seat] == 0:
        raise ScenarioError(f"nuggets[{seat}]", f"0: seat {seat} has nothing to buy with, so the engine buys "
                            "nothing for it", "G-7.1, G-9.3, G-11")


def _check_bidding(state: GnadenlosState) -> None:
    """G-6.2, G-6.3, G-6.7.2: the bidding order, bids so far, a real choice."""
    n = state.n
    order = [(state.active + k) % n for k in range(n)]
    if state.single_auction and not _opening_auction(state):
        bidders = single_bidders(state)
        orders = [bidders, bidders[-1:] + bidders[:-1]] if state.active in bidders else [bidders]
        if state.bid_order not in orders:
            raise ScenarioError("bid_order", f"{state.bid_order}: the card's bidders clockwise from the active "
                                f"player's left, the active one first or last: one of {orders}", "G-6.7.2")
        order = state.bid_order
    elif state.bid_order != order:
        raise ScenarioError("bid_order", f"{state.bid_order}: every seat from the active one clockwise, {order}",
                            "G-6.2")
    if not 0 <= state.bid_pos < len(order):
        raise ScenarioError("bid_pos", f"{state.bid_pos}: the index of the next bidder, 0 to {len(order) - 1}",
                            "G-6.2")
    if not state.units:
        raise ScenarioError("adventurers.units", "an auction needs revealed lots", "G-6.1")
    for seat in range(n):
        index = order.index(seat) if seat in order else n
        has_bid = state.bids[seat] is not None
        if has_bid != (index < state.bid_pos):
            raise ScenarioError(f"ious.bids[{seat}]", "the seats before bid_pos have bid (or passed, []), the "
                                "others not yet (null)", "G-6.2")
    bidder = order[state.bid_pos]
    if len(state.bid_choices(bidder)) < 2:
        raise ScenarioError("phase", f"bid: seat {bidder} has {len(state.bid_choices(bidder))} legal bid(s); the "
                            "engine bids or passes for it", "G-6.3, G-11")
