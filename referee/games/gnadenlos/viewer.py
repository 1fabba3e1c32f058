"""Gnadenlos! drawn in the browser viewer (referee.web.drawing): the success
track with every hat and the undertaker's track (G-1), the seats with their
hands, the market grid with its known and face-down slots (G-3), the
auction's cards and bids (G-6) and the step's payday (G-8).

Drawn from observations only (G-10), combined for the viewer as the terminal
renderer combines them: a card shows as itself only if the viewer knows it.
Every card carries its identity in a data attribute (`data-card` for an
adventurer, `data-iou` for a known IOU, `data-slot` for a market slot), so
what a view shows can be checked card by card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from referee.games.gnadenlos.cards import ADVENTURERS, EventCard
from referee.games.gnadenlos.config import DEFAULT_CONFIG
from referee.render.common import ANY, Json, combine_counts
from referee.web.drawing import GameDrawing, esc

PAYDAY_EVENTS = frozenset({"payday", "die_rolled", "iou_turned_up", "nuggets_paid", "vulture_taken"})


def adventurer(card: int) -> str:
    a = ADVENTURERS[card]
    return (f'<span class="adv" data-card="{card}" title="gold {a.gold} · gun {a.gun} · poker {a.poker}">'
            f'{esc(a.name)} <b>{a.gold}·{a.gun}·{a.poker}</b></span>')


def iou(colour: int, value: int) -> str:
    return f'<span class="iou bg{colour}" data-iou="{colour}-{value}">{value}</span>'


def face_down(count: int, what: str) -> str:
    return "".join(f'<span class="back" title="{what}, face down"></span>' for _ in range(count))


def event_name(card: int) -> str:
    return esc(EventCard(card).label)


class GnadenlosDrawing(GameDrawing):
    stylesheet = "viewer.css"

    def table(self, observations: Sequence[Json], events: Sequence[Json]) -> list[str]:
        if not observations:
            return []
        first = observations[0]
        parts = [self._status(first), self._tracks(first), *self._seats(observations),
                 self._market(observations)]
        if first["units"]:
            parts.append(self._auction(first))
        payday = [event for event in events if event["kind"] in PAYDAY_EVENTS]
        if payday:
            parts.append(self._payday(payday))
        return parts

    # ---------------------------------------------------------- the board

    def _status(self, first: Json) -> str:
        event = event_name(first["event"]) if first["event"] >= 0 else "—"
        deck = len(first["adv_deck_known"]) + first["adv_deck_unknown"]
        discard = ", ".join(adventurer(card) for card in first["adv_discard"][-3:])
        facts = [
            f"turn <b>{first['turn'] + 1}</b>",
            f"revolver {self.label(first['active'])}",
            f"phase <b>{esc(first['phase'] or '—')}</b>",
            f'event <b class="event">{event}</b>',
            f"event deck {first['event_deck_count']}",
            f"adventurer deck {deck}",
        ]
        if first["end_reason"]:
            facts.append(f"<b>ending: {esc(first['end_reason'])}</b>")
        text = '<div class="gn-status">' + " · ".join(facts) + "</div>"
        if discard:
            text += (f'<div class="gn-discard">discarded ({len(first["adv_discard"])}): {discard}</div>')
        return text

    def _tracks(self, first: Json) -> str:
        config = DEFAULT_CONFIG
        hats: dict[int, list[int]] = {}
        for seat, place in enumerate(first["fields"]):
            hats.setdefault(place, []).append(seat)
        cells = []
        for place in range(config.track_first, config.track_last + 1):
            section = config.poker_sections.index(config.poker_section(place))
            marks = "".join(f'<span class="hat bg{seat}" title="{esc(self.names[seat])}[{seat}]"'
                            f' data-hat="{seat}"></span>' for seat in hats.get(place, []))
            goal = " goal" if place == config.goal_field else ""
            cells.append(f'<div class="field sec{section}{goal}" data-field="{place}"><i>{place}</i>{marks}</div>')
        undertaker = "".join(
            f'<div class="u{" here" if step == first["undertaker"] else ""}" data-u="{step}">'
            f"{step}</div>"
            for step in range(config.undertaker_end + 1))
        return (f'<div class="gn-track" title="success track: goal {config.goal_field}">{"".join(cells)}</div>'
                f'<div class="gn-undertaker"><span>undertaker</span>{undertaker}</div>')

    # ---------------------------------------------------------- the seats

    def _seats(self, observations: Sequence[Json]) -> list[str]:
        """The seats' table as fragments: its head, one per row (a row that
        did not change is stored once), its end."""
        first = observations[0]
        rows = []
        for seat in range(first["num_seats"]):
            active = " active" if seat == first["active"] else ""
            deciding = " deciding" if seat in first["to_act"] else ""
            bid = first["bids"][seat]
            rows.append(
                f'<tr class="gn-seat{active}{deciding}" data-seat="{seat}">'
                f"<td>{self.label(seat)}</td><td class=num>{first['fields'][seat]}</td>"
                f"<td class=num>{first['nuggets'][seat]}</td>"
                f'<td class="vultures">{"☠" * first["vultures"][seat] or "·"}</td>'
                f'<td class="hand adv-hand">{self._adventurers(observations, seat)}</td>'
                f'<td class="hand iou-hand">{self._ious(observations, seat)}</td>'
                f'<td class="bid">{"".join(iou(*c) for c in bid) if bid else ""}</td></tr>')
        head = "".join(f"<th>{h}</th>" for h in ("seat", "field", "nuggets", "vultures", "adventurers",
                                                 "IOUs in hand", "bid"))
        return [f'<table class="gn-seats"><tr>{head}</tr>', *rows, "</table>"]

    def _adventurers(self, observations: Sequence[Json], seat: int) -> str:
        hands = [o["adv_hands"][seat] for o in observations]
        total = len(hands[0]["known"]) + hands[0]["unknown"]
        known = sorted(combine_counts([Counter(h["known"]) for h in hands], self.combine).elements())
        return "".join(adventurer(card) for card in known) + face_down(total - len(known), "adventurer")

    def _ious(self, observations: Sequence[Json], seat: int) -> str:
        hands = [o["iou_hands"][seat] for o in observations]
        total = len(hands[0]["known"]) + hands[0]["unknown"]
        known = sorted(combine_counts([Counter(tuple(c) for c in h["known"]) for h in hands],
                                      self.combine).elements())
        return "".join(iou(*card) for card in known) + face_down(total - len(known), "IOU")

    # --------------------------------------------------------- the market

    def _market(self, observations: Sequence[Json]) -> str:
        """Rows from the last (top) down to row 1, one column per die face (G-3.1)."""
        rows = observations[0]["market"]
        if not rows:
            return '<div class="gn-market empty">market: empty</div>'
        lines = []
        for r in range(len(rows) - 1, -1, -1):
            cells = "".join(f"<td>{self._slot(observations, r, c)}</td>" for c in range(len(rows[r])))
            lines.append(f"<tr><th>row {r + 1}</th>{cells}</tr>")
        faces = "".join(f"<th>{face}</th>" for face in range(1, len(rows[0]) + 1))
        return f'<table class="gn-market"><caption>market</caption>{"".join(lines)}<tr><th></th>{faces}</tr></table>'

    def _slot(self, observations: Sequence[Json], row: int, col: int) -> str:
        seen = [o["market"][row][col] for o in observations]
        where = f'data-slot="{row}-{col}"'
        if seen[0] is None:
            return f'<span class="slot empty" {where}></span>'
        known = [tuple(s) for s in seen if isinstance(s, list)]
        if known and (self.combine == ANY or len(known) == len(seen)):
            colour, value = known[0]
            return f'<span class="slot known" {where}>{iou(colour, value)}</span>'
        return f'<span class="slot hidden" {where} title="face down"></span>'

    # --------------------------------------------------- auction, payday

    def _auction(self, first: Json) -> str:
        units = " ".join('<span class="unit">' + "".join(adventurer(c) for c in unit) + "</span>"
                         for unit in first["units"])
        order = ", ".join(self.label(seat) for seat in first["bid_order"])
        bidding = f" · bidding order {order}" if order else ""
        return f'<div class="gn-auction"><b>auction</b>: {units}{bidding}</div>'

    def _payday(self, events: Sequence[Json]) -> str:
        lines = []
        for event in events:
            data = event["data"]
            kind = event["kind"]
            if kind == "die_rolled":
                lines.append(f'<span class="die" data-die="{data["face"]}">{data["face"]}</span>')
            elif kind == "iou_turned_up":
                lines.append(f"column {data['col'] + 1} row {data['row'] + 1}: {iou(*data['iou'])}")
            elif kind == "nuggets_paid":
                lines.append(f"{self.label(data['seat'])} pays {data['amount']}")
            elif kind == "vulture_taken":
                lines.append(f'{self.label(data["seat"])} cannot pay: <b class="vulture">vulture'
                             f' {data["vultures"]}</b>')
        return '<div class="gn-payday"><b>payday</b> ' + " → ".join(lines) + "</div>"


Drawing = GnadenlosDrawing
"""The drawing this package declares (`GamePlugin.viewer`)."""
