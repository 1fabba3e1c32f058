"""Helpers for the report and live page tests: a fake match runner whose
matches keep a real record, what a page shows, read in the browser and
compared with `referee table --json`, the standings' own interface, and
what is wrong with its layout at the browser's width."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from typing import Any

from ladder.store.tasks import MatchTask, PlayedMatch
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


def percent(share: float) -> str:
    """A share as the page writes it (JavaScript's Math.round: halves up)."""
    return f"{math.floor(100 * share + 0.5)} %"


def check_charts(driver: Any, table: dict[str, Any]) -> None:
    """The charts carry the standings' numbers, as a person reads them (the
    marks' hover texts, the cells): each bot's last rating in the history,
    each pair's count and share in the head-to-head table, each seat's wins
    and share; each chart's label for a screen reader says them too. A bot
    without a match has no line."""
    shown = driver.execute_script("""
        const hover = (selector) => [...document.querySelectorAll(selector)]
          .map((mark) => mark.querySelector(':scope > title').textContent);
        const h2h = document.querySelector('#h2h table');
        const columns = [...h2h.tHead.rows[0].cells].map((th) => th.textContent);
        const cells = [];
        for (const row of h2h.tBodies[0].rows) {
          [...row.cells].forEach((cell, i) => {
            if (cell.classList.contains('share')) cells.push([row.cells[0].textContent, columns[i], cell.textContent,
                                                              cell.title]);
          });
        }
        const said = (id) => document.querySelector('#' + id + ' svg[role=img]').getAttribute('aria-label');
        return {history: hover('#history polyline.line'), h2h: cells, seats: hover('#seats g.seat'),
                said: {history: said('history'), seats: said('seats')}};""")
    label = {row["bot"]: f"{row['bot']} {row['version']}" for row in table["standings"]}
    played = [row for row in table["standings"] if row["matches"]]
    assert len(shown["history"]) == len(played)
    for line, row in zip(shown["history"], played):
        assert re.fullmatch(rf"{re.escape(label[row['bot']])} after match \d+: μ {row['mu']:.2f} ± 3σ "
                            rf"\(σ {row['sigma']:.2f}\)", line), (line, row)
    assert shown["said"]["history"] == (f"Rating history over {table['matches']} matches; the latest μ: "
                                        + ", ".join(f"{label[row['bot']]} {row['mu']:.2f}" for row in played))
    cells = {(bot, opponent): (text, hover) for bot, opponent, text, hover in shown["h2h"]}
    assert len(cells) == len(table["head_to_head"])
    for pair in table["head_to_head"]:
        text, hover = cells[label[pair["bot"]], label[pair["opponent"]]]
        assert text == f"{pair['ahead']}/{pair['together']}"
        assert hover.startswith(f"{label[pair['bot']]} ahead of {label[pair['opponent']]}: {pair['ahead']} of "
                                f"{pair['together']} ({percent(pair['share'])}, 95 % interval "), hover
    seats = [(size, seat) for size, rows in table["seats"].items() for seat in rows]
    assert len(shown["seats"]) == len(seats) > 0
    for hover, (size, seat) in zip(shown["seats"], seats):
        assert hover.startswith(f"seat {seat['seat']} at {size}-player tables: won {seat['wins']} of "
                                f"{seat['matches']} ({percent(seat['win_share'])}, 95 % interval "), hover
        assert f"at {size}-player tables" in shown["said"]["seats"]
        assert f"seat {seat['seat']} {percent(seat['win_share'])}" in shown["said"]["seats"]


LAYOUT_FAULTS = """
const faults = [];
const name = (e) => e ? e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
  (e.getAttribute('class') ? '.' + e.getAttribute('class').split(' ').join('.') : '') +
  ' "' + (e.textContent || '').trim().slice(0, 30) + '"' : 'nothing';
const width = document.documentElement.clientWidth;
if (document.documentElement.scrollWidth > width) {
  faults.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' px > ' + width + ' px');
}
for (const e of document.body.querySelectorAll('*')) {
  if (e.parentElement.closest('.scroll') || ['SCRIPT', 'title'].includes(e.tagName)) continue;
  const box = e.getBoundingClientRect();
  if (box.width && (box.left < -1 || box.right > width + 1)) {
    faults.push(name(e) + ' sticks out of the page: ' + Math.round(box.left) + '..' + Math.round(box.right));
  }
}
const edge = (cell, right) => {
  const range = document.createRange();
  range.selectNodeContents(cell);
  const box = range.getBoundingClientRect();
  return right ? box.right : box.left;
};
for (const table of document.querySelectorAll('#standings, #matches')) {
  const header = [...table.rows[0].cells];
  for (const row of [...table.rows].slice(1)) {
    if (row.cells.length !== header.length) faults.push(table.id + ': a row of ' + row.cells.length + ' cells');
    [...row.cells].forEach((cell, i) => {
      const th = header[i], a = th.getBoundingClientRect(), b = cell.getBoundingClientRect();
      const column = table.id + ' column "' + th.textContent + '"';
      if (Math.abs(a.left - b.left) > 1 || Math.abs(a.right - b.right) > 1) {
        faults.push(column + ': ' + name(cell) + ' spans ' + Math.round(b.left) + '..' + Math.round(b.right) +
                    ', its header ' + Math.round(a.left) + '..' + Math.round(a.right));
      }
      const right = th.classList.contains('num');
      if (cell.textContent.trim() && Math.abs(edge(th, right) - edge(cell, right)) > 1) {
        faults.push(column + ': ' + name(cell) + ' is not ' + (right ? 'right' : 'left') + '-aligned with its header');
      }
    });
  }
}
const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
for (const id of ['history', 'h2h', 'seats']) {
  const chart = document.getElementById(id);
  const keys = [...chart.querySelectorAll('.legend li, .heat-key')];
  if (!keys.length) faults.push(id + ': no legend');
  const marks = [...chart.querySelectorAll('svg, svg *, table')].filter((e) => e.tagName !== 'title');
  for (const key of keys) {
    for (const mark of marks) {
      if (overlap(key.getBoundingClientRect(), mark.getBoundingClientRect())) {
        faults.push(id + ': legend "' + key.textContent + '" overlaps ' + name(mark));
      }
    }
    key.scrollIntoView({block: 'center'});
    const box = key.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!key.contains(top)) faults.push(id + ': legend "' + key.textContent + '" is covered by ' + name(top));
  }
}
window.scrollTo(0, 0);
return faults;
"""


def layout_faults(driver: Any) -> list[str]:
    """What is wrong with the report's layout at the browser's width: the
    page scrolling sideways or anything sticking out of it (a table
    scrolls in its own box); a table cell not under its header's box, or its
    text not aligned with the header's (numbers right, text left); a
    chart's legend missing, overlapping the chart, or covered by anything."""
    faults: list[str] = driver.execute_script(LAYOUT_FAULTS)
    return faults
