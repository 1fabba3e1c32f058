"""Lists of lists on the wire, shared by the game codecs.

Protobuf has no repeated-of-repeated field, and a nested message per inner
list costs about 2 µs each with the upb runtime, so a game's messages carry
a list of lists as one flat repeated field plus the size of each group
(documented per field in the game's proto); `groups` reads it back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from referee.games.base import InvalidActionError


T = TypeVar("T")


def groups(flat: Sequence[T], sizes: Iterable[int]) -> tuple[tuple[T, ...], ...]:
    """Split a flattened list of lists back into its groups. Raises
    InvalidActionError when the sizes do not add up to the flat list."""
    out = []
    start = 0
    for size in sizes:
        out.append(tuple(flat[start : start + size]))
        start += size
    if start != len(flat):
        raise InvalidActionError("group sizes do not add up to the list they describe")
    return tuple(out)
