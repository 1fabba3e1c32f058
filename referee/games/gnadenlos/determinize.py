"""Determinization for Gnadenlos!: a full state consistent with one observation.

The inverse of the observation (G-10): every card the seat knows goes back
where it saw it; the cards it does not know are dealt at random over the places
it cannot see (other hands, the deck, face-down market slots); the deck is
shuffled, since its order is unknown to all. Knowledge bitmasks are rebuilt
from what is public: in this game a card a seat knows outside its own hand is
known to everyone, an unseen card in a hand is known to its holder only, and an
unseen market card was dealt at setup and is known to nobody. The engine's
bookkeeping, which the observation does not carry, follows from what it
does: the step stack from the stage (stages.py), the positions in the
orders of bids, picks and final buys from the seat deciding, the safety
valve's counters from `quiet_turns`.

The new state's chance streams are seeded from the caller's generator, never
from the match seed, which no observation carries.
"""

from __future__ import annotations

import random
from typing import Final

from referee.games.base import ChanceStream, derive_seed
from referee.games.gnadenlos import market as mk
from referee.games.gnadenlos.cards import (
    EVENT_DECK,
    IOU_COLOUR,
    IOU_VALUE,
    IOUS_PER_COLOUR,
    NUM_ADVENTURERS,
    Iou,
)
from referee.games.gnadenlos.config import GnadenlosConfig
from referee.games.gnadenlos.observation import HIDDEN, GnadenlosObservation
from referee.games.gnadenlos.stages import steps_after
from referee.games.gnadenlos.state import GnadenlosState


def determinize(obs: GnadenlosObservation, rng: random.Random, cfg: GnadenlosConfig) -> GnadenlosState:
    """A state drawn uniformly among those consistent with `obs`.

    Raises ValueError if the observation is inconsistent (its counts do not add
    up to the game's cards).
    """
    state = GnadenlosState()
    _copy_public(state, obs, cfg)
    seed = rng.getrandbits(63)
    state.seed = seed
    state.rng_adv = ChanceStream(derive_seed(seed, "adventurers"))
    state.rng_event = ChanceStream(derive_seed(seed, "events"))
    state.rng_die = ChanceStream(derive_seed(seed, "die"))
    _deal_adventurers(state, obs, rng)
    _deal_ious(state, obs, rng)
    state.event_deck = sorted(EVENT_DECK)
    for card in obs.event_revealed:
        if card in state.event_deck:
            state.event_deck.remove(card)
    rng.shuffle(state.event_deck)
    if len(state.event_deck) != obs.event_deck_count:
        raise ValueError("inconsistent observation: event deck count")
    return state


def _copy_public(state: GnadenlosState, obs: GnadenlosObservation, cfg: GnadenlosConfig) -> None:
    state.cfg = cfg
    state.set_seats(obs.num_seats)
    state.advanced = obs.advanced
    state.opt_out_variant = obs.opt_out_variant
    state.opt_out_soft, state.single_auction = obs.opt_out_soft, obs.single_auction
    state.order_best, state.buy_limit_one = obs.order_best, obs.buy_limit_one
    state.ordered, state.bought = obs.ordered, list(obs.bought)
    state.turn, state.active = obs.turn, obs.active
    state.quiet, state.activity = _valve_counters(obs)
    state.phase = obs.phase or None
    state.todo = steps_after(obs.stage, obs.phase)
    state.fields, state.nuggets, state.vultures = list(obs.fields), list(obs.nuggets), list(obs.vultures)
    state.undertaker = obs.undertaker
    state.event = obs.event
    state.event_revealed = list(obs.event_revealed)
    state.adv_discard = list(obs.adv_discard)
    state.units = list(obs.units)
    state.participants, state.deciding = list(obs.participants), list(obs.deciding)
    state.commits, state.shot, state.takers = list(obs.commits), list(obs.shot), list(obs.takers)
    state.bid_order, state.bid_pos = list(obs.bid_order), _bids_made(obs)
    state.pick_order, state.pick_pos = list(obs.pick_order), _position(obs, obs.pick_order, "pick")
    state.final_order, state.final_pos = list(obs.final_order), _position(obs, obs.final_order, "final_buy")
    state.end_reason, state.end_detail = obs.end_reason, obs.end_detail


def _valve_counters(obs: GnadenlosObservation) -> tuple[int, bool]:
    """G-9.5: the engine's (quiet, activity) from `quiet_turns` (observation.py):
    the count of finished quiet turns matters only while the current turn
    is quiet, and neither after the end."""
    if obs.end_reason:
        return obs.quiet_turns, False
    return max(obs.quiet_turns - 1, 0), obs.quiet_turns == 0


def _bids_made(obs: GnadenlosObservation) -> int:
    """The engine's index of the next bidder (G-6.2): how many seats of
    `bid_order` have bid (or passed) in the current auction, 0 before its
    first bid (a single-card auction asks the bid position first, G-6.7.2)."""
    made = sum(1 for seat in obs.bid_order if obs.bids[seat] is not None)
    if obs.phase == "bid" and (made >= len(obs.bid_order) or obs.to_act != (obs.bid_order[made],)):
        raise ValueError(f"inconsistent observation: {made} bids made, yet {list(obs.to_act)} is to bid")
    return made


