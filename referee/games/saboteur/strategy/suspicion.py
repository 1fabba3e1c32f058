"""Who is likely a saboteur, from what each seat did this round (S-8: all public).

The observation shows the maze and the broken tools, but not who laid which
card or broke whose tool; the events a seat is told do (`Bot.on_events`). The
tracker replays them on its own copy of the maze and keeps, per seat, a
score in log-odds: positive leans saboteur, negative gold-digger.

- A path card that brings the tunnel nearer the gold (as this seat believes
  it lies) is a gold-digger's move; one that closes or turns the tunnel away
  is a saboteur's. A dead end with no effect still leans saboteur: only
  saboteurs want them.
- Breaking a tool (S-5.1) is hostile to the target: breaking a likely
  gold-digger leans saboteur, breaking a likely saboteur leans gold-digger;
  the bot knows its own role exactly, so an attack on it is the clearest sign.
- Repairing another seat (S-5.2) is friendly: the repairer leans to the
  target's side.
- A rockfall (S-5.3) is judged like a path card, by the distance it adds or
  removes.

Scores start at zero each round (S-2.1: the roles are dealt anew). The
tracker uses nothing but its seat's observations and events, so the same
bot sees the same thing over the protocol and in the arena.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.base import Event
from referee.games.saboteur.cards import SABOTEUR
from referee.games.saboteur.config import Cell
from referee.games.saboteur.observation import SaboteurObservation

from referee.games.saboteur.strategy.view import gold_weights, tunnel_from_observation
from referee.games.saboteur.strategy.tunnel import GOAL_CELLS, START, Outlook, Tunnel, card

PLACE_TRUST = 0.5
"""Log-odds towards gold-digger per card of progress (at most two counted)."""
PLACE_DOUBT = 0.8
"""Log-odds towards saboteur per card of setback (at most three counted):
a setback is rarer from a gold-digger than progress is from a saboteur."""
DEAD_END_DOUBT = 0.3
BREAK_BASE = 0.3
"""A broken tool on a seat of unknown side leans saboteur: early breaks are
mostly theirs."""
BREAK_SIDE = 1.5
REPAIR_SIDE = 0.8
LIMIT = 4.0


class Suspicion:
    """Per-seat saboteur scores for the current round of one match."""

    def __init__(self) -> None:
        self.seat = -1
        self.round = 0
        self.saboteur = False
        self.scores: list[float] = []
        self.tunnel = Tunnel({START: card("start", False)}, GOAL_CELLS)
        self.goals: dict[Cell, str | None] = {}
        self.revealed: set[Cell] = set()

    def sync(self, obs: SaboteurObservation) -> None:
        """Take the maze, role and goal knowledge from an observation (they
        are authoritative); a new seat or round starts the scores afresh."""
        if obs.seat != self.seat or obs.round != self.round or len(self.scores) != obs.num_seats:
            self.scores = [0.0] * obs.num_seats
            self.seat, self.round = obs.seat, obs.round
        self.saboteur = obs.role == SABOTEUR
        self.tunnel = tunnel_from_observation(obs)
        self.goals = {(g.x, g.y): g.card for g in obs.goals}
        self.revealed = {(g.x, g.y) for g in obs.goals if g.revealed}

    def lean(self, seat: int) -> float:
        """-1..1: how much `seat` leans saboteur (+1) or gold-digger (-1);
        exact for this tracker's own seat."""
        if seat == self.seat:
            return 1.0 if self.saboteur else -1.0
        score = self.scores[seat]
        return score / (abs(score) + 1.0)

    def on_events(self, events: Sequence[Event]) -> None:
        """Replay the events on the tracker's maze (ignored before the first
        observation, which says whose they are)."""
        if not self.scores:
            return
        for event in events:
            self._event(event)

    def _event(self, event: Event) -> None:
        data = event.data
        kind = event.kind
        if kind == "round_started":
            self.round = data["round"]
            self.scores = [0.0] * len(self.scores)
            self.tunnel = Tunnel({START: card("start", False)}, GOAL_CELLS)
            self.goals = {cell: None for cell in GOAL_CELLS}
            self.revealed = set()
        elif kind == "role_dealt" and data["seat"] == self.seat:
            self.saboteur = data["role"] == SABOTEUR
        elif kind == "map_used" and "goal" in data:
            self.goals[(data["x"], data["y"])] = data["goal"]
        elif kind == "goal_revealed":
            cell = (data["x"], data["y"])
            self.goals[cell] = data["card"]
            self.revealed.add(cell)
            self.tunnel.reveal(cell, card(data["card"], data["turned"]))
        elif kind == "path_placed":
            cell = (data["x"], data["y"])
            laid = card(data["card"], data["turned"])
            progress, reach = self._outlook().place(cell, laid)
            if data["card"].startswith("dead_") and progress >= 0:
                self._add(data["seat"], DEAD_END_DOUBT)
            self._judge(data["seat"], progress + reach)
            self.tunnel.place(cell, laid)
        elif kind == "rockfall":
            cell = (data["x"], data["y"])
            self._judge(data["seat"], self._outlook().remove(cell))
            self.tunnel.remove(cell)
        elif kind == "tool_broken" and data["seat"] != data["target"]:
            self._add(data["seat"], BREAK_BASE - BREAK_SIDE * self.lean(data["target"]))
        elif kind == "tool_repaired" and data["seat"] != data["target"]:
            self._add(data["seat"], REPAIR_SIDE * self.lean(data["target"]))

    def _outlook(self) -> Outlook:
        goals = [(cell, name, cell in self.revealed) for cell, name in self.goals.items()]
        return Outlook(self.tunnel, gold_weights(goals)[0])

    def _judge(self, seat: int, progress: float) -> None:
        if progress > 0:
            self._add(seat, -PLACE_TRUST * min(progress, 2.0))
        elif progress < 0:
            self._add(seat, PLACE_DOUBT * min(-progress, 3.0))

    def _add(self, seat: int, amount: float) -> None:
        if seat == self.seat or not 0 <= seat < len(self.scores):
            return
        self.scores[seat] = max(-LIMIT, min(LIMIT, self.scores[seat] + amount))
