"""The JSON state format of Gnadenlos! (documented in docs/engine.md).

`state_to_json` writes every field, hidden cards, knowledge and the chance
streams included: it is for records, scenarios and tests, never for a bot.
`state_from_json` also reads short hand-written scenarios: cards a scenario
does not place are filled in (adventurers into the deck, IOUs into their
colour owner's hand), and a card without a "known_by" list is known to all
seats, except in the deck, where it is known to none. "chance" fixes the next
die rolls and reshuffles. A state no match can reach is refused
(validate.py) with a message naming the field and the rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from referee.games.base import ChanceStream, derive_seed
from referee.games.gnadenlos import market as mk
from referee.games.gnadenlos.cards import EVENT_DECK, IOU_COLOUR, IOU_VALUE, IOUS_PER_COLOUR, NUM_ADVENTURERS
from referee.games.gnadenlos.config import RULES_VERSION, GnadenlosConfig
from referee.games.gnadenlos.state import (
    BID,
    BID_POSITION,
    BUY,
    COMMIT,
    FINAL_BUY,
    NO_COMMIT,
    ORDER,
    OVER,
    PICK,
    REFILL,
    STEPS,
    TAKE,
    GnadenlosState,
)
from referee.games.gnadenlos.validate import check_choices, check_state
from referee.games.gnadenlos.variants import VARIANT_RULE, VARIANT_RULES, flags_variant, set_flags
from referee.games.scenario import ScenarioError, seat_mask

PHASES = (COMMIT, TAKE, REFILL, BUY, BID, PICK, BID_POSITION, ORDER, FINAL_BUY, OVER)
FIXABLE = {"die": "G-8.2", "events": "G-5.3", "adventurers": "G-6.1"}
"""The chance a scenario may fix in advance (docs/engine.md, Fixing chance), with its rule."""


def _seats(mask: int, n: int) -> list[int]:
    return [s for s in range(n) if mask >> s & 1]


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
        "variant": flags_variant(state),
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
        "ordered": state.ordered,
        "bought": list(state.bought),
        "final_order": list(state.final_order),
        "final_pos": state.final_pos,
        "end_reason": state.end_reason,
        "end_detail": state.end_detail,
        "chance": {name: list(queue) for name, queue in state.fixed.items()},
    }


def state_from_json(obj: dict[str, Any], cfg: GnadenlosConfig) -> GnadenlosState:
    """Raises ValueError (with the offending key) for an invalid state."""
    try:
        return _read(obj, cfg)
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"invalid Gnadenlos! state JSON: {type(exc).__name__}: {exc}") from None


def _read(obj: dict[str, Any], cfg: GnadenlosConfig) -> GnadenlosState:
    state = GnadenlosState()
    n = int(obj["seats"])
    if not 3 <= n <= 4:
        raise ScenarioError("seats", f"{n}: Gnadenlos! is played by 3 or 4", "G-1")
    state.set_seats(n)
    everyone = (1 << n) - 1
    state.cfg = cfg
    set_flags(state, _read_variant(obj.get("variant", {})))
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
    if state.phase is not None and state.phase not in PHASES:
        raise ScenarioError("phase", f"{state.phase!r}: null or one of {list(PHASES)}", "G-11")
    state.todo = list(obj.get("todo", []))
    unknown = [step for step in state.todo if step not in STEPS]
    if unknown:
        raise ScenarioError("todo", f"unknown steps {unknown}; the steps are {sorted(STEPS)}",
                            "docs/engine.md, The JSON state format")
    state.fields = list(obj.get("fields", [cfg.start_field] * n))
    state.nuggets = list(obj.get("nuggets", [cfg.start_nuggets] * n))
    state.vultures = list(obj.get("vultures", [0] * n))
    state.undertaker = int(obj.get("undertaker", 0))
    state.event = int(obj.get("event", -1))
    state.event_revealed = list(obj.get("event_revealed", []))
    if "event_deck" in obj:
        state.event_deck = list(obj["event_deck"])
    else:
        rest = Counter[int](EVENT_DECK) - Counter(state.event_revealed)
        state.event_deck = sorted(rest.elements())

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
    single_cards = state.single_auction and bool(state.units) and len(state.units[0]) == 1  # not G-2.6's pairs
    state.ordered = int(obj.get("ordered", len(state.units) if single_cards else 0))
    state.bought = list(obj.get("bought", []))
    state.final_order = list(obj.get("final_order", []))
    state.final_pos = int(obj.get("final_pos", 0))
    state.end_reason = obj.get("end_reason", "")
    state.end_detail = obj.get("end_detail", "")
    state.fixed = _read_chance(obj.get("chance", {}))
    if state.phase is None and not state.todo:
        raise ScenarioError("todo", "empty, and phase is null: a state needs a decision phase or steps to run",
                            "docs/engine.md, The JSON state format")
    check_state(state)
    state._run()
    check_choices(state)
    return state


def _read_variant(obj: Any) -> Mapping[str, str]:
    """The options the engine implements (variants.py), checked as the game
    checks a match's rule set; anything else is refused, not ignored."""
    if not isinstance(obj, dict):
        raise ScenarioError("variant", f"{obj!r}: an object of options", VARIANT_RULES)
    for key in obj:
        try:
            GnadenlosState.game.make_rule_set({key: obj[key], **{k: v for k, v in obj.items() if k == "auction"}})
        except ValueError as exc:
            raise ScenarioError(f"variant.{key}", str(exc), VARIANT_RULE.get(key, VARIANT_RULES)) from None
    return GnadenlosState.game.make_rule_set(obj).options


