"""A Saboteur position: rounds and turns (S-2, S-3), path and action cards
(S-4, S-5), round end and rewards (S-6, S-7), and who knows which card (S-8).

Card knowledge: every card instance has a bitmask of the seats that know its
identity where it lies. A hand card is known to its holder, a draw-pile card
to nobody, a face-down discard to the seat that discarded it, a dwarf card to
its holder (the set-aside one to nobody) until the round ends (S-6.2), a
face-down goal to the seats that looked at it with a map, a nugget card to its
owner until the match ends (S-6.5); everything on the table is known to all.

The flow is simple: one seat acts per turn; after its action it draws (S-3.2);
a round that ends (S-6.1) is scored and the next one is dealt at once, so every
state a seat sees asks it a real question, except the end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from referee.games.base import (
    JSON, Action, ChanceStream, Event, EventLog, Game, Outcome, Seat, State, derive_seed, ranks_from_keys,
)
from referee.games.saboteur import maze
from referee.games.scenario import fixed_shuffle, next_fixed
from referee.games.saboteur.actions import (
    PASS,
    BreakTool,
    Discard,
    Map,
    Pass,
    PlacePath,
    Repair,
    Rockfall,
    SaboteurAction,
)
from referee.games.saboteur.cards import (
    CARD_KIND,
    DECK,
    DIGGER_CARDS,
    EDGES,
    FAMILY,
    GOAL_CARDS,
    GOLD_CARD,
    KIND_INDEX,
    KINDS,
    NAME,
    NUGGET_CARDS,
    NUM_CARDS,
    PATH,
    SABOTEUR_CARDS,
    START_CARD,
    THROUGH,
    VALUE,
)
from referee.games.saboteur.config import DEFAULT_CONFIG, Cell, SaboteurConfig
from referee.games.saboteur.rewards import gold_takers, saboteur_payout, share_out
from referee.games.saboteur.variants import VARIANT_LOSE_SHARE, VARIANT_VALUES

if TYPE_CHECKING:
    from referee.games.saboteur.observation import SaboteurObservation

STREAMS = ("deck", "roles", "goals", "start", "nuggets")
"""One chance stream per kind of chance (base.derive_seed): the deck shuffle of
each round, the dwarf deal, the goal placement, the first player, the nugget
supply's shuffle of each round (S-2.5)."""

END_ROUNDS_PLAYED = "rounds_played"
GOLD_DIGGERS_WIN = "gold_diggers"
SABOTEURS_WIN = "saboteurs"

_BREAK = {KIND_INDEX["break_" + tool]: tool for tool in ("pick", "lantern", "cart")}
_REPAIR = {i: kind.tools for i, kind in enumerate(KINDS) if kind.name.startswith("repair_")}
_ROCKFALL = KIND_INDEX["rockfall"]
_MAP = KIND_INDEX["map"]
_IS_PATH = tuple(kind.family == PATH for kind in KINDS)


NOBODY: frozenset[Seat] = frozenset()


_FITS: dict[int, tuple[tuple[PlacePath, ...], ...]] = {}
"""Per candidate cell with its constraints (`_slot_key`), per card kind: the
placements there (shared values; a maze meets the same cells turn after
turn, and one lookup serves every kind in a hand)."""
_NO_PLACEMENTS: tuple[PlacePath, ...] = ()


def _slot_key(slot: maze.Slot) -> int:
    """A slot as one integer (an int key is cheaper to look up than a tuple)."""
    x, y, fixed, required, need = slot
    return (((x + 512) << 10 | (y + 512)) << 12) | fixed << 8 | required << 4 | need


_DISCARDS: tuple[Discard, ...] = tuple(Discard(kind.name) for kind in KINDS)
"""A discard of each kind (shared values)."""
_BREAKS: dict[tuple[str, int], BreakTool] = {}
_REPAIRS: dict[tuple[str, int, str], Repair] = {}
_ROCKFALLS: dict[Cell, Rockfall] = {}
_MAPS: dict[Cell, Map] = {}
"""The other actions, shared by value: few exist (a tool of a seat, a card
of the maze), and a dataclass built anew costs more than looking it up."""


