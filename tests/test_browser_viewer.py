"""The match viewer in a real browser (headless Chromium), used as a person would.

Pages of real records (`referee play --record`, then `referee view --out`)
are opened and stepped through with the keyboard; what each step shows is
read from the page and compared with the record replayed through the
engine: the step's events by their place in the record and their audience
(`visible_to`), the table by the viewing seat's own observation, the
reference of `referee replay --seat` (G-10, S-8). Screenshots are kept in
test-artifacts/browser-viewer/.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import chromium, console_errors, open_page, play_record, requested_urls, screenshot
from referee.records import MatchRecord, read_record
from referee.replay import Step, steps

pytestmark = pytest.mark.slow  # a real Chromium

SHOTS = "browser-viewer"
STATE = """
const rows = [...document.querySelectorAll('#table tr[data-seat]')];
return {
  step: document.body.dataset.step, view: document.body.dataset.view,
  title: document.getElementById('step-title').textContent,
  events: [...document.querySelectorAll('#step-events li')].map(li => li.dataset.event),
  seats: rows.map(tr => ({
    seat: Number(tr.dataset.seat),
    cells: [...tr.children].map(td => td.textContent),
    cards: [...tr.querySelectorAll('[data-card]')].map(e => Number(e.dataset.card)),
    ious: [...tr.querySelectorAll('.hand [data-iou]')].map(e => e.dataset.iou),
    role: (tr.querySelector('[data-role]') || {dataset: {}}).dataset.role,
    hand: [...tr.querySelectorAll('[data-hand-card]')].map(e => e.dataset.handCard),
  })),
  slots: [...document.querySelectorAll('#table [data-slot]')].map(e => [e.dataset.slot, e.className,
          (e.querySelector('[data-iou]') || {dataset: {}}).dataset.iou]),
  cells: [...document.querySelectorAll('#table [data-cell]')].map(e => [e.dataset.cell, e.dataset.card]),
  goals: [...document.querySelectorAll('#table [data-goal]')].map(e => [e.dataset.goal, e.dataset.goalCard]),
  interlude: !document.getElementById('interlude').hidden,
};
"""


WALK = "const read = () => {" + STATE + "};" + """
const states = [];
for (let i = 0; i < arguments[0]; i++) {
  states.push(read());
  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
}
return states;
"""
"""Reads the page, presses the right arrow, again and again: a whole walk
through the match in one round trip to the browser."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("viewer")
    return {"gnadenlos": play_record(folder, "gnadenlos", 3, seed=23),
            "saboteur": play_record(folder, "saboteur", 4, seed=29)}


def view_page(record: Path, *args: str) -> Path:
    """`referee view RECORD ARGS --out PAGE`, made once per module."""
    page = record.parent / (record.stem + "".join(args).replace("-", "") + ".html")
    if page.exists():
        return page
    subprocess.run([sys.executable, "-m", "referee.cli.main", "view", str(record), *args, "--out", str(page)],
                   check=True, capture_output=True, timeout=120)
    return page


def shown_events(record: MatchRecord, number: int, seat: int) -> list[str]:
    """The keys of a step's events that `seat` was sent, straight from the record."""
    events = record.setup["events"] if number == 0 else record.decisions[number - 1]["events"]
    return [f"{number}.{i}" for i, event in enumerate(events) if seat in event["visible_to"]]


