"""Saboteur's encoding: the maze as planes on a fixed grid, one index per move.

**Why a fixed grid covers every move.** The maze is unbounded (S-2.2), but
a path card must face an open edge of a *connected* card (S-4.3): the start
card, or a through card or turned-up goal joined to it by facing open
edges. A connected card at Manhattan distance d from the start needs a
chain of d cards between, each a through path card (31 in the deck, S-1)
or a goal (3), so d <= 34, and a new card lies next to one: d <= 35. A
rockfall clears a card that was placed, a map names a goal. So every cell
an action can name lies in the square |x|, |y| <= 35 (`RADIUS`): 71 x 71
cells, cell index `(y + 35) * 71 + (x + 35)`.

**Action index** (166,594 entries, fixed for every table size), in blocks:

| block | entries | index within the block |
|---|---|---|
| place a path card | 16 kinds x 2 x 5041 cells | `((card - 1) * 2 + turned) * 5041 + cell` (`card`: the `saboteur.v1.Card` number 1..16) |
| rockfall | 5041 | `cell` |
| map | 3 | the goal cell: (8, 2), (8, 0), (8, -2) (S-2.2) |
| break a tool | 3 tools x 10 seats | `(tool - 1) * 10 + target` |
| repair | 6 repair cards x 10 seats x 3 tools | `(card - 20) * 30 + target * 3 + (tool - 1)` |
| discard | 27 | `card - 1` (every deck card kind) |
| pass | 1 | (never offered: a forced turn) |

The placement block reads as 32 planes of the grid, one per card kind and
orientation, the layout of the maze planes of the observation tensor: a
convolutional policy can emit its placement logits as planes.

**Observation tensor**: the maze, 11 planes of 71 x 71 (per cell: a card
lies there; its open edges N, E, S, W as it lies; a dead end; the start; a
face-down goal; a goal this seat knows to be gold; one it knows to be
stone; a goal turned up), then a vector of 336 features (`FEATURES` lists
them): counts as numbers, seats and cards one-hot.

**Strings**: the observation message in protobuf's text format on one
line: equal exactly when the messages are.
"""

from __future__ import annotations

from array import array
from typing import Any

from google.protobuf import text_format

from botsdk.encoding.base import Encoding, zeros
from botsdk.pb.saboteur.v1 import saboteur_pb2 as pb

MAX_SEATS = 10
RADIUS = 35
SIDE = 2 * RADIUS + 1
CELLS = SIDE * SIDE
PATH_KINDS = 16
"""`saboteur.v1.Card` numbers 1..16 are the path cards of the deck."""
DECK_KINDS = 27
"""1..27: every card kind of the deck (path and action cards)."""
REPAIR_FIRST = pb.CARD_REPAIR_PICK
REPAIR_KINDS = 6
TOOLS = 3
GOAL_CELLS = ((8, 2), (8, 0), (8, -2))

PLACE = 0
ROCKFALL = PLACE + PATH_KINDS * 2 * CELLS
MAP = ROCKFALL + CELLS
BREAK = MAP + len(GOAL_CELLS)
REPAIR = BREAK + TOOLS * MAX_SEATS
DISCARD = REPAIR + REPAIR_KINDS * MAX_SEATS * TOOLS
PASS = DISCARD + DECK_KINDS
NUM_ACTIONS = PASS + 1

N, E, S, W = 1, 2, 4, 8
_LETTER = {"n": N, "e": E, "s": S, "w": W}
_TURNED = {N: S, E: W, S: N, W: E}


def _card_name(card: int) -> str:
    return str(pb.Card.Name(card)).removeprefix("CARD_").lower()


def _edges(name: str) -> int:
    """The open edges of an upright card from its kind's name ("dead_ne" -> N|E)."""
    mask = 0
    for letter in name.removeprefix("dead_").removeprefix("stone_"):
        mask |= _LETTER[letter]
    return mask


def turn(edges: int) -> int:
    """The edges of a card turned 180 degrees (S-1: N<->S, E<->W)."""
    return sum(_TURNED[bit] for bit in (N, E, S, W) if edges & bit)


EDGES: dict[int, int] = {card: _edges(_card_name(card)) for card in range(1, PATH_KINDS + 1)}
EDGES[pb.CARD_START] = EDGES[pb.CARD_GOLD] = N | E | S | W
EDGES[pb.CARD_STONE_NE] = N | E
EDGES[pb.CARD_STONE_NW] = N | W
DEAD_END = frozenset(card for card in range(1, PATH_KINDS + 1) if _card_name(card).startswith("dead_"))

# maze planes
OCCUPIED, OPEN_N, OPEN_E, OPEN_S, OPEN_W, DEAD, START, GOAL_HIDDEN, GOAL_GOLD, GOAL_STONE, GOAL_UP = range(11)
PLANES = 11
_OPEN_PLANE = {N: OPEN_N, E: OPEN_E, S: OPEN_S, W: OPEN_W}

