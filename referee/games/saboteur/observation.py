"""A seat's information set in Saboteur (S-8), built from scratch.

Nothing is copied from the state and then stripped: each field is chosen for
what the seat may know. A card the seat knows shows as its kind name; a card
it does not know shows only as a count in its zone (a hand, the draw pile,
the face-down discards of a seat, the nugget supply, another seat's nuggets)
or as `None` (a face-down goal it has not looked at, a dwarf card it cannot
see). The public course of the match (whose turn, the maze, who looked at
which goal, earlier rounds' results) is included, so that `determinize`
rebuilds a full state from the observation alone. The seed is never included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from referee.games.base import JSON, Observation, Seat, fields_reduce
from referee.games.saboteur.cards import CARD_KIND, FAMILY, NAME, PATH, VALUE, START

if TYPE_CHECKING:  # the state imports this module
    from referee.games.saboteur.state import SaboteurState


@dataclass(frozen=True, slots=True)
class PlacedCard:
    """A face-up path or start card in the maze (goals are listed apart)."""

    x: int
    y: int
    card: str
    turned: bool

    def __reduce__(self) -> tuple[Any, ...]:
        return fields_reduce(self)


@dataclass(frozen=True, slots=True)
class GoalView:
    """A goal as the seat sees it: `card` is None while it is face down and the
    seat has not looked at it; `seen_by` lists the seats that looked with a map."""

    x: int
    y: int
    card: str | None
    revealed: bool
    turned: bool
    seen_by: tuple[Seat, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        return fields_reduce(self)


@dataclass(frozen=True, slots=True)
class NuggetView:
    """A seat's nugget cards: the values this seat knows, and how many others."""

    known: tuple[int, ...]
    unknown: int

    def __reduce__(self) -> tuple[Any, ...]:
        return fields_reduce(self)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round, public once it ends (S-6.2)."""

    round: int
    winners: str
    reached_by: int
    roles: tuple[str, ...]
    set_aside: str

    def __reduce__(self) -> tuple[Any, ...]:
        return fields_reduce(self)


@mypyc_attr(native_class=False)  # a plain class, as Observation is (base.py)
@dataclass(frozen=True)
class SaboteurObservation(Observation):
    """Everything `seat` may know, and nothing else (S-8)."""

    seat: Seat
    num_seats: int
    sabotaged_diggers_lose_share: bool
    round: int
    rounds: int
    turn: int
    first_player: Seat
    active: Seat
    """The seat to act; -1 when the match is over."""
    over: bool
    end_reason: str
    role: str
    """The seat's own dwarf card this round."""
    roles: tuple[str | None, ...]
    """Each seat's dwarf card if this seat knows it (its own; all after the end)."""
    set_aside: str | None
    maze: tuple[PlacedCard, ...]
    goals: tuple[GoalView, ...]
    hand: tuple[str, ...]
    """The seat's own hand, sorted by card kind."""
    hand_counts: tuple[int, ...]
    draw_pile: int
    discard_public: tuple[str, ...]
    """Face-up discards (played action cards, rockfalled paths, repaired tools), sorted."""
    discard_own: tuple[str, ...]
    """This seat's own face-down discards this round, sorted."""
    discard_face_down: tuple[int, ...]
    """Per seat, how many cards it discarded face down this round."""
    broken: tuple[tuple[str, ...], ...]
    """Per seat, the broken tools in front of it."""
    nuggets: tuple[NuggetView, ...]
    supply: int
    results: tuple[RoundResult, ...]

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "num_seats": self.num_seats,
            "sabotaged_diggers_lose_share": self.sabotaged_diggers_lose_share,
            "round": self.round,
            "rounds": self.rounds,
            "turn": self.turn,
            "first_player": self.first_player,
            "active": self.active,
            "over": self.over,
            "end_reason": self.end_reason,
            "role": self.role,
            "roles": list(self.roles),
            "set_aside": self.set_aside,
            "maze": [[c.x, c.y, c.card, c.turned] for c in self.maze],
            "goals": [
                {"x": g.x, "y": g.y, "card": g.card, "revealed": g.revealed, "turned": g.turned,
                 "seen_by": list(g.seen_by)}
                for g in self.goals
            ],
            "hand": list(self.hand),
            "hand_counts": list(self.hand_counts),
            "draw_pile": self.draw_pile,
            "discard_public": list(self.discard_public),
            "discard_own": list(self.discard_own),
            "discard_face_down": list(self.discard_face_down),
            "broken": [list(b) for b in self.broken],
            "nuggets": [{"known": list(v.known), "unknown": v.unknown} for v in self.nuggets],
            "supply": self.supply,
            "results": [
                {"round": r.round, "winners": r.winners, "reached_by": r.reached_by, "roles": list(r.roles),
                 "set_aside": r.set_aside}
                for r in self.results
            ],
        }

    @classmethod
    def from_json(cls, obj: JSON) -> "SaboteurObservation":
        return cls(
            seat=int(obj["seat"]),
            num_seats=int(obj["num_seats"]),
            sabotaged_diggers_lose_share=bool(obj["sabotaged_diggers_lose_share"]),
            round=int(obj["round"]),
            rounds=int(obj["rounds"]),
            turn=int(obj["turn"]),
            first_player=int(obj["first_player"]),
            active=int(obj["active"]),
            over=bool(obj["over"]),
            end_reason=str(obj["end_reason"]),
            role=str(obj["role"]),
            roles=tuple(obj["roles"]),
            set_aside=obj["set_aside"],
            maze=tuple(PlacedCard(int(x), int(y), str(card), bool(t)) for x, y, card, t in obj["maze"]),
            goals=tuple(
                GoalView(int(g["x"]), int(g["y"]), g["card"], bool(g["revealed"]), bool(g["turned"]),
                         tuple(g["seen_by"]))
                for g in obj["goals"]
            ),
            hand=tuple(obj["hand"]),
            hand_counts=tuple(obj["hand_counts"]),
            draw_pile=int(obj["draw_pile"]),
            discard_public=tuple(obj["discard_public"]),
            discard_own=tuple(obj["discard_own"]),
            discard_face_down=tuple(obj["discard_face_down"]),
            broken=tuple(tuple(b) for b in obj["broken"]),
            nuggets=tuple(NuggetView(tuple(v["known"]), int(v["unknown"])) for v in obj["nuggets"]),
            supply=int(obj["supply"]),
            results=tuple(
                RoundResult(int(r["round"]), r["winners"], int(r["reached_by"]), tuple(r["roles"]), r["set_aside"])
                for r in obj["results"]
            ),
        )


