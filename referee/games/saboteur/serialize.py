"""The JSON state format of Saboteur (documented in docs/engine_saboteur.md).

`state_to_json` writes every field, hidden cards, knowledge and the chance
streams included: it is for records, scenarios and tests, never for a bot.
Cards are written by kind, as `[kind, known_by]`; copies of a kind are
interchangeable, so instance ids never appear.

`state_from_json` also reads short hand-written scenarios: a card may be
written as its bare kind (known to the zone's default seats: a hand's holder,
nobody in the draw pile, everybody in the discard pile; a nugget as its bare
value, known to its owner), and zones may be left out. Deck cards a scenario
does not place form the draw pile, shuffled by the deck stream, unless
"draw_pile" is given, in which case they go face up to the discard pile;
nugget cards it does not place lie in the supply beneath those "supply"
lists, shuffled by the nugget stream, so every card of the game is somewhere
(S-1). "chance" fixes the order of the next rounds' shuffles. A state no
match can reach is refused (validate.py); the turns the engine plays itself
are then played, as in a match.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from referee.games.base import ChanceStream, derive_seed
from referee.games.saboteur import maze
from referee.games.saboteur.cards import (
    DECK,
    Pool,
    DIGGER_CARDS,
    EDGES,
    FAMILY,
    GOAL_CARDS,
    NAME,
    NUGGET_CARDS,
    NUGGET_KIND,
    NUM_CARDS,
    PATH,
    SABOTEUR_CARDS,
    TOOLS,
    START_CARD,
    VALUE,
)
from referee.games.saboteur.config import RULES_VERSION, SaboteurConfig
from referee.games.saboteur.state import STREAMS, SaboteurState
from referee.games.saboteur.variants import VARIANT_LOSE_SHARE, VARIANT_VALUES
from referee.games.saboteur.validate import check_state
from referee.games.scenario import ScenarioError, seat_mask


@lru_cache(maxsize=None)
def _seat_tuple(mask: int, n: int) -> tuple[int, ...]:
    return tuple(s for s in range(n) if mask >> s & 1)


def _seats(mask: int, n: int) -> list[int]:
    """The seats in a knowledge bitmask (state_to_json is on the records' hot path)."""
    return list(_seat_tuple(mask, n))


def state_to_json(state: SaboteurState) -> dict[str, Any]:
    n, known = state.n, state.known

    def card(c: int) -> list[Any]:
        return [NAME[c], _seats(known[c], n)]

    def nugget(c: int) -> list[Any]:
        return [VALUE[c], _seats(known[c], n)]

    return {
        "game": "saboteur",
        "rules_version": RULES_VERSION,
        "seats": n,
        "variant": {VARIANT_LOSE_SHARE: "on" if state.lose_share else "off"},
        "seed": state.seed,
        "streams": {name: stream.to_json() for name, stream in state.streams.items()},
        "round": state.round,
        "turn": state.turn,
        "first_player": state.first,
        "active": state.active,
        "over": state.over,
        "end_reason": state.end_reason,
        "roles": [card(c) for c in state.roles],
        "set_aside": card(state.set_aside),
        "goals": [
            {"card": NAME[c], "revealed": up, "turned": state.cells[cell][1], "known_by": _seats(known[c], n)}
            for cell, c, up in zip(state.cfg.goal_cells, state.goals, state.goal_up)
        ],
        "maze": [
            {"x": x, "y": y, "card": NAME[c], "turned": turn}
            for (x, y), (c, turn) in sorted(state.cells.items())
            if FAMILY[c] == PATH
        ],
        "hands": [[card(c) for c in hand] for hand in state.hands],
        "draw_pile": [card(c) for c in reversed(state.pile)],
        "discard": [card(c) for c in state.discard],
        "broken": [sorted(tools) for tools in state.broken],
        "nuggets": [[nugget(c) for c in pile] for pile in state.nuggets],
        "supply": [nugget(c) for c in reversed(state.supply)],
        "results": [dict(r) for r in state.results],
        "chance": {name: [list(order) for order in queue] for name, queue in state.fixed.items()},
    }


def state_from_json(obj: dict[str, Any], cfg: SaboteurConfig) -> SaboteurState:
    """Raises ValueError (with the offending key) for an invalid state."""
    try:
        return _read(obj, cfg)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"invalid Saboteur state JSON: {type(exc).__name__}: {exc}") from None


class _Reader(Pool):
    """A pool that reads JSON card entries: a kind name or [name, known_by]."""

    def __init__(self, cards: Iterable[int], known: list[int], n: int) -> None:
        super().__init__(cards, known)
        self.n = n

    def entry(self, entry: Any, default: int, field: str = "cards") -> int:
        """An instance for `entry`; a kind beyond its copies is refused naming `field` (S-1)."""
        name, mask = (entry[0], seat_mask(entry[1], self.n, "S-8")) if isinstance(entry, list) else (entry, default)
        try:
            return self.take(name, mask)
        except ValueError as exc:
            raise ScenarioError(field, str(exc), "S-1") from None


