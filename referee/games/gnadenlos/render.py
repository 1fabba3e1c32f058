"""Gnadenlos! drawn for a viewer: the table (fields, nuggets, vultures, hands,
the IOU market), its events and its decisions, from observations and event
JSON only (G-10)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from referee.games.gnadenlos.cards import ADVENTURERS, COLOUR_NAMES, EventCard
from referee.render.common import ANY, PUBLIC, SEAT_STYLES, GameRenderer, Json, combine_counts, seat_label

# ------------------------------------------------------------------ cards


def adventurer(card: int) -> str:
    """An adventurer with its gold/gun/poker ratings (G-1)."""
    a = ADVENTURERS[card]
    return f"{a.name} {a.gold}/{a.gun}/{a.poker}"


def iou_text(colour: int, value: int) -> Text:
    return Text(f"{COLOUR_NAMES[colour][0].upper()}{value}", style=SEAT_STYLES[colour].replace("bold ", ""))


def event_card(card: int) -> str:
    return EventCard(card).label


# ------------------------------------------------------------------ table


def _gnadenlos_table(obs: Sequence[Json], names: Sequence[str], combine: str, title: str) -> Panel:
    first = obs[0]
    n = first["num_seats"]
    status = Text.assemble(
        ("Turn ", "dim"), str(first["turn"] + 1), ("  active ", "dim"), seat_label(first["active"], names),
        ("  undertaker ", "dim"), f"{first['undertaker']}/7",
        ("  event ", "dim"), event_card(first["event"]) if first["event"] >= 0 else "—",
        ("  event deck ", "dim"), str(first["event_deck_count"]),
        ("  adventurer deck ", "dim"), str(len(first["adv_deck_known"]) + first["adv_deck_unknown"]),
    )
    seats = Table(box=None, pad_edge=False, expand=False)
    for column, justify in (("seat", "left"), ("field", "right"), ("nuggets", "right"),
                            ("vultures", "right"), ("adventurers", "left"), ("IOUs in hand", "left")):
        seats.add_column(column, justify=justify, style="dim" if column == "seat" else None)  # type: ignore[arg-type]
    for seat in range(n):
        seats.add_row(
            seat_label(seat, names), str(first["fields"][seat]), str(first["nuggets"][seat]),
            "☠" * first["vultures"][seat] or "·",
            _adventurer_hand(obs, seat, combine), _iou_hand(obs, seat, combine),
        )
    parts: list[RenderableType] = [status, seats, _market(obs, combine)]
    if first["adv_discard"]:
        parts.append(Text.assemble(("discarded ", "dim"), ", ".join(adventurer(c) for c in first["adv_discard"][-4:]),
                                   (f"  ({len(first['adv_discard'])} in the pile)", "dim")))
    return Panel(Group(*parts), title=title or "Gnadenlos!", title_align="left")


def _adventurer_hand(obs: Sequence[Json], seat: int, combine: str) -> Text:
    hands = [o["adv_hands"][seat] for o in obs]
    total = len(hands[0]["known"]) + hands[0]["unknown"]
    known = combine_counts([Counter(h["known"]) for h in hands], combine)
    cards = sorted(known.elements())
    text = Text("\n".join(adventurer(c) for c in cards))
    hidden = total - len(cards)
    if hidden:
        text.append(("" if not cards else "\n") + f"+{hidden} face down", style="dim")
    return text or Text("—", style="dim")


def _iou_hand(obs: Sequence[Json], seat: int, combine: str) -> Text:
    hands = [o["iou_hands"][seat] for o in obs]
    total = len(hands[0]["known"]) + hands[0]["unknown"]
    known = combine_counts([Counter(tuple(c) for c in h["known"]) for h in hands], combine)
    text = Text()
    for colour, value in sorted(known.elements()):
        text.append_text(iou_text(colour, value))
        text.append(" ")
    hidden = total - sum(known.values())
    if hidden:
        text.append(f"+{hidden} unseen", style="dim")
    return text or Text("—", style="dim")


def _market(obs: Sequence[Json], combine: str) -> RenderableType:
    """Rows from the last (top) down to row 1; ▒ a face-down card, · an empty slot."""
    rows = obs[0]["market"]
    if not rows:
        return Text("market: empty", style="dim")
    grid = Table(box=None, show_header=True, pad_edge=False, title=None)
    grid.add_column("market", style="dim", justify="right")
    for face in range(1, len(rows[0]) + 1):
        grid.add_column(str(face), justify="center")
    for r in range(len(rows) - 1, -1, -1):
        cells: list[Text] = []
        for c in range(len(rows[r])):
            seen = [o["market"][r][c] for o in obs]
            if seen[0] is None:
                cells.append(Text("·", style="dim"))
                continue
            known = [tuple(s) for s in seen if isinstance(s, list)]
            shown = known[0] if known and (combine == ANY or len(known) == len(seen)) else None
            cells.append(iou_text(*shown) if shown else Text("▒", style="dim"))
        grid.add_row(f"row {r + 1}", *cells)
    return grid


# ----------------------------------------------------------------- events


def _s(data: Mapping[str, Any], names: Sequence[str]) -> Text:
    return seat_label(data["seat"], names)


def _line(*parts: Any) -> Text:
    return Text.assemble(*parts)


def _ious(ious: Sequence[Sequence[int]]) -> Text:
    text = Text()
    for index, (colour, value) in enumerate(ious):
        if index:
            text.append(" ")
        text.append_text(iou_text(colour, value))
    return text


def _commitments(data: Mapping[str, Any], names: Sequence[str]) -> Text:
    text = Text(f"{event_card(data['event'])}: commitments revealed: ")
    for index, (seat, card) in enumerate(sorted(data["commitments"].items(), key=lambda kv: int(kv[0]))):
        if index:
            text.append(", ")
        text.append_text(seat_label(int(seat), names))
        text.append(f" {adventurer(card)}" if card is not None else " opts out")
    return text


_GNADENLOS_EVENTS: dict[str, Callable[[Mapping[str, Any], Sequence[str]], Text]] = {
    "deck_shuffled": lambda d, n: _line(("record only: ", "dim"), f"{d['deck']} deck shuffled, top last: {d['order']}"),
    "deck_reshuffled": lambda d, n: _line(f"the {d['deck']} deck is reshuffled ({d['count']} cards)"),
    "start_player": lambda d, n: _line(_s(d, n), " starts (die roll)"),
    "adventurers_drawn": lambda d, n: _line(
        _s(d, n), " draws ", ", ".join(adventurer(c) for c in d["cards"]) if "cards" in d else f"{d['count']} cards face down"),
    "market_dealt": lambda d, n: _line(
        "market dealt face down: ", _ious(d["ious"]) if "ious" in d else f"{d['count']} IOUs"),
    "turn_started": lambda d, n: _line(("— turn ", "bold"), (str(d["turn"] + 1), "bold"), ": ", seat_label(d["active"], n),
                                       " holds the revolver"),
    "event_revealed": lambda d, n: _line("event: ", (event_card(d["event"]), "bold")),
    "event_ignored": lambda d, n: _line(f"{event_card(d['event'])} is the seventh card: ignored"),
    "undertaker_moved": lambda d, n: _line(f"the undertaker moves to {d['position']}"),
    "commitments_revealed": _commitments,
    "event_void": lambda d, n: _line(f"{event_card(d['event'])}: all equal, no effect"),
    "nuggets_gained": lambda d, n: _line(_s(d, n), f" gains {d['amount']} nuggets"),
    "hat_moved": lambda d, n: _line(_s(d, n), f" moves {d['steps']:+d} to field {d['field']}"),
    "no_takes": lambda d, n: _line(f"the market holds fewer than {d['owed']} IOUs: nobody takes"),
    "iou_taken": lambda d, n: _line(_s(d, n), f" takes row {d['row'] + 1} column {d['col'] + 1}",
                                    *((" (", iou_text(*d["iou"]), ")") if "iou" in d else ())),
    "adventurer_discarded": lambda d, n: _line(_s(d, n), f" discards {adventurer(d['card'])}"),
    "prestige_bought": lambda d, n: _line(_s(d, n), (" final buy" if d.get("final") else " buys"),
                                          f" {d['steps']} fields"),
    "adventurers_revealed": lambda d, n: _line("auction: ", ", ".join(adventurer(c) for c in d["cards"])),
    "passed": lambda d, n: _line(_s(d, n), " passes and shows ", _ious(d["hand"])),
    "bid": lambda d, n: _line(_s(d, n), " bids ", _ious(d["ious"]), f" (total {d['total']})"),
    "bid_returned": lambda d, n: _line(_s(d, n), " gets nothing and takes the bid back"),
    "picked": lambda d, n: _line(_s(d, n), " picks ", ", ".join(adventurer(c) for c in d["cards"])),
    "ordered": lambda d, n: _line(_s(d, n), f" puts {adventurer(d['card'])} at place {d['place'] + 1} of the auction"),
    "auction_order": lambda d, n: _line("auction order: ", ", ".join(adventurer(c) for c in d["cards"])),
    "lot": lambda d, n: _line("on offer: ", (adventurer(d["card"]), "bold"), ", bidders ",
                              Text(", ").join(seat_label(s, n) for s in d["bidders"])),
    "bid_position": lambda d, n: _line(_s(d, n), " bids ", "first" if d["first"] else "last"),
    "spared": lambda d, n: _line(_s(d, n), f" is spared (someone opted out) and keeps {adventurer(d['card'])}"),
    "payday": lambda d, n: _line(("payday", "bold")),
    "die_rolled": lambda d, n: _line(f"die: {d['face']}"),
    "iou_turned_up": lambda d, n: _line(f"row {d['row'] + 1} column {d['col'] + 1} turned up: ", iou_text(*d["iou"])),
    "nuggets_paid": lambda d, n: _line(_s(d, n), f" pays {d['amount']} nuggets"),
    "vulture_taken": lambda d, n: _line(_s(d, n), (f" cannot pay: vulture {d['vultures']}", "bold red")),
    "refilled": lambda d, n: _line(f"refill: row {d['from_slot'][0] + 1} column {d['from_slot'][1] + 1} -> "
                                   f"row {d['to_slot'][0] + 1} column {d['to_slot'][1] + 1}"),
    "match_ending": lambda d, n: _line(("the match ends: ", "bold"), d["reason"], f" ({d['detail']})" if d["detail"] else ""),
    "match_over": lambda d, n: _line(("match over", "bold")),
}


def _action(action: Json) -> str:
    kind = action["type"]
    if kind == "commit":
        return f"commits {adventurer(action['card'])}"
    if kind == "pick":
        return "picks " + ", ".join(adventurer(c) for c in action["cards"])
    if kind == "bid":
        return "bids " + " ".join(f"{COLOUR_NAMES[c][0].upper()}{v}" for c, v in action["ious"])
    if kind == "take":
        return f"takes row {action['row'] + 1} column {action['col'] + 1}"
    if kind == "refill":
        return f"refills from column {action['col'] + 1}"
    if kind in ("buy", "final_buy"):
        return f"{'final-' if kind == 'final_buy' else ''}buys {action['steps']}"
    if kind == "opt_out":
        return "opts out"
    if kind == "bid_position":
        return "bids " + ("first" if action["first"] else "last")
    if kind == "order":
        return f"puts {adventurer(action['card'])} next"
    return str(action)


class GnadenlosRenderer(GameRenderer):
    """Gnadenlos!: the table after every turn begins."""

    figure_columns = (("fields", "field"), ("nuggets", "nuggets"), ("vultures", "vultures"))
    """The final track, purse and vultures (summary.PUBLIC_KEYS, G-9.4)."""

    def table(self, observations: Sequence[Json], title: str = "") -> RenderableType | None:
        return _gnadenlos_table(observations, self.names, self.combine, title) if observations else None

    def event(self, event: Json) -> Text:
        describe = _GNADENLOS_EVENTS.get(event["kind"])
        return super().event(event) if describe is None else describe(event["data"], self.names)

    def action(self, action: Json) -> str:
        return _action(action)

    def shows_table(self, kinds: Collection[str]) -> bool:
        return "turn_started" in kinds or "match_over" in kinds

Renderer = GnadenlosRenderer
"""The renderer this package declares (`GamePlugin.renderer`)."""
