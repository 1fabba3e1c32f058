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
unplaced nuggets form the supply, shuffled by the nugget stream, unless
"supply" is given (then they stay in the box).
"""

from __future__ import annotations

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
    START_CARD,
    VALUE,
)
from referee.games.saboteur.config import RULES_VERSION, SaboteurConfig
from referee.games.saboteur.state import STREAMS, VARIANT_LOSE_SHARE, SaboteurState


@lru_cache(maxsize=None)
def _seat_tuple(mask: int, n: int) -> tuple[int, ...]:
    return tuple(s for s in range(n) if mask >> s & 1)


def _seats(mask: int, n: int) -> list[int]:
    """The seats in a knowledge bitmask (state_to_json is on the records' hot path)."""
    return list(_seat_tuple(mask, n))


def _mask(seats: Iterable[int], n: int) -> int:
    mask = 0
    for s in seats:
        if not 0 <= int(s) < n:
            raise ValueError(f"known_by names seat {s}, not at this table")
        mask |= 1 << int(s)
    return mask


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

    def entry(self, entry: Any, default: int) -> int:
        if isinstance(entry, list):
            return self.take(entry[0], _mask(entry[1], self.n))
        return self.take(entry, default)


def _nugget_entry(entry: Any) -> Any:
    """Nugget entries are a value or [value, known_by]; read them as kinds."""
    if isinstance(entry, list):
        return [NUGGET_KIND[int(entry[0])], entry[1]]
    return NUGGET_KIND[int(entry)]


def _read(obj: dict[str, Any], cfg: SaboteurConfig) -> SaboteurState:
    state = SaboteurState()
    n = state.n = int(obj["seats"])
    if not 3 <= n <= 10:
        raise ValueError("seats must be 3 to 10")
    everyone = (1 << n) - 1
    state.cfg = cfg
    state.lose_share = obj.get("variant", {}).get(VARIANT_LOSE_SHARE) == "on"
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
    if not (0 <= state.first < n and 0 <= state.active < n):
        raise ValueError("first_player and active must be seats of the table")
    state.results = [dict(r) for r in obj.get("results", [])]
    state.known = [0] * NUM_CARDS
    _read_roles(state, obj, everyone)
    _read_table(state, obj, everyone)
    _read_nuggets(state, obj)
    return state


def _read_roles(state: SaboteurState, obj: dict[str, Any], everyone: int) -> None:
    n = state.n
    diggers, saboteurs = state.cfg.role_counts(n)
    reader = _Reader(DIGGER_CARDS[:diggers] + SABOTEUR_CARDS[:saboteurs], state.known, n)
    entries = obj["roles"]
    if len(entries) != n:
        raise ValueError("roles needs one dwarf card per seat")
    state.roles = [reader.entry(entry, 1 << seat) for seat, entry in enumerate(entries)]
    rest = reader.rest()
    if len(rest) != 1:
        raise ValueError("roles must use the table's dwarf cards, leaving one to set aside")
    state.set_aside = reader.entry(obj.get("set_aside", NAME[rest[0]]), 0)
    if reader.rest():
        raise ValueError("roles and set_aside must use the table's dwarf cards")


def _read_table(state: SaboteurState, obj: dict[str, Any], everyone: int) -> None:
    n, cfg, known = state.n, state.cfg, state.known
    goals = _Reader(GOAL_CARDS, known, n)
    start = cfg.start_cell
    state.cells = {start: (START_CARD, False)}
    state.edges = {start: EDGES[START_CARD][0]}
    known[START_CARD] = everyone
    goal_entries = obj.get("goals", [{"card": name} for name in ("stone_ne", "gold", "stone_nw")])
    if len(goal_entries) != len(cfg.goal_cells):
        raise ValueError(f"goals needs {len(cfg.goal_cells)} entries, one per goal cell")
    state.goals, state.goal_up = [], []
    for cell, entry in zip(cfg.goal_cells, goal_entries):
        up = bool(entry.get("revealed", False))
        turn = bool(entry.get("turned", False))
        c = goals.entry([entry["card"], entry.get("known_by", list(range(n)) if up else [])], 0)
        if up:
            known[c] = everyone
            state.edges[cell] = EDGES[c][turn]
        state.cells[cell] = (c, turn)
        state.goals.append(c)
        state.goal_up.append(up)
    deck = _Reader(DECK, known, n)
    for entry in obj.get("maze", []):
        cell = (int(entry["x"]), int(entry["y"]))
        if cell in state.cells:
            raise ValueError(f"maze cell {cell} is taken twice")
        c = deck.entry(entry["card"], everyone)
        if FAMILY[c] != PATH:
            raise ValueError(f"{entry['card']} is not a path card")
        turn = bool(entry.get("turned", False))
        state.cells[cell] = (c, turn)
        state.edges[cell] = EDGES[c][turn]
    state.conn = maze.connected(state.cells, state.edges, start)
    state.broken = []
    for tools in obj.get("broken", [[]] * n):
        state.broken.append({tool: deck.entry("break_" + tool, everyone) for tool in tools})
    hands = obj.get("hands", [[]] * n)
    if len(hands) != n or len(state.broken) != n:
        raise ValueError("hands and broken need one list per seat")
    state.hands = [[deck.entry(e, 1 << seat) for e in hand] for seat, hand in enumerate(hands)]
    state.discard = [deck.entry(e, everyone) for e in obj.get("discard", [])]
    if "draw_pile" in obj:
        state.pile = [deck.entry(e, 0) for e in reversed(obj["draw_pile"])]
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
        raise ValueError("nuggets needs one list per seat")
    state.nuggets = [[reader.entry(_nugget_entry(e), 1 << seat) for e in pile] for seat, pile in enumerate(piles)]
    if "supply" in obj:
        state.supply = [reader.entry(_nugget_entry(e), 0) for e in reversed(obj["supply"])]
    else:
        state.supply = reader.rest()
        state.streams["nuggets"].shuffle(state.supply)
        for c in state.supply:
            state.known[c] = 0
