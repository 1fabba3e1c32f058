"""The ladder service's pages in a real browser (headless Chromium):
`referee report --server ADDR` and the live page of `referee serve --web`.

The store is filled first by an in-process ladder with a fake match runner
(the scheduler, ratings and store are the real ones; every match keeps a
real record made by `referee play`), 19 matches of duplicate sets of 3, so
the last set has one match rated and two still planned. Its bots are real
random bots, so the service, started on it as its own process, can play
those two when it is let: it is started with 4-seat tables and 3 bots, and
waits, until the test registers a fourth. What the pages show is compared
with `referee table --json` and the service's own answers; the live page
shows no token, no bot's own output and no path of the service's machine.
Screenshots: test-artifacts/browser-service/.
"""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from botsdk.pb.ladder.v1 import ladder_pb2, ladder_pb2_grpc
from browser_support import chromium, console_errors, open_page, play_record, requested_urls, screenshot
from ladder.reporting.report_page import WITHHELD
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import Store
from ladder_support import install_bot, random_bot_folder
from report_support import RecordingRunner, check_charts, expected_standings, page_data, shown_matches, shown_standings
from service_support import free_address, referee, start_service

pytestmark = pytest.mark.slow  # a real Chromium and a ladder service

SHOTS = "browser-service"
NAMES = ("alpha", "bravo", "charlie")
MATCHES = 19
"""Six whole duplicate sets of 3 and the first match of a seventh."""
WAITING = ("--no-builtins", "--players", "4", "--workers", "1", "--move-time", "1s")
"""4-seat tables: the 3 bots of the store cannot be seated, so the service waits."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


@pytest.fixture(scope="module")
def filled_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The data folder of a ladder of real bots, 19 matches rated (made once; each test copies it)."""
    folder = tmp_path_factory.mktemp("service-pages")
    record = play_record(folder, "gnadenlos", 3, seed=41).read_bytes()
    db = folder / "data" / "ladder.sqlite"
    with Store(db) as store:
        ids = [install_bot(store, random_bot_folder(folder / "bots" / name), name) for name in NAMES]
        runner = RecordingRunner(strength=dict(zip(ids, [0.0, 1.0, 2.0])), luck=1.5, record=record)
        Ladder(store, InlinePool(runner), LadderConfig(matches=MATCHES, sizes=(3,), seed=3)).run()
        assert len(store.planned("gnadenlos")) == 2
    return db.parent


@pytest.fixture
def service(filled_store: Path, tmp_path: Path) -> Iterator[tuple[Path, str, str]]:
    """`referee serve --web 0` on a copy of the filled store: (db, API address, live page URL)."""
    data = tmp_path / "data"
    shutil.copytree(filled_store, data, symlinks=True)
    db, address, log = data / "ladder.sqlite", free_address(), tmp_path / "serve.log"
    process = start_service(db, address, *WAITING, "--web", "0", log=log)
    try:
        yield db, address, live_url(log)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0, log.read_text()


def live_url(log: Path) -> str:
    deadline = time.monotonic() + 30
    while not (found := re.search(r"live page: (http://127\.0\.0\.1:\d+/)", log.read_text())):
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)
    return found.group(1)


