"""The ladder's rule sets: which ratings a match counts for, which bots it may seat.

A rule set is named by its text form, its non-default variant options
(`str(RuleSet)`, referee.games.rule_sets; '' for the base rules): every
rated match, planned match and rating carries that name, so a bot's rating under
`auction=single` never mixes with its rating under the base rules. A bot
is entered in a rule set's ladder only if it declared every option of it
(`plays`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from referee.games import load_game
from referee.games.rule_sets import describe


def rule_set_of(game: str, variant: Mapping[str, str]) -> str:
    """The rule set of a stored match's variant. A variant the game no
    longer has (an option since removed) is named by its options as stored,
    so its results still never mix with another rule set's."""
    try:
        return str(load_game(game).make_rule_set(variant))
    except ValueError:
        return ",".join(f"{key}={variant[key]}" for key in sorted(variant))


def plays(game: str, variant: Mapping[str, str], declared: Iterable[str]) -> bool:
    """Whether a bot that declared the variant tags `declared` may be seated
    in `game` under `variant`."""
    return not load_game(game).make_rule_set(variant).undeclared(declared)


def heading(game: str, name: str, kind: str = "ladder") -> str:
    """"Gnadenlos! ladder (base rules)", "Gnadenlos! ladder (auction=single)",
    "Leduc poker round-robin tournament (base rules)": the game's title, as
    people write it, not its id."""
    return f"{load_game(game).title} {kind} ({describe(name)})"
