"""The JSON state format of Gnadenlos! (documented in docs/engine.md).

`state_to_json` writes every field, hidden cards, knowledge and the chance
streams included: it is for records, scenarios and tests, never for a bot.
`state_from_json` also reads short hand-written scenarios: cards a scenario
does not place are filled in (adventurers into the deck, IOUs into their
colour owner's hand), and a card without a "known_by" list is known to all
seats, except in the deck, where it is known to none.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from referee.games.base import ChanceStream, derive_seed
from referee.games.gnadenlos import market as mk
from referee.games.gnadenlos.cards import EVENT_DECK, IOU_COLOUR, IOU_VALUE, IOUS_PER_COLOUR, NUM_ADVENTURERS
from referee.games.gnadenlos.config import RULES_VERSION, GnadenlosConfig
from referee.games.gnadenlos.state import NO_COMMIT, GnadenlosState


def _seats(mask: int, n: int) -> list[int]:
    return [s for s in range(n) if mask >> s & 1]


def _mask(seats: Iterable[int]) -> int:
    mask = 0
    for s in seats:
        mask |= 1 << s
    return mask


def state_to_json(state: GnadenlosState) -> dict[str, Any]:
    n = state.n

    def adv(card: int) -> list[Any]:
        return [card, _seats(state.adv_known[card], n)]

    def iou(card: int) -> list[Any]:
        return [IOU_COLOUR[card], IOU_VALUE[card], _seats(state.iou_known[card], n)]

    return {
        "game": "gnadenlos",
        "rules_version": RULES_VERSION,
        "seats": n,
        "variant": {
            "setup": "advanced" if state.advanced else "standard",
            "gunfight_opt_out": "on" if state.opt_out_variant else "off",
        },
        "seed": state.seed,
        "streams": {
            "adventurers": state.rng_adv.to_json(),
            "events": state.rng_event.to_json(),
            "die": state.rng_die.to_json(),
        },
        "turn": state.turn,
        "active": state.active,
        "quiet": state.quiet,
        "activity": state.activity,
        "phase": state.phase,
        "todo": list(state.todo),
        "fields": list(state.fields),
        "nuggets": list(state.nuggets),
        "vultures": list(state.vultures),
        "undertaker": state.undertaker,
        "event": int(state.event),
        "event_deck": [int(e) for e in state.event_deck],
        "event_revealed": [int(e) for e in state.event_revealed],
        "adventurers": {
            "deck": [adv(c) for c in state.adv_deck],
            "discard": list(state.adv_discard),
            "hands": [[adv(c) for c in hand] for hand in state.adv_hands],
            "units": [list(u) for u in state.units],
        },
        "ious": {
            "hands": [[iou(c) for c in hand] for hand in state.iou_hands],
            "market": [[None if c == mk.EMPTY else iou(c) for c in row] for row in state.market],
            "bids": [None if b is None else [iou(c) for c in b] for b in state.bids],
        },
        "participants": list(state.participants),
        "deciding": list(state.deciding),
        "commits": list(state.commits),
        "shot": list(state.shot),
        "takers": list(state.takers),
        "bid_order": list(state.bid_order),
        "bid_pos": state.bid_pos,
        "pick_order": list(state.pick_order),
        "pick_pos": state.pick_pos,
        "final_order": list(state.final_order),
        "final_pos": state.final_pos,
        "end_reason": state.end_reason,
        "end_detail": state.end_detail,
    }


def state_from_json(obj: dict[str, Any], cfg: GnadenlosConfig) -> GnadenlosState:
    """Raises ValueError (with the offending key) for an invalid state."""
    try:
        return _read(obj, cfg)
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"invalid Gnadenlos! state JSON: {type(exc).__name__}: {exc}") from None


def _read(obj: dict[str, Any], cfg: GnadenlosConfig) -> GnadenlosState:
    state = GnadenlosState()
    n = state.n = int(obj["seats"])
    if not 3 <= n <= 4:
        raise ValueError("seats must be 3 or 4")
    everyone = (1 << n) - 1
    state.cfg = cfg
    variant = obj.get("variant", {})
    state.advanced = variant.get("setup") == "advanced"
    state.opt_out_variant = variant.get("gunfight_opt_out") == "on"
    state.seed = int(obj.get("seed", 0))
    streams = obj.get("streams", {})
    for attr, name in (("rng_adv", "adventurers"), ("rng_event", "events"), ("rng_die", "die")):
        stream = streams.get(name)
        setattr(state, attr, ChanceStream.from_json(stream) if stream else ChanceStream(derive_seed(state.seed, name)))
    state.turn = int(obj.get("turn", 0))
    state.active = int(obj.get("active", 0))
    state.quiet = int(obj.get("quiet", 0))
    state.activity = bool(obj.get("activity", False))
    state.phase = obj.get("phase")
    state.todo = list(obj.get("todo", []))
    state.fields = list(obj.get("fields", [cfg.start_field] * n))
    state.nuggets = list(obj.get("nuggets", [cfg.start_nuggets] * n))
    state.vultures = list(obj.get("vultures", [0] * n))
    state.undertaker = int(obj.get("undertaker", 0))
    state.event = int(obj.get("event", -1))
    state.event_revealed = list(obj.get("event_revealed", []))
    if "event_deck" in obj:
        state.event_deck = list(obj["event_deck"])
    else:
        rest: list[int] = list(EVENT_DECK)
        for e in state.event_revealed:
            rest.remove(e)
        state.event_deck = sorted(rest)

    state.commits = list(obj.get("commits", [NO_COMMIT] * n))
    _read_adventurers(state, obj.get("adventurers", {}), everyone)
    _read_ious(state, obj.get("ious", {}), everyone)
    state.participants = list(obj.get("participants", []))
    state.deciding = list(obj.get("deciding", []))
    state.shot = list(obj.get("shot", []))
    state.takers = list(obj.get("takers", []))
    state.bid_order = list(obj.get("bid_order", []))
    state.bid_pos = int(obj.get("bid_pos", 0))
    state.pick_order = list(obj.get("pick_order", []))
    state.pick_pos = int(obj.get("pick_pos", 0))
    state.final_order = list(obj.get("final_order", []))
    state.final_pos = int(obj.get("final_pos", 0))
    state.end_reason = obj.get("end_reason", "")
    state.end_detail = obj.get("end_detail", "")
    if state.phase is None and not state.todo:
        raise ValueError("a state needs a decision phase or steps to run (todo)")
    state._run()
    return state


def _read_adventurers(state: GnadenlosState, obj: dict[str, Any], everyone: int) -> None:
    """Adventurer entries are `id` or `[id, known_by]`; commitments are known to all."""
    placed: set[int] = set()

    def take(entry: Any, default: int) -> int:
        card, known = (entry[0], _mask(entry[1])) if isinstance(entry, list) else (entry, default)
        if not 0 <= card < NUM_ADVENTURERS or card in placed:
            raise ValueError(f"adventurer {card} is out of range or placed twice")
        placed.add(card)
        state.adv_known[card] = known
        return int(card)

    state.adv_known = [0] * NUM_ADVENTURERS
    state.adv_hands = [[take(e, everyone) for e in hand] for hand in obj.get("hands", [[]] * state.n)]
    if len(state.adv_hands) != state.n:
        raise ValueError("adventurers.hands needs one list per seat")
    state.adv_discard = [take(e, everyone) for e in obj.get("discard", [])]
    state.units = [tuple(take(e, everyone) for e in unit) for unit in obj.get("units", [])]
    for card in state.commits:
        if card >= 0:
            take(card, everyone)
    deck = [take(e, 0) for e in obj.get("deck", [])]
    state.adv_deck = [c for c in range(NUM_ADVENTURERS) if c not in placed] + deck


def _read_ious(state: GnadenlosState, obj: dict[str, Any], everyone: int) -> None:
    """IOU entries are `[colour, value]` or `[colour, value, known_by]`."""
    n = state.n
    pools: dict[tuple[int, int], list[int]] = {}
    for card in range(n * IOUS_PER_COLOUR - 1, -1, -1):
        pools.setdefault((IOU_COLOUR[card], IOU_VALUE[card]), []).append(card)
    state.iou_known = [everyone] * (n * IOUS_PER_COLOUR)

    def take(entry: Any, default: int) -> int:
        identity = (int(entry[0]), int(entry[1]))
        if not pools.get(identity):
            raise ValueError(f"no IOU {identity} left to place (13 per colour: 0, 1x3, 2x3, 3x3, 4x3)")
        card = pools[identity].pop()
        state.iou_known[card] = _mask(entry[2]) if len(entry) > 2 else default
        return card

    state.iou_hands = [[take(e, everyone) for e in hand] for hand in obj.get("hands", [[]] * n)]
    if len(state.iou_hands) != n:
        raise ValueError("ious.hands needs one list per seat")
    state.market = [[mk.EMPTY if e is None else take(e, everyone) for e in row] for row in obj.get("market", [])]
    if any(len(row) != state.cfg.market_columns for row in state.market):
        raise ValueError(f"every market row has {state.cfg.market_columns} slots")
    mk.trim(state.market)
    state.bids = [None if b is None else tuple(take(e, everyone) for e in b) for b in obj.get("bids", [None] * n)]
    for cards in pools.values():
        for card in reversed(cards):
            state.iou_hands[IOU_COLOUR[card]].append(card)
