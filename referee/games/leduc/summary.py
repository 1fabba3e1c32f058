"""What a Leduc poker match sums up to: a record footer's public figures
and what `referee simulate` reports beyond the game-neutral ones.

Poker is played for chips, so besides the places (L-5.6) a designer asks how
many chips each seat wins on average (L-5.5: each match's returns sum to 0),
how big the pots grow, how often the betting reaches the public card and
the showdown, and how often a showdown splits the pot (L-5.3). Everything
is read from the final observation, whose betting and result are public (L-6).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.games import Outcome, State
from referee.games.leduc.observation import LeducObservation
from referee.games.leduc.state import FOLDS, SHOWDOWN
from referee.simulation import FactValue, Summariser


def _facts(first: State, last: State, outcome: Outcome) -> dict[str, FactValue]:
    end = last.observe(0)
    assert isinstance(end, LeducObservation)
    bets = [bet for bets in end.history for bet in bets]
    return {
        "returns": end.returns,
        "pot": float(sum(end.contributions)),
        "raises": float(sum(1 for bet in bets if bet.move == "raise")),
        "round_2": 1.0 if end.public_card is not None else 0.0,
        "split_pot": 1.0 if len(end.winners) > 1 else 0.0,
    }


SUMMARISER = Summariser(
    end_reasons=(SHOWDOWN, FOLDS),
    end_labels={SHOWDOWN: "showdown (L-5.2)", FOLDS: "all others folded (L-5.1)"},
    facts=_facts,
    fact_labels={
        "returns": "chips won per seat",
        "pot": "final pot",
        "raises": "raises per match",
        "round_2": "reached round 2",
        "split_pot": "split pots",
    },
    percent_facts=frozenset({"round_2", "split_pot"}),
)


def public_summary(public: Mapping[str, Any]) -> dict[str, Any]:
    """A record footer's `summary`, from the JSON of a final observation:
    each seat's return (L-5.5), the winners and the pot (all public, L-6)."""
    return {"returns": public["returns"], "winners": public["winners"], "pot": sum(public["contributions"])}
