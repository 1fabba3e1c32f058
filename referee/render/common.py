"""What every game's rendering shares: seat labels, how observations combine,
and the `GameRenderer` a game's module fills in."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from rich.console import RenderableType
from rich.text import Text

from referee.untrusted import safe_line

SEAT_STYLES = ("bold red", "bold green", "bold blue", "bold yellow", "bold magenta", "bold cyan",
               "bold bright_red", "bold bright_green", "bold bright_blue", "bold bright_magenta")
"""One style per seat. The first four are Gnadenlos!'s seat colours (G-1,
cosmetic), which its IOUs share; Saboteur seats up to 10 players."""

PUBLIC = "public"
"""Combine observations by intersection: what every seat knows."""
ANY = "any"
"""Combine observations by union: what at least one seat knows."""

Json = Mapping[str, Any]
T = TypeVar("T")


def seat_names(header: Json) -> list[str]:
    """The names a record's seats are shown by (escaped): the label the
    referee gave each bot, not its handshake name, which two versions of
    one bot share (`mcts[1]` and `mcts[3]` look alike; `mcts-0.05[1]` and
    `mcts-0.2[3]` do not). A ladder labels a bot NAME@VERSION; the
    @VERSION is left out unless another seat has the same NAME. A record
    without labels (none older than the format's first version is) falls
    back on the handshake names."""
    labels = [str(seat.get("label") or seat["name"]) for seat in header["seats"]]
    bare = [label.partition("@")[0] for label in labels]
    counts = Counter(bare)
    return [safe_line(name if counts[name] == 1 else label) for name, label in zip(bare, labels)]


def seat_label(seat: int, names: Sequence[str]) -> Text:
    """A seat's name (a bot's own choice: escaped, never markup) and number."""
    style = SEAT_STYLES[seat % len(SEAT_STYLES)]
    return Text(f"{safe_line(names[seat])}[{seat}]", style=style)


def combine_counts(sets: list[Counter[Any]], combine: str) -> Counter[Any]:
    """Cards (as a multiset) the viewers jointly know: in every set (PUBLIC) or in any (ANY)."""
    result = sets[0].copy()
    for other in sets[1:]:
        result = result & other if combine == PUBLIC else result | other
    return result


def combine_value(values: Sequence[T | None], combine: str) -> T | None:
    """One hidden value (None where a viewer does not know it) as the viewers
    jointly know it: only if every one knows it (PUBLIC), or any one (ANY)."""
    known = [value for value in values if value is not None]
    if not known or (combine == PUBLIC and len(known) < len(values)):
        return None
    return known[0]


class GameRenderer:
    """How one game is drawn for one viewer; this base draws any game plainly.

    A `MatchView` makes one per match and viewer, and calls it in the match's
    order: for each step the events the viewer may see (`event`, then
    `interlude`), then `table` if `shows_table` says so, then `observed` with
    the step's observations. A renderer may remember what it was shown — it
    is never shown more than its viewer may know, so neither can it draw more.
    """

    figure_columns: ClassVar[tuple[tuple[str, str], ...]] = ()
    """The per-seat figures of a record footer's `summary` (the game's
    `public_summary`) that the result table shows, as (key, column heading)."""

    def __init__(self, names: Sequence[str], combine: str = PUBLIC) -> None:
        self.names = [safe_line(name) for name in names]  # bots chose them; a renderer may quote them anywhere
        self.combine = combine

    def label(self, seat: int) -> Text:
        return seat_label(seat, self.names)

    def table(self, observations: Sequence[Json], title: str = "") -> RenderableType | None:
        """The table as `observations` (one per viewing seat, as JSON) jointly show it; None: no table."""
        return None

    def event(self, event: Json) -> Text:
        """One line describing an event (its record JSON)."""
        return Text(f"{event['kind']} {event['data']}")

    def interlude(self, event: Json) -> RenderableType | None:
        """Anything to show right after an event's line (e.g. the board as a round ended)."""
        return None

    def action(self, action: Json) -> str:
        """A decision (the game's action JSON) in words."""
        return str(action)

    def shows_table(self, kinds: Collection[str]) -> bool:
        """Whether a step whose visible events have these kinds is followed by the table."""
        return True

    def shows_table_in_log(self, kinds: Collection[str]) -> bool:
        """The same for output that scrolls (a log, a pipe) instead of one
        screen redrawn in place, where every table drawn stays: by default
        as often; a game whose table is large draws it less often there."""
        return self.shows_table(kinds)

    def observed(self, observations: Sequence[Json]) -> None:
        """The viewer's observations after a step (for a renderer that follows the match)."""

    def results(self, footer: Json) -> RenderableType | None:
        """The game's own end figures beyond the ranking table, from the record's footer."""
        return None
