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

Here, in the SDK, because the referee and the bots compute it alike.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

PREFIX = "referee-deal-v1"
SALT_BYTES = 16


def new_salt() -> bytes:
    """A fresh secret salt for one match."""
    return secrets.token_bytes(SALT_BYTES)


def commitment(seed: int, salt: bytes) -> bytes:
    """The 32-byte commitment to `seed` with `salt`."""
    return hashlib.sha256(f"{PREFIX}:{seed}:{salt.hex()}".encode("ascii")).digest()


def verify(seed_commitment: bytes, seed: int, salt: bytes) -> bool:
    """True if `seed` and `salt` are what `seed_commitment` committed to."""
    return hmac.compare_digest(commitment(seed, salt), seed_commitment)