def _by_kind(cards: list[int]) -> tuple[str, ...]:
    return tuple(NAME[c] for c in sorted(cards, key=lambda c: CARD_KIND[c]))


def observe(state: SaboteurState, seat: Seat) -> SaboteurObservation:
    """Project `state` onto what `seat` knows (S-8)."""
    n, known = state.n, state.known
    bit = 1 << seat
    everyone = (1 << n) - 1
    maze: list[PlacedCard] = []
    for (x, y), (card, turn) in sorted(state.cells.items()):
        if FAMILY[card] in (PATH, START):
            maze.append(PlacedCard(x, y, NAME[card], turn))
    goals = []
    for i, cell in enumerate(state.cfg.goal_cells):
        card, turn = state.cells[cell]
        mask = known[card]
        goals.append(
            GoalView(
                cell[0], cell[1], NAME[card] if mask & bit else None, state.goal_up[i], turn,
                () if state.goal_up[i] else tuple(s for s in range(n) if mask >> s & 1),
            )
        )
    face_down = [0] * n
    own: list[int] = []
    public: list[int] = []
    for card in state.discard:
        mask = known[card]
        if mask == everyone:
            public.append(card)
        else:
            owner = mask.bit_length() - 1
            face_down[owner] += 1
            if owner == seat:
                own.append(card)
    nuggets = []
    for pile in state.nuggets:
        values = sorted((VALUE[c] for c in pile if known[c] & bit), reverse=True)
        nuggets.append(NuggetView(tuple(values), len(pile) - len(values)))
    return SaboteurObservation(
        seat=seat,
        num_seats=n,
        sabotaged_diggers_lose_share=state.lose_share,
        round=state.round,
        rounds=state.cfg.rounds,
        turn=state.turn,
        first_player=state.first,
        active=-1 if state.over else state.active,
        over=state.over,
        end_reason=state.end_reason,
        role=NAME[state.roles[seat]],
        roles=tuple(NAME[c] if known[c] & bit else None for c in state.roles),
        set_aside=NAME[state.set_aside] if known[state.set_aside] & bit else None,
        maze=tuple(maze),
        goals=tuple(goals),
        hand=_by_kind(state.hands[seat]),
        hand_counts=tuple(len(h) for h in state.hands),
        draw_pile=len(state.pile),
        discard_public=_by_kind(public),
        discard_own=_by_kind(own),
        discard_face_down=tuple(face_down),
        broken=tuple(tuple(sorted(b)) for b in state.broken),
        nuggets=tuple(nuggets),
        supply=len(state.supply),
        results=tuple(
            RoundResult(r["round"], r["winners"], r["reached_by"], tuple(r["roles"]), r["set_aside"])
            for r in state.results
        ),
    )

