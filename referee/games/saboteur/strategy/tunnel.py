"""The Saboteur maze as the heuristic reads it: how far the tunnel is from each goal.

The heuristic judges a path card, a rockfall and another seat's move by one
measure: how many more cards the tunnel from the start needs to reach a goal
cell. That is the smallest `distance` over the tunnel's *open ends* (empty
cells an open edge of a connected card faces, S-4.3), where a goal's distance
field counts the cards needed from a cell to the goal, walking around the
cards already on the table. The field ignores which card kinds would fit
(S-4.2); it is a guide, not a proof.

A `Tunnel` is built from an observation (what the heuristic bot sees) or a
full state (the MCTS bot's rollouts in its own determinizations), and is
updated by events (the suspicion tracker replays other seats' moves on it).
"""

from __future__ import annotations

import math
from collections import OrderedDict, deque
from collections.abc import Iterable

from referee.games.saboteur.cards import DIRECTIONS, KINDS, turned
from referee.games.saboteur.config import DEFAULT_CONFIG, Cell

Card = tuple[int, bool]
"""(open edges as laid, through card?)."""
Field = dict[Cell, int] | None
"""A goal's distance field (`distance_field`), or None for plain Manhattan
distances (cards in the way not walked around; several times cheaper)."""

CARD_EDGES: dict[str, tuple[int, int]] = {k.name: (k.edges, turned(k.edges)) for k in KINDS if k.edges}
"""Kind name -> (edges upright, edges turned 180 degrees)."""
THROUGH: dict[str, bool] = {k.name: k.through for k in KINDS if k.edges}

START: Cell = DEFAULT_CONFIG.start_cell
GOAL_CELLS: tuple[Cell, ...] = DEFAULT_CONFIG.goal_cells
BLOCKED = 20
"""The distance of a goal no open end leads to (only a rockfall reopens it)."""
BOX = (-2, 10, -5, 5)
"""x and y bounds of the distance fields; outside them a cell counts its
Manhattan distance (a tunnel wandering that far is lost anyway)."""
_FIELD_CACHE_SIZE = 256
"""Distance fields kept (about 15 kB each): a match sees a few hundred mazes."""


def card(name: str, is_turned: bool) -> Card:
    """The laid card of kind `name`."""
    return CARD_EDGES[name][is_turned], THROUGH[name]


class Tunnel:
    """Face-up cards by cell, the face-down goal cells, and what is connected
    to the start (S-4.3: only through cards pass the tunnel on)."""

    __slots__ = ("cards", "hidden", "connected", "_ends")

    def __init__(self, cards: dict[Cell, Card], hidden: Iterable[Cell],
                 connected: set[Cell] | None = None) -> None:
        self.cards = cards
        self.hidden = set(hidden)
        self.connected = connected if connected is not None else self._connect()
        self._ends: list[Cell] | None = None

    def copy(self) -> "Tunnel":
        return Tunnel(dict(self.cards), self.hidden, set(self.connected))

    def _connect(self) -> set[Cell]:
        cards = self.cards
        seen = {START}
        stack = [START]
        while stack:
            x, y = stack.pop()
            edges = cards[(x, y)][0]
            for edge, dx, dy, facing in DIRECTIONS:
                nb = (x + dx, y + dy)
                if edges & edge and nb not in seen:
                    other = cards.get(nb)
                    if other is not None and other[1] and other[0] & facing:
                        seen.add(nb)
                        stack.append(nb)
        return seen

    # ----------------------------------------------------------- changes

    def place(self, cell: Cell, laid: Card) -> None:
        """S-4.1: a path card joins the maze."""
        self.cards[cell] = laid
        self.connected = self._connect()
        self._ends = None

    def remove(self, cell: Cell) -> None:
        """S-5.3: a rockfall clears the cell."""
        self.cards.pop(cell, None)
        self.connected = self._connect()
        self._ends = None

    def reveal(self, cell: Cell, laid: Card) -> None:
        """S-4.5: a goal turns up and joins the maze."""
        self.hidden.discard(cell)
        self.place(cell, laid)

    # --------------------------------------------------------- distances

    def occupied(self) -> frozenset[Cell]:
        return frozenset(self.cards) | self.hidden

    def open_ends(self) -> list[Cell]:
        """Empty cells (or face-down goals) an open edge of a connected card faces."""
        if self._ends is None:
            ends: set[Cell] = set()
            cards = self.cards
            for x, y in self.connected:
                edges = cards[(x, y)][0]
                for edge, dx, dy, _ in DIRECTIONS:
                    if edges & edge:
                        nb = (x + dx, y + dy)
                        if nb not in cards:
                            ends.add(nb)
            self._ends = sorted(ends)
        return self._ends

    def distances(self, goal: Cell, field: Field) -> tuple[int, Cell | None, int]:
        """(cards still needed to reach `goal`, the open end that needs fewest,
        the fewest needed through any other open end), by `field`."""
        best = second = BLOCKED
        best_end: Cell | None = None
        for end in self.open_ends():
            d = 0 if end == goal else field_distance(field, goal, end)
            if d < best:
                best, second, best_end = d, best, end
            elif d < second:
                second = d
        return best, best_end, second


def field_distance(field: Field, goal: Cell, cell: Cell) -> int:
    """Cards needed from `cell` (a card laid there included) to reach `goal`:
    from the distance field, or the Manhattan distance without one."""
    if field is None:
        return abs(cell[0] - goal[0]) + abs(cell[1] - goal[1])
    found = field.get(cell)
    if found is not None:
        return found
    x0, x1, y0, y1 = BOX
    if x0 <= cell[0] <= x1 and y0 <= cell[1] <= y1:
        return BLOCKED  # walled in by cards
    return abs(cell[0] - goal[0]) + abs(cell[1] - goal[1])