def _position(obs: GnadenlosObservation, order: tuple[int, ...], phase: str) -> int:
    """The engine's index into `order` (picks or final buys): the deciding
    seat's place while `phase` is asked, else the order's length (a finished
    round; the next one starts from 0)."""
    if obs.phase != phase:
        return len(order)
    if len(obs.to_act) != 1 or obs.to_act[0] not in order:
        raise ValueError(f"inconsistent observation: the {phase} decider {list(obs.to_act)} is not in {list(order)}")
    return order.index(obs.to_act[0])


def _deal_adventurers(state: GnadenlosState, obs: GnadenlosObservation, rng: random.Random) -> None:
    everyone = (1 << obs.num_seats) - 1
    known = state.adv_known = [everyone] * NUM_ADVENTURERS
    seen = set(obs.adv_deck_known) | set(obs.adv_discard) | {c for c in obs.commits if c >= 0}
    seen.update(c for unit in obs.units for c in unit)
    for hand in obs.adv_hands:
        seen.update(hand.known)
    unseen = sorted(set(range(NUM_ADVENTURERS)) - seen)
    wanted = sum(h.unknown for h in obs.adv_hands) + obs.adv_deck_unknown
    if len(unseen) != wanted:
        raise ValueError("inconsistent observation: adventurer counts")
    rng.shuffle(unseen)
    for card in obs.adv_private:
        known[card] = 1 << obs.seat
    state.adv_hands = []
    for holder, hand in enumerate(obs.adv_hands):
        hidden = [unseen.pop() for _ in range(hand.unknown)]
        for card in hidden:
            known[card] = 1 << holder
        state.adv_hands.append(list(hand.known) + hidden)
    for card in unseen:
        known[card] = 0
    state.adv_deck = list(obs.adv_deck_known) + unseen
    rng.shuffle(state.adv_deck)


VALUES: Final = 5
"""IOU values are 0 to 4 (G-1): an identity's code is colour * VALUES + value,
so codes ascend as identities do."""
IDENTITIES: Final[tuple[Iou, ...]] = tuple((colour, value) for colour in range(4) for value in range(VALUES))
_POOLS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {}


def _pools(n: int) -> tuple[tuple[int, ...], ...]:
    """Per identity code, the IOU instances of that identity at `n` seats, ascending."""
    found = _POOLS.get(n)
    if found is None:
        pools: list[list[int]] = [[] for _ in IDENTITIES]
        for card in range(n * IOUS_PER_COLOUR):
            pools[IOU_COLOUR[card] * VALUES + IOU_VALUE[card]].append(card)
        found = _POOLS[n] = tuple(tuple(cards) for cards in pools)
    return found


def _code(identity: Iou, n: int) -> int:
    colour, value = identity
    if not (0 <= colour < n and 0 <= value < VALUES):
        raise ValueError(f"inconsistent observation: no IOU {list(identity)}")
    return colour * VALUES + value


def _deal_ious(state: GnadenlosState, obs: GnadenlosObservation, rng: random.Random) -> None:
    """The IOUs (G-1) by identity: the seen ones where they were seen, the
    unseen ones shuffled over the hidden places (counted per identity code in
    lists: Counter arithmetic was a third of a determinization)."""
    n = obs.num_seats
    everyone = (1 << n) - 1
    template = _pools(n)
    pools = [list(cards) for cards in template]
    seen = [0] * len(IDENTITIES)
    for hand in obs.iou_hands:
        for identity in hand.known:
            seen[_code(identity, n)] += 1
    for bid in obs.bids:
        for identity in bid or ():
            seen[_code(identity, n)] += 1
    hidden_slots = 0
    for row in obs.market:
        for slot in row:
            if isinstance(slot, tuple):
                seen[_code(slot, n)] += 1
            elif slot == HIDDEN:
                hidden_slots += 1
    unseen: list[Iou] = []
    for code, identity in enumerate(IDENTITIES):
        left = len(template[code]) - seen[code]
        if left < 0:
            raise ValueError("inconsistent observation: more IOUs seen than exist")
        unseen.extend([identity] * left)
    if len(unseen) != sum(h.unknown for h in obs.iou_hands) + hidden_slots:
        raise ValueError("inconsistent observation: IOU counts")
    rng.shuffle(unseen)
    known = state.iou_known = [everyone] * (n * IOUS_PER_COLOUR)

    def instance(identity: Iou, mask: int) -> int:
        card = pools[identity[0] * VALUES + identity[1]].pop()
        known[card] = mask
        return card

    private = [0] * len(IDENTITIES)
    for identity in obs.iou_private:
        private[_code(identity, n)] += 1
    state.iou_hands = []
    for holder, hand in enumerate(obs.iou_hands):
        cards = []
        for identity in hand.known:
            mask = everyone
            if holder == obs.seat:
                code = identity[0] * VALUES + identity[1]
                if private[code]:
                    private[code] -= 1
                    mask = 1 << obs.seat
            cards.append(instance(identity, mask))
        for _ in range(hand.unknown):
            cards.append(instance(unseen.pop(), 1 << holder))
        state.iou_hands.append(cards)
    state.bids = [None if bid is None else tuple([instance(i, everyone) for i in bid]) for bid in obs.bids]
    market: list[list[int]] = []
    for row in obs.market:
        cards = []
        for slot in row:
            if slot is None:
                cards.append(mk.EMPTY)
            elif isinstance(slot, tuple):
                cards.append(instance(slot, everyone))
            else:
                cards.append(instance(unseen.pop(), 0))
        market.append(cards)
    state.market = market
