"""Leduc poker drawn for a viewer: the table (pot, stakes, the public card,
each seat's card where the viewer knows it, what each has put in), the
betting as it happens and the chips won, from observations and event JSON
only (L-6): a seat's private card shows only in that seat's own view, or in
the whole record's, never to a spectator or another seat.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from referee.games.leduc.cards import card_name
from referee.render.common import GameRenderer, Json, combine_value

TABLE_EVENTS = frozenset({"public_card_dealt", "pot_won"})
"""The table is drawn at the start, when the public card is dealt, and at the end."""


class LeducRenderer(GameRenderer):
    """Draws Leduc poker from the viewer's observations and the events it may see."""

    def card(self, card: int) -> Text:
        return Text(card_name(card, len(self.names)), style="bold")

    def _chips(self, value: float) -> str:
        return f"{value:+g}"

    # ----------------------------------------------------------------- table

    def table(self, observations: Sequence[Json], title: str = "") -> RenderableType | None:
        first = observations[0]
        public = first["public_card"]
        status = Text.assemble(
            ("round ", "dim"), str(first["round"]), ("  pot ", "dim"), str(first["pot"]),
            ("  stakes ", "dim"), str(first["stakes"]), ("  raises ", "dim"), f"{first['raises']}/2",
            ("  public card ", "dim"), self.card(public) if public is not None else Text("not dealt", style="dim"),
        )
        seats = Table(box=None, pad_edge=False)
        for column in ("seat", "card", "put in", ""):
            seats.add_column(column, style="dim" if column == "seat" else None)
        over = first["over"]
        if over:
            seats.add_column("chips", justify="right")
        for seat in range(first["num_seats"]):
            row: list[Text | str] = [self.label(seat), self._private_card(observations, seat),
                                     str(first["contributions"][seat]), self._state_of(first, seat)]
            if over:
                row.append(self._chips(first["returns"][seat]))
            seats.add_row(*row)
        return Panel(Group(status, seats), title=title or "Leduc poker", title_align="left")

    def _private_card(self, observations: Sequence[Json], seat: int) -> Text:
        """The seat's card if the viewers know it (only its own observation holds it)."""
        card = combine_value([o["card"] if o["seat"] == seat else None for o in observations], self.combine)
        return self.card(card) if card is not None else Text("▒▒", style="dim")

    def _state_of(self, observation: Json, seat: int) -> Text:
        if observation["folded"][seat]:
            return Text("folded", style="dim")
        if seat in observation["winners"]:
            return Text("wins", style="bold yellow")
        if observation["to_act"] == seat:
            return Text("to act", style="bold")
        return Text("")

    def shows_table(self, kinds: Collection[str]) -> bool:
        return not TABLE_EVENTS.isdisjoint(kinds)

    # --------------------------------------------------------------- events

    def event(self, event: Json) -> Text:
        data = event["data"]
        kind = event["kind"]
        if kind == "deck_shuffled":
            top_first = ", ".join(card_name(card, len(self.names)) for card in reversed(data["order"]))
            return Text.assemble(("record only: ", "dim"), f"deck shuffled, top first: {top_first}")
        if kind == "card_dealt":
            dealt = self.card(data["card"]) if "card" in data else Text("a card")
            return Text.assemble(self.label(data["seat"]), " is dealt ", dealt)
        if kind == "folded":
            return Text.assemble(self.label(data["seat"]), " folds")
        if kind == "called":
            return Text.assemble(self.label(data["seat"]),
                                 f" calls {data['amount']}" if data["amount"] else " checks")
        if kind == "raised":
            return Text.assemble(self.label(data["seat"]), f" raises to {data['stakes']} (puts in {data['amount']})")
        if kind == "public_card_dealt":
            return Text.assemble(("— round 2: ", "bold"), "the public card is ", self.card(data["card"]))
        if kind == "pot_won":
            return self._pot_won(data)
        if kind == "hand_started":  # L-7.4
            chips = Text("  ").join(Text.assemble(self.label(seat), f" {self._chips(value)}")
                                    for seat, value in enumerate(data["chips"]))
            return Text.assemble((f"— hand {data['hand']} of {data['hands']}", "bold"), ("  chips won: ", "dim"),
                                 chips)
        return super().event(event)

    def _pot_won(self, data: Json) -> Text:
        winners = Text(" and ").join(self.label(seat) for seat in data["winners"])
        verb = " wins" if len(data["winners"]) == 1 else " split"
        how = "everyone else folded" if data["reason"] == "folds" else "showdown"
        return Text.assemble(winners, verb, (f" the pot of {data['pot']}", "bold"), f" ({how})")

    def action(self, action: Json) -> str:
        verbs = {"fold": "folds", "call": "calls", "raise": "raises"}
        return verbs.get(str(action.get("type")), str(action))

    # -------------------------------------------------------------- results

    def results(self, footer: Json) -> RenderableType | None:
        summary = footer.get("summary", {})
        returns = summary.get("scores") or summary.get("returns")  # a match of hands: its chips (L-7.3)
        if not returns:
            return None
        hands = summary.get("hands")
        table = Table(title=f"Chips won in {hands} hands" if hands else "Chips won", title_justify="left")
        table.add_column("seat")
        table.add_column("chips", justify="right")
        for seat, value in enumerate(returns):
            table.add_row(self.label(seat), self._chips(value))
        return table


Renderer = LeducRenderer
"""The renderer this package declares (`GamePlugin.renderer`)."""
