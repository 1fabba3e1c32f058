"""Readable rich renderings of a match: the table, the events, the decisions.

The table is drawn only from observations (G-10), never from the full state,
so what it shows is exactly what its viewer may know:

- one seat's view: that seat's observation;
- a spectator (`referee play`): what *every* seat knows — a card shows as
  itself only if all observations show it, which is precisely public
  knowledge;
- the whole table (`referee replay` without --seat): what *any* seat knows,
  so every hand shows in full while face-down cards nobody has seen stay
  face down.

Events are described from their record JSON; the caller chooses which
events a viewer gets (by `visible_to`). Games without a renderer here fall
back to a plain text of each event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from referee.games import Observation
from referee.games.gnadenlos.cards import ADVENTURERS, COLOUR_NAMES, EventCard

SEAT_STYLES = ("bold red", "bold green", "bold blue", "bold yellow")
"""Gnadenlos! colours belong to seats 0..3 (G-1, cosmetic)."""

PUBLIC = "public"
"""Combine observations by intersection: what every seat knows."""
ANY = "any"
"""Combine observations by union: what at least one seat knows."""


def seat_label(seat: int, names: Sequence[str]) -> Text:
    style = SEAT_STYLES[seat % len(SEAT_STYLES)]
    return Text(f"{names[seat]}[{seat}]", style=style)


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


def render_table(game: str, observations: Sequence[Observation], names: Sequence[str],
                 combine: str = PUBLIC, title: str = "") -> RenderableType | None:
    """The table as `observations` (one per viewing seat) jointly show it;
    None if this game has no table renderer."""
    if game != "gnadenlos" or not observations:
        return None
    return _gnadenlos_table([o.to_json() for o in observations], names, combine, title)


def _gnadenlos_table(obs: list[dict[str, Any]], names: Sequence[str], combine: str, title: str) -> Panel:
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


def _combine(sets: list[Counter[Any]], combine: str) -> Counter[Any]:
    result = sets[0].copy()
    for other in sets[1:]:
        result = result & other if combine == PUBLIC else result | other
    return result


def _adventurer_hand(obs: list[dict[str, Any]], seat: int, combine: str) -> Text:
    hands = [o["adv_hands"][seat] for o in obs]
    total = len(hands[0]["known"]) + hands[0]["unknown"]
    known = _combine([Counter(h["known"]) for h in hands], combine)
    cards = sorted(known.elements())
    text = Text("\n".join(adventurer(c) for c in cards))
    hidden = total - len(cards)
    if hidden:
        text.append(("" if not cards else "\n") + f"+{hidden} face down", style="dim")
    return text or Text("—", style="dim")


def _iou_hand(obs: list[dict[str, Any]], seat: int, combine: str) -> Text:
    hands = [o["iou_hands"][seat] for o in obs]
    total = len(hands[0]["known"]) + hands[0]["unknown"]
    known = _combine([Counter(tuple(c) for c in h["known"]) for h in hands], combine)
    text = Text()
    for colour, value in sorted(known.elements()):
        text.append_text(iou_text(colour, value))
        text.append(" ")
    hidden = total - sum(known.values())
    if hidden:
        text.append(f"+{hidden} unseen", style="dim")
    return text or Text("—", style="dim")


def _market(obs: list[dict[str, Any]], combine: str) -> RenderableType:
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


def event_text(game: str, event: Mapping[str, Any], names: Sequence[str]) -> Text:
    """One line describing an event (its record JSON)."""
    describe = _GNADENLOS_EVENTS.get(event["kind"]) if game == "gnadenlos" else None
    data = event["data"]
    if describe is None:
        return Text(f"{event['kind']} {data}")
    return describe(data, names)


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


# -------------------------------------------------------------- decisions


def decision_text(game: str, line: Mapping[str, Any], names: Sequence[str]) -> Text:
    """A seat's decision from its record line, with who decided and any strike."""
    text = Text.assemble(seat_label(line["seat"], names), ": ", _action(game, line["action"]))
    if line.get("time") is not None:
        text.append(f"  {line['time'] * 1000:.1f} ms", style="dim")
    if line.get("by") == "referee":
        text.append("  (referee's fallback)", style="yellow")
    if line.get("strike"):
        text.append(f"  strike: {line['strike']['reason']}", style="bold red")
    return text


def _action(game: str, action: Mapping[str, Any]) -> str:
    if game != "gnadenlos":
        return str(action)
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
    return str(action)


