"""Saboteur drawn in the browser viewer (referee.web.drawing): the maze as a
grid of cards with their tunnels (S-1, S-4), the goals face down, looked at
or turned up (S-5.4, S-4.5), each seat's role, hand, broken tools and
nuggets, and the finished rounds with every role (S-6.2).

Drawn from observations only, combined for the viewer as the terminal
renderer combines them (render.py), so nothing shows before its viewer may
know it (S-8): another seat's role only from the round's end, a face-down
goal only to the seats that looked at it, a hand only to its holder. Each
drawn thing carries what it shows in a data attribute (`data-cell` and
`data-card` for a maze card, `data-goal` and `data-goal-card` (the card, or
"unknown") for a goal,
`data-role` for a role), so a view can be checked card by card.

The maze is one SVG: cards are `<use>` of symbols defined once per page (a
tunnel per set of open edges, a dead end per set of stubs), so a step of a
long match costs a few bytes per card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from referee.games.saboteur.cards import E, KIND_INDEX, KINDS, N, S, SABOTEUR, W
from referee.games.saboteur.render import Maze, edges_of
from referee.games.saboteur.state import GOLD_DIGGERS_WIN
from referee.render.common import Json, combine_counts, combine_value
from referee.web.drawing import GameDrawing, esc

CELL_W, CELL_H = 40, 56
"""A card's size in the maze (portrait, as the cards are)."""
MARGIN = 18
"""Room for the coordinates along the top and the left."""
ARMS = {N: (20, 0), E: (40, 28), S: (20, 56), W: (0, 28)}
"""Where a tunnel leaves the card through each edge (centre at 20, 28)."""
ROLE_NAMES = {"gold_digger": "gold-digger", "saboteur": "saboteur"}


def _stub(edge: int) -> str:
    x, y = ARMS[edge]
    return f"M{x} {y}L{(x + 20) / 2 if edge in (E, W) else x} {(y + 28) / 2 if edge in (N, S) else y}"


def symbols() -> str:
    """Every card face the maze uses, once: sb-t<edges> a through card (its
    tunnels meet in the centre), sb-d<edges> a dead end (stubs and a red ×)."""
    parts = ['<svg class="sb-defs" width="0" height="0" aria-hidden="true"><defs>']
    for edges in range(1, 16):
        arms = "".join(f"M20 28L{ARMS[e][0]} {ARMS[e][1]}" for e in (N, E, S, W) if edges & e)
        stubs = "".join(_stub(e) for e in (N, E, S, W) if edges & e)
        parts.append(f'<symbol id="sb-t{edges}" viewBox="0 0 40 56"><rect class="earth" x="1" y="1" width="38" '
                     f'height="54" rx="3"/><path class="tunnel" d="{arms}"/></symbol>')
        parts.append(f'<symbol id="sb-d{edges}" viewBox="0 0 40 56"><rect class="earth" x="1" y="1" width="38" '
                     f'height="54" rx="3"/><path class="tunnel" d="{stubs}"/>'
                     f'<path class="blocked" d="M14 22L26 34M26 22L14 34"/></symbol>')
    parts.append("</defs></svg>")
    return "".join(parts)


