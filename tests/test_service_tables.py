"""A person's table through the ladder service (ladder/service/tables.py): from the
live page of `referee serve --web`, a token holder plays the ladder's bots.

The service is started as its own process on a Leduc ladder whose tables
it cannot seat (5 seats, 4 built-in bots), so it rates nothing while the
tests run: whatever changes in its data folder is the person tables' doing,
and the store must not change at all. A person opens a table in headless
Chromium from the live page, as a person would, and plays it by clicking;
the bots play in their jails; the record, kept apart in the data folder's
tables/, is the seat page's reference for what the page may never show.
Then the table door is knocked on as a stranger, another site and a greedy
token holder would.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_support import chromium, console_errors, open_page, requested_urls, screenshot
from ladder.service.tables import MAX_TABLES
from referee.records import read_record
from referee.replay import verify
from seat_support import PageClient, assert_nothing_hidden, play_page
from service_support import free_address, issue_token, snapshot, start_service

SHOTS = "browser-seat"


class Service:
    def __init__(self, data: Path, process: subprocess.Popen[bytes], web: str, tokens: dict[str, str]) -> None:
        self.data = data
        self.process = process
        self.web = web
        self.tokens = tokens

    def client(self, path: str = "/") -> PageClient:
        return PageClient(self.web + path.lstrip("/"))

    def open_table(self, token: str, bots: list[str], seat: int, *, origin: str | None = None,
                   host: str | None = None, kind: str = "application/json") -> tuple[int, str]:
        client = self.client("/play/table")
        headers = {"Origin": client.origin if origin is None else origin, "Content-Type": kind}
        if host is not None:
            headers["Host"] = host
        body = json.dumps({"token": token, "bots": bots, "seat": seat}).encode()
        status, _, text = client.request("POST", "", body, headers)
        return status, text


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    data = tmp_path_factory.mktemp("service")
    db = data / "ladder.sqlite"
    tokens = {name: issue_token(db, name) for name in ("alice", "bob", "carol")}
    web = free_address().rsplit(":", 1)[1]
    process = start_service(db, free_address(), "--game", "leduc", "--players", "5", "--workers", "1", "--web", web,
                            log=data / "service.log")
    try:
        yield Service(data, process, f"http://127.0.0.1:{web}/", tokens)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def store_files(data: Path) -> dict[str, bytes | None]:
    """The data folder but the person tables' own records."""
    return {name: content for name, content in snapshot(data).items() if not name.startswith("tables")}


def test_a_token_holder_plays_the_ladders_bots_from_the_live_page(service: Service, tmp_path: Path) -> None:
    before = store_files(service.data)
    with chromium() as driver:
        open_page(driver, service.web)
        WebDriverWait(driver, 30, ignored_exceptions=[NoSuchElementException, StaleElementReferenceException]).until(
            lambda d: d.find_element(By.ID, "play").click() or True)  # the live page redraws as it hears news
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#bots button[data-bot]"))
        bots = {b.get_attribute("data-bot"): b for b in driver.find_elements(By.CSS_SELECTOR, "#bots button[data-bot]")}
        assert {label.split("@")[0] for label in bots} == {"random", "heuristic", "mcts-0.2", "mcts-0.05"}
        driver.find_element(By.ID, "token").send_keys(service.tokens["alice"])
        next(b for label, b in bots.items() if label.startswith("heuristic@")).click()
        driver.find_element(By.ID, "seat").send_keys("1")
        screenshot(driver, SHOTS, "service-table-form")
        driver.find_element(By.ID, "open").click()
        WebDriverWait(driver, 30).until(lambda d: "/seat/" in d.current_url)
        seat_url = driver.current_url
        decisions = 0
        answered = ""
        deadline = time.monotonic() + 120
        while driver.execute_script("return document.body.dataset.state") != "over":
            assert time.monotonic() < deadline, "the table's match did not end"
            request = driver.execute_script("return document.body.dataset.request || ''")
            if driver.execute_script("return document.body.dataset.state") == "deciding" and request != answered:
                driver.execute_script("document.querySelector('#groups button.choice').click()")
                answered = request
                decisions += 1
            time.sleep(0.02)
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "viewer").is_displayed())
        screenshot(driver, SHOTS, "service-table-end")
        messages = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('poll?after=0').then((r) => r.text()).then(done);")
        page = driver.page_source
        urls = requested_urls(driver)
        assert all(url.startswith(service.web) for url in urls), urls
        assert console_errors(driver) == []
        driver.get(driver.find_element(By.ID, "viewer").get_attribute("href"))
        viewer = driver.page_source
        assert seat_url.startswith(service.web + "seat/")
    records = sorted((service.data / "tables").glob("*.jsonl"))
    assert len(records) == 1
    record = read_record(records[0])
    seats = record.header["seats"]
    assert [seat["kind"] for seat in seats] == ["process", "person"]
    assert (seats[1]["label"], seats[1]["name"]) == ("person:alice", "person")  # the bots are told no holder's name
    assert seats[0]["label"].startswith("heuristic@") and seats[0]["sandbox"], "the bot plays in its jail"
    mine = [line for entry in record.decisions for line in entry["seats"] if line["seat"] == 1]
    assert decisions == len(mine) >= 1
    assert assert_nothing_hidden([page, messages, viewer], record, 1) > 2
    verify(record)
    # never rated: the ladder's store, its tokens and its bots' logs are as they were, byte for byte
    assert store_files(service.data) == before