FEATURES: tuple[tuple[str, int], ...] = (
    ("observer", MAX_SEATS), ("num_seats", MAX_SEATS - 2), ("variant", 1), ("round", 3), ("turn", 1),
    ("first_player", MAX_SEATS), ("active", MAX_SEATS), ("over", 1), ("role", 2),
    ("roles", MAX_SEATS * 3), ("set_aside", 3), ("hand", DECK_KINDS), ("hand_counts", MAX_SEATS),
    ("draw_pile", 1), ("discard_public", DECK_KINDS), ("discard_own", DECK_KINDS),
    ("discard_face_down", MAX_SEATS), ("broken", MAX_SEATS * TOOLS), ("nuggets_known", MAX_SEATS * 3),
    ("nuggets_unknown", MAX_SEATS), ("supply", 1), ("results", 3 * (2 + MAX_SEATS)),
    ("goals", len(GOAL_CELLS) * (4 + 2 + MAX_SEATS)),
)
"""The vector after the maze planes: (name, size) in order. Per-seat parts
have MAX_SEATS entries (zero beyond the table); a role is one-hot over
(gold-digger, saboteur, unknown); a goal over (gold, stone NE, stone NW,
unknown), then revealed, turned and who looked at it."""
OFFSETS: dict[str, int] = {}
_at = PLANES * CELLS
for _name, _size in FEATURES:
    OFFSETS[_name] = _at
    _at += _size
SIZE = _at
_ROLE = {pb.CARD_GOLD_DIGGER: 0, pb.CARD_SABOTEUR: 1}
_GOAL = {pb.CARD_GOLD: 0, pb.CARD_STONE_NE: 1, pb.CARD_STONE_NW: 2}


def cell(x: int, y: int) -> int:
    """The grid index of (x, y). Raises ValueError outside the grid, where no move can be."""
    if not (-RADIUS <= x <= RADIUS and -RADIUS <= y <= RADIUS):
        raise ValueError(f"cell ({x}, {y}) is outside the {SIDE}x{SIDE} grid no legal move leaves (|x|, |y| <= {RADIUS})")
    return (y + RADIUS) * SIDE + (x + RADIUS)


def _xy(index: int) -> tuple[int, int]:
    row, col = divmod(index, SIDE)
    return col - RADIUS, row - RADIUS


def _count(tensor: array[float], offset: int, cards: Any) -> None:
    for card in cards:
        tensor[offset + card - 1] += 1.0


