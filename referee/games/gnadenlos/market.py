"""The market grid of IOUs (G-3): placement, complete rows and refill gaps.

A market is a list of rows, each a list of `columns` slots holding an IOU
instance id or EMPTY. Trailing empty rows are always trimmed, so `rows[-1]` is
the last non-empty row.
"""

from __future__ import annotations

from typing import Final

EMPTY: Final = -1


def place(rows: list[list[int]], card: int, columns: int) -> tuple[int, int]:
    """G-3.3: put `card` into the first empty slot of the last non-empty row,
    starting a new row when that row is full. Returns the slot."""
    if rows:
        last = rows[-1]
        for col, slot in enumerate(last):
            if slot == EMPTY:
                last[col] = card
                return len(rows) - 1, col
    row = [EMPTY] * columns
    row[0] = card
    rows.append(row)
    return len(rows) - 1, 0


def remove(rows: list[list[int]], row: int, col: int) -> int:
    """Take the card out of a slot and trim empty trailing rows."""
    card = rows[row][col]
    rows[row][col] = EMPTY
    trim(rows)
    return card


def trim(rows: list[list[int]]) -> None:
    while rows and all(slot == EMPTY for slot in rows[-1]):
        rows.pop()


def complete_rows(rows: list[list[int]]) -> int:
    """G-3.2: rows with every slot filled."""
    return sum(1 for row in rows if EMPTY not in row)


def first_gap(rows: list[list[int]]) -> tuple[int, int] | None:
    """G-3.4: the first empty slot in a row other than the last, or None."""
    for r in range(len(rows) - 1):
        row = rows[r]
        for c, slot in enumerate(row):
            if slot == EMPTY:
                return r, c
    return None


def filled_slots(rows: list[list[int]]) -> list[tuple[int, int]]:
    return [(r, c) for r, row in enumerate(rows) for c, slot in enumerate(row) if slot != EMPTY]


def card_count(rows: list[list[int]]) -> int:
    return sum(1 for row in rows for slot in row if slot != EMPTY)
