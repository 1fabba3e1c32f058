"""Gnadenlos!'s summaries: the public figures of a finished match for its
record's footer (`public_summary`: fields, nuggets, vultures and the
undertaker, all public, G-10), and what `referee simulate` reports beyond
the game-neutral figures (`SUMMARISER`).

End reasons A, B, C (G-9.1) and the safety valve (G-9.5); turns begun; the
winners' final field and nuggets (G-9.4); the win share by turn order from the
start player (G-2.5). Everything is read from public observations (G-10).
"""

from __future__ import annotations

import statistics
from typing import Any

from collections.abc import Mapping

from referee.games import Outcome, State
from referee.simulation import FactValue, Summariser, win_shares


def _turns(state: State) -> int:
    """Turns begun, the last one counted even when the match ended in it.

    The state counts completed turns; ends A, B and C (G-9.1) stop a turn
    midway, while the safety valve (G-9.5) ends the match after a turn completed.
    """
    view: Any = state.observe(0)
    return int(view.turn) + (0 if view.end_reason == "safety_valve" else 1)


def _facts(first: State, last: State, outcome: Outcome) -> dict[str, FactValue]:
    """G-9.4: the winners' final field and nuggets (averaged over a shared win),
    and the win share by turn order from the start player.

    The start player is drawn at random (G-2.5), so seat numbers alone hide any
    advantage of playing first; turn order shows it. At a decision within turn
    t the active seat is the start player's t-th successor.
    """
    start: Any = first.observe(0)  # turn, active, fields and nuggets are public (G-10)
    end: Any = last.observe(0)
    winners = sorted(outcome.winners())
    start_player = (start.active - start.turn) % start.num_seats
    shares = win_shares(outcome.ranks)
    return {
        "winner_field": statistics.fmean(end.fields[s] for s in winners),
        "winner_nuggets": statistics.fmean(end.nuggets[s] for s in winners),
        "turn_order_win_share": tuple(
            shares[(start_player + k) % start.num_seats] for k in range(start.num_seats)
        ),
    }


SUMMARISER = Summariser(
    end_reasons=("vultures", "undertaker", "goal", "safety_valve"),
    end_labels={
        "vultures": "A: a third vulture",
        "undertaker": "B: the undertaker reached the end",
        "goal": "C: a hat reached the goal",
        "safety_valve": "safety valve (stalled or turn limit)",
    },
    turns=_turns,
    facts=_facts,
    fact_labels={
        "winner_field": "winner's final field",
        "winner_nuggets": "winner's nuggets",
        "turn_order_win_share": "win share by turn order (start player first)",
    },
    percent_facts=frozenset({"turn_order_win_share"}),
)


PUBLIC_KEYS = ("fields", "nuggets", "vultures", "undertaker")


def public_summary(public: Mapping[str, Any]) -> dict[str, Any]:
    """A record footer's `summary`, from the JSON of a final observation:
    its public keys as they are (G-10)."""
    return {key: public[key] for key in PUBLIC_KEYS if key in public}
