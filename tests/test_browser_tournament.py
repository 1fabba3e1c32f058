"""A tournament's report and live page in a real browser (headless Chromium):
the final table, and TrueSkill beside the ordinal (Kemeny-Young) ranking
with the pairs they order differently, as `referee table --json --h2h` and
the tournament's own data say. Screenshots: test-artifacts/browser-tournament/."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from browser_support import WIDE, chromium, console_errors, open_page, screenshot, viewport
from ladder.reporting.ordinal_view import ordinal_json
from ladder.running.dispatch import InlinePool
from ladder.store.database import Store
from ladder.tournament.commitment import load
from ladder.tournament.plan import create
from ladder.tournament.results import tournament_json
from ladder.tournament.run import TournamentRun
from ladder_support import FakeRunner, add_bots
from process_support import with_default_sigint
from referee.cli.main import cli

pytestmark = pytest.mark.slow  # a real Chromium

NAMES = ["ann", "bob", "cy <i>z</i>", "dee"]  # a name that is markup must show as text


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


@pytest.fixture(scope="module")
def tournament_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("tournament") / "t.sqlite"
    with Store(db) as store:
        ids = add_bots(store, NAMES, game="leduc")
        t = create(store, "leduc", {}, "round-robin", [store.bot(b) for b in ids], 2, cycles=3)
        runner = FakeRunner(strength={b: 0.3 * i for i, b in enumerate(ids)}, luck=1.0)
        assert TournamentRun(store, InlinePool(runner), t).run().complete
    return db


def texts(browser: Any, selector: str) -> list[list[str]]:
    """The cells of each row, read at once (a live page redraws its tables on every update)."""
    rows: list[list[str]] = browser.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(tr => [...tr.querySelectorAll('td')]"
        ".map(td => td.textContent)).filter(cells => cells.length)", selector)
    return rows


def check_rankings(browser: Any, db: Path) -> None:
    """Both rankings and the tournament's table show what the data says."""
    result = CliRunner().invoke(cli, ["table", "--db", str(db), "--game", "leduc", "--json", "--h2h"])
    assert result.exit_code == 0, result.output
    ordinal = ordinal_json(json.loads(result.output))
    shown = texts(browser, "#ordinal tr")
    assert shown == [[r["bot"], str(r["trueskill"]), str(r["ordinal"])] for r in ordinal["rows"]]
    assert {row[0] for row in shown} == {f"{n} 1" for n in NAMES}  # markup shown as text
    items = [cells[0] for cells in browser.execute_script(
        "return [...document.querySelectorAll('#disagree li')].map(li => [li.textContent])")]
    if ordinal["disagree"]:
        assert len(items) == len(ordinal["disagree"])
        assert all(f"ranks {p['above']} above {p['below']}" in item for p, item in zip(ordinal["disagree"], items))
    else:
        assert items == ["TrueSkill and Kemeny-Young agree on every pair."]
    with Store(db) as store:
        t = load(store)
        assert t is not None
        data = tournament_json(store, t)
    rows = texts(browser, "#tournament tr")
    assert [(r[1], r[2], r[3]) for r in rows] == [(e["bot"], f"{e['points']:g}", str(e["matches"]))
                                                  for e in data["table"]]
    assert all(r[3] == "18" for r in rows)  # 3 opponents x 2 seats x 3 cycles
    assert data["commitment"] in browser.execute_script("return document.getElementById('tournament-summary').textContent")
    assert browser.find_element("css selector", "h1").text == "Leduc poker round-robin tournament (base rules)"
    assert console_errors(browser) == []


def test_the_report_shows_the_tournament_and_both_rankings(browser: Any, tournament_store: Path,
                                                           tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(cli, ["report", "--db", str(tournament_store), "--game", "leduc", "--out", str(out),
                                      "--viewers", "0"])
    assert result.exit_code == 0, result.output
    viewport(browser, WIDE)
    open_page(browser, out.resolve().as_uri())
    check_rankings(browser, tournament_store)
    screenshot(browser, "browser-tournament", "report", WIDE)


def test_the_live_page_shows_them_too(browser: Any, tournament_store: Path) -> None:
    server = subprocess.Popen([sys.executable, "-m", "referee.cli.main", "report", "--db", str(tournament_store),
                               "--game", "leduc", "--web", "0"], stdout=subprocess.PIPE, text=True,
                              preexec_fn=with_default_sigint)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        open_page(browser, url.group(0))
        check_rankings(browser, tournament_store)
        screenshot(browser, "browser-tournament", "live", WIDE)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
