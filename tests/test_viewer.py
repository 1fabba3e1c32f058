"""`referee view`: the viewer page of a match record, read without a browser.

What a page holds is checked against the record itself (each event's
`visible_to`) and against the seat's own observations, the reference of
`referee replay --seat` (G-10, S-8): a page made for one seat must hold
nothing that seat did not know, not even in data the page does not show.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from browser_support import play_record
from referee.games.plugin import plugins
from referee.records import read_record
from referee.replay import steps
from referee.web.drawing import GameDrawing
from referee.web.page import DATA_ID


def referee(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee.cli.main", *args], capture_output=True, text=True,
                          timeout=120)


def page_data(path: Path) -> dict[str, Any]:
    text = path.read_text()
    found = re.search(f'<script type="application/json" id="{DATA_ID}">(.*?)</script>', text, re.S)
    assert found, "the page has no data block"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


@pytest.fixture(scope="module")
def gnadenlos_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_record(tmp_path_factory.mktemp("records"), "gnadenlos", 3, seed=17)


def adventurers_known_by_step(record_path: Path, seat: int) -> list[set[int]]:
    """Per step, every adventurer seat `seat` had known so far: in its
    observations (its hand, other hands' known cards, discards, the auction,
    the deck's known cards) and in the events it was shown (G-10)."""
    known: set[int] = set()
    by_step = []
    for step in steps(read_record(record_path)):
        for event in step.events:
            if seat in event.visible_to:
                data = event.data
                known.update(data.get("cards", []))
                if isinstance(data.get("card"), int):
                    known.add(data["card"])
                known.update(card for card in data.get("commitments", {}).values() if card is not None)
        obs = step.observations[seat].to_json()
        for hand in obs["adv_hands"]:
            known.update(hand["known"])
        known.update(obs["adv_discard"], obs["adv_deck_known"], *obs["units"])
        by_step.append(set(known))
    return by_step


def cards_by_step(data: dict[str, Any], view: int) -> list[set[int]]:
    """The adventurers a view's page shows at each step (table and events)."""
    texts = data["texts"]
    shown = []
    for frame in data["views"][view]["steps"]:
        html = "".join(texts[i] for i in frame["t"] + frame["x"] + frame["d"])
        html += "".join(texts[data["events"][e][2]] for e in frame["e"])
        shown.append({int(card) for card in re.findall(r'data-card="(\d+)"', html)})
    return shown


@pytest.mark.slow
def test_a_seat_page_holds_only_what_that_seat_knew(gnadenlos_record: Path, tmp_path: Path) -> None:
    seat_page, whole_page = tmp_path / "seat1.html", tmp_path / "all.html"
    assert referee("view", str(gnadenlos_record), "--seat", "1", "--out", str(seat_page)).returncode == 0
    assert referee("view", str(gnadenlos_record), "--out", str(whole_page)).returncode == 0

    known = adventurers_known_by_step(gnadenlos_record, 1)
    data = page_data(seat_page)
    for number, cards in enumerate(cards_by_step(data, 0)):
        assert cards <= known[number], f"step {number} shows {cards - known[number]}, unknown to seat 1"
    whole = cards_by_step(page_data(whole_page), 0)
    assert any(cards - known[n] for n, cards in enumerate(whole)), "the whole record shows more: the check can fail"

    assert data["seed"] is None  # the seed would give away every hidden card
    assert [view["key"] for view in data["views"]] == ["seat1"]
    record = read_record(gnadenlos_record)
    recorded = [record.setup["events"], *(d["events"] for d in record.decisions)]
    hidden = {(n, i) for n, events in enumerate(recorded) for i, e in enumerate(events) if 1 not in e["visible_to"]}
    assert hidden, "the record has events seat 1 did not see"
    held = {(row[0], row[1]) for row in data["events"] if row}
    assert held and not held & hidden


def test_the_page_has_every_step_and_view_of_the_record(gnadenlos_record: Path, tmp_path: Path) -> None:
    page = tmp_path / "m.html"
    result = referee("view", str(gnadenlos_record), "--out", str(page))
    assert result.returncode == 0 and str(page) in result.stdout
    assert page.stat().st_mode & 0o777 == 0o600  # it shows every hand, as the record does
    data = page_data(page)
    record = read_record(gnadenlos_record)
    assert data["steps"] == ["the deal"] + [f"decision {d['n']}" for d in record.decisions]
    assert [v["key"] for v in data["views"]] == ["all", "public", "seat0", "seat1", "seat2"]
    assert all(len(v["steps"]) == len(data["steps"]) for v in data["views"])
    assert data["seed"] == record.header["seed"] and data["result"] is not None


@pytest.mark.slow
def test_view_refuses_a_seat_the_match_did_not_have_and_a_file_that_is_no_record(
        gnadenlos_record: Path, tmp_path: Path) -> None:
    result = referee("view", str(gnadenlos_record), "--seat", "3", "--out", str(tmp_path / "x.html"))
    assert result.returncode != 0 and "--seat must be 0..2" in result.stderr
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\n{}\n")
    result = referee("view", str(junk), "--out", str(tmp_path / "y.html"))
    assert result.returncode != 0 and "not a JSON line" in result.stderr
    assert not (tmp_path / "x.html").exists() and not (tmp_path / "y.html").exists()


def test_every_installed_game_brings_its_drawing() -> None:
    assert {"gnadenlos", "saboteur", "leduc"} <= set(plugins())  # the games are installed (entry points)
    for name, plugin in plugins().items():
        drawing = plugin.load("viewer")
        assert drawing is None or issubclass(drawing, GameDrawing), name
