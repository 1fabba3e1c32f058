"""The ladder report and the live page in a real browser (headless Chromium).

A ladder is run in-process with a fake match runner (the scheduler, the
ratings and the store are the real ones; each match keeps a real record
made by `referee play`, so the viewer links have something to show). The
report (`referee report`) and the live page (`referee report --web PORT`,
the server `referee ladder --web PORT` runs beside its ladder) are opened
as a person would; what they show is compared with `referee table --json`,
the standings' own interface. Each is laid out at a desktop's width (1400
px) and a phone's (390 px) and must weigh less than 1 MB (it inlined a
4.8 MB chart library before). Screenshots at both widths:
test-artifacts/browser-report/.
"""

from __future__ import annotations

import html
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import (
    PHONE,
    WIDE,
    chromium,
    console_errors,
    open_page,
    play_record,
    requested_urls,
    screenshot,
    viewport,
)
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import Store
from ladder_support import add_bots
from process_support import with_default_sigint
from report_support import RecordingRunner, check_charts, expected_standings, layout_faults, shown_standings

pytestmark = pytest.mark.slow  # a real Chromium

SHOTS = "browser-report"
NAMES = ["alpha", "bravo", "charlie <b>d</b>"]  # a name that is markup must show as text
NEWCOMER = "delta"
"""Registered after the ladder's matches: ranked, but not rated yet."""
MAX_PAGE = 1_000_000
"""Bytes: a report is sent by mail and a live page reloaded; each weighed 4.8 MB with plotly.js inlined."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


@pytest.fixture(scope="module")
def ladder_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RecordingRunner]:
    folder = tmp_path_factory.mktemp("report")
    record = play_record(folder, "gnadenlos", 3, seed=41).read_bytes()
    db = folder / "data" / "ladder.sqlite"
    with Store(db) as store:
        ids = add_bots(store, NAMES)
        runner = RecordingRunner(strength=dict(zip(ids, [0.0, 1.0, 2.0])), luck=1.5, record=record)
        Ladder(store, InlinePool(runner), LadderConfig(matches=18, sizes=(3,), seed=3)).run()
        add_bots(store, [NEWCOMER])
    return db, runner


def referee(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee.cli.main", *args], capture_output=True, text=True,
                          timeout=120, check=True)


def table_json(db: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(referee("table", "--db", str(db), "--json", "--h2h", "--seats").stdout)
    return data


def check_layout(browser: Any, url: str, shot: str) -> None:
    """The page laid out at a desktop's and at a phone's width: nothing
    sticks out, columns line up under their headers, no legend is
    covered; a screenshot of each."""
    for width in (WIDE, PHONE):
        viewport(browser, width)
        open_page(browser, url)
        assert browser.execute_script("return window.innerWidth") == width
        assert layout_faults(browser) == [], width
        assert console_errors(browser) == []
        screenshot(browser, SHOTS, f"{shot}-{width}", width)
    viewport(browser, WIDE)


def above_next(browser: Any) -> dict[str, str]:
    """What the standings' "P(> next)" column says of each bot."""
    return dict(browser.execute_script(
        "return [...document.querySelectorAll('#standings tr[data-bot]')].map(tr => "
        "[tr.dataset.bot, tr.querySelector('td.p').textContent])"))


def test_the_report_shows_the_standings_and_plots_of_the_ladder(
        browser: Any, ladder_store: tuple[Path, RecordingRunner], tmp_path: Path) -> None:
    db, _ = ladder_store
    out = tmp_path / "report.html"
    said = referee("report", "--db", str(db), "--out", str(out), "--viewers", "3").stdout
    assert str(out) in said and "3 of 18" in said
    page = out.read_text()
    assert len(page.encode()) < MAX_PAGE
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", page, re.I)
    assert "default-src 'none'" in html.unescape(page)

    open_page(browser, out.resolve().as_uri())
    table = table_json(db)
    assert shown_standings(browser) == expected_standings(table)
    check_charts(browser, table)
    assert browser.find_element("css selector", "#standings td.bot").text in NAMES  # text, not markup
    ranked = [row["bot"] for row in table["standings"]]
    assert ranked[-1] == NEWCOMER and table["standings"][-1]["matches"] == 0  # ranked on the starting rating
    shown = above_next(browser)  # not 50 % above the newcomer: it has no rating to compare with yet
    assert shown[NEWCOMER] == "" and shown[ranked[-2]] == "–"
    assert all(shown[bot].endswith(" %") for bot in ranked[:-2]), shown
    assert all(url.startswith(("file://", "data:")) for url in requested_urls(browser))
    assert console_errors(browser) == []
    check_layout(browser, out.resolve().as_uri(), "report")

    links = browser.find_elements("css selector", "#matches a")
    assert len(links) == 3
    links[0].click()
    assert browser.find_element("id", "step-title").text == "the deal"
    assert console_errors(browser) == []


def test_the_live_page_follows_the_ladder_as_matches_finish(
        browser: Any, ladder_store: tuple[Path, RecordingRunner]) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    db, runner = ladder_store
    viewport(browser, WIDE)
    server = subprocess.Popen([sys.executable, "-m", "referee.cli.main", "report", "--db", str(db), "--web", "0"],
                              stdout=subprocess.PIPE, text=True, preexec_fn=with_default_sigint)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        open_page(browser, url.group(0))
        WebDriverWait(browser, 30).until(lambda d: d.execute_script("return document.body.dataset.matches") == "18")
        assert shown_standings(browser) == expected_standings(table_json(db))

        with Store(db) as store:  # the ladder goes on, in this process, while the page is open
            Ladder(store, InlinePool(runner), LadderConfig(matches=6, sizes=(3,), seed=4)).run()
        WebDriverWait(browser, 30).until(lambda d: d.execute_script("return document.body.dataset.matches") == "24")
        table = table_json(db)
        WebDriverWait(browser, 10).until(lambda d: shown_standings(d) == expected_standings(table))
        check_charts(browser, table)
        assert browser.find_element("css selector", "#summary .live").text == "· live"
        assert all(u.startswith((url.group(0), "data:")) for u in requested_urls(browser))
        assert console_errors(browser) == []
        with urllib.request.urlopen(url.group(0), timeout=30) as served:
            assert len(served.read()) < MAX_PAGE
        check_layout(browser, url.group(0), "live")

        browser.find_element("css selector", "#matches a").click()  # a finished match, viewed from the server
        assert browser.find_element("id", "step-title").text == "the deal"
        assert console_errors(browser) == []
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    assert server.returncode == 0 or server.returncode == -signal.SIGINT or os.name != "posix"
