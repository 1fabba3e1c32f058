"""Leduc poker drawn in the browser viewer (referee.web.drawing): the pot,
the stakes and raises of the round, the public card, and per seat its
private card where the viewer knows it, what it has put in and whether it
folded or won (L-6: a private card shows only in its own seat's view, or in
the whole record's; never to the public or another seat).

Every card carries its identity in `data-card` (a face-down one none), so a
view can be checked card by card.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.leduc.cards import card_name
from referee.render.common import Json, combine_value
from referee.web.drawing import GameDrawing, esc


class LeducDrawing(GameDrawing):
    stylesheet = "viewer.css"

    def card(self, card: int | None) -> str:
        if card is None:
            return '<span class="lp-card down" title="face down"></span>'
        name = card_name(card, len(self.names))
        red = " red" if name[-1] in "♥♦" else ""
        return f'<span class="lp-card{red}" data-card="{card}">{esc(name)}</span>'

    def table(self, observations: Sequence[Json], events: Sequence[Json]) -> list[str]:
        if not observations:
            return []
        first = observations[0]
        status = (f'<div class="lp-status">round <b>{first["round"]}</b> · pot <b>{first["pot"]}</b> · stakes '
                  f'{first["stakes"]} · raises {first["raises"]}/2 · public card '
                  f'{self.card(first["public_card"]) if first["public_card"] is not None else "not dealt"}</div>')
        head = "".join(f"<th>{h}</th>" for h in ("seat", "card", "put in", "", *(["chips"] if first["over"] else [])))
        rows = []
        for seat in range(first["num_seats"]):
            card = combine_value([o["card"] if o["seat"] == seat else None for o in observations], self.combine)
            state = ("folded" if first["folded"][seat] else "wins" if seat in first["winners"]
                     else "to act" if first["to_act"] == seat else "")
            chips = f'<td class="num">{first["returns"][seat]:+g}</td>' if first["over"] else ""
            rows.append(f'<tr data-seat="{seat}" class="lp-seat {state.replace(" ", "-")}"><td>{self.label(seat)}</td>'
                        f"<td>{self.card(card)}</td><td class=num>{first['contributions'][seat]}</td>"
                        f"<td>{state}</td>{chips}</tr>")
        return [status, f'<table class="lp-seats"><tr>{head}</tr>', *rows, "</table>"]


Drawing = LeducDrawing
"""The drawing this package declares (`GamePlugin.viewer`)."""
