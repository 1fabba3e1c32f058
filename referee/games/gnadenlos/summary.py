"""Gnadenlos!'s summaries: the public figures of a finished match for its
record's footer (`public_summary`: fields, nuggets, vultures and the
undertaker, all public, G-10), and what `referee simulate` reports beyond
the game-neutral figures (`SUMMARISER`).

End reasons A, B, C (G-9.1) and the safety valve (G-9.5); turns begun; the
winners' final field and nuggets (G-9.4); the win share by turn order from the
start player (G-2.5); and whether a player in a hole stays there
(`FirstPaydayWatch`: the standings after the first payday, G-8, against the
final ranking). Everything is public (G-10).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from referee.games import Event, Outcome, State
from referee.games.base import ranks_from_keys
from referee.games.gnadenlos.state import GnadenlosState
from referee.simulation import FactValue, Summariser, win_shares


def _turns(state: State) -> int:
    """Turns begun, the last one counted even when the match ended in it.

    The state counts completed turns; ends A, B and C (G-9.1) stop a turn
    midway, while the safety valve (G-9.5) ends the match after a turn completed.
    (Read from the state's public fields, G-10: what any seat's observation
    shows, without building one.)
    """
    assert isinstance(state, GnadenlosState)
    return state.turn + (0 if state.end_reason == "safety_valve" else 1)


def _facts(first: State, last: State, outcome: Outcome) -> dict[str, FactValue]:
    """G-9.4: the winners' final field and nuggets (averaged over a shared win),
    and the win share by turn order from the start player.

    The start player is drawn at random (G-2.5), so seat numbers alone hide any
    advantage of playing first; turn order shows it. At a decision within turn
    t the active seat is the start player's t-th successor.
    """
    assert isinstance(first, GnadenlosState) and isinstance(last, GnadenlosState)
    # turn, active, fields and nuggets are public (G-10): any seat's observation shows them
    winners = sorted(outcome.winners())
    start_player = (first.active - first.turn) % first.n
    shares = win_shares(outcome.ranks)
    return {
        "winner_field": statistics.fmean(last.fields[s] for s in winners),
        "winner_nuggets": statistics.fmean(last.nuggets[s] for s in winners),
        "turn_order_win_share": tuple(shares[(start_player + k) % first.n] for k in range(first.n)),
    }


_PAYDAY_KINDS = frozenset({"die_rolled", "iou_turned_up", "nuggets_paid", "vulture_taken", "hat_moved"})
"""The events of a payday after its "payday" event (G-8.2 to G-8.4): the
first event of another kind is past its end."""


class FirstPaydayWatch:
    """The standings and adventurer counts right after a match's first
    payday (G-8), for the reviewer's question: does a player in a hole stay
    there? Its facts: `first_payday` (1 if the match had a payday),
    `hole_finishes_last` (the share of the players holding the fewest
    adventurers then who finish last, G-9.4) and `payday_tau` (Kendall's
    tau-b between the standings then and the final ranking). The last two
    are NaN in a match without a payday: not measured, left out of means.

    A step runs from one decision to the next, so the payday's step may go
    on past it (a refill, the next turn's forced moves): the figures are
    those at the step's start plus the step's events up to the payday's
    end, never the state after the step. The public events suffice (G-10).
    """

    def __init__(self) -> None:
        self.fields: list[int] = []
        self.nuggets: list[int] = []
        self.vultures: list[int] = []
        self.hands: list[int] = []
        self.standings: tuple[int, ...] | None = None
        self.counts: tuple[int, ...] = ()

    def step(self, state: State, events: Sequence[Event]) -> None:
        if self.standings is not None:
            return
        if self.fields and any(event.kind == "payday" for event in events):
            self._through_payday(events)
            return
        assert isinstance(state, GnadenlosState)
        self.fields, self.nuggets, self.vultures = list(state.fields), list(state.nuggets), list(state.vultures)
        self.hands = [len(hand) for hand in state.adv_hands]

    def _through_payday(self, events: Sequence[Event]) -> None:
        """Replay the step's standings and hands up to the payday's end."""
        paying = False
        for event in events:
            if event.kind == "payday":
                paying = True
            elif paying and event.kind not in _PAYDAY_KINDS:
                break
            data: Any = event.data
            if event.kind == "hat_moved":
                self.fields[data["seat"]] = data["field"]
            elif event.kind == "nuggets_paid":
                self.nuggets[data["seat"]] -= data["amount"]
            elif event.kind == "nuggets_gained":
                self.nuggets[data["seat"]] += data["amount"]
            elif event.kind == "prestige_bought":
                self.nuggets[data["seat"]] -= data["steps"]  # G-7.1: a nugget a field
            elif event.kind == "vulture_taken":
                self.vultures[data["seat"]] = data["vultures"]
            elif event.kind == "picked":
                self.hands[data["seat"]] += len(data["cards"])
        self.standings = standings(self.fields, self.nuggets, self.vultures)
        self.counts = tuple(self.hands)

    def facts(self, outcome: Outcome) -> dict[str, FactValue]:
        if self.standings is None:
            return {"first_payday": 0.0, "hole_finishes_last": math.nan, "payday_tau": math.nan}
        return {
            "first_payday": 1.0,
            "hole_finishes_last": hole_finishes_last(self.counts, outcome.ranks),
            "payday_tau": kendall_tau_b(self.standings, outcome.ranks),
        }


def standings(fields: Sequence[int], nuggets: Sequence[int], vultures: Sequence[int],
              vultures_to_lose: int = 3) -> tuple[int, ...]:
    """G-9.4's ranking applied now: three vultures last, then by field, then
    by nuggets; equal players share a place (0 first)."""
    return ranks_from_keys([(v < vultures_to_lose, f, n) for f, n, v in zip(fields, nuggets, vultures)])


def hole_finishes_last(adventurers: Sequence[int], ranks: Sequence[int]) -> float:
    """The share of the players holding the fewest adventurers who finish
    last (a shared last place counts as last): 1/n for each of n players
    tied on the fewest, so a match weighs one whatever its ties."""
    fewest = min(adventurers)
    holes = [seat for seat, count in enumerate(adventurers) if count == fewest]
    last = max(ranks)
    return sum(1 for seat in holes if ranks[seat] == last) / len(holes)


def kendall_tau_b(first: Sequence[int], second: Sequence[int]) -> float:
    """Kendall's tau-b of two rankings (places, 0 first; ties allowed): +1
    the same order, -1 reversed, 0 unrelated. 0 when either ranking ties
    everyone (no order to compare)."""
    concordant = discordant = tied_first = tied_second = 0
    n = len(first)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = first[i] - first[j], second[i] - second[j]
            if a == 0 and b == 0:
                continue
            if a == 0:
                tied_first += 1
            elif b == 0:
                tied_second += 1
            elif (a > 0) == (b > 0):
                concordant += 1
            else:
                discordant += 1
    pairs = concordant + discordant
    denominator = math.sqrt((pairs + tied_first) * (pairs + tied_second))
    return (concordant - discordant) / denominator if denominator else 0.0


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
        "first_payday": "matches with a payday",
        "hole_finishes_last": "fewest adventurers after the first payday: finishes last",
        "payday_tau": "Kendall's tau: standings after the first payday vs final",
    },
    percent_facts=frozenset({"turn_order_win_share", "first_payday", "hole_finishes_last"}),
    watch=FirstPaydayWatch,
)


PUBLIC_KEYS = ("fields", "nuggets", "vultures", "undertaker")


def public_summary(public: Mapping[str, Any]) -> dict[str, Any]:
    """A record footer's `summary`, from the JSON of a final observation:
    its public keys as they are (G-10)."""
    return {key: public[key] for key in PUBLIC_KEYS if key in public}