def _nugget_entry(entry: Any) -> Any:
    """Nugget entries are a value or [value, known_by]; read them as kinds."""
    if isinstance(entry, list):
        return [NUGGET_KIND[int(entry[0])], entry[1]]
    return NUGGET_KIND[int(entry)]


def _read(obj: dict[str, Any], cfg: SaboteurConfig) -> SaboteurState:
    state = SaboteurState()
    n = int(obj["seats"])
    if not 3 <= n <= 10:
        raise ScenarioError("seats", f"{n}: Saboteur is played by 3 to 10", "S-1")
    state.set_seats(n)
    everyone = (1 << n) - 1
    state.cfg = cfg
    state.lose_share = _read_variant(obj.get("variant", {}))
    state.seed = int(obj.get("seed", 0))
    streams = obj.get("streams", {})
    state.streams = {
        name: ChanceStream.from_json(streams[name]) if name in streams else ChanceStream(derive_seed(state.seed, name))
        for name in STREAMS
    }
    state.round = int(obj.get("round", 1))
    state.turn = int(obj.get("turn", 0))
    state.first = int(obj.get("first_player", 0))
    state.active = int(obj.get("active", state.first))
    state.over = bool(obj.get("over", False))
    state.end_reason = str(obj.get("end_reason", ""))
    if not 1 <= state.round <= cfg.rounds:
        raise ScenarioError("round", f"{state.round}: a match has rounds 1 to {cfg.rounds}", "S-7.1")
    if state.turn < 0:
        raise ScenarioError("turn", f"{state.turn}: turns are counted from 0", "S-3")
    for key, seat in (("first_player", state.first), ("active", state.active)):
        if not 0 <= seat < n:
            raise ScenarioError(key, f"{seat}: the seats are 0 to {n - 1}", "S-2.4")
    state.results = [dict(r) for r in obj.get("results", [])]
    state.known = [0] * NUM_CARDS
    _read_roles(state, obj, everyone)
    _read_table(state, obj, everyone)
    _read_nuggets(state, obj)
    state.fixed = _read_chance(obj.get("chance", {}), state)
    check_state(state)
    state._play_forced_turns()
    return state


def _read_variant(variant: Any) -> bool:
    """S-6.6: the one variant option; anything else is refused, not ignored."""
    if not isinstance(variant, dict):
        raise ScenarioError("variant", f"{variant!r}: an object of options", "S-6.6")
    for key, value in variant.items():
        if key != VARIANT_LOSE_SHARE:
            raise ScenarioError(f"variant.{key}", f"Saboteur has one option, {VARIANT_LOSE_SHARE}", "S-6.6")
        if value not in VARIANT_VALUES:
            raise ScenarioError(f"variant.{key}", f"{value!r}: one of {list(VARIANT_VALUES)}", "S-6.6")
    return variant.get(VARIANT_LOSE_SHARE) == "on"


def _read_chance(obj: Any, state: SaboteurState) -> dict[str, list[Any]]:
    """docs/engine_saboteur.md, Fixing chance: per stream, the orders of its next
    shuffles (one per coming round's setup), each naming cards the shuffle has."""
    diggers, saboteurs = state.cfg.role_counts(state.n)
    cards: dict[str, Counter[Any]] = {
        "deck": Counter(NAME[c] for c in DECK),
        "roles": Counter({"gold_digger": diggers, "saboteur": saboteurs}),
        "goals": Counter(NAME[c] for c in GOAL_CARDS),
        "nuggets": Counter(VALUE[c] for c in NUGGET_CARDS),
    }
    rules = {"deck": "S-2.3", "roles": "S-2.1", "goals": "S-2.2", "nuggets": "S-2.5"}
    if not isinstance(obj, dict):
        raise ScenarioError("chance", "an object of streams", "docs/engine_saboteur.md, Fixing chance")
    fixed: dict[str, list[Any]] = {}
    for name, orders in obj.items():
        if name not in cards:
            raise ScenarioError(f"chance.{name}", f"the streams that can be fixed are {sorted(cards)}",
                                "docs/engine_saboteur.md, Fixing chance")
        if not isinstance(orders, list) or not all(isinstance(order, list) for order in orders):
            raise ScenarioError(f"chance.{name}", "a list of orders, one per coming shuffle", rules[name])
        for index, order in enumerate(orders):
            if Counter(order) - cards[name]:
                raise ScenarioError(f"chance.{name}[{index}]", f"{order}: names cards the shuffle does not have "
                                    f"({dict(cards[name])})", rules[name])
        if orders:
            fixed[name] = [list(order) for order in orders]
    return fixed


