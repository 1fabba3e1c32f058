"""The variant option of Saboteur (S-6.6), declared apart from the engine so
that a bot can read it without loading the rules (GamePlugin.variants)."""

from __future__ import annotations

VARIANT_LOSE_SHARE = "sabotaged_diggers_lose_share"
VARIANT_VALUES = ("off", "on")
"""The values of the one variant option (S-6.6), the default first."""

VARIANT_OPTIONS: dict[str, tuple[str, ...]] = {VARIANT_LOSE_SHARE: VARIANT_VALUES}
"""Each option and its values, the default first."""
