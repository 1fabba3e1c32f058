"""A match shown step by step to one kind of viewer, for any game.

`MatchView` chooses what a viewer gets — which events (by `visible_to`),
which decisions, which seats' observations — and hands it to the game's
`GameRenderer` (the one its package declares, `GamePlugin.renderer`), which
draws only from that.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from referee.games import Event, Observation, load_game
from referee.games.plugin import plugin
from referee.render.common import ANY, PUBLIC, GameRenderer, Json, seat_label, seat_names
from referee.untrusted import safe_line, safe_text

def renderer_for(game: str, names: Sequence[str], combine: str = PUBLIC) -> GameRenderer:
    """The game's renderer (a game without one is shown as plain event text)."""
    renderer: type[GameRenderer] | None = plugin(game).load("renderer")
    return (renderer or GameRenderer)(names, combine)


def render_table(game: str, observations: Sequence[Observation], names: Sequence[str],
                 combine: str = PUBLIC, title: str = "") -> RenderableType | None:
    """The table as `observations` (one per viewing seat) jointly show it;
    None if this game has no table renderer."""
    return renderer_for(game, names, combine).table([o.to_json() for o in observations], title)


def event_text(game: str, event: Json, names: Sequence[str]) -> Text:
    """One line describing an event (its record JSON)."""
    return renderer_for(game, names).event(event)


def decision_text(game: str, line: Json, names: Sequence[str]) -> Text:
    """A seat's decision from its record line, with who decided and any strike."""
    return _decision(renderer_for(game, names), line)


def _decision(renderer: GameRenderer, line: Json) -> Text:
    text = Text.assemble(renderer.label(line["seat"]), ": ", renderer.action(line["action"]))
    if line.get("time") is not None:
        text.append(f"  {line['time'] * 1000:.1f} ms", style="dim")
    if line.get("by") == "referee":
        text.append("  (referee's fallback)", style="yellow")
    if line.get("strike"):
        text.append(f"  strike: {safe_line(line['strike']['reason'])}", style="bold red")
    return text


def result_table(footer: Json, names: Sequence[str], columns: Sequence[tuple[str, str]] = ()) -> Table:
    """The final ranking with the public end figures (`columns`: the game
    renderer's `figure_columns`), strikes and forfeits (a forfeit's detail
    quotes the bot: escaped, never markup)."""
    summary = footer.get("summary", {})
    forfeits = {f["seat"]: f for f in footer.get("forfeits", [])}
    ending = f"Result: {footer['end_reason']}" + (f" ({footer['end_detail']})" if footer.get("end_detail") else "")
    table = Table(title=safe_text(ending), title_justify="left")
    table.add_column("place", justify="right")
    table.add_column("seat")
    figures = [(key, heading) for key, heading in columns if key in summary]
    for _, heading in figures:
        table.add_column(heading, justify="right")
    table.add_column("strikes", justify="right")
    table.add_column("forfeit")
    ranks = footer["ranks"]
    for seat in sorted(range(len(ranks)), key=lambda s: (ranks[s], s)):
        row: list[Any] = [str(ranks[seat] + 1), seat_label(seat, names)]
        row += [str(summary[key][seat]) for key, _ in figures]
        strikes = footer["strikes"][seat]
        row.append(str(len(strikes)) if strikes else "·")
        forfeit = forfeits.get(seat)
        row.append(safe_text(f"{forfeit['reason']}: {forfeit['detail']}", style="red") if forfeit else "")
        table.add_row(*row)
    return table


def lesser_half(events: Sequence[Event], index: int, num_seats: int) -> bool:
    """Whether `events[index]` is the part of a split event for the seats that
    do not know its secret (one happening told to two audiences): it follows
    the part with the secret, of the same kind and agreeing on the keys both
    have, and the two audiences share no seat and together are every seat.
    Its content is then known to every seat; the other part holds it, told
    with the secret (a drawn card rather than a count)."""
    if index == 0:
        return False
    this, before = events[index], events[index - 1]
    return (this.kind == before.kind and bool(this.visible_to) and bool(before.visible_to)
            and not this.visible_to & before.visible_to
            and len(this.visible_to | before.visible_to) == num_seats
            and all(before.data[key] == value for key, value in this.data.items() if key in before.data))


