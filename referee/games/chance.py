"""Counter-based chance streams (docs/chance.md): SplitMix64, stream seeds, draws, the shuffle.

Every chance outcome of a match is a fixed function of its seed: a stream's
seed is derived from the match seed and the stream's name, and its n-th draw
depends only on (stream seed, n). docs/chance.md defines each step; this
module implements it twice, in Python below and in C (`_splitmix.c`, built
with the package when a compiler is at hand, `referee.games.native`), which
gives the same numbers at a fraction of the cost: SplitMix64 on Python
integers costs as much as a Leduc decision, and a deal draws dozens of
times. tests/test_chance_streams.py checks both against the page's vectors
and against each other.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from referee.games.native import chance_helper

MASK64: Final = (1 << 64) - 1


class ChanceHelper(Protocol):
    """The C module's functions (referee/games/_splitmix.c), each the Python one below."""

    def splitmix64(self, x: int, /) -> int: ...
    def derive_seed(self, seed: int, name: str, /) -> int: ...
    def draw(self, seed: int, n: int, /) -> int: ...
    def below(self, seed: int, n: int, bound: int, /) -> int: ...
    def shuffle(self, seed: int, counter: int, items: list[Any], /) -> int: ...


def splitmix64(x: int) -> int:
    """SplitMix64's mixing function, modulo 2**64 (docs/chance.md)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def py_derive_seed(seed: int, stream: str) -> int:
    h = seed & MASK64
    for ch in stream.encode():
        h = splitmix64(h ^ ch)
    return h


def py_draw(seed: int, n: int) -> int:
    return splitmix64(seed ^ splitmix64(n))


def py_below(seed: int, n: int, bound: int) -> int:
    return (py_draw(seed, n) * bound) >> 64


def py_shuffle(seed: int, counter: int, items: list[Any]) -> int:
    for i in range(len(items) - 1, 0, -1):
        counter += 1
        j = (py_draw(seed, counter) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return counter


HELPER: Final[ChanceHelper | None] = chance_helper()
"""The C functions, or None: not built, or the pure path chosen (native.py)."""


def derive_seed(seed: int, stream: str) -> int:
    """A 64-bit seed for the named chance stream of a match seed.

    Uses a fixed string hash (not Python's randomised `hash`) so that the same
    seed gives the same streams in every process.
    """
    if HELPER is not None:
        return HELPER.derive_seed(seed, stream)
    return py_derive_seed(seed, stream)


class ChanceStream:
    """A counter-based random stream: the n-th draw depends only on (seed, n).

    Cloning copies two integers, and a stream drawn from a fixed seed gives the
    same outcomes whatever other streams did. (A plain class, not a
    dataclass: a search builds three for every determinization.)
    """

    __slots__ = ("seed", "counter")

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.seed = seed
        self.counter = counter

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ChanceStream):
            return NotImplemented
        return self.seed == other.seed and self.counter == other.counter

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"ChanceStream(seed={self.seed!r}, counter={self.counter!r})"

    def next64(self) -> int:
        self.counter += 1
        if HELPER is not None:
            return HELPER.draw(self.seed, self.counter)
        return py_draw(self.seed, self.counter)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (bias below 2**-50 for small n)."""
        self.counter += 1
        if HELPER is not None:
            return HELPER.below(self.seed, self.counter, n)
        return py_below(self.seed, self.counter, n)

    def shuffle(self, items: list[Any]) -> None:
        """Fisher–Yates shuffle in place."""
        if HELPER is not None:
            self.counter = HELPER.shuffle(self.seed, self.counter, items)
        else:
            self.counter = py_shuffle(self.seed, self.counter, items)

    def copy(self) -> "ChanceStream":
        return ChanceStream(self.seed, self.counter)

    def to_json(self) -> list[int]:
        return [self.seed, self.counter]

    @classmethod
    def from_json(cls, obj: Any) -> "ChanceStream":
        seed, counter = obj
        return cls(int(seed), int(counter))
