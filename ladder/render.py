"""Rich renderings of the ladder: standings, head-to-head, seats, live view."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ladder.scheduler import RunStatus
from ladder.standings import Standing, head_to_head, seat_shares, standings
from ladder.store import Store
from referee.untrusted import safe_text

LIVE_REFRESH = 0.5
"""Seconds between live standings rebuilds (each reads the store)."""


def _when(iso: str | None) -> str:
    """"MM-DD HH:MM" (UTC) of a stored timestamp: short enough for 80 columns."""
    return iso[5:16].replace("T", " ") if iso else "-"


def standings_table(rows: Sequence[Standing], title: str) -> Table:
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    for name, justify in [
        ("#", "right"), ("bot", "left"), ("version", "left"), ("μ", "right"), ("σ", "right"),
        ("μ−3σ", "right"), ("played", "right"), ("wins", "right"), ("avg pl", "right"),
        ("forf", "right"), ("last (UTC)", "left"), ("P(>next)", "right"),
    ]:
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for r in rows:
        table.add_row(
            str(r.rank), safe_text(r.bot, "" if r.active else "dim"), safe_text(r.version), f"{r.mu:.2f}",
            f"{r.sigma:.2f}", f"[bold]{r.conservative:.2f}[/bold]", str(r.matches), str(r.wins),
            f"{r.average_place:.2f}" if r.average_place is not None else "-", str(r.forfeits),
            _when(r.last_played), f"{r.p_above_next:.0%}" if r.p_above_next is not None else "",
        )
    return table


def h2h_table(store: Store, game: str, rows: Sequence[Standing]) -> Table:
    """Row bot finished ahead of column bot in this share of their matches."""
    pairs = head_to_head(store, game)
    table = Table(title="head to head: how often the row bot finished ahead of the column bot",
                  title_justify="left")
    table.add_column("")
    for r in rows:
        table.add_column(safe_text(r.bot), justify="right")
    for a in rows:
        cells = []
        for b in rows:
            ahead, together = pairs.get((a.bot_id, b.bot_id), (0, 0))
            cells.append("" if a.bot_id == b.bot_id else f"{ahead / together:.0%} ({together})" if together else "-")
        table.add_row(safe_text(a.bot), *cells)
    return table


def seats_table(store: Store, game: str) -> Table:
    table = Table(title="win share per seat", title_justify="left")
    for name in ("players", "seat", "matches", "wins", "win share"):
        table.add_column(name, justify="right")
    for size, seats in seat_shares(store, game).items():
        for s in seats:
            share = s["win_share"]
            table.add_row(str(size), str(s["seat"]), str(s["matches"]), str(s["wins"]),
                          f"{share:.0%}" if share is not None else "-")
    return table


class LiveView:
    """A progress bar over the run's budget and the standings, redrawn as
    matches finish."""

    def __init__(self, store: Store, game: str, budget: int, *, console: Any = None) -> None:
        self.store = store
        self.game = game
        self.progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[note]}"), TimeElapsedColumn(),
        )
        self.task = self.progress.add_task("matches", total=budget, note="")
        self.live = Live(self._render(), console=console, refresh_per_second=4, transient=True)
        self._drawn = 0.0

    def _render(self) -> RenderableType:
        rows = standings(self.store, self.game)
        return Group(self.progress, standings_table(rows, f"{self.game} ladder (live)"))

    def __enter__(self) -> "LiveView":
        self.live.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.live.__exit__(*exc)

    def update(self, status: RunStatus) -> None:
        note = f"running {status.running}"
        if status.failed:
            note += f", {status.failed} failed (retried)"
        if status.stable:
            note += ", stable"
        self.progress.update(self.task, completed=status.played, note=note)
        now = time.monotonic()
        if now - self._drawn >= LIVE_REFRESH:
            self._drawn = now
            self.live.update(self._render())