def test_a_table_is_opened_only_by_a_token_holder_from_the_page(service: Service) -> None:
    web = service.client()
    status, text = service.open_table("rft_not-a-token", ["random"], 0)
    assert status == 403 and "not a token of this ladder" in text
    for origin in ("http://evil.example", "null", web.origin.replace("127.0.0.1", "localhost.evil.example")):
        assert service.open_table(service.tokens["bob"], ["random"], 0, origin=origin)[0] == 403
    assert service.open_table(service.tokens["bob"], ["random"], 0, kind="text/plain")[0] == 415
    port = web.origin.rsplit(":", 1)[1]
    assert service.open_table(service.tokens["bob"], ["random"], 0, host=f"evil.example:{port}")[0] == 421
    status, text = service.open_table(service.tokens["bob"], ["<script>"], 0)
    assert status == 409 and "'<script>' is not a bot of this ladder's roster" in text
    status, text = service.open_table(service.tokens["bob"], ["random"] * 11, 0)
    assert status == 409 and "not 12" in text
    status, text = service.open_table(service.tokens["bob"], ["random"], 2)
    assert status == 409 and "choose 0 to 1" in text
    client = service.client("/play/table")  # a body past the limit is refused unread
    huge = json.dumps({"token": service.tokens["bob"], "bots": ["random"], "seat": 0, "pad": "x" * 4096}).encode()
    status, _, text = client.request("POST", "", huge, {"Origin": client.origin, "Content-Type": "application/json"})
    assert status == 413 and "at most" in text


def test_one_table_per_token_and_a_few_at_once(service: Service) -> None:
    opened: list[PageClient] = []
    status, text = service.open_table(service.tokens["bob"], ["random"], 0)
    assert status == 200, text
    opened.append(service.client(json.loads(text)["href"]))
    status, text = service.open_table(service.tokens["bob"], ["random"], 0)
    assert status == 409 and "you have a table open already" in text
    for name in ("carol",)[: MAX_TABLES - 1]:
        status, text = service.open_table(service.tokens[name], ["mcts-0.05"], 1)
        assert status == 200, text
        opened.append(service.client(json.loads(text)["href"]))
    status, text = service.open_table(service.tokens["alice"], ["random"], 0)
    assert status == 409 and f"all {MAX_TABLES} tables are in play" in text
    for number, client in enumerate(opened):  # each table played to its end frees its place
        play_page(client, seed=number)
    deadline = time.monotonic() + 30
    while (status := service.open_table(service.tokens["alice"], ["random"], 0)[0]) != 200:
        assert time.monotonic() < deadline and status == 409
        time.sleep(0.2)
    status, _ = service.client().get("play")
    assert status == 200


def test_the_live_page_offers_tables_only_on_this_machine(tmp_path: Path) -> None:
    """A live page served beyond 127.0.0.1 offers no tables: a token would cross the network in clear."""
    db = tmp_path / "ladder.sqlite"
    web = free_address().rsplit(":", 1)[1]
    log = tmp_path / "service.log"
    process = start_service(db, free_address(), "--game", "leduc", "--players", "5", "--web", f"0.0.0.0:{web}",
                            log=log)
    try:
        client = PageClient(f"http://127.0.0.1:{web}/play")
        assert client.get("")[0] == 404
        assert "person tables are off" in log.read_text()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
