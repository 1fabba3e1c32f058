"""A seat's information set in Leduc poker (L-6), built from scratch.

A seat knows its own private card, the public card once it is dealt, and
every bet of every seat (who folded, called or raised, in order), so the
stakes, the pot and what each seat has put in; at the end, the result
(who won the pot, and each seat's return). It never knows another seat's
private card, not even after a showdown: as in OpenSpiel, cards are not
shown (L-5.4). Nothing else is in the observation: no seed, no deck.

It holds the same information as OpenSpiel's information state string of
the seat (the cross-check maps one onto the other at every step), and
everything `determinize` needs: the betting history replays the match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from referee.games.base import JSON, Observation, Seat, fields_reduce


@dataclass(frozen=True, slots=True)
class Bet:
    """One decision of the betting history: who, and which move (fold, call, raise)."""

    seat: Seat
    move: str

    def __reduce__(self) -> tuple[Any, ...]:
        return fields_reduce(self)


@mypyc_attr(native_class=False)  # a plain class, as Observation is (base.py)
@dataclass(frozen=True)
class LeducObservation(Observation):
    """Everything `seat` may know, and nothing else (L-6)."""

    seat: Seat
    num_seats: int
    card: int
    """The seat's own private card (L-2.2)."""
    public_card: int | None
    """The public card once dealt (L-4.1), else None."""
    round: int
    """The betting round, 1 or 2; at the end, the round the match ended in."""
    to_act: Seat
    """The seat to decide; -1 when the match is over."""
    stakes: int
    """What each seat must have put in to stay in (L-3.3)."""
    raises: int
    """Raises made in this round, by all seats together (at most 2, L-3.5)."""
    pot: int
    """The chips in the pot; 0 once it is won (L-5.1, L-5.3)."""
    contributions: tuple[int, ...]
    """What each seat has put in the pot, ante included."""
    folded: tuple[bool, ...]
    history: tuple[tuple[Bet, ...], tuple[Bet, ...]]
    """The bets of round 1 and of round 2, in order."""
    over: bool
    end_reason: str
    """"" while running; then "folds" (one seat left, L-5.1) or "showdown" (L-5.2)."""
    winners: tuple[Seat, ...]
    """The seats that won the pot (several split it, L-5.3); empty until the end."""
    returns: tuple[float, ...]
    """Each seat's chips at the end minus its chips at the start (L-5.5); empty until the end."""

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "num_seats": self.num_seats,
            "card": self.card,
            "public_card": self.public_card,
            "round": self.round,
            "to_act": self.to_act,
            "stakes": self.stakes,
            "raises": self.raises,
            "pot": self.pot,
            "contributions": list(self.contributions),
            "folded": list(self.folded),
            "history": [[[bet.seat, bet.move] for bet in bets] for bets in self.history],
            "over": self.over,
            "end_reason": self.end_reason,
            "winners": list(self.winners),
            "returns": list(self.returns),
        }

    @classmethod
    def from_json(cls, obj: JSON) -> "LeducObservation":
        """Raises KeyError, TypeError or ValueError for malformed JSON."""
        first, second = obj["history"]
        public = obj["public_card"]
        return cls(
            seat=int(obj["seat"]),
            num_seats=int(obj["num_seats"]),
            card=int(obj["card"]),
            public_card=None if public is None else int(public),
            round=int(obj["round"]),
            to_act=int(obj["to_act"]),
            stakes=int(obj["stakes"]),
            raises=int(obj["raises"]),
            pot=int(obj["pot"]),
            contributions=tuple(int(c) for c in obj["contributions"]),
            folded=tuple(bool(f) for f in obj["folded"]),
            history=(_bets(first), _bets(second)),
            over=bool(obj["over"]),
            end_reason=str(obj["end_reason"]),
            winners=tuple(int(s) for s in obj["winners"]),
            returns=tuple(float(r) for r in obj["returns"]),
        )


def _bets(obj: Any) -> tuple[Bet, ...]:
    return tuple(Bet(int(seat), str(move)) for seat, move in obj)