def press(driver: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def choose_view(driver: Any, key: str) -> None:
    from selenium.webdriver.support.ui import Select

    select = Select(driver.find_element("id", "view"))
    options = [o.get_attribute("value") for o in select.options]
    titles = driver.execute_script("return JSON.parse(document.getElementById('page-data').textContent)"
                                   ".views.map(v => v.key)")
    select.select_by_value(options[titles.index(key)])
    driver.find_element("tag name", "body").click()  # keys go to the page again, not the list


def check_gnadenlos_seat(state: dict[str, Any], step: Step, seat: int) -> None:
    """The table as seat `seat` knew it after `step`: every hand's known
    adventurers and IOUs exactly its observation's, every market slot known
    only if its observation knows it (G-10)."""
    obs = step.observations[seat].to_json()
    for row in state["seats"]:
        holder = row["seat"]
        assert row["cells"][1] == str(obs["fields"][holder]) and row["cells"][2] == str(obs["nuggets"][holder])
        assert sorted(row["cards"]) == sorted(obs["adv_hands"][holder]["known"]), (step.index, holder)
        assert sorted(row["ious"]) == sorted(f"{c}-{v}" for c, v in obs["iou_hands"][holder]["known"])
    for slot, kind, iou in state["slots"]:
        row, col = map(int, slot.split("-"))
        seen = obs["market"][row][col]
        if isinstance(seen, list):
            assert "known" in kind and iou == f"{seen[0]}-{seen[1]}"
        else:
            assert "known" not in kind and iou is None, (step.index, slot, seen)


def test_stepping_the_viewer_shows_each_decision_as_the_record_says(
        browser: Any, records: dict[str, Path]) -> None:
    record_path = records["gnadenlos"]
    page = view_page(record_path)
    record = read_record(record_path)
    replayed = list(steps(record))
    open_page(browser, page.resolve().as_uri() + "#view=seat0")
    seen_fields = set()
    for number, step in enumerate(replayed):
        state = browser.execute_script(STATE)
        assert state["step"] == str(number) and state["view"] == "seat0"
        assert state["title"] == ("the deal" if number == 0 else f"decision {record.decisions[number - 1]['n']}")
        assert state["events"] == shown_events(record, number, 0)
        check_gnadenlos_seat(state, step, 0)
        seen_fields.add(tuple(row["cells"][1] for row in state["seats"]))
        if number == len(replayed) // 2:
            screenshot(browser, SHOTS, "gnadenlos-seat0-middle")
        press(browser, "\ue014")  # the right arrow: the next step
    assert len(seen_fields) > 1, "the hats moved during the match"
    ranks = browser.execute_script("return [...document.querySelectorAll('#result tr[data-seat]')]"
                                   ".map(tr => [Number(tr.dataset.seat), tr.children[0].textContent])")
    assert record.footer is not None
    assert {seat: int(place) - 1 for seat, place in ranks} == dict(enumerate(record.footer["ranks"]))
    assert console_errors(browser) == []


def test_a_seat_view_never_shows_a_card_the_seat_did_not_know(browser: Any, records: dict[str, Path]) -> None:
    record_path = records["gnadenlos"]
    replayed = list(steps(read_record(record_path)))
    open_page(browser, view_page(record_path).resolve().as_uri())
    choose_view(browser, "all")
    whole = browser.execute_script(STATE)  # the deal, every hand face up
    known = {card for hand in replayed[0].observations[2].to_json()["adv_hands"] for card in hand["known"]}
    assert {card for row in whole["seats"] for card in row["cards"]} - known, "the check can fail"

    open_page(browser, view_page(record_path, "--seat", "2").resolve().as_uri())  # seat 2's page alone
    for number in range(0, len(replayed), 10):
        state = browser.execute_script(STATE)
        assert state["view"] == "seat2" and state["step"] == str(number)
        check_gnadenlos_seat(state, replayed[number], 2)
        press(browser, "\ue00f")  # PageDown: ten steps on
    assert console_errors(browser) == []


def test_the_saboteur_maze_is_drawn_card_by_card_and_roles_stay_secret(
        browser: Any, records: dict[str, Path]) -> None:
    record_path = records["saboteur"]
    record = read_record(record_path)
    replayed = list(steps(record))
    page = view_page(record_path, "--seat", "3")
    open_page(browser, page.resolve().as_uri())
    round_ends = []
    for number, (step, state) in enumerate(zip(replayed, browser.execute_script(WALK, len(replayed)), strict=True)):
        obs = step.observations[3].to_json()
        assert state["events"] == shown_events(record, number, 3)
        assert sorted(state["cells"]) == sorted([f"{x},{y}", card] for x, y, card, _ in obs["maze"])
        for cell, shown in state["goals"]:
            goal = next(g for g in obs["goals"] if f"{g['x']},{g['y']}" == cell)
            assert shown == ("unknown" if goal["card"] is None else goal["card"]), (number, cell)  # S-5.4
        for row in state["seats"]:
            assert row["role"] == (obs["roles"][row["seat"]] or "unknown")  # S-6.2: others' roles at round end only
            assert row["hand"] == (obs["hand"] if row["seat"] == 3 else [])
        if state["interlude"]:
            round_ends.append(number)
    assert console_errors(browser) == []
    assert round_ends == [n for n, s in enumerate(replayed) if any(e.kind == "round_ended" for e in s.events)]
    open_page(browser, page.resolve().as_uri() + f"#view=seat3&step={round_ends[0]}")
    screenshot(browser, SHOTS, "saboteur-seat3-round-end")


def test_the_slider_and_the_whole_record_view(browser: Any, records: dict[str, Path]) -> None:
    page = view_page(records["saboteur"])
    open_page(browser, page.resolve().as_uri())
    slider = browser.find_element("id", "slider")
    browser.execute_script("arguments[0].value = arguments[0].max; arguments[0].dispatchEvent(new Event('input'))",
                           slider)
    state = browser.execute_script(STATE)
    assert state["view"] == "all" and int(state["step"]) == int(slider.get_attribute("max"))
    assert browser.find_element("css selector", "#result table.result").is_displayed()
    screenshot(browser, SHOTS, "saboteur-all-end")
    press(browser, "\ue011")  # Home: the deal
    assert browser.execute_script(STATE)["title"] == "the deal"
    assert console_errors(browser) == []


def test_the_viewer_reaches_no_network(browser: Any, records: dict[str, Path]) -> None:
    page = view_page(records["gnadenlos"])
    text = page.read_text()
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", text, re.I)
    assert "default-src 'none'" in html.unescape(text)
    open_page(browser, page.resolve().as_uri())
    press(browser, "\ue010")  # End: every part of the page has been drawn once
    urls = requested_urls(browser)
    assert urls and all(url.startswith(("file://", "data:")) for url in urls), urls
    assert console_errors(browser) == []
