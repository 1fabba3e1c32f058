"""The variant options of Gnadenlos! (G-2.6, G-5.10, G-5.11, G-6.7) and how a
state holds them.

The options are declared once here; `Gnadenlos.make_rule_set` (base.Game)
fills in defaults and refuses an unknown option or value, or an `auction_*`
option without `auction=single`, with a message listing what is allowed.
A state keeps each option as a flag, read on the hot paths of the flow.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the state imports this module
    from referee.games.gnadenlos.state import GnadenlosState

VARIANT_OPTIONS: dict[str, tuple[str, ...]] = {
    "setup": ("standard", "advanced"),  # G-2.6
    "gunfight_opt_out": ("off", "on", "soft"),  # G-5.10, G-5.11
    "auction": ("standard", "single"),  # G-6.7
    "auction_order": ("first", "best"),  # G-6.7.1
    "auction_buy_limit": ("one", "many"),  # G-6.7.4
}
"""Each option and its values, the default first."""

VARIANT_REQUIRES: dict[str, tuple[str, str]] = {
    "auction_order": ("auction", "single"),
    "auction_buy_limit": ("auction", "single"),
}
"""G-6.7: the single-card auction's options exist only under it."""

VARIANT_RULE: dict[str, str] = {
    "setup": "G-2.6",
    "gunfight_opt_out": "G-5.10, G-5.11",
    "auction": "G-6.7",
    "auction_order": "G-6.7.1",
    "auction_buy_limit": "G-6.7.4",
}
"""The rule each option implements, which a refused scenario variant cites."""
VARIANT_RULES = "G-2.6, G-5.10, G-5.11, G-6.7"
"""The rules of all the options."""


def set_flags(state: GnadenlosState, options: Mapping[str, str]) -> None:
    """Set `state`'s variant flags from a rule set's options (`RuleSet.options`: all of them)."""
    state.advanced = options.get("setup") == "advanced"
    opt_out = options.get("gunfight_opt_out", "off")
    state.opt_out_variant = opt_out in ("on", "soft")
    state.opt_out_soft = opt_out == "soft"
    state.single_auction = options.get("auction") == "single"
    state.order_best = state.single_auction and options.get("auction_order") == "best"
    state.buy_limit_one = state.single_auction and options.get("auction_buy_limit", "one") == "one"


def flags_variant(state: GnadenlosState) -> dict[str, str]:
    """The rule set's options of `state`'s flags (the inverse of `set_flags`)."""
    variant = {
        "setup": "advanced" if state.advanced else "standard",
        "gunfight_opt_out": "soft" if state.opt_out_soft else "on" if state.opt_out_variant else "off",
        "auction": "single" if state.single_auction else "standard",
    }
    if state.single_auction:
        variant["auction_order"] = "best" if state.order_best else "first"
        variant["auction_buy_limit"] = "one" if state.buy_limit_one else "many"
    return variant