def _break(tool: str, target: Seat) -> BreakTool:
    found = _BREAKS.get((tool, target))
    if found is None:
        found = _BREAKS[tool, target] = BreakTool(tool, target)
    return found


def _repair(name: str, target: Seat, tool: str) -> Repair:
    found = _REPAIRS.get((name, target, tool))
    if found is None:
        found = _REPAIRS[name, target, tool] = Repair(name, target, tool)
    return found


def _rockfall(cell: Cell) -> Rockfall:
    found = _ROCKFALLS.get(cell)
    if found is None:
        found = _ROCKFALLS[cell] = Rockfall(*cell)
    return found


def _map(cell: Cell) -> Map:
    found = _MAPS.get(cell)
    if found is None:
        found = _MAPS[cell] = Map(*cell)
    return found


def _fits(slot: maze.Slot) -> tuple[tuple[PlacePath, ...], ...]:
    """Every kind's placements in `slot` (none for an action card)."""
    key = _slot_key(slot)
    found = _FITS.get(key)
    if found is None:
        found = _FITS[key] = tuple(
            [_placements(k, slot) if _IS_PATH[k] else _NO_PLACEMENTS for k in range(len(KINDS))]
        )
    return found


def _placements(k: int, slot: maze.Slot) -> tuple[PlacePath, ...]:
    """S-4.2, S-4.3: the orientations of path kind `k` that fit `slot`: a card
    with open edges `e` fits when `e & fixed == required` and `e & need` is
    not empty (maze.Slot)."""
    kind = KINDS[k]
    upright = kind.edges
    down = ((upright << 2) | (upright >> 2)) & 15
    x, y, fixed, required, need = slot
    found: list[PlacePath] = []
    if (upright & fixed) == required and upright & need:
        found.append(PlacePath(kind.name, x, y, False))
    if down != upright and (down & fixed) == required and down & need:
        found.append(PlacePath(kind.name, x, y, True))
    return tuple(found)