def served_table(address: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(referee("table", "--server", address, "--json", "--h2h", "--seats"))
    return data


def newest(db: Path) -> list[str]:
    """The stored match ids, newest first."""
    with Store(db, create=False) as store:
        return [m["match_id"] for m in reversed(store.matches("gnadenlos"))]


def test_report_from_the_service_is_the_report_of_its_store(
        browser: Any, service: tuple[Path, str, str], tmp_path: Path) -> None:
    db, address, _ = service
    served, local = tmp_path / "served" / "report.html", tmp_path / "local" / "report.html"
    assert "5 of 19" in referee("report", "--server", address, "--out", str(served), "--viewers", "6")
    assert "5 of 19" in referee("report", "--db", str(db), "--out", str(local), "--viewers", "6")

    served_data, local_data = page_data(served.read_text()), page_data(local.read_text())
    assert served_data.pop("generated") and local_data.pop("generated")
    assert served_data == local_data  # the same standings, plots, matches and links
    viewers = sorted(p.name for p in (served.parent / "report-matches").iterdir())
    assert viewers == sorted(p.name for p in (local.parent / "report-matches").iterdir()) and len(viewers) == 5
    assert all((served.parent / "report-matches" / name).read_bytes() ==
               (local.parent / "report-matches" / name).read_bytes() for name in viewers)
    unfinished, finished = newest(db)[:2]  # the last set's one rated match, withheld, and the one before
    listed = {m["match_id"]: m for m in served_data["recent"]}
    assert listed[unfinished]["note"] == WITHHELD and "href" not in listed[unfinished]
    assert listed[finished]["href"] == f"report-matches/{finished}.html"

    stub = ladder_pb2_grpc.LadderStub(grpc.insecure_channel(address))
    with pytest.raises(grpc.RpcError) as withheld:
        stub.GetRecord(ladder_pb2.GetRecordRequest(match_id=unfinished), timeout=30)
    assert withheld.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "every seat rotation" in (withheld.value.details() or "")
    assert stub.GetRecord(ladder_pb2.GetRecordRequest(match_id=finished), timeout=30).record

    open_page(browser, served.resolve().as_uri())
    table = served_table(address)
    assert table["matches"] == MATCHES
    assert shown_standings(browser) == expected_standings(table)
    check_charts(browser, table)
    assert shown_matches(browser)[unfinished] is None
    assert all(url.startswith(("file://", "data:")) for url in requested_urls(browser))
    assert console_errors(browser) == []
    screenshot(browser, SHOTS, "report-from-service")

    wrong = referee("report", "--server", address, "--db", str(db), code=2)
    assert "not both" in wrong


def test_the_live_page_of_the_service_follows_its_ladder(
        browser: Any, service: tuple[Path, str, str], tmp_path: Path) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    db, address, url = service
    open_page(browser, url)
    WebDriverWait(browser, 30).until(lambda d: d.execute_script("return document.body.dataset.matches") == "19")
    assert shown_standings(browser) == expected_standings(served_table(address))
    unfinished, finished = newest(db)[:2]
    assert shown_matches(browser)[unfinished] is None
    assert WITHHELD in browser.find_element("css selector", f'#matches tr[data-match="{unfinished}"]').text
    assert shown_matches(browser)[finished] == f"match/{finished}"
    screenshot(browser, SHOTS, "live-waiting")

    with Store(db) as store:  # a fourth bot: the service plays 4-seat tables; the 3-seat set an earlier run left
        install_bot(store, random_bot_folder(tmp_path / "bots" / "delta"), "delta")  # open is not its size (issue 29)
    WebDriverWait(browser, 240).until(lambda d: int(d.execute_script("return document.body.dataset.matches")) >= 21,
                                      f"the page did not follow; the service said: {(tmp_path / 'serve.log').read_text()}")
    assert "2 matches an earlier run planned are left for a later run" in (tmp_path / "serve.log").read_text()
    assert shown_matches(browser).get(unfinished) is None  # so that set's match stays withheld

    def agrees(driver: Any) -> bool:
        """The page shows the standings the service holds (it keeps playing: compared at one match count)."""
        table = served_table(address)
        return (driver.execute_script("return document.body.dataset.matches") == str(table["matches"])
                and shown_standings(driver) == expected_standings(table))

    WebDriverWait(browser, 120, poll_frequency=0.2).until(agrees)
    # the service keeps playing: a live update may replace the summary between finding it and reading it
    WebDriverWait(browser, 30, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: d.find_element("css selector", "#summary .live").text == "· live")
    screenshot(browser, SHOTS, "live")
    assert all(u.startswith((url, "data:")) for u in requested_urls(browser))
    assert console_errors(browser) == []

    token = referee("token", "add", "alice", "--db", str(db)).splitlines()[0]
    with urllib.request.urlopen(url, timeout=30) as page, urllib.request.urlopen(url + "events", timeout=30) as events:
        shown = page.read().decode() + events.readline().decode()  # the page and its first live message
    assert "choice bot starting" in (db.parent / "logs" / "alpha@v1.log").read_text()
    for secret in (token, "choice bot starting", str(db.parent)):  # a token, a bot's own output, the service's paths
        assert secret not in shown

    def open_viewer(driver: Any) -> bool:
        """The service keeps playing: a live update may replace the row between finding its link and the click."""
        driver.find_element("css selector", f'#matches tr[data-match="{finished}"] a').click()
        return True

    WebDriverWait(browser, 30, ignored_exceptions=(StaleElementReferenceException,)).until(open_viewer)
    assert browser.find_element("id", "step-title").text == "the deal"
    assert console_errors(browser) == []


def test_bad_web_and_server_options_are_refused_clearly(tmp_path: Path) -> None:
    db = tmp_path / "data" / "ladder.sqlite"
    assert "is not PORT or HOST:PORT" in referee("serve", "--db", str(db), "--web", "eighty", code=2)
    assert "`referee serve --web PORT`" in referee("report", "--server", free_address(), "--web", "0", code=2)
    assert "cannot reach the ladder service" in referee("report", "--server", free_address(), "--out",
                                                        str(tmp_path / "r.html"), code=1)
    assert not (tmp_path / "r.html").exists()
