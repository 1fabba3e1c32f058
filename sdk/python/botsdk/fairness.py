"""Provably fair deals: the referee commits to a match's seed before play and
reveals it at the end (docs/records.md, "Provably fair deals").

`MatchStart.seed_commitment` is the SHA-256 of the text
"referee-deal-v1:<seed in decimal>:<salt in lower-case hex>"; `MatchEnd`
reveals the seed and the 16-byte salt. A bot (or anyone holding the
record) checks with `verify` that the seed it was shown at the end is the
one the referee was bound to before the first card was dealt, and can then
recompute every deal, draw and roll from it (docs/chance.md). The salt
keeps a seed from being guessed from its commitment: 128 random bits, so no
table of seeds' hashes helps.

An evaluation match (`MatchStart.evaluation`, docs/records.md "Evaluation
deals") is not a fair deal: the referee chose its seed for the deal it
wanted. It commits to that seed all the same, under its own prefix
"referee-evaluation-v1", so that its commitment can never pass for a fair
deal's — not even with a bot that does not know the `evaluation` field and
checks the reveal as a fair deal: that check fails.

Here, in the SDK, because the referee and the bots compute it alike.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

PREFIX = "referee-deal-v1"
EVALUATION_PREFIX = "referee-evaluation-v1"
"""The commitment's prefix in an evaluation match, whose deal the referee chose."""
SALT_BYTES = 16


@dataclass(frozen=True)
class Evaluation:
    """What an evaluation match says of itself (the protocol's `Evaluation`):
    the referee chose the deal, to measure a bot."""

    purpose: str
    """What the match measures, e.g. "exploitability"."""
    chosen_seats: tuple[int, ...]
    """The seats whose own private cards the referee chose; every other
    card is dealt at random given them."""

    def to_json(self) -> dict[str, object]:
        return {"purpose": self.purpose, "chosen_seats": list(self.chosen_seats)}


def new_salt() -> bytes:
    """A fresh secret salt for one match."""
    return secrets.token_bytes(SALT_BYTES)


def commitment(seed: int, salt: bytes, *, evaluation: bool = False) -> bytes:
    """The 32-byte commitment to `seed` with `salt` (an evaluation match's with `evaluation`)."""
    prefix = EVALUATION_PREFIX if evaluation else PREFIX
    return hashlib.sha256(f"{prefix}:{seed}:{salt.hex()}".encode("ascii")).digest()


def verify(seed_commitment: bytes, seed: int, salt: bytes, *, evaluation: bool = False) -> bool:
    """True if `seed` and `salt` are what `seed_commitment` committed to: as a
    fair deal, or with `evaluation` as an evaluation match's chosen deal."""
    return hmac.compare_digest(commitment(seed, salt, evaluation=evaluation), seed_commitment)