class SaboteurState(State):
    """One position of a Saboteur match. Build with `Saboteur.new_state`."""

    game: ClassVar[Game]

    def __init__(self) -> None:
        """An empty shell; `setup` or the JSON/determinize builders fill it."""
        self.cfg: SaboteurConfig = DEFAULT_CONFIG
        self.n = 0
        self.lose_share = False
        self.seed = 0
        self.streams: dict[str, ChanceStream] = {name: ChanceStream(0) for name in STREAMS}
        self.fixed: dict[str, list[Any]] = {}
        """Outcomes a scenario fixed in advance, per stream (scenario.next_fixed):
        the orders of the next rounds' shuffles."""
        self.known: list[int] = [0] * NUM_CARDS
        self.round = 0
        self.turn = 0
        self.first: Seat = 0
        self.active: Seat = 0
        self.over = False
        self.end_reason = ""
        self.roles: list[int] = []
        self.set_aside = -1
        self.hands: list[list[int]] = []
        self.pile: list[int] = []
        """The draw pile; its top is the last element."""
        self.discard: list[int] = []
        self.cells: dict[Cell, tuple[int, bool]] = {}
        """Every card on the table: cell -> (instance id, turned), face-down goals included."""
        self.edges: dict[Cell, int] = {}
        """Open edges of every face-up card on the table."""
        self.conn: set[Cell] = set()
        self.goals: list[int] = []
        """The goal card at each of cfg.goal_cells."""
        self.goal_up: list[bool] = []
        self.broken: list[dict[str, int]] = []
        """Per seat: tool -> the broken-tool card lying in front of it."""
        self.nuggets: list[list[int]] = []
        self.supply: list[int] = []
        """The nugget supply; its top is the last element."""
        self.results: list[dict[str, Any]] = []
        self._slot_map: dict[Cell, maze.Slot] | None = None
        """Candidate cells for path cards, kept up to date by placements; None
        after a rockfall or a new deal (then rebuilt when next needed)."""
        self._slot_map_shared = False
        """True while a clone shares `_slot_map` (copy before changing it)."""
        self._slots: tuple[maze.Slot, ...] | None = None
        """`_slot_map` in cell order, until it changes."""
        self._fits: list[tuple[tuple[PlacePath, ...], ...]] = []
        """Each slot's placements by kind, in `_slots` order."""
        self._paths: dict[int, list[PlacePath]] = {}
        """Per path card kind, its placements in `_slots` (shared by clones, like `_slots`)."""
        self._rockfalls: tuple[Rockfall, ...] | None = None
        """Rockfall actions (every path card on the table), until the maze changes."""
        self._legal: tuple[SaboteurAction, ...] | None = None
        """The active seat's legal actions, until the next action (apply checks them)."""
        self.log = EventLog(0)
        """Records the events of the step being applied (base.EventLog)."""

    def set_seats(self, seats: int) -> None:
        """The table size, and an event log for it."""
        self.n = seats
        self.log = EventLog(seats)

    # ----------------------------------------------------------------- setup

    def setup_with_events(self, seats: int, seed: int, options: Mapping[str, str], cfg: SaboteurConfig,
                          events: list[Event]) -> None:
        """`setup`, appending the setup's events (the deal) to `events`."""
        self.set_seats(seats)
        self.log.events = events
        try:
            self.setup(seats, seed, options, cfg)
        finally:
            self.log.events = None

    def setup(self, seats: int, seed: int, options: Mapping[str, str], cfg: SaboteurConfig) -> None:
        """A new match: every nugget card in the supply (S-2.5), the first player (S-2.4), round 1."""
        self.cfg, self.seed = cfg, seed
        if self.n != seats:
            self.set_seats(seats)
        self.lose_share = options.get(VARIANT_LOSE_SHARE) == "on"
        self.streams = {name: ChanceStream(derive_seed(seed, name)) for name in STREAMS}
        self.known = [0] * NUM_CARDS
        self.nuggets = [[] for _ in range(seats)]
        self.supply = list(NUGGET_CARDS)
        self.first = self.streams["start"].below(seats)
        self.round = 1
        self._start_round()
        self._play_forced_turns()

    def _start_round(self) -> None:
        """S-2.1 to S-2.3 (and S-7.1: everything but the nuggets is dealt anew)."""
        n, cfg, known, everyone = self.n, self.cfg, self.known, self._all
        self.discard = []
        self.broken = [{} for _ in range(n)]
        self.log.add("round_started", everyone, {"round": self.round, "first_player": self.first})
        # S-2.5: the nugget cards nobody holds, shuffled anew at every round's setup.
        self.supply.sort()
        self._shuffle("nuggets", self.supply, VALUE.__getitem__)
        for card in self.supply:
            known[card] = 0
        self.log.add("supply_shuffled", 0, {"values": [VALUE[c] for c in reversed(self.supply)]})
        # S-2.1: players + 1 dwarf cards; the extra one is set aside unseen.
        diggers, saboteurs = cfg.role_counts(n)
        dwarfs = list(DIGGER_CARDS[:diggers] + SABOTEUR_CARDS[:saboteurs])
        self._shuffle("roles", dwarfs, NAME.__getitem__, drawn_from_end=False)
        self.roles, self.set_aside = dwarfs[:n], dwarfs[n]
        known[self.set_aside] = 0
        self.log.add("roles_dealt", 0, {"roles": [NAME[c] for c in self.roles], "set_aside": NAME[self.set_aside]})
        for seat, card in enumerate(self.roles):
            known[card] = 1 << seat
            self.log.add("role_dealt", 1 << seat, {"seat": seat, "role": NAME[card]})
        # S-2.2: the start card and the shuffled face-down goals.
        goals = list(GOAL_CARDS)
        self._shuffle("goals", goals, NAME.__getitem__, drawn_from_end=False)
        self.goals, self.goal_up = goals, [False] * len(goals)
        start = cfg.start_cell
        self.cells = {start: (START_CARD, False)}
        self.edges = {start: EDGES[START_CARD][0]}
        self.conn = {start}
        known[START_CARD] = everyone
        for cell, card in zip(cfg.goal_cells, goals):
            self.cells[cell] = (card, False)
            known[card] = 0
        self.log.add("goals_placed", 0, {"goals": [NAME[c] for c in goals]})
        self._maze_changed()
        # S-2.3: one shuffled deck of path and action cards; hands, then the draw pile.
        deck = list(DECK)
        self._shuffle("deck", deck, NAME.__getitem__)
        self.log.add("deck_shuffled", 0, {"order": [NAME[c] for c in reversed(deck)]})
        size = cfg.hand_size(n)
        self.hands = []
        for seat in range(n):
            hand = [deck.pop() for _ in range(size)]
            for card in hand:
                known[card] = 1 << seat
            self.hands.append(hand)
            self.log.split("hand_dealt", 1 << seat, {"cards": [NAME[c] for c in hand]}, {"seat": seat, "count": size})
        for card in deck:
            known[card] = 0
        self.pile = deck
        self.active = self.first

    def _shuffle(self, stream: str, cards: list[int], identity: Callable[[int], Any],
                 drawn_from_end: bool = True) -> None:
        """Shuffle with the stream, or as far as a scenario fixed the order (docs/engine_saboteur.md)."""
        fixed_shuffle(self.streams[stream], cards, next_fixed(self.fixed, stream), identity,
                      drawn_from_end=drawn_from_end)

    # ------------------------------------------------------------- interface

    @property
    def num_seats(self) -> int:
        return self.n

    @property
    def _all(self) -> int:
        return (1 << self.n) - 1

    def to_act(self) -> frozenset[Seat]:
        if self.over:
            return NOBODY
        return self.log.audiences[1 << self.active]

    def is_terminal(self) -> bool:
        return self.over

    def legal_actions(self, seat: Seat) -> tuple[SaboteurAction, ...]:
        """S-3.1, S-4, S-5: ordered by card kind (as in cards.KINDS), then
        target; the discards of each kind come last."""
        if self.over or seat != self.active:
            return ()
        if self._legal is None:
            self._legal = self._generate_actions(seat)
        return self._legal

    def _generate_actions(self, seat: Seat) -> tuple[SaboteurAction, ...]:
        hand = self.hands[seat]
        if not hand:
            return (PASS,)
        kinds = sorted({CARD_KIND[c] for c in hand})
        actions: list[SaboteurAction] = []
        for k in kinds:
            if _IS_PATH[k]:
                if not self.broken[seat]:  # S-4.4
                    self._path_actions(k, actions)
            elif k in _BREAK:
                tool = _BREAK[k]
                actions.extend([_break(tool, t) for t in range(self.n) if tool not in self.broken[t]])
            elif k in _REPAIR:
                name = KINDS[k].name
                for target in range(self.n):
                    actions.extend([_repair(name, target, tool) for tool in _REPAIR[k] if tool in self.broken[target]])
            elif k == _ROCKFALL:
                if self._rockfalls is None:
                    self._rockfalls = tuple(
                        [_rockfall(cell) for cell, (card, _) in sorted(self.cells.items()) if FAMILY[card] == PATH]
                    )
                actions.extend(self._rockfalls)
            elif k == _MAP:
                actions.extend([_map(cell) for cell, up in zip(self.cfg.goal_cells, self.goal_up) if not up])
        actions.extend([_DISCARDS[k] for k in kinds])
        return tuple(actions)

    def _path_actions(self, k: int, out: list[SaboteurAction]) -> None:
        """S-4.1 to S-4.3: every fitting, connected cell and orientation.

        A card with open edges `e` fits a slot when `e & fixed == required`
        (S-4.2) and `e & need` is not empty (S-4.3); see maze.Slot.
        """
        if self._slots is None:
            if self._slot_map is None:
                self._slot_map = maze.frontier(self.cells, self.edges, self.conn)
                self._slot_map_shared = False
            self._slots = tuple(self._slot_map[cell] for cell in sorted(self._slot_map))
            self._fits = [_fits(slot) for slot in self._slots]
            self._paths = {}
        paths = self._paths.get(k)
        if paths is None:
            paths = self._paths[k] = []
            for fits in self._fits:
                paths.extend(fits[k])
        out.extend(paths)

    def _apply(self, actions: Mapping[Seat, Action], record: bool) -> list[Event]:
        events: list[Event] = []
        self.log.events = events if record else None
        try:
            ((seat, action),) = actions.items()
            self._turn(seat, action)
            self._play_forced_turns()
        finally:
            self.log.events = None
        return events

    def outcome(self) -> Outcome:
        """S-7.2: ranked by nugget value; equal totals share a place."""
        if not self.over:
            raise ValueError("the match is not over")
        totals = self.totals()
        return Outcome(self.end_reason, ranks_from_keys(totals), "nuggets " + " ".join(map(str, totals)))

    def totals(self) -> list[int]:
        """Each seat's nugget value so far."""
        return [sum(VALUE[c] for c in pile) for pile in self.nuggets]

    def observe(self, seat: Seat) -> "SaboteurObservation":
        from referee.games.saboteur.observation import observe

        return observe(self, seat)

    def clone(self) -> "SaboteurState":
        new = SaboteurState.__new__(SaboteurState)
        new.cfg = self.cfg
        new.set_seats(self.n)
        new.lose_share = self.lose_share
        new.seed = self.seed
        new.streams = {name: stream.copy() for name, stream in self.streams.items()}
        new.fixed = {name: queue[:] for name, queue in self.fixed.items()}
        new.known = self.known[:]
        new.round = self.round
        new.turn = self.turn
        new.first = self.first
        new.active = self.active
        new.over = self.over
        new.end_reason = self.end_reason
        new.roles = self.roles[:]
        new.set_aside = self.set_aside
        new.hands = [h[:] for h in self.hands]
        new.pile = self.pile[:]
        new.discard = self.discard[:]
        new.cells = self.cells.copy()
        new.edges = self.edges.copy()
        new.conn = self.conn.copy()
        new.goals = self.goals[:]
        new.goal_up = self.goal_up[:]
        new.broken = [b.copy() for b in self.broken]
        new.nuggets = [p[:] for p in self.nuggets]
        new.supply = self.supply[:]
        new.results = self.results[:]
        new._slot_map = self._slot_map
        new._slot_map_shared = self._slot_map_shared = self._slot_map is not None
        new._slots = self._slots
        new._fits = self._fits
        new._paths = self._paths
        new._rockfalls = self._rockfalls
        new._legal = self._legal
        return new

    def to_json(self) -> JSON:
        from referee.games.saboteur.serialize import state_to_json

        return state_to_json(self)

    # ----------------------------------------------------------------- turns

    def _play_forced_turns(self) -> None:
        """Play every turn that offers one legal action: an empty hand's pass
        (S-3.1) or a last card that can only be discarded. The game-neutral
        interface asks a seat only when it has a choice (docs/engine.md), so
        no bot spends its clock, or risks a strike, on a forced move."""
        while not self.over:
            hand = self.hands[self.active]
            first = CARD_KIND[hand[0]] if hand else None
            if any(CARD_KIND[card] != first for card in hand):
                return  # two kinds in hand: two discards at least, a choice (cheap test first)
            legal = self.legal_actions(self.active)
            if len(legal) != 1:
                return
            self._turn(self.active, legal[0])

    def _turn(self, seat: Seat, action: Action) -> None:
        """S-3: one action, then a draw; S-6.1: the round may end."""
        self.turn += 1
        self._legal = None
        gold = False
        if isinstance(action, PlacePath):
            gold = self._place(seat, action)
        elif isinstance(action, BreakTool):
            self._break(seat, action)
        elif isinstance(action, Repair):
            self._repair(seat, action)
        elif isinstance(action, Rockfall):
            self._rockfall(seat, action)
        elif isinstance(action, Map):
            self._map(seat, action)
        elif isinstance(action, Discard):
            card = self._take(seat, action.card)
            self.discard.append(card)
            self.known[card] = 1 << seat
            self.log.split("discarded", 1 << seat, {"card": NAME[card]}, {"seat": seat})
        elif isinstance(action, Pass):
            self.log.add("passed", self._all, {"seat": seat})
        else:
            raise TypeError(f"not a Saboteur action: {action!r}")
        if gold:
            self._end_round(seat, gold=True)
            return
        if self.pile:  # S-3.2
            card = self.pile.pop()
            self.hands[seat].append(card)
            self.known[card] = 1 << seat
            self.log.split("card_drawn", 1 << seat, {"card": NAME[card]}, {"seat": seat})
        elif not any(self.hands):  # S-6.1: the last card was played by this seat.
            self._end_round(seat, gold=False)
            return
        self.active = (seat + 1) % self.n

    def _maze_changed(self, changed: list[Cell] | None = None) -> None:
        """Update what was derived from the maze: incrementally after cards were
        placed or connected at the `changed` cells, from scratch (None) after a
        removal or a new deal."""
        self._slots = None
        self._rockfalls = None
        if changed is None or self._slot_map is None:
            self._slot_map = None
            return
        if self._slot_map_shared:
            self._slot_map = dict(self._slot_map)
            self._slot_map_shared = False
        maze.refresh(self._slot_map, self.cells, self.edges, self.conn, changed)

    def _take(self, seat: Seat, name: str) -> int:
        """Remove one card of kind `name` from the seat's hand (the first such)."""
        hand = self.hands[seat]
        k = KIND_INDEX[name]
        for i, card in enumerate(hand):
            if CARD_KIND[card] == k:
                return hand.pop(i)
        raise ValueError(f"seat {seat} holds no {name}")

    def _place(self, seat: Seat, action: PlacePath) -> bool:
        """S-4.1 to S-4.3, then S-4.5. Returns whether the gold was reached."""
        card = self._take(seat, action.card)
        cell = (action.x, action.y)
        self.cells[cell] = (card, action.turned)
        self.edges[cell] = EDGES[card][action.turned]
        self.known[card] = self._all
        changed = [cell]
        if THROUGH[card]:
            self.conn.add(cell)
            changed += maze.spread(self.cells, self.edges, self.conn, cell)
        self._maze_changed(changed)
        self.log.add("path_placed", self._all, {"seat": seat, "card": NAME[card], "x": action.x, "y": action.y, "turned": action.turned})
        return self._reveal_reached_goals()

    def _reveal_reached_goals(self) -> bool:
        """S-4.5: turn up every face-down goal a tunnel from the start reaches.

        A turned-up goal joins the maze and may connect more of it, so this
        repeats until nothing changes. A stone goal is upright if an upright
        open edge meets a reaching tunnel, else turned [chosen tie-break].
        """
        gold = False
        changed = True
        while changed:
            changed = False
            for i, cell in enumerate(self.cfg.goal_cells):
                if self.goal_up[i]:
                    continue
                sides = maze.reaching_sides(self.edges, self.conn, cell)
                if not sides:
                    continue
                card = self.goals[i]
                upright, down = EDGES[card]
                turn = not upright & sides
                self.cells[cell] = (card, turn)
                self.edges[cell] = down if turn else upright
                self.goal_up[i] = True
                self.known[card] = self._all
                self.conn.add(cell)
                self._maze_changed([cell, *maze.spread(self.cells, self.edges, self.conn, cell)])
                self.log.add("goal_revealed", self._all, {"x": cell[0], "y": cell[1], "card": NAME[card], "turned": turn})
                gold = gold or card == GOLD_CARD
                changed = True
        return gold

    def _break(self, seat: Seat, action: BreakTool) -> None:
        """S-5.1: the card lies face up in front of the target."""
        card = self._take(seat, action.card)
        self.broken[action.target][action.tool] = card
        self.known[card] = self._all
        self.log.add("tool_broken", self._all, {"seat": seat, "target": action.target, "tool": action.tool})

    def _repair(self, seat: Seat, action: Repair) -> None:
        """S-5.2: both cards go to the discard pile."""
        card = self._take(seat, action.card)
        broken = self.broken[action.target].pop(action.tool)
        self.discard += (card, broken)
        self.known[card] = self._all
        self.log.add("tool_repaired", self._all, {"seat": seat, "card": action.card, "target": action.target, "tool": action.tool})

    def _rockfall(self, seat: Seat, action: Rockfall) -> None:
        """S-5.3: the path card and the rockfall are discarded; connectivity is recomputed."""
        card = self._take(seat, "rockfall")
        cell = (action.x, action.y)
        removed, _ = self.cells.pop(cell)
        del self.edges[cell]
        self.discard += (card, removed)
        self.known[card] = self._all
        self.conn = maze.connected(self.cells, self.edges, self.cfg.start_cell)
        self._maze_changed()
        self.log.add("rockfall", self._all, {"seat": seat, "x": action.x, "y": action.y, "card": NAME[removed]})

    def _map(self, seat: Seat, action: Map) -> None:
        """S-5.4: a private look; who looked at which goal is public (S-8)."""
        card = self._take(seat, "map")
        self.discard.append(card)
        self.known[card] = self._all
        goal = self.goals[self.cfg.goal_cells.index((action.x, action.y))]
        self.known[goal] |= 1 << seat
        self.log.split("map_used", 1 << seat, {"goal": NAME[goal]}, {"seat": seat, "x": action.x, "y": action.y})

    # ------------------------------------------------------------ round end

    def _end_round(self, seat: Seat, gold: bool) -> None:
        """S-6.2 to S-6.6, then S-7: the next round or the end of the match."""
        everyone = self._all
        for card in (*self.roles, self.set_aside):
            self.known[card] = everyone
        roles = [NAME[c] for c in self.roles]
        result = {
            "round": self.round,
            "winners": GOLD_DIGGERS_WIN if gold else SABOTEURS_WIN,
            "reached_by": seat if gold else -1,
            "roles": roles,
            "set_aside": NAME[self.set_aside],
        }
        self.results.append(result)
        self.log.add("round_ended", everyone, dict(result))
        received = self._gold_rewards(seat) if gold else self._saboteur_rewards()
        for owner, cards in enumerate(received):
            if not cards:
                continue
            for card in cards:
                self.known[card] = 1 << owner
            self.nuggets[owner].extend(cards)
            self.log.split("nuggets_received", 1 << owner, {"values": [VALUE[c] for c in cards]}, {"seat": owner, "count": len(cards)})
        if self.round >= self.cfg.rounds:
            self._end_match()
            return
        self.round += 1
        self.first = (seat + 1) % self.n  # S-2.4
        self._start_round()

    def _gold_rewards(self, reacher: Seat) -> list[list[int]]:
        """S-6.3 and S-6.6. If no gold-digger may take a card, the drawn cards go
        back on top of the supply [chosen]."""
        count = min(self.cfg.gold_draw(self.n), len(self.supply))
        drawn = [self.supply.pop() for _ in range(count)]
        self.log.add("nuggets_drawn", 0, {"values": [VALUE[c] for c in drawn]})
        diggers = [card in DIGGER_CARDS for card in self.roles]
        eligible = [not (self.lose_share and self.broken[s]) for s in range(self.n)]
        takers = gold_takers(reacher, diggers, eligible)
        received: list[list[int]] = [[] for _ in range(self.n)]
        if not takers:
            self.supply.extend(reversed(drawn))
            return received
        for taker, index in share_out([VALUE[c] for c in drawn], takers):
            received[taker].append(drawn[index])
        return received

    def _saboteur_rewards(self) -> list[list[int]]:
        """S-6.4: each saboteur in play order from the round's first player; the
        cards of each value are taken from the top of the supply."""
        received: list[list[int]] = [[] for _ in range(self.n)]
        order = [(self.first + i) % self.n for i in range(self.n)]
        saboteurs = [s for s in order if self.roles[s] in SABOTEUR_CARDS]
        amount = self.cfg.saboteur_reward(len(saboteurs))
        for seat in saboteurs:
            for value in saboteur_payout([VALUE[c] for c in self.supply], amount):
                index = max(i for i, c in enumerate(self.supply) if VALUE[c] == value)
                received[seat].append(self.supply.pop(index))
        return received

    def _end_match(self) -> None:
        """S-7.2; S-6.5: the nugget cards are shown at the end."""
        self.over = True
        self.end_reason = END_ROUNDS_PLAYED
        for pile in self.nuggets:
            for card in pile:
                self.known[card] = self._all
        self.log.add("match_ended", self._all, {"reason": self.end_reason, "totals": self.totals()})
