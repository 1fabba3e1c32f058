"""What `referee simulate` reports about Saboteur matches beyond the game-neutral figures.

A match always ends after its three rounds (S-7.1), so the match's end reason
says nothing; what a designer asks is how each *round* ends and who wins it:

- per round, the share ending with the gold reached (S-4.5) or with the cards
  exhausted (S-6.1: draw pile and every hand empty);
- the share of rounds won by each role's team (S-6.3, S-6.4), with the rounds
  that end with the cards exhausted and no saboteur in play apart: the engine
  calls those a saboteurs' win, but nobody is paid (possible with 3 or 4
  players, S-2.1);
- the nuggets per seat at the end (S-7.2) and in all (at most the 44 of the
  supply).

Everything is read from the public record of finished rounds and the final
observation, where all nugget cards and roles are shown (S-6.2, S-6.5).
"""

from __future__ import annotations

import statistics
from typing import Any

from collections.abc import Mapping

from referee.games import Outcome, State
from referee.games.saboteur.cards import SABOTEUR
from referee.games.saboteur.observation import RoundResult
from referee.games.saboteur.state import GOLD_DIGGERS_WIN, SaboteurState
from referee.simulation import FactValue, Summariser

ROUND_WINNERS = ("gold_diggers", "saboteurs", "nobody")
"""The teams a round's win is counted for; they share each round between them."""


def round_winner(result: RoundResult) -> str:
    """Who won a finished round (a `RoundResult`): the gold-diggers if the gold
    was reached, else the saboteurs, or nobody if no saboteur was in play."""
    if result.winners == GOLD_DIGGERS_WIN:
        return "gold_diggers"
    return "saboteurs" if SABOTEUR in result.roles else "nobody"


def _turns(state: State) -> int:
    """Turns played (S-3), forced ones included: the engine plays a turn with a
    single legal action itself (an empty hand's pass), so decisions can be fewer.
    (The state's public count, without building an observation.)"""
    assert isinstance(state, SaboteurState)
    return state.turn


def _facts(first: State, last: State, outcome: Outcome) -> dict[str, FactValue]:
    assert isinstance(last, SaboteurState)
    # round results and, at the end, every nugget are public (S-6.2, S-6.5)
    results = [RoundResult(r["round"], r["winners"], r["reached_by"], tuple(r["roles"]), r["set_aside"])
               for r in last.results]
    winners = [round_winner(r) for r in results]
    gold = tuple(1.0 if r.winners == GOLD_DIGGERS_WIN else 0.0 for r in results)
    nuggets = tuple(float(total) for total in last.totals())
    facts: dict[str, FactValue] = {
        "gold_reached": gold,
        "cards_exhausted": tuple(1.0 - reached for reached in gold),
    }
    for team in ROUND_WINNERS:
        facts[f"round_win_{team}"] = winners.count(team) / len(results)
    facts["nuggets"] = nuggets
    facts["nuggets_total"] = sum(nuggets)
    facts["winner_nuggets"] = statistics.fmean(nuggets[s] for s in outcome.winners())
    return facts


SUMMARISER = Summariser(
    end_reasons=("rounds_played",),
    end_labels={"rounds_played": "all rounds played (S-7.1)"},
    turns=_turns,
    facts=_facts,
    fact_labels={
        "gold_reached": "gold reached, by round",
        "cards_exhausted": "cards exhausted, by round",
        "round_win_gold_diggers": "rounds won by the gold-diggers",
        "round_win_saboteurs": "rounds won by the saboteurs",
        "round_win_nobody": "rounds won by nobody (no saboteur)",
        "nuggets": "nuggets per seat",
        "nuggets_total": "nuggets per match (of 44)",
        "winner_nuggets": "winner's nuggets",
    },
    percent_facts=frozenset({
        "gold_reached", "cards_exhausted", "round_win_gold_diggers", "round_win_saboteurs", "round_win_nobody",
    }),
)


def public_summary(public: Mapping[str, Any]) -> dict[str, Any]:
    """A record footer's `summary`, from the JSON of a final observation:
    each seat's nugget total (every nugget card is shown at the end: S-6.5)
    and the finished rounds with their winners and roles (public: S-6.2)."""
    return {"nuggets": [sum(view["known"]) for view in public["nuggets"]], "rounds": public["results"]}
