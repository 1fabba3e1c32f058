"""A ladder's deal seeds as a reverse hash chain, committed before the first match.

Why a chain: the organiser must be bound to every deal of a ladder before
it knows how the ladder will go (who is seated where, who wins), and must
be able to show the deals of finished matches while the ladder runs without
giving away the deals still to come. A reverse hash chain (as in S/KEY and
PayWord) does both with one published value:

- the **ladder seed** `x_L` is 32 random bytes, kept secret;
- `x_(i-1) = H(x_i)`, with `H(v) = SHA-256("referee-ladder-chain-v1:" || v)`;
- the **commitment** is the head `x_0 = H^L(x_L)`, published when the
  ladder starts, before any match;
- the i-th duplicate set of the ladder (i = 1 .. L, in the order sets are
  planned) is dealt from `x_i`: its seed is the first 8 bytes of
  `SHA-256("referee-ladder-deal-v1:" || x_i)` read big-endian, shifted right
  by 2 (62 bits, as every ladder seed). Every seat rotation of the set
  shares it (a duplicate deal).

Revealing `x_k` lets anyone check `H^k(x_k) = x_0` and derive the seeds of
sets 1 .. k (hash it down), but not of set k + 1: that would need a preimage
of SHA-256. The ladder seed itself (`x_L`, revealed when the ladder has
ended) gives every set. docs/records.md, "A ladder's deals", states this
for an independent check.

Pure functions of bytes: no store, no randomness but `new_chain`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

CHAIN_PREFIX = b"referee-ladder-chain-v1:"
DEAL_PREFIX = b"referee-ladder-deal-v1:"
SECRET_BYTES = 32
SEED_BITS = 62
"""Set seeds fit SQLite's signed 64-bit integers (as ladder.scheduling.matchmaking's)."""
MAX_LENGTH = 100_000
"""Sets per chain at most: computing a chain this long takes about 0.1 s; a
ladder that plays more sets (a service running for weeks) starts the next
chain when one is used up, and publishes its commitment then."""


def step(element: bytes) -> bytes:
    """H: one link down the chain (x_i to x_(i-1))."""
    return hashlib.sha256(CHAIN_PREFIX + element).digest()


def walk(element: bytes, steps: int) -> bytes:
    """H applied `steps` times."""
    for _ in range(steps):
        element = step(element)
    return element


def set_seed(element: bytes) -> int:
    """The deal seed of the set dealt from chain element `element`."""
    digest = hashlib.sha256(DEAL_PREFIX + element).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def verify_element(head: bytes, index: int, element: bytes) -> bool:
    """True if `element` is x_index of the chain committed by `head`."""
    return index >= 0 and hmac.compare_digest(walk(element, index), head)


def seed_of(revealed: bytes, revealed_index: int, index: int) -> int:
    """The seed of set `index` from the revealed element x_revealed_index
    (index <= revealed_index). Raises ValueError for a set beyond it: its
    seed is not revealed."""
    if not 1 <= index <= revealed_index:
        raise ValueError(f"set {index} is not revealed by element {revealed_index}")
    return set_seed(walk(revealed, revealed_index - index))


@dataclass
class SeedChain:
    """A chain known to its organiser: the secret ladder seed and length."""

    secret: bytes
    length: int
    _elements: list[bytes] = field(default_factory=list, repr=False)
    """x_0 .. x_L, computed once on first use."""

    def element(self, index: int) -> bytes:
        """x_index (0 = the head, `length` = the ladder seed)."""
        if not 0 <= index <= self.length:
            raise ValueError(f"index {index} is outside the chain 0..{self.length}")
        if not self._elements:
            down = [self.secret]
            for _ in range(self.length):
                down.append(step(down[-1]))
            self._elements = down[::-1]
        return self._elements[index]

    @property
    def head(self) -> bytes:
        """The commitment, published before the first set."""
        return self.element(0)

    def seed(self, index: int) -> int:
        """The deal seed of the index-th set (1-based)."""
        if index < 1:
            raise ValueError("sets are numbered from 1")
        return set_seed(self.element(index))


def new_chain(length: int) -> SeedChain:
    """A fresh chain of `length` sets with a secret ladder seed."""
    if not 1 <= length <= MAX_LENGTH:
        raise ValueError(f"a chain has 1 to {MAX_LENGTH} sets, not {length}")
    return SeedChain(secrets.token_bytes(SECRET_BYTES), length)
