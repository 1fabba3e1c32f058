"""A match on one terminal screen that updates in place, at a watchable pace.

`referee play` on a terminal shows the match through a `Screen`: the title,
the table as it stands now, and the latest event lines, redrawn in place
(rich's Live) instead of printed again after every turn — a 10-player
Saboteur match printed its maze some 200 times, about 4,000 lines. Output
that is not a terminal (a log, a pipe) stays line-oriented: the `MatchView`
then prints to the console itself.

A `Pace` slows the match for watching: a fixed delay after each decision
(`--delay`), or a key press before the next one (`--step`). The referee
calls the view between decisions, after one is applied and before the next
request goes out, so a pause never runs on a bot's clock.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Any

import click
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

RECENT_LINES = 12
"""Event lines kept under the table."""


@dataclass(frozen=True)
class Pace:
    """How fast a watched match goes: `delay` seconds after each decision,
    or with `step` until a key is pressed."""

    delay: float = 0.0
    step: bool = False

    def wait(self) -> None:
        if self.step:
            click.getchar()  # any key: the next decision
        elif self.delay > 0:
            time.sleep(self.delay)


class Screen:
    """Stands in for a console to a `MatchView`: what it prints becomes one
    screen (the first line its title, a panel or table the table, anything
    else a recent line) redrawn in place until `close`."""

    def __init__(self, console: Console, lines: int = RECENT_LINES) -> None:
        self.console = console
        self.title: RenderableType | None = None
        self.table: RenderableType | None = None
        self.lines: deque[RenderableType] = deque(maxlen=lines)
        self.live = Live(console=console, auto_refresh=False, vertical_overflow="crop")
        self.live.start()

    def print(self, *renderables: Any, **_: Any) -> None:
        for renderable in renderables:
            if self.title is None:
                self.title = renderable
            elif isinstance(renderable, (Panel, Table)):
                self.table = renderable
            else:
                self.lines.append(renderable)
        self.live.update(self._screen(), refresh=True)

    def _screen(self) -> Group:
        parts: list[RenderableType] = [self.title or Text()]
        if self.table is not None:
            parts.append(self.table)
        parts += list(self.lines)
        return Group(*parts)

    def close(self) -> None:
        """Leave the last screen standing; later output scrolls below it."""
        self.live.stop()
