"""What hand-written scenarios share across games: a refusal that names the
field and the rule, and chance fixed in advance.

A scenario (a state written by hand in a game's JSON state format) may
describe a table no match can reach: a ninth event card, a hat off the
track, a seat asked to decide with nothing to choose. Each game's reader
checks the invariants of a reachable state and refuses a bad one with a
`ScenarioError`, whose message says which field is wrong, why, under which
rule, so the author can fix it.

A scenario may also say what chance produces next (docs/engine.md, "Fixing
chance"): the next die rolls, the order of the next shuffles. The state keeps
these as queues per chance stream; `fixed_shuffle` and `next_fixed` consume
them before the stream itself is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from referee.games.base import ChanceStream


class ScenarioError(ValueError):
    """A scenario describes a state no match can reach.

    The message names the field, what is wrong with it, and the rule that
    makes it wrong: "fields[1] = 40: a hat stands on fields 1 to 35 (G-1)".
    """

    def __init__(self, field: str, problem: str, rule: str) -> None:
        super().__init__(f"{field}: {problem} ({rule})")
        self.field = field
        self.rule = rule


def seat_mask(seats: Iterable[int], n: int, rule: str) -> int:
    """A card's `known_by` (the seats that know it) as a bit mask over `n`
    seats; a seat the table does not have is refused under `rule`."""
    mask = 0
    for seat in seats:
        if not 0 <= int(seat) < n:
            raise ScenarioError("known_by", f"names seat {seat}; the seats are 0 to {n - 1}", rule)
        mask |= 1 << int(seat)
    return mask


def next_fixed(fixed: dict[str, list[Any]], stream: str) -> Any | None:
    """The next outcome a scenario fixed for `stream`, removed from its
    queue; None when chance is free (the stream draws)."""
    queue = fixed.get(stream)
    if not queue:
        return None
    value = queue.pop(0)
    if not queue:
        del fixed[stream]
    return value


def fixed_shuffle(
    stream: ChanceStream,
    cards: list[int],
    order: Sequence[Hashable] | None,
    identity: Callable[[int], Hashable],
    *,
    drawn_from_end: bool = True,
) -> None:
    """Shuffle `cards` in place.

    Without a fixed order this is the stream's Fisher–Yates shuffle. With
    one (identities in the order the game uses the cards: the first drawn
    first), the cards it names come first in that order, each the first
    remaining card of its identity in `cards` (the engines pass them in
    ascending id order); a named identity none of the cards has is skipped.
    The other cards, in their order, are shuffled by the stream and come
    after them. A complete order therefore draws nothing from the stream.
    `drawn_from_end`: the game draws from the end of the list (a deck, top
    card last), else from its start (the dwarf cards dealt seat by seat).
    """
    if order is None:
        stream.shuffle(cards)
        return
    rest = list(cards)
    named: list[int] = []
    for wanted in order:
        for index, card in enumerate(rest):
            if identity(card) == wanted:
                named.append(rest.pop(index))
                break
    stream.shuffle(rest)
    cards[:] = rest + named[::-1] if drawn_from_end else named + rest