class SaboteurEncoding(Encoding):
    game = "saboteur"
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
        self._maze(obs, t)
        o = OFFSETS
        t[o["observer"] + obs.seat] = 1.0
        t[o["num_seats"] + obs.num_seats - 3] = 1.0
        t[o["variant"]] = float(obs.sabotaged_diggers_lose_share)
        if 1 <= obs.round <= 3:
            t[o["round"] + obs.round - 1] = 1.0
        t[o["turn"]] = float(obs.turn)
        t[o["first_player"] + obs.first_player] = 1.0
        if obs.active >= 0:
            t[o["active"] + obs.active] = 1.0
        t[o["over"]] = float(obs.over)
        if obs.role in _ROLE:
            t[o["role"] + _ROLE[obs.role]] = 1.0
        for seat, role in enumerate(obs.roles):
            t[o["roles"] + seat * 3 + _ROLE.get(role, 2)] = 1.0
        t[o["set_aside"] + _ROLE.get(obs.set_aside, 2)] = 1.0
        _count(t, o["hand"], obs.hand)
        for seat, count in enumerate(obs.hand_counts):
            t[o["hand_counts"] + seat] = float(count)
        t[o["draw_pile"]] = float(obs.draw_pile)
        _count(t, o["discard_public"], obs.discard_public)
        _count(t, o["discard_own"], obs.discard_own)
        for seat, count in enumerate(obs.discard_face_down):
            t[o["discard_face_down"] + seat] = float(count)
        tools = iter(obs.broken_tools)
        for seat, size in enumerate(obs.broken_sizes):
            for _ in range(size):
                t[o["broken"] + seat * TOOLS + next(tools) - 1] = 1.0
        values = iter(obs.nuggets_known)
        for seat, size in enumerate(obs.nuggets_known_sizes):
            for _ in range(size):
                t[o["nuggets_known"] + seat * 3 + next(values) - 1] += 1.0
        for seat, count in enumerate(obs.nuggets_unknown):
            t[o["nuggets_unknown"] + seat] = float(count)
        t[o["supply"]] = float(obs.supply)
        for i, result in enumerate(obs.results[:3]):
            at = o["results"] + i * (2 + MAX_SEATS)
            t[at + (0 if result.winners == "gold_diggers" else 1)] = 1.0
            if result.reached_by >= 0:
                t[at + 2 + result.reached_by] = 1.0
        for i, goal in enumerate(obs.goals[:3]):
            at = o["goals"] + i * (6 + MAX_SEATS)
            t[at + _GOAL.get(goal.card, 3)] = 1.0
            t[at + 4] = float(goal.revealed)
            t[at + 5] = float(goal.turned)
            for seat in goal.seen_by:
                t[at + 6 + seat] = 1.0
        return t

    def _maze(self, obs: pb.Observation, t: array[float]) -> None:
        for x, y, card, turned in zip(obs.maze_x, obs.maze_y, obs.maze_cards, obs.maze_turned):
            at = cell(x, y)
            t[OCCUPIED * CELLS + at] = 1.0
            self._open(t, at, EDGES.get(card, 0), turned)
            if card in DEAD_END:
                t[DEAD * CELLS + at] = 1.0
            if card == pb.CARD_START:
                t[START * CELLS + at] = 1.0
        for goal in obs.goals:
            at = cell(goal.x, goal.y)
            if goal.card == pb.CARD_GOLD:
                t[GOAL_GOLD * CELLS + at] = 1.0
            elif goal.card in (pb.CARD_STONE_NE, pb.CARD_STONE_NW):
                t[GOAL_STONE * CELLS + at] = 1.0
            if goal.revealed:
                t[GOAL_UP * CELLS + at] = 1.0
                t[OCCUPIED * CELLS + at] = 1.0
                self._open(t, at, EDGES.get(goal.card, 0), goal.turned)
            else:
                t[GOAL_HIDDEN * CELLS + at] = 1.0

    @staticmethod
    def _open(t: array[float], at: int, edges: int, turned: bool) -> None:
        if turned:
            edges = turn(edges)
        for bit, plane in _OPEN_PLANE.items():
            if edges & bit:
                t[plane * CELLS + at] = 1.0

    # ----------------------------------------------------------------- actions

    def action_index(self, action: Any) -> int:
        kind = action.WhichOneof("kind") if isinstance(action, pb.Action) else None
        if kind == "place_path":
            place = action.place_path
            if not 1 <= place.card <= PATH_KINDS:
                raise ValueError(f"card {place.card} is not a path card")
            return PLACE + (int(place.card - 1) * 2 + int(place.turned)) * CELLS + cell(place.x, place.y)
        if kind == "rockfall":
            return ROCKFALL + cell(action.rockfall.x, action.rockfall.y)
        if kind == "map":
            where = (action.map.x, action.map.y)
            if where not in GOAL_CELLS:
                raise ValueError(f"a map names a goal cell {GOAL_CELLS}, not {where}")
            return MAP + GOAL_CELLS.index(where)
        if kind == "break_tool":
            brk = action.break_tool
            return BREAK + self._tool(brk.tool) * MAX_SEATS + self._seat(brk.target)
        if kind == "repair":
            rep = action.repair
            if not 0 <= rep.card - REPAIR_FIRST < REPAIR_KINDS:
                raise ValueError(f"card {rep.card} is not a repair card")
            card = int(rep.card - REPAIR_FIRST)
            return REPAIR + (card * MAX_SEATS + self._seat(rep.target)) * TOOLS + self._tool(rep.tool)
        if kind == "discard":
            if not 1 <= action.discard.card <= DECK_KINDS:
                raise ValueError(f"card {action.discard.card} is not a deck card")
            return DISCARD + int(action.discard.card) - 1
        if kind == "pass_turn":
            return PASS
        raise ValueError(f"not a Saboteur action: {action!r}")

    @staticmethod
    def _tool(tool: int) -> int:
        if not 1 <= tool <= TOOLS:
            raise ValueError(f"tool {tool} is not a tool")
        return tool - 1

    @staticmethod
    def _seat(seat: int) -> int:
        if not 0 <= seat < MAX_SEATS:
            raise ValueError(f"seat {seat} is not 0 to {MAX_SEATS - 1}")
        return seat

    def action_message(self, index: int) -> pb.Action:
        """The action message of an index (Saboteur's are context-free)."""
        if not 0 <= index < NUM_ACTIONS:
            raise ValueError(f"Saboteur action index {index} is not 0 to {NUM_ACTIONS - 1}")
        if index < ROCKFALL:
            plane, at = divmod(index - PLACE, CELLS)
            card, turned = divmod(plane, 2)
            x, y = _xy(at)
            return pb.Action(place_path=pb.PlacePath(card=card + 1, x=x, y=y, turned=bool(turned)))  # type: ignore[arg-type]
        if index < MAP:
            x, y = _xy(index - ROCKFALL)
            return pb.Action(rockfall=pb.Rockfall(x=x, y=y))
        if index < BREAK:
            x, y = GOAL_CELLS[index - MAP]
            return pb.Action(map=pb.Map(x=x, y=y))
        if index < REPAIR:
            tool, target = divmod(index - BREAK, MAX_SEATS)
            return pb.Action(break_tool=pb.BreakTool(tool=tool + 1, target=target))  # type: ignore[arg-type]
        if index < DISCARD:
            rest, tool = divmod(index - REPAIR, TOOLS)
            card, target = divmod(rest, MAX_SEATS)
            return pb.Action(repair=pb.Repair(card=REPAIR_FIRST + card, target=target, tool=tool + 1))  # type: ignore[arg-type]
        if index < PASS:
            return pb.Action(discard=pb.Discard(card=index - DISCARD + 1))  # type: ignore[arg-type]
        return pb.Action(pass_turn=pb.Pass())

    def action_name(self, index: int) -> str:
        return str(text_format.MessageToString(self.action_message(index), as_one_line=True))
