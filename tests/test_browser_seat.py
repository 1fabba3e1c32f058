"""Playing against the bots in a real browser, as a person would (issue 26).

`referee play --bot human ...` is started as a person starts it; headless
Chromium opens the printed address and plays the whole match by clicking:
Gnadenlos! at 4 seats (the base rules and `auction=single`), Saboteur at 5
(path cards placed on the maze, turned where the choice is turned), Leduc
at 2, against the built-in random bots in their jails. Each match is then
checked as its player would check it: the result the page shows is the
referee's, the viewer it links to opens on the seat's own view, each
action clicked is the one the record holds, the record verifies; and as
the page's adversary would: everything the page received (its HTML, every
message, the viewer) holds nothing the seat did not know
(tests/seat_support.py), nothing was fetched from anywhere but its own
server, the console is clean. A bot's hostile name is shown as text.

Screenshots of each game's seat page, at a desktop's and a phone's width,
are kept in test-artifacts/browser-seat/.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_support import PHONE, WIDE, chromium, console_errors, open_page, requested_urls, screenshot, viewport
from referee.games import load_game
from referee.records import read_record
from seat_support import assert_nothing_hidden

SHOTS = "browser-seat"
SEED = 2_718_281_828
STATE = "return [document.body.dataset.state || '', document.body.dataset.request || '']"
MESSAGES = """
const done = arguments[arguments.length - 1];
fetch("poll?after=0", {cache: "no-store"}).then((r) => r.text()).then(done, (e) => done("failed: " + e));
"""
"""Every message the page was sent, as the page itself asks for them."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


@dataclass
class Seated:
    """A `referee play` with a person at `seat`, and its page's address."""

    process: subprocess.Popen[str]
    url: str
    record: Path
    seat: int
    chosen: list[str] = field(default_factory=list)
    """The action text of each choice clicked, in order."""


def start_play(tmp_path: Path, game: str, bots: list[str], seat: int, *args: str) -> Seated:
    record = tmp_path / f"{game}.jsonl"
    specs = [*bots[:seat], "human", *bots[seat:]]
    command = [sys.executable, "-m", "referee.cli.main", "play", "--game", game, "--seed", str(SEED + seat),
               "--move-time", "30s", "--no-open", "--json", "--record", str(record), *args]
    for spec in specs:
        command += ["--bot", spec]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        found = re.search(rf"seat {seat} is yours: play it at (http://127\.0\.0\.1:\d+/seat/[\w-]+/)", line)
        if found:
            return Seated(process, found.group(1), record, seat)
    process.kill()
    raise AssertionError("referee play printed no page address")


def click(driver: Any, element: Any) -> None:
    """A person's click (through the page's own handler, whatever lies over the element)."""
    driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", element)


def choose(driver: Any, seated: Seated, rng: random.Random) -> None:
    """One decision, as a person makes it: on Saboteur's maze where a path
    card can go (choosing the card, turning it), else a button of the menu."""
    cards = driver.find_elements(By.CSS_SELECTOR, "#cards button")
    if cards and rng.random() < 0.8:
        click(driver, rng.choice(cards))
        if rng.random() < 0.5:
            click(driver, driver.find_element(By.ID, "rotate"))
        targets = driver.find_elements(By.CSS_SELECTOR, "#targets .target")
        assert targets, "a chosen path card shows where it can go"
        target = rng.choice(targets)
        seated.chosen.append(target.get_attribute("data-action"))
        click(driver, target)
        return
    buttons = driver.find_elements(By.CSS_SELECTOR, "#groups button.choice")
    assert buttons
    button = rng.choice(buttons)
    seated.chosen.append(button.get_attribute("data-action"))
    click(driver, button)


def play_by_clicking(driver: Any, seated: Seated, shot: str | None = None, shoot_when: str = "") -> int:
    """Click through the match to its end; keep screenshots of the first
    decision whose menu mentions `shoot_when`. Returns the decisions made."""
    open_page(driver, seated.url)
    rng = random.Random(SEED)
    answered = ""
    decisions = 0
    deadline = time.monotonic() + 240
    while True:
        assert time.monotonic() < deadline, "the match did not end in four minutes"
        state, request = driver.execute_script(STATE)
        if state == "over":
            return decisions
        if state == "deciding" and request != answered:
            if shot is not None and shoot_when in driver.find_element(By.ID, "choices").text:
                screenshot(driver, SHOTS, f"{shot}-wide", WIDE)
                screenshot(driver, SHOTS, f"{shot}-phone", PHONE)
                viewport(driver, WIDE)
                shot = None
            choose(driver, seated, rng)
            answered = request
            decisions += 1
        time.sleep(0.01)


