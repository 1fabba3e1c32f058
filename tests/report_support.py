"""Helpers for the report and live page tests: a fake match runner whose
matches keep a real record, and what a page shows, read in the browser and
compared with `referee table --json`, the standings' own interface."""

from __future__ import annotations

import dataclasses
import html
import json
import re
from typing import Any

import pytest

from ladder.tasks import MatchTask, PlayedMatch
from ladder_support import FakeRunner


@dataclasses.dataclass
class RecordingRunner(FakeRunner):
    """The fake runner's results, each with a real match record."""

    record: bytes = b""

    def play(self, task: MatchTask) -> PlayedMatch:
        return dataclasses.replace(super().play(task), record=self.record)


def page_data(page: str) -> dict[str, Any]:
    """The data block of a page written by referee.web.page."""
    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', page, re.S)
    assert found, "the page has no data block"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def shown_standings(driver: Any) -> list[list[str]]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#standings tr[data-bot]')].map(tr => "
        "[tr.dataset.bot, ...['mu', 'sigma', 'conservative', 'matches', 'wins', 'forfeits']"
        ".map(c => tr.querySelector('td.' + c).textContent)])")


def expected_standings(table: dict[str, Any]) -> list[list[str]]:
    return [[row["bot"], f"{row['mu']:.2f}", f"{row['sigma']:.2f}", f"{row['conservative']:.2f}",
             str(row["matches"]), str(row["wins"]), str(row["forfeits"])] for row in table["standings"]]


def shown_matches(driver: Any) -> dict[str, str | None]:
    """Each listed match's id and where its viewer link goes (None: no link)."""
    pairs = driver.execute_script(
        "return [...document.querySelectorAll('#matches tr[data-match]')].map(tr => "
        "[tr.dataset.match, tr.querySelector('a') ? tr.querySelector('a').getAttribute('href') : null])")
    return dict(pairs)


def check_plots(driver: Any, table: dict[str, Any]) -> None:
    """The plots carry the standings' numbers: each bot's last rating in the
    history, each pair's share in the head-to-head map, each seat's win share."""
    plots = driver.execute_script(
        "return {history: document.getElementById('history').data.filter(t => t.showlegend !== false)"
        ".map(t => [t.name, t.y[t.y.length - 1]]),"
        " h2h: document.getElementById('h2h').data[0], seats: document.getElementById('seats').data"
        ".map(t => [t.name, t.y])}")
    label = {row["bot"]: html.escape(f"{row['bot']} {row['version']}", quote=False) for row in table["standings"]}
    assert dict(plots["history"]) == pytest.approx({label[r["bot"]]: r["mu"] for r in table["standings"]})
    heat = plots["h2h"]
    for pair in table["head_to_head"]:
        row, col = heat["y"].index(label[pair["bot"]]), heat["x"].index(label[pair["opponent"]])
        assert heat["z"][row][col] == pytest.approx(pair["share"])
        assert heat["text"][row][col] == f"{pair['ahead']}/{pair['together']}"
    assert dict(plots["seats"]) == {f"{size} players": [s["win_share"] for s in seats]
                                    for size, seats in table["seats"].items()}