def _read_roles(state: SaboteurState, obj: dict[str, Any], everyone: int) -> None:
    n = state.n
    diggers, saboteurs = state.cfg.role_counts(n)
    reader = _Reader(DIGGER_CARDS[:diggers] + SABOTEUR_CARDS[:saboteurs], state.known, n)
    entries = obj["roles"]
    if len(entries) != n:
        raise ScenarioError("roles", f"{len(entries)} dwarf cards: one per seat", "S-2.1")
    table = f"{diggers} gold-diggers and {saboteurs} saboteurs at {n} seats"
    try:
        state.roles = [reader.entry(entry, 1 << seat) for seat, entry in enumerate(entries)]
        rest = reader.rest()
        state.set_aside = reader.entry(obj.get("set_aside", NAME[rest[0]]), 0)
    except ValueError:
        raise ScenarioError("roles", f"the dwarf cards are {table}, one per seat and one set aside",
                            "S-2.1") from None


def _read_table(state: SaboteurState, obj: dict[str, Any], everyone: int) -> None:
    n, cfg, known = state.n, state.cfg, state.known
    goals = _Reader(GOAL_CARDS, known, n)
    start = cfg.start_cell
    state.cells = {start: (START_CARD, False)}
    state.edges = {start: EDGES[START_CARD][0]}
    known[START_CARD] = everyone
    goal_entries = obj.get("goals", [{"card": name} for name in ("stone_ne", "gold", "stone_nw")])
    if len(goal_entries) != len(cfg.goal_cells):
        raise ScenarioError("goals", f"{len(goal_entries)} entries: one per goal cell, north to south", "S-2.2")
    state.goals, state.goal_up = [], []
    for cell, entry in zip(cfg.goal_cells, goal_entries):
        up = bool(entry.get("revealed", False))
        turn = bool(entry.get("turned", False))
        c = goals.entry([entry["card"], entry.get("known_by", list(range(n)) if up else [])], 0, "goals")
        if up:
            known[c] = everyone
            state.edges[cell] = EDGES[c][turn]
        state.cells[cell] = (c, turn)
        state.goals.append(c)
        state.goal_up.append(up)
    deck = _Reader(DECK, known, n)
    for index, entry in enumerate(obj.get("maze", [])):
        cell = (int(entry["x"]), int(entry["y"]))
        if cell in state.cells:
            raise ScenarioError(f"maze[{index}]", f"cell {cell} already holds the start, a goal or another card",
                                "S-4.1")
        c = deck.entry(entry["card"], everyone, f"maze[{index}]")
        if FAMILY[c] != PATH:
            raise ScenarioError(f"maze[{index}].card", f"{entry['card']!r} is not a path card", "S-4.1")
        turn = bool(entry.get("turned", False))
        state.cells[cell] = (c, turn)
        state.edges[cell] = EDGES[c][turn]
    state.conn = maze.connected(state.cells, state.edges, start)
    state.broken = []
    for seat, tools in enumerate(obj.get("broken", [[]] * n)):
        if len(set(tools)) != len(tools) or not set(tools) <= set(TOOLS):
            raise ScenarioError(f"broken[{seat}]", f"{tools}: at most one broken tool of each of {list(TOOLS)}",
                                "S-5.1")
        state.broken.append({tool: deck.entry("break_" + tool, everyone, f"broken[{seat}]") for tool in tools})
    hands = obj.get("hands", [[]] * n)
    if len(hands) != n or len(state.broken) != n:
        raise ScenarioError("hands" if len(hands) != n else "broken", "one list per seat", "S-2.3, S-5.1")
    state.hands = [[deck.entry(e, 1 << seat, f"hands[{seat}]") for e in hand] for seat, hand in enumerate(hands)]
    state.discard = [deck.entry(e, everyone, "discard") for e in obj.get("discard", [])]
    if "draw_pile" in obj:
        state.pile = [deck.entry(e, 0, "draw_pile") for e in reversed(obj["draw_pile"])]
        for c in deck.rest():
            known[c] = everyone
            state.discard.append(c)
    else:
        state.pile = deck.rest()
        state.streams["deck"].shuffle(state.pile)
        for c in state.pile:
            known[c] = 0


def _read_nuggets(state: SaboteurState, obj: dict[str, Any]) -> None:
    n = state.n
    reader = _Reader(NUGGET_CARDS, state.known, n)
    piles = obj.get("nuggets", [[]] * n)
    if len(piles) != n:
        raise ScenarioError("nuggets", "one list per seat", "S-2.5")
    state.nuggets = [[reader.entry(_nugget_entry(e), 1 << seat, f"nuggets[{seat}]") for e in pile]
                     for seat, pile in enumerate(piles)]
    top = [reader.entry(_nugget_entry(e), 0, "supply") for e in reversed(obj.get("supply", []))]
    beneath = reader.rest()
    state.streams["nuggets"].shuffle(beneath)
    for c in beneath:
        state.known[c] = 0
    state.supply = beneath + top