def _read_chance(obj: Any) -> dict[str, list[Any]]:
    """docs/engine.md, Fixing chance: the next die faces, and the drawing orders
    of the next reshuffles of the event deck and of the adventurer discards."""
    if not isinstance(obj, dict):
        raise ScenarioError("chance", "an object of streams", "docs/engine.md, Fixing chance")
    fixed: dict[str, list[Any]] = {}
    for name, queue in obj.items():
        if name not in FIXABLE:
            raise ScenarioError(f"chance.{name}", f"the streams that can be fixed are {sorted(FIXABLE)}",
                                "docs/engine.md, Fixing chance")
        if not isinstance(queue, list):
            raise ScenarioError(f"chance.{name}", "a list, the next outcome first", FIXABLE[name])
        for index, item in enumerate(queue):
            _check_fixed(name, index, item)
        if queue:
            fixed[name] = [list(item) if isinstance(item, list) else item for item in queue]
    return fixed


def _check_fixed(name: str, index: int, item: Any) -> None:
    """One fixed outcome: a die face, or an order naming cards the shuffle can hold."""
    field, rule = f"chance.{name}[{index}]", FIXABLE[name]
    if name == "die":
        if not isinstance(item, int) or not 1 <= item <= 6:
            raise ScenarioError(field, f"{item!r}: a die face, 1 to 6", rule)
        return
    cards = Counter(int(e) for e in EVENT_DECK) if name == "events" else Counter(range(NUM_ADVENTURERS))
    if not isinstance(item, list) or not all(isinstance(c, int) for c in item) or Counter(item) - cards:
        raise ScenarioError(field, f"{item!r}: card ids in drawing order, each at most as often as the game "
                            f"has it", rule)


def _read_adventurers(state: GnadenlosState, obj: dict[str, Any], everyone: int) -> None:
    """Adventurer entries are `id` or `[id, known_by]`; commitments are known to all."""
    placed: set[int] = set()

    def take(entry: Any, default: int) -> int:
        card, known = (entry[0], seat_mask(entry[1], state.n, "G-10")) if isinstance(entry, list) else (entry, default)
        if not 0 <= card < NUM_ADVENTURERS or card in placed:
            raise ScenarioError("adventurers", f"adventurer {card} is not one of 0 to {NUM_ADVENTURERS - 1}, or "
                                "is placed twice", "G-1")
        placed.add(card)
        state.adv_known[card] = known
        return int(card)

    state.adv_known = [0] * NUM_ADVENTURERS
    state.adv_hands = [[take(e, everyone) for e in hand] for hand in obj.get("hands", [[]] * state.n)]
    if len(state.adv_hands) != state.n:
        raise ScenarioError("adventurers.hands", "one list per seat", "G-2.1")
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
            raise ScenarioError("ious", f"no IOU {list(identity)} left to place: each seat's colour has 13 "
                                "(one 0, three each of 1, 2, 3, 4)", "G-1")
        card = pools[identity].pop()
        state.iou_known[card] = seat_mask(entry[2], n, "G-10") if len(entry) > 2 else default
        return card

    state.iou_hands = [[take(e, everyone) for e in hand] for hand in obj.get("hands", [[]] * n)]
    if len(state.iou_hands) != n:
        raise ScenarioError("ious.hands", "one list per seat", "G-2.2")
    state.market = [[mk.EMPTY if e is None else take(e, everyone) for e in row] for row in obj.get("market", [])]
    if any(len(row) != state.cfg.market_columns for row in state.market):
        raise ScenarioError("ious.market", f"every row has {state.cfg.market_columns} slots", "G-3.1")
    mk.trim(state.market)
    state.bids = [None if b is None else tuple(take(e, everyone) for e in b) for b in obj.get("bids", [None] * n)]
    if len(state.bids) != n:
        raise ScenarioError("ious.bids", "one entry per seat: null, [] (a pass) or the IOUs bid", "G-6.2")
    for cards in pools.values():
        for card in reversed(cards):
            state.iou_hands[IOU_COLOUR[card]].append(card)