_FIELDS: OrderedDict[tuple[Cell, frozenset[Cell]], dict[Cell, int]] = OrderedDict()


def distance_field(goal: Cell, occupied: frozenset[Cell]) -> dict[Cell, int]:
    """Breadth-first from the goal over the empty cells of BOX: a cell next to
    the goal needs 1 card, its empty neighbours 2, and so on. Cached by the
    set of occupied cells, since most turns leave the maze as it was."""
    key = (goal, occupied)
    field = _FIELDS.get(key)
    if field is not None:
        _FIELDS.move_to_end(key)
        return field
    x0, x1, y0, y1 = BOX
    field = {}
    queue: deque[Cell] = deque()
    gx, gy = goal
    for _, dx, dy, _ in DIRECTIONS:
        cell = (gx + dx, gy + dy)
        if cell not in occupied:
            field[cell] = 1
            queue.append(cell)
    while queue:
        x, y = cell = queue.popleft()
        d = field[cell] + 1
        for _, dx, dy, _ in DIRECTIONS:
            nb = (x + dx, y + dy)
            if nb not in field and nb not in occupied and x0 <= nb[0] <= x1 and y0 <= nb[1] <= y1:
                field[nb] = d
                queue.append(nb)
    _FIELDS[key] = field
    if len(_FIELDS) > _FIELD_CACHE_SIZE:
        _FIELDS.popitem(last=False)
    return field


class Outlook:
    """How far the tunnel is from the gold, as one seat believes: per goal cell
    that may hold the gold, its weight (the chance it does) and its distance.

    The tunnel's distance from the gold is a soft minimum over those goals,
    -log(sum of weight * exp(-distance)): with the gold's place open, digging
    on towards the nearest candidate counts almost fully, and splitting the
    effort between two candidates counts little. Scores a placement or a
    rockfall by how much nearer (positive) or farther (negative) it brings
    the gold. With `exact` False, distances are Manhattan distances (for
    rollouts, where speed counts more)."""

    __slots__ = ("tunnel", "goals", "distance", "hot")

    def __init__(self, tunnel: Tunnel, weights: dict[Cell, float], exact: bool = True) -> None:
        self.tunnel = tunnel
        self.goals: list[tuple[Cell, float, int, Cell | None, int, Field]] = []
        self.hot: set[Cell] = set()
        """Open ends as near a goal as the tunnel gets: only a card laid there
        can change a distance (a neighbour is at most one card nearer)."""
        occupied = tunnel.occupied() if exact else frozenset()
        ends = tunnel.open_ends()
        for goal, weight in weights.items():
            if weight <= 0:
                continue
            field = distance_field(goal, occupied) if exact else None
            best, best_end, second = tunnel.distances(goal, field)
            self.goals.append((goal, weight, best, best_end, second, field))
            self.hot.update(end for end in ends if field_distance(field, goal, end) <= best)
        self.distance = soft_min([(g[1], g[2]) for g in self.goals])

    def place(self, cell: Cell, laid: Card) -> tuple[float, float]:
        """(cards of progress towards the gold, chance the card reaches it) for
        a path card laid at `cell` (S-4.1 to S-4.5). A dead end gives no new
        open end and may close the best one."""
        if cell not in self.hot:
            return 0.0, 0.0
        tunnel = self.tunnel
        x, y = cell
        ends: list[Cell] = []
        reached: list[Cell] = []
        edges, through = laid
        if through:
            for edge, dx, dy, _ in DIRECTIONS:
                if edges & edge:
                    nb = (x + dx, y + dy)
                    if nb in tunnel.hidden:
                        reached.append(nb)
                    elif nb not in tunnel.cards:
                        ends.append(nb)
        after: list[tuple[float, int]] = []
        reach = 0.0
        for goal, weight, best, best_end, second, field in self.goals:
            if goal in reached:
                reach += weight
                after.append((weight, 0))
                continue
            d = second if best_end == cell else best
            for end in ends:
                found = field_distance(field, goal, end)
                if found < d:
                    d = found
            after.append((weight, d))
        return self.distance - soft_min(after), reach

    def remove(self, cell: Cell) -> float:
        """Cards of progress towards the gold if the card at `cell` is cleared (S-5.3)."""
        cleared = self.tunnel.copy()
        cleared.remove(cell)
        after = []
        for goal, weight, _, _, _, field in self.goals:
            patched = None if field is None else reopened(field, goal, cell)
            after.append((weight, cleared.distances(goal, patched)[0]))
        return self.distance - soft_min(after)


def reopened(field: dict[Cell, int], goal: Cell, cell: Cell) -> dict[Cell, int]:
    """`field` with the cleared `cell` walkable again: one more than its best
    neighbour (the cells beyond it keep their distances, an approximation that
    spares a new search per rockfall weighed)."""
    x, y = cell
    if abs(x - goal[0]) + abs(y - goal[1]) == 1:
        d = 1
    else:
        d = 1 + min((field.get((x + dx, y + dy), BLOCKED) for _, dx, dy, _ in DIRECTIONS))
    patched = dict(field)
    patched[cell] = min(d, BLOCKED)
    return patched


def soft_min(weighted: list[tuple[float, int]]) -> float:
    """-log(sum of weight * exp(-distance)): the distance itself for one goal."""
    if not weighted:
        return 0.0
    return -math.log(sum(w * math.exp(-d) for w, d in weighted))
