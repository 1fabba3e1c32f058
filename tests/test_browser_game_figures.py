"""The report's per-game figures in a real browser (headless Chromium):
Leduc's chips per 100 hands with their interval beside the rating, and
Saboteur's table by role, each as `referee table --json` gives them.

The ladders run in-process with a fake match runner whose results carry
the summaries the referee writes (a Leduc match's hands and chips; a
Saboteur match's finished rounds with their revealed roles); the figures
are read from the store as for real matches."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import chromium, console_errors, open_page
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import Store
from ladder.store.tasks import MatchTask, PlayedMatch
from ladder_support import FakeRunner, add_bots

pytestmark = pytest.mark.slow  # a real Chromium


@dataclasses.dataclass
class SummaryRunner(FakeRunner):
    """The fake runner's places, with the summary the game's referee would write for them."""

    game: str = "leduc"

    def play(self, task: MatchTask) -> PlayedMatch:
        played = super().play(task)
        rng = random.Random(task.match_id)
        if self.game == "leduc":  # chips that agree with the places: the winner's are the highest
            scores = [10.0 * (1 - 2 * rank) + rng.uniform(-3, 3) for rank in played.ranks]
            scores = [s - sum(scores) / len(scores) for s in scores]
            summary: dict[str, Any] = {"hands": 100, "scores": scores}
        else:
            seats = len(played.ranks)
            summary = {"nuggets": [0] * seats, "rounds": [
                {"round": r, "winners": rng.choice(["gold_diggers", "saboteurs"]), "reached_by": -1,
                 "roles": rng.sample(["saboteur"] + ["gold_digger"] * (seats - 1), seats), "set_aside": "gold_digger"}
                for r in (1, 2, 3)]}
        return dataclasses.replace(played, summary=summary)


def _ladder(folder: Path, game: str) -> Path:
    db = folder / "data" / "ladder.sqlite"
    with Store(db) as store:
        ids = add_bots(store, ["alpha", "bravo", "charlie"], game=game)
        runner = SummaryRunner(strength=dict(zip(ids, [0.0, 1.0, 2.0])), luck=1.0, game=game)
        sizes = (2,) if game == "leduc" else (3,)
        Ladder(store, InlinePool(runner), LadderConfig(game=game, matches=12, sizes=sizes, seed=2)).run()
    return db


def referee(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "referee.cli.main", *args], capture_output=True, text=True,
                          timeout=120, check=True).stdout


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


def _report(db: Path, game: str, out: Path) -> tuple[dict[str, Any], str]:
    table: dict[str, Any] = json.loads(referee("table", "--game", game, "--db", str(db), "--json"))
    referee("report", "--game", game, "--db", str(db), "--out", str(out))
    return table, out.resolve().as_uri()


def _signed(value: float) -> str:
    return f"{value:+.1f}"


def test_a_poker_report_shows_chips_per_100_hands_beside_the_rating(browser: Any, tmp_path: Path) -> None:
    table, url = _report(_ladder(tmp_path, "leduc"), "leduc", tmp_path / "leduc.html")
    rates = {entry["bot"]: entry for entry in table["scores"]}
    assert len(rates) == 3
    open_page(browser, url)
    shown = dict(browser.execute_script(
        "return [...document.querySelectorAll('#standings tr[data-bot]')].map(tr => "
        "[tr.dataset.bot, [tr.querySelector('td.score-rate').textContent, "
        "tr.querySelector('td.score-interval').textContent]])"))
    for bot, entry in rates.items():
        assert shown[bot] == [_signed(entry["rate"]), f"[{_signed(entry['low'])}, {_signed(entry['high'])}]"]
    headers = browser.execute_script("return [...document.querySelectorAll('#standings th')].map(th => th.textContent)")
    assert headers.index("chips/100") == headers.index("μ − 3σ") + 1
    assert browser.find_element("id", "roles-section").is_displayed() is False
    ranked = [row["bot"] for row in table["standings"]]  # the places follow the chips here: so must the ladder
    assert ranked == sorted(rates, key=lambda bot: -rates[bot]["rate"])
    assert console_errors(browser) == []


def test_a_saboteur_report_shows_each_bot_by_role(browser: Any, tmp_path: Path) -> None:
    table, url = _report(_ladder(tmp_path, "saboteur"), "saboteur", tmp_path / "saboteur.html")
    records = {entry["bot"]: entry for entry in table["roles"]}
    assert len(records) == 3
    open_page(browser, url)
    assert browser.find_element("id", "roles-section").is_displayed()
    shown = dict(browser.execute_script(
        "return [...document.querySelectorAll('#roles tr[data-bot]')].map(tr => "
        "[tr.dataset.bot, ['gold_digger-rounds', 'saboteur-rounds', 'gold_digger-rating', 'saboteur-rating', "
        "'rests-on'].map(c => tr.querySelector('td.' + c).textContent)])"))
    titles = {"gold_digger": "gold-digger only", "saboteur": "saboteur only", None: ""}
    for bot, entry in records.items():
        assert shown[bot] == [str(entry["gold_digger"]["rounds"]), str(entry["saboteur"]["rounds"]),
                              f"{entry['gold_digger']['team_conservative']:.2f}",
                              f"{entry['saboteur']['team_conservative']:.2f}", titles[entry["rests_on"]]]
        assert entry["gold_digger"]["rounds"] + entry["saboteur"]["rounds"] == 3 * entry_matches(table, bot)
    assert console_errors(browser) == []


def entry_matches(table: dict[str, Any], bot: str) -> int:
    return next(row["matches"] for row in table["standings"] if row["bot"] == bot)