def result_table(footer: Mapping[str, Any], names: Sequence[str]) -> Table:
    """The final ranking with the public end figures, strikes and forfeits."""
    summary = footer.get("summary", {})
    forfeits = {f["seat"]: f for f in footer.get("forfeits", [])}
    table = Table(title=f"Result: {footer['end_reason']}" + (f" ({footer['end_detail']})" if footer.get("end_detail") else ""),
                  title_justify="left")
    table.add_column("place", justify="right")
    table.add_column("seat")
    for key in ("fields", "nuggets", "vultures"):
        if key in summary:
            table.add_column({"fields": "field"}.get(key, key), justify="right")
    table.add_column("strikes", justify="right")
    table.add_column("forfeit")
    ranks = footer["ranks"]
    for seat in sorted(range(len(ranks)), key=lambda s: (ranks[s], s)):
        row: list[Any] = [str(ranks[seat] + 1), seat_label(seat, names)]
        row += [str(summary[key][seat]) for key in ("fields", "nuggets", "vultures") if key in summary]
        strikes = footer["strikes"][seat]
        row.append(str(len(strikes)) if strikes else "·")
        forfeit = forfeits.get(seat)
        row.append(Text(f"{forfeit['reason']}: {forfeit['detail']}", style="red") if forfeit else "")
        table.add_row(*row)
    return table


# ------------------------------------------------------------ a match view


class MatchView:
    """Prints a match step by step for one kind of viewer.

    `seat=K`: only what seat K saw (events with K in `visible_to`, K's own
    decisions, strikes and forfeit, the table from K's observation).
    `spectator=True`: only public information (events every seat saw, the
    table as every seat knows it; strikes and forfeits are announced).
    Neither: the whole record, every seat's view at once.
    """

    def __init__(self, console: Any, header: Mapping[str, Any], *, seat: int | None = None,
                 spectator: bool = False) -> None:
        self.console = console
        self.game = header["game"]
        self.names = [s["name"] for s in header["seats"]]
        self.num_seats = len(self.names)
        self.seat = seat
        self.spectator = spectator
        self.console.print(self._title(header))

    def _title(self, header: Mapping[str, Any]) -> Text:
        tc = header["time_control"]
        bank = f" + bank {tc['time_bank']} s" if tc.get("time_bank") else ""
        who = (f"seen by {self.names[self.seat]}[{self.seat}]" if self.seat is not None
               else "public view" if self.spectator else "every seat's view")
        text = Text.assemble((f"{header['game']} match {header['match_id']}", "bold"),
                             f"  seed {header['seed']}  {tc['move_time']} s/decision{bank}  ({who})\n")
        for seat in range(self.num_seats):
            info = header["seats"][seat]
            text.append_text(seat_label(seat, self.names))
            text.append(f" {info['name']} {info['version']}  ", style="dim")
        return text

    def show(self, step: Any) -> None:
        """Print one replay step (a `referee.replay.Step`)."""
        lines: list[Text] = []
        for line in (step.decision or {}).get("seats", []):
            if self.seat is None and not self.spectator:
                lines.append(decision_text(self.game, line, self.names))
            elif line["seat"] == self.seat or (self.spectator and line.get("strike")):
                lines.append(decision_text(self.game, line, self.names) if line["seat"] == self.seat
                             else Text.assemble(seat_label(line["seat"], self.names),
                                                (f" strike: {line['strike']['reason']}", "bold red")))
        turn_started = False
        for event in self._visible(step.events):
            turn_started |= event.kind in ("turn_started", "match_over")
            text = event_text(self.game, event.to_json(), self.names)
            lines.append(Text("  ") + text)
        for forfeit in step.forfeits:
            if self.seat in (None, forfeit["seat"]) or self.spectator:
                lines.append(Text.assemble(seat_label(forfeit["seat"], self.names),
                                           (f" forfeits ({forfeit['reason']}): {forfeit['detail']}", "bold red")))
        for line in lines:
            self.console.print(line)
        if turn_started or step.decision is None:
            table = self._table(step.observations)
            if table is not None:
                self.console.print(table)

    def finish(self, footer: Mapping[str, Any]) -> None:
        self.console.print(result_table(footer, self.names))

    def _visible(self, events: Sequence[Any]) -> list[Any]:
        if self.seat is not None:
            return [e for e in events if self.seat in e.visible_to]
        if self.spectator:
            return [e for e in events if len(e.visible_to) == self.num_seats]
        return list(events)

    def _table(self, observations: Sequence[Observation]) -> RenderableType | None:
        if self.seat is not None:
            return render_table(self.game, [observations[self.seat]], self.names,
                                title=f"as {self.names[self.seat]}[{self.seat}] sees it")
        return render_table(self.game, observations, self.names, combine=PUBLIC if self.spectator else ANY)