class SaboteurDrawing(GameDrawing):
    stylesheet = "viewer.css"

    def table(self, observations: Sequence[Json], events: Sequence[Json]) -> list[str]:
        if not observations:
            return []
        first = observations[0]
        maze = Maze.from_observations(observations, self.combine)
        return [symbols(), self._status(first), *self._maze(maze), *self._seats(observations),
                *(self._result(result) for result in first["results"])]

    def interlude(self, before: Sequence[Json], events: Sequence[Json]) -> list[str]:
        """The maze as the round ended: the same step deals the next round,
        so its observations already show a new maze (S-7.1)."""
        ended = next((i for i, e in enumerate(events) if e["kind"] == "round_ended"), None)
        if ended is None:
            return []
        maze = Maze.from_observations(before, self.combine)
        for event in events[:ended]:
            maze.follow(event)
        data = events[ended]["data"]
        roles = ", ".join(f'{self.label(s)} {self._role(r)}' for s, r in enumerate(data["roles"]))
        return [f'<h3 class="sb-interlude">the maze at the end of round {data["round"]}</h3>', *self._maze(maze),
                f'<div class="sb-roles">roles: {roles}</div>']

    # ------------------------------------------------------------- status

    def _status(self, first: Json) -> str:
        facts = [f"round <b>{first['round']}</b> of {first['rounds']}", f"turn {first['turn'] + 1}"]
        if first["active"] >= 0:
            facts.append(f"to play {self.label(first['active'])}")
        facts += [f"started by {self.label(first['first_player'])}", f"draw pile {first['draw_pile']}",
                  f"discards face up {len(first['discard_public'])}", f"nugget supply {first['supply']}"]
        return '<div class="sb-status">' + " · ".join(facts) + "</div>"

    # --------------------------------------------------------------- maze

    def _maze(self, maze: Maze) -> list[str]:
        """The maze over its bounding box, north at the top, as fragments:
        the frame (changes with the bounds), the cards (shared by every
        view), the goals (what this view knows of them), the end."""
        x0, x1, y0, y1 = maze.bounds()
        width, height = (x1 - x0 + 1) * CELL_W + MARGIN, (y1 - y0 + 1) * CELL_H + MARGIN

        def at(x: int, y: int) -> tuple[int, int]:
            return MARGIN + (x - x0) * CELL_W, MARGIN + (y1 - y) * CELL_H

        frame = [f'<svg class="sb-maze" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
                 f'role="img" aria-label="the maze"><rect class="ground" x="{MARGIN}" y="{MARGIN}" '
                 f'width="{width - MARGIN}" height="{height - MARGIN}"/>']
        for x in range(x0, x1 + 1):
            frame.append(f'<text class="coord" x="{at(x, y1)[0] + CELL_W / 2}" y="12">{x}</text>')
        for y in range(y0, y1 + 1):
            frame.append(f'<text class="coord" x="{MARGIN - 4}" y="{at(x0, y)[1] + CELL_H / 2 + 4}" '
                         f'text-anchor="end">{y}</text>')
        cards = []
        for (x, y), (card, is_turned) in sorted(maze.cards.items()):
            left, top = at(x, y)
            edges = edges_of(card, is_turned)
            face = f"t{edges}" if card == "start" or KINDS[KIND_INDEX[card]].through else f"d{edges}"
            start = (f'<circle class="start" cx="{left + 20}" cy="{top + 28}" r="9"/><text class="start" '
                     f'x="{left + 20}" y="{top + 32}">S</text>') if card == "start" else ""
            cards.append(f'<g data-cell="{x},{y}" data-card="{esc(card)}"{" data-turned" if is_turned else ""}>'
                         f'<use href="#sb-{face}" x="{left}" y="{top}" width="{CELL_W}" height="{CELL_H}"/>'
                         f"{start}</g>")
        goals = [self._goal(maze, cell, *at(*cell)) for cell in sorted(maze.goals)]
        return ["".join(frame), "".join(cards), "".join(goals), "</svg>"]

    def _goal(self, maze: Maze, cell: tuple[int, int], left: int, top: int) -> str:
        goal = maze.goals[cell]
        where = f'data-goal="{cell[0]},{cell[1]}"'
        if goal.revealed and goal.card is not None:
            edges = edges_of(goal.card, goal.turned)
            kind = "gold" if goal.card == "gold" else "stone"
            return (f'<g {where} data-goal-card="{esc(goal.card)}" class="goal up {kind}"><use href="#sb-t{edges}" x="{left}" '
                    f'y="{top}" width="{CELL_W}" height="{CELL_H}"/><circle cx="{left + 20}" cy="{top + 28}" '
                    f'r="11"/><text x="{left + 20}" y="{top + 32}">{"G" if kind == "gold" else "o"}</text></g>')
        known = "unknown" if goal.card is None else ("gold" if goal.card == "gold" else "stone")
        sign = {"unknown": "?", "gold": "G", "stone": "o"}[known]
        card = "unknown" if goal.card is None else esc(goal.card)
        looked = ", ".join(f"{self.names[s]}[{s}]" for s in goal.seen_by)
        title = f"goal ({cell[0]}, {cell[1]}), face down" + (f"; looked at by {looked}" if looked else "")
        return (f'<g {where} data-goal-card="{card}" class="goal down {known}"><title>{esc(title)}</title>'
                f'<rect x="{left + 1}" y="{top + 1}" width="38" height="54" rx="3"/>'
                f'<text x="{left + 20}" y="{top + 34}">{sign}</text></g>')

    # -------------------------------------------------------------- seats

    def _role(self, role: str | None) -> str:
        if role is None:
            return '<span class="role" data-role="unknown">?</span>'
        return f'<span class="role {role}" data-role="{role}">{ROLE_NAMES[role]}</span>'

    def _seats(self, observations: Sequence[Json]) -> list[str]:
        first = observations[0]
        head = "".join(f"<th>{h}</th>" for h in ("seat", "role", "hand", "broken tools", "discarded", "nuggets"))
        rows = []
        for seat in range(first["num_seats"]):
            role = combine_value([o["roles"][seat] for o in observations], self.combine)
            broken = "".join(f'<span class="tool" data-tool="{esc(t)}">{esc(t)}</span>'
                             for t in first["broken"][seat]) or "—"
            active = " active" if seat == first["active"] else ""
            rows.append(f'<tr class="sb-seat{active}" data-seat="{seat}"><td>{self.label(seat)}</td>'
                        f"<td>{self._role(role)}</td><td>{self._hand(observations, seat)}</td>"
                        f'<td class="tools">{broken}</td><td>{self._face_down(observations, seat)}</td>'
                        f"<td>{self._nuggets(observations, seat)}</td></tr>")
        return [f'<table class="sb-seats"><tr>{head}</tr>', *rows, "</table>"]

    def _own(self, observations: Sequence[Json], seat: int, key: str) -> list[str] | None:
        """A seat's own private list: only its own observation holds it."""
        return combine_value([o[key] if o["seat"] == seat else None for o in observations], self.combine)

    def _hand(self, observations: Sequence[Json], seat: int) -> str:
        count = observations[0]["hand_counts"][seat]
        cards = self._own(observations, seat, "hand")
        shown = "".join(f'<span class="card" data-hand-card="{esc(c)}">{esc(c)}</span>' for c in cards or [])
        return f"<b>{count}</b> {shown}"

    def _face_down(self, observations: Sequence[Json], seat: int) -> str:
        count = observations[0]["discard_face_down"][seat]
        if not count:
            return "—"
        cards = self._own(observations, seat, "discard_own")
        return f"{count} face down" + (": " + ", ".join(esc(c) for c in cards) if cards else "")

    def _nuggets(self, observations: Sequence[Json], seat: int) -> str:
        views = [o["nuggets"][seat] for o in observations]
        total = len(views[0]["known"]) + views[0]["unknown"]
        if not total:
            return "—"
        known = sorted(combine_counts([Counter(v["known"]) for v in views], self.combine).elements(), reverse=True)
        text = "".join(f'<span class="nugget">{value}</span>' for value in known)
        if known:
            text += f" = {sum(known)}"
        if total > len(known):
            text += f' <span class="hidden-count">+{total - len(known)} hidden</span>'
        return text

    # ------------------------------------------------------------- rounds

    def _result(self, result: Json) -> str:
        """A finished round, all public from its end (S-6.2)."""
        if result["winners"] == GOLD_DIGGERS_WIN:
            outcome = f'the gold-diggers win: {self.label(result["reached_by"])} reached the gold'
        elif SABOTEUR not in result["roles"]:
            outcome = "nobody wins: the cards ran out, and no saboteur was in play"
        else:
            outcome = "the saboteurs win: the cards ran out"
        roles = ", ".join(f"{self.label(s)} {self._role(r)}" for s, r in enumerate(result["roles"]))
        return (f'<div class="sb-round" data-round="{result["round"]}"><b>round {result["round"]}</b>: '
                f"{outcome}<br><small>roles: {roles}; set aside: {self._role(result['set_aside'])}</small></div>")


Drawing = SaboteurDrawing
"""The drawing this package declares (`GamePlugin.viewer`)."""