@dataclass(frozen=True)
class Viewpoint:
    """Who looks at a match, and so what of each step they are shown; the one
    place that decides it, for the terminal (`MatchView`) and the browser
    (referee.web.viewer) alike.

    `seat=K`: only what seat K saw (events with K in `visible_to`, K's own
    decisions, strikes and forfeit, K's observation).
    `spectator=True`: only public information (events every seat saw, and of
    an event split by audience the part without the secret; every seat's
    observation, combined by what all of them know; strikes and forfeits).
    Neither: the whole record, every seat's view at once (of a split event
    only the part with the secret, which holds the other).
    """

    num_seats: int
    seat: int | None = None
    spectator: bool = False

    @property
    def combine(self) -> str:
        """How the viewer's observations combine into one table."""
        return PUBLIC if self.spectator or self.seat is not None else ANY

    def events(self, events: Sequence[Event]) -> list[Event]:
        if self.seat is not None:
            return [e for e in events if self.seat in e.visible_to]
        if self.spectator:
            return [e for i, e in enumerate(events)
                    if len(e.visible_to) == self.num_seats or lesser_half(events, i, self.num_seats)]
        return [e for i, e in enumerate(events) if not lesser_half(events, i, self.num_seats)]

    def decisions(self, lines: Sequence[Json]) -> list[tuple[Json, bool]]:
        """The decision lines shown, each with whether in full (False: only its strike)."""
        if self.seat is None and not self.spectator:
            return [(line, True) for line in lines]
        if self.seat is not None:
            return [(line, True) for line in lines if line["seat"] == self.seat]
        return [(line, False) for line in lines if line.get("strike")]

    def forfeits(self, forfeits: Sequence[Json]) -> list[Json]:
        return [f for f in forfeits if self.seat in (None, f["seat"]) or self.spectator]

    def observations(self, observations: Sequence[Observation]) -> Sequence[Observation]:
        return observations if self.seat is None else [observations[self.seat]]


def forfeit_text(forfeit: Json, names: Sequence[str]) -> Text:
    """A forfeit line (its detail quotes the bot: escaped)."""
    return Text.assemble(seat_label(forfeit["seat"], names), safe_text(
        f" forfeits ({forfeit['reason']}): {forfeit['detail']}", "bold red"))


def strike_text(line: Json, names: Sequence[str]) -> Text:
    """Only the strike of a decision line (what a spectator is told)."""
    return Text.assemble(seat_label(line["seat"], names),
                         (f" strike: {safe_line(line['strike']['reason'])}", "bold red"))


def match_title(header: Json) -> str:
    """"Gnadenlos! match gnadenlos-3f2a-0": the game's title, as people write it."""
    return f"{load_game(header['game']).title} match {header['match_id']}"


class MatchView:
    """Prints a match step by step for one kind of viewer (a `Viewpoint`)."""

    def __init__(self, console: Any, header: Json, *, seat: int | None = None,
                 spectator: bool = False, log: bool = False) -> None:
        """`log`: the output scrolls (a pipe, a file) rather than being one
        screen redrawn in place, so the table is drawn only as often as the
        game's renderer wants it in a log (`shows_table_in_log`)."""
        self.console = console
        self.log = log
        self.game = header["game"]
        self.names = seat_names(header)
        self.num_seats = len(self.names)
        self.seat = seat
        self.spectator = spectator
        self.viewpoint = Viewpoint(self.num_seats, seat, spectator)
        self.renderer = renderer_for(self.game, self.names, self.viewpoint.combine)
        self.console.print(self._title(header))

    def _title(self, header: Json) -> Text:
        tc = header["time_control"]
        bank = f" + bank {tc['time_bank']} s" if tc.get("time_bank") else ""
        who = (f"seen by {self.names[self.seat]}[{self.seat}]" if self.seat is not None
               else "public view" if self.spectator else "every seat's view")
        text = Text.assemble((safe_line(match_title(header)), "bold"),
                             f"  seed {header['seed']}  {tc['move_time']} s/decision{bank}  ({who})\n")
        for seat in range(self.num_seats):
            info = header["seats"][seat]
            text.append_text(seat_label(seat, self.names))
            text.append(f" {safe_line(info['name'])} {safe_line(info['version'])}  ", style="dim")
        return text

    def show(self, step: Any) -> None:
        """Print one replay step (a `referee.replay.Step`)."""
        for line, in_full in self.viewpoint.decisions((step.decision or {}).get("seats", [])):
            self.console.print(_decision(self.renderer, line) if in_full else strike_text(line, self.names))
        kinds: set[str] = set()
        for event in self.viewpoint.events(step.events):
            kinds.add(event.kind)
            data = event.to_json()
            self.console.print(Text("  ") + self.renderer.event(data))
            interlude = self.renderer.interlude(data)
            if interlude is not None:
                self.console.print(interlude)
        for forfeit in self.viewpoint.forfeits(step.forfeits):
            self.console.print(forfeit_text(forfeit, self.names))
        observations = [o.to_json() for o in self.viewpoint.observations(step.observations)]
        shows_table = self.renderer.shows_table_in_log if self.log else self.renderer.shows_table
        if step.decision is None or shows_table(kinds):
            # a title is markup to the renderers' panels; the name in it must not be
            title = escape(f"as {self.names[self.seat]}[{self.seat}] sees it") if self.seat is not None else ""
            table = self.renderer.table(observations, title)
            if table is not None:
                self.console.print(table)
        self.renderer.observed(observations)

    def finish(self, footer: Json) -> None:
        self.console.print(result_table(footer, self.names, self.renderer.figure_columns))
        extra = self.renderer.results(footer)
        if extra is not None:
            self.console.print(extra)