def finish(driver: Any, seated: Seated) -> tuple[dict[str, Any], list[str]]:
    """After the end: the page's result against the referee's, its viewer,
    and everything the page received."""
    WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "viewer").is_displayed())
    page = driver.page_source
    messages = driver.execute_async_script(MESSAGES)
    assert messages.startswith('{"next":'), messages
    own = seated.url.split("/seat/")[0]
    urls = requested_urls(driver)
    assert urls and all(url.startswith(own + "/") for url in urls), [u for u in urls if not u.startswith(own)]
    assert console_errors(driver) == []
    result_text = driver.find_element(By.ID, "result").text
    places = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
              for row in driver.find_elements(By.CSS_SELECTOR, "#ranking tr")][1:]
    status = driver.find_element(By.ID, "turn").text
    link = driver.find_element(By.ID, "viewer").get_attribute("href")
    driver.get(link)
    viewer = driver.page_source
    assert driver.execute_script("return document.body.dataset.view") == f"seat{seated.seat}"
    out, err = seated.process.communicate(timeout=60)
    assert seated.process.returncode in (0, 1), err  # 1: a bot forfeited (none should)
    result = json.loads(out)
    assert f"you placed {result['ranks'][seated.seat] + 1} of {len(result['ranks'])}" in status
    assert f"Result: {result['end_reason']}" in result_text
    ranking = sorted(range(len(result["ranks"])), key=lambda seat: (result["ranks"][seat], seat))
    assert [place for place, _ in places] == [str(result["ranks"][seat] + 1) for seat in ranking]
    assert [label.rpartition("[")[2] for _, label in places] == [f"{seat}]" for seat in ranking]
    return result, [page, messages, viewer]


def check_record(seated: Seated, result: dict[str, Any], received: list[str], decisions: int) -> None:
    record = read_record(seated.record)
    assert record.header["seats"][seated.seat]["kind"] == "person"
    assert result["seats"][seated.seat]["strikes"] == 0
    game = load_game(record.header["game"])
    mine = [line for entry in record.decisions for line in entry["seats"] if line["seat"] == seated.seat]
    assert len(mine) == decisions == len(seated.chosen)
    assert [str(game.action_from_json(line["action"])) for line in mine] == seated.chosen
    assert assert_nothing_hidden(received, record, seated.seat) >= 2
    for command in (["verify", str(seated.record)], ["replay", str(seated.record), "--verify"]):
        done = subprocess.run([sys.executable, "-m", "referee.cli.main", *command], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0 and "verified" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("variant,shoot_when", [(None, "bid"), ("auction=single", "first or last")])
def test_gnadenlos_at_four_seats_played_by_clicking(browser: Any, tmp_path: Path, variant: str | None,
                                                    shoot_when: str) -> None:
    args = ["--variant", variant] if variant else []
    seated = start_play(tmp_path, "gnadenlos", ["random"] * 3, 1, *args)
    name = "gnadenlos" + (f"-{variant.replace('=', '-')}" if variant else "")
    decisions = play_by_clicking(browser, seated, name, shoot_when)
    result, received = finish(browser, seated)
    assert result["variant"]["auction"] == (variant or "auction=standard").split("=")[1]
    check_record(seated, result, received, decisions)


def test_saboteur_at_five_seats_placing_cards_on_the_maze(browser: Any, tmp_path: Path) -> None:
    seated = start_play(tmp_path, "saboteur", ["random"] * 4, 2)
    decisions = play_by_clicking(browser, seated, "saboteur", "place")
    result, received = finish(browser, seated)
    placed = [action for action in seated.chosen if action.startswith("place ")]
    assert placed and any(action.endswith(" turned") for action in placed), seated.chosen
    check_record(seated, result, received, decisions)


def test_leduc_at_two_seats(browser: Any, tmp_path: Path) -> None:
    seated = start_play(tmp_path, "leduc", ["random"], 0)
    decisions = play_by_clicking(browser, seated, "leduc", "call")
    result, received = finish(browser, seated)
    check_record(seated, result, received, decisions)


def test_a_bots_hostile_name_is_shown_as_text(browser: Any, tmp_path: Path) -> None:
    """A bot named like markup: its name is shown, letter for letter, and no
    element, script or handler of its making exists on the page."""
    hostile = '<img src=x onerror="document.title=1">'
    bot = f"{Path(__file__).parent / 'bots' / 'hostile_text.py'} '{hostile}'"
    seated = start_play(tmp_path, "leduc", [bot], 0)
    decisions = play_by_clicking(browser, seated)
    assert decisions >= 1
    labels = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#seats .seat")]
    assert labels[1] == hostile + "[1]"
    assert browser.find_elements(By.CSS_SELECTOR, "img") == []
    assert browser.title != "1"
    result, received = finish(browser, seated)
    assert result["forfeits"] == {"1": "crashed"}  # it raises at its first decision
