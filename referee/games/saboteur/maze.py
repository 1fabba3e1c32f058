"""The maze (S-4.1 to S-4.3, S-4.5): fitting, connectivity from the start, and the
cells where a path card may go.

The grid is unbounded, so it is a dict from cell to card, never an array.
Only face-up cards have edges (`edges`); a face-down goal is on the table (it
occupies its cell) but constrains nothing (S-4.2) and connects nothing.

Connectivity (S-4.3) is the set of face-up *through* cards reachable from the
start across pairs of facing open edges; dead ends pass nothing on. It is kept
incrementally: a placement only adds what becomes reachable through the new
card (`spread`), and only a rockfall recomputes it from the start. The
candidate cells for a placement are the empty cells that an open edge of a
connected card faces, so legal-move generation looks at those few cells only.
"""

from __future__ import annotations

from referee.games.saboteur.cards import DIRECTIONS, THROUGH
from referee.games.saboteur.config import Cell

Slot = tuple[int, int, int, int, int]
"""A candidate cell for a path card: (x, y, fixed, required, need).

`fixed` has a bit for every side with a face-up neighbour, `required` the
sides where that neighbour's facing edge is open (S-4.2: open must face open,
closed must face closed), `need` the sides where it is also connected (S-4.3:
the new card needs one open edge there).
"""


def spread(cells: dict[Cell, tuple[int, bool]], edges: dict[Cell, int], conn: set[Cell], origin: Cell) -> list[Cell]:
    """Add to `conn` every through card reachable from `origin` (already in it);
    returns the cells added."""
    added: list[Cell] = []
    stack = [origin]
    while stack:
        x, y = stack.pop()
        mask = edges[(x, y)]
        for edge, dx, dy, facing in DIRECTIONS:
            if mask & edge:
                nb = (x + dx, y + dy)
                if nb not in conn and edges.get(nb, 0) & facing and THROUGH[cells[nb][0]]:
                    conn.add(nb)
                    added.append(nb)
                    stack.append(nb)
    return added


def connected(cells: dict[Cell, tuple[int, bool]], edges: dict[Cell, int], start: Cell) -> set[Cell]:
    """S-4.3 from scratch: the connected cards of the maze."""
    conn = {start}
    spread(cells, edges, conn, start)
    return conn


def reaching_sides(edges: dict[Cell, int], conn: set[Cell], cell: Cell) -> int:
    """The sides of `cell` faced by an open edge of a connected card (S-4.5: a
    tunnel from the start reaches it)."""
    x, y = cell
    sides = 0
    for edge, dx, dy, facing in DIRECTIONS:
        nb = (x + dx, y + dy)
        if nb in conn and edges[nb] & facing:
            sides |= edge
    return sides


def slot(edges: dict[Cell, int], conn: set[Cell], cell: Cell) -> Slot | None:
    """The constraints of an empty cell, or None if no connected open edge faces it."""
    x, y = cell
    fixed = required = need = 0
    for edge, dx, dy, facing in DIRECTIONS:
        nb = (x + dx, y + dy)
        theirs = edges.get(nb)
        if theirs is None:
            continue
        fixed |= edge
        if theirs & facing:
            required |= edge
            if nb in conn:
                need |= edge
    return (x, y, fixed, required, need) if need else None


def frontier(cells: dict[Cell, tuple[int, bool]], edges: dict[Cell, int], conn: set[Cell]) -> dict[Cell, Slot]:
    """From scratch: every empty cell a path card could go to, with its constraints."""
    slots: dict[Cell, Slot] = {}
    for x, y in conn:
        mask = edges[(x, y)]
        for edge, dx, dy, _ in DIRECTIONS:
            if mask & edge:
                nb = (x + dx, y + dy)
                if nb not in cells and nb not in slots:
                    found = slot(edges, conn, nb)
                    if found is not None:
                        slots[nb] = found
    return slots


def refresh(slots: dict[Cell, Slot], cells: dict[Cell, tuple[int, bool]], edges: dict[Cell, int],
            conn: set[Cell], changed: list[Cell]) -> None:
    """Bring `slots` up to date after cards were added at, or connected at, the
    `changed` cells: only their empty neighbours can have new constraints."""
    for x, y in changed:
        slots.pop((x, y), None)
        for _, dx, dy, _ in DIRECTIONS:
            nb = (x + dx, y + dy)
            if nb not in cells:
                found = slot(edges, conn, nb)
                if found is None:
                    slots.pop(nb, None)
                else:
                    slots[nb] = found
