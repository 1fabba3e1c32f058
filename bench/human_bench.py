"""A person's seat page: the time from a click to the next decision shown, and the page's weight (issue 26).

Headless Chromium (tests/browser_support.py) plays the person's seat of
whole matches by clicking, each choice the menu's first option, against
the built-in random bots in their jails, as `referee play --bot human
--bot random ...` seats them: Gnadenlos! at 4 seats (base rules and
`auction=single`), Saboteur at 5, Leduc at 2. For each of the person's
decisions after the first, two times are taken side by side:

- in the page: from the click to the next decision drawn (the page's own
  `seatPage.waits`: performance.now() at the click, and at the animation
  frame after the next request's table and menu are in the page);
- in the referee: from the answer taken (the page's POST) to the next
  request handed to the page, which is the match loop and the bots alone.

The first less the second is what the web costs a decision: the answer's
POST, the long poll's reply, the JSON and the drawing. The weight: the
page as sent (HTML with its inline script and styles), gzipped as a
server could send it, and every message of a match (per decision).

Prints the table and rewrites the "Seat page" section of docs/benchmarks.md
(unless --no-record).

    python -m bench human [--decisions N] [--no-record]
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from botsdk.contract import TimeControl
from rich.console import Console
from rich.table import Table

from bench.recording import machine_summary, write_section
from referee.builtins import resolve_bot
from referee.games import load_game
from referee.match import run_match
from referee.process import start_bots
from referee.seats import Seat
from referee.seats.person import PersonSeat
from referee.web.seat_server import BrowserDesk, SeatServer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser_support import chromium, open_page  # noqa: E402

SECTION = "Seat page"
SEED = 1_000_003


@dataclass(frozen=True)
class Setting:
    game: str
    players: int
    variant: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        return f"{self.game} {self.players}" + "".join(f" {k}={v}" for k, v in self.variant)


SETTINGS = (Setting("gnadenlos", 4), Setting("gnadenlos", 4, (("auction", "single"),)), Setting("saboteur", 5),
            Setting("leduc", 2))


class TimedDesk(BrowserDesk):
    """A page's desk that notes when each answer is taken and each request handed over."""

    def __init__(self, secret: str, game: str) -> None:
        super().__init__(secret, game)
        self.taken: list[float] = []
        self.asked_at: list[float] = []

    def asked(self, request: Any, menu: Any) -> None:
        super().asked(request, menu)
        self.asked_at.append(time.perf_counter())

    def submit(self, request_id: int, index: int) -> Any:
        taken = time.perf_counter()
        status = super().submit(request_id, index)
        self.taken.append(taken)
        return status


@dataclass
class Figures:
    browser: list[float] = field(default_factory=list)
    """ms from a click to the next decision drawn."""
    referee: list[float] = field(default_factory=list)
    """ms from the answer taken to the next request handed to the page."""
    page_bytes: int = 0
    page_gzip: int = 0
    message_bytes: int = 0
    decisions: int = 0
    matches: int = 0


def play_one(driver: Any, setting: Setting, seed: int, figures: Figures) -> None:
    """One match: the person's seat 0 clicked through in `driver`."""
    server = SeatServer()
    desk = server.pages.add(setting.game, TimedDesk)
    assert isinstance(desk, TimedDesk)
    server.start()
    bots = start_bots([list(resolve_bot("random").argv)] * (setting.players - 1), ["random"] * (setting.players - 1))
    seats: list[Seat | Any] = [PersonSeat(desk), *bots]
    failed: list[BaseException] = []

    def run() -> None:
        try:
            run_match(load_game(setting.game, dict(setting.variant)), seats, seed=seed,
                      time_control=TimeControl(move_time=60.0), on_event=server.pages.recorder(server.pages.desks))
        except BaseException as exc:  # shown below, in the main thread
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    try:
        url = server.url(desk)
        open_page(driver, url)
        answered = ""
        while thread.is_alive():
            state, request = driver.execute_script(
                "return [document.body.dataset.state || '', document.body.dataset.request || '']")
            if state == "deciding" and request != answered:
                driver.execute_script("document.querySelector('#groups button.choice').click()")
                answered = request
            time.sleep(0.005)
        thread.join()
        time.sleep(0.1)  # the last frame
        waits = driver.execute_script("return window.seatPage.waits")
        messages = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('poll?after=0').then((r) => r.text()).then(done);")
        page = server.pages.handle("GET", "/seat/" + desk.secret + "/", {"Host": url.split("/")[2]}, b"",
                                   server.origins).body
    finally:
        for bot in bots:
            bot.close()
        server.close()
    if failed:
        raise failed[0]
    gaps = [(asked - taken) * 1000 for taken, asked in zip(desk.taken, desk.asked_at[1:])]
    figures.browser += waits
    figures.referee += gaps[:len(waits)]
    figures.page_bytes, figures.page_gzip = len(page), len(gzip.compress(page))
    figures.message_bytes += len(messages.encode())
    figures.decisions += len(desk.asked_at)
    figures.matches += 1


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=80, help="the person's decisions per table, at least")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args(argv)
    results: dict[Setting, Figures] = {}
    load_before = Path("/proc/loadavg").read_text().split()[0]
    with chromium() as driver:
        for setting in SETTINGS:
            figures = results[setting] = Figures()
            seed = SEED
            while figures.decisions < args.decisions:
                play_one(driver, setting, seed, figures)
                seed += 1
    load_after = Path("/proc/loadavg").read_text().split()[0]

    table = Table(title="click to the next decision shown (ms)")
    for column in ("table", "matches", "decisions", "page p50", "page p95", "referee p50", "referee p95",
                   "web p50", "page KiB (gzip)", "messages / decision"):
        table.add_column(column, justify="left" if column == "table" else "right")
    rows = []
    for setting, f in results.items():
        web = [b - r for b, r in zip(f.browser, f.referee)]
        row = [setting.name, str(f.matches), str(f.decisions),
               f"{quantile(f.browser, 0.5):.0f}", f"{quantile(f.browser, 0.95):.0f}",
               f"{quantile(f.referee, 0.5):.0f}", f"{quantile(f.referee, 0.95):.0f}",
               f"{quantile(web, 0.5):.0f}", f"{f.page_bytes / 1024:.1f} ({f.page_gzip / 1024:.1f})",
               f"{f.message_bytes / max(1, f.decisions) / 1024:.1f} KiB"]
        table.add_row(*row)
        rows.append(row)
    Console().print(table)
    if args.no_record:
        return
    lines = [
        f"`python -m bench human` ({machine_summary()}; load average {load_before} before, {load_after} after, "
        "on 2 cores). Headless Chromium plays seat 0 by clicking (each choice the menu's first option) against "
        "random bots in their jails; per decision after the first, side by side: **page**, the click to the next "
        "decision drawn (measured in the page, to the animation frame after the next request is in it); "
        "**referee**, the answer taken to the next request handed to the page (the match loop and the bots alone); "
        "**web**, the first less the second (the answer's POST, the long poll's reply, the JSON, the drawing). "
        "Milliseconds. The page's weight as sent (HTML with its inline script and styles), gzipped in brackets; "
        "the messages of whole matches (their JSON) per decision of the person.",
        "",
        "| table | matches | decisions | page p50 | page p95 | referee p50 | referee p95 | web p50 | page KiB "
        "(gzip) | messages / decision |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *("| " + " | ".join(row) + " |" for row in rows),
    ]
    write_section(SECTION, "\n".join(lines))


if __name__ == "__main__":
    main()
