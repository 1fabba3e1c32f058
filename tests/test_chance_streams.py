"""The chance streams' two implementations agree with docs/chance.md and with each other.

referee.games.chance computes SplitMix64, stream seeds, draws, below(n) and
the shuffle in Python, and in C when the package's build made its helper
(`_splitmix.c`). tests/test_chance_spec.py checks the engines' outcomes
against an implementation written from the page; this checks the engine's
own functions against the page's test vectors, both ways of computing them,
and the C functions against the Python ones on random inputs.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from referee.games import chance, native

PAGE = Path(__file__).resolve().parent.parent / "docs" / "chance.md"


def _vectors() -> dict[str, str]:
    block = re.search(r"<!-- vectors -->\s*```\n(.*?)```", PAGE.read_text(), re.DOTALL)
    assert block, "docs/chance.md lost its test vectors"
    return dict(line.split(" = ", 1) if " = " in line else line.split(": ", 1)
                for line in block.group(1).strip().splitlines())


class PythonStream:
    """A stream computed by the Python functions, whatever was built."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.counter = 0

    def next64(self) -> int:
        self.counter += 1
        return chance.py_draw(self.seed, self.counter)

    def below(self, n: int) -> int:
        self.counter += 1
        return chance.py_below(self.seed, self.counter, n)

    def shuffle(self, items: list[Any]) -> None:
        self.counter = chance.py_shuffle(self.seed, self.counter, items)


def _both() -> list[str]:
    return ["python", "engine"]


def _stream(kind: str, seed: int, name: str) -> chance.ChanceStream | PythonStream:
    if kind == "python":
        return PythonStream(chance.py_derive_seed(seed, name))
    return chance.ChanceStream(chance.derive_seed(seed, name))


@pytest.mark.parametrize("kind", _both())
def test_the_page_s_vectors(kind: str) -> None:
    lines = _vectors()
    mix = chance.splitmix64 if kind == "python" else (chance.HELPER or chance).splitmix64
    derive = chance.py_derive_seed if kind == "python" else chance.derive_seed
    assert mix(0) == int(lines["splitmix64(0)"], 16)
    assert mix(1) == int(lines["splitmix64(1)"], 16)
    assert derive(42, "die") == int(lines['derive_seed(42, "die")'], 16)
    assert derive(-1, "events") == int(lines['derive_seed(-1, "events")'])
    die = _stream(kind, 42, "die")
    assert [die.next64() for _ in range(3)] == [int(x, 16) for x in lines['stream "die" of seed 42, next64'].split()]
    die = _stream(kind, 42, "die")
    assert [die.below(6) + 1 for _ in range(10)] == \
        [int(x) for x in lines['stream "die" of seed 42, below(6) + 1'].split()]
    cards = list(range(29))
    _stream(kind, 42, "adventurers").shuffle(cards)
    assert cards == [int(x) for x in lines['stream "adventurers" of seed 42, shuffle(0..28)'].split()]
    events = [0, 1, 2, 3, 3, 4, 4]
    _stream(kind, 42, "events").shuffle(events)
    assert events == [int(x) for x in lines['stream "events" of seed 42, shuffle(0 1 2 3 3 4 4)'].split()]
    assert _stream(kind, 42, "start").below(3) == int(lines['stream "start" of seed 42, below(3)'])


def test_the_c_helper_computes_what_python_does() -> None:
    helper = chance.HELPER
    if helper is None:
        pytest.skip(f"no C chance helper in use here ({native.describe()}): the Python path is the only one")
    rng = random.Random(30)
    checked = 0
    for _ in range(2000):
        seed = rng.choice([rng.getrandbits(64), rng.getrandbits(80) - 2**79, rng.randrange(-5, 5)])
        n = rng.getrandbits(rng.choice([3, 32, 64]))
        bound = rng.choice([0, 1, 2, 6, 29, 68, rng.getrandbits(64)])
        name = rng.choice(["die", "deck", "adventurers", "é", ""])
        assert helper.splitmix64(seed) == chance.splitmix64(seed & chance.MASK64)
        assert helper.derive_seed(seed, name) == chance.py_derive_seed(seed, name)
        assert helper.draw(seed, n) == chance.py_draw(seed, n)
        assert helper.below(seed, n, bound) == chance.py_below(seed, n, bound)
        items = list(range(rng.randrange(40)))
        twin = items[:]
        assert helper.shuffle(seed, n, items) == chance.py_shuffle(seed, n, twin)
        assert items == twin
        checked += 1
    assert checked == 2000


def test_the_c_helper_refuses_what_it_cannot_hold() -> None:
    helper = chance.HELPER
    if helper is None:
        pytest.skip(f"no C chance helper in use here ({native.describe()})")
    with pytest.raises(OverflowError):
        helper.below(1, 1, 2**64)
    with pytest.raises(TypeError):
        helper.shuffle(1, 0, (1, 2, 3))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        helper.derive_seed(1, b"die")  # type: ignore[arg-type]
