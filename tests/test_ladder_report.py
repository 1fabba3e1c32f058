"""The report's rating history (issue 29): its size stays bounded as a
ladder grows, keeping at most the start and one point per stretch of
matches for each bot (ladder.reporting.report.thinned), every kept point a real one,
the last being the rating the standings show; a bot that came later starts
where it came.

The ladder is run in-process with the fake match runner (real scheduler,
ratings and store) and reported through `referee report`; what the page
carries is read from its data block. The page itself is checked in a
browser in test_browser_report.py.
"""

from __future__ import annotations

import json
from pathlib import Path

from ladder.reporting.report import HISTORY_STRETCHES, history_points, report_data, thinned
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import Store
from ladder_support import FakeRunner, add_bots
from report_support import page_data
from service_support import referee

MATCHES = 450
"""Three bots at 3-seat tables play every match: 451 points each, more than a chart keeps."""


def test_a_long_ladders_history_is_thinned_to_real_points_ending_at_the_standings(tmp_path: Path) -> None:
    db = tmp_path / "ladder.sqlite"
    with Store(db) as store:
        ids = add_bots(store, ["alpha", "bravo", "charlie"])
        Ladder(store, InlinePool(FakeRunner(strength=dict(zip(ids, [0.0, 0.5, 1.0])), luck=2.0)),
               LadderConfig(matches=MATCHES, sizes=(3,), seed=5)).run()
        stored = history_points(store, "gnadenlos")  # every point: what the service's RatingHistory sends
    out = tmp_path / "report.html"
    referee("report", "--db", str(db), "--out", str(out), "--viewers", "0")
    page = out.read_text()
    data = page_data(page)
    table = json.loads(referee("table", "--db", str(db), "--json"))

    history = data["charts"]["history"]
    assert history["matches"] == MATCHES and len(history["series"]) == 3
    rows = {f"{row['bot']} {row['version']}": row for row in table["standings"]}
    for series in history["series"]:
        row, points = rows[series["bot"]], series["points"]
        assert len(stored[row["bot_id"]]) == MATCHES + 1 and len(points) == HISTORY_STRETCHES + 1
        assert points[0][0] == 0 and points[-1][0] == MATCHES
        real = {p["match"]: [p["match"], round(p["mu"], 2), round(p["sigma"], 2)] for p in stored[row["bot_id"]]}
        assert all(real[point[0]] == point for point in points)  # each kept point is a real one
        assert points[-1][1:] == [round(row["mu"], 2), round(row["sigma"], 2)]
    assert len(page.encode()) < 100_000


def test_thinning_keeps_the_start_and_the_last_point_of_each_stretch() -> None:
    points = [{"match": m, "mu": float(m), "sigma": 1.0} for m in range(0, 1001)]
    assert [p["match"] for p in thinned(points, 1000, stretches=10)] == list(range(0, 1001, 100))
    sparse = [p for p in points if p["match"] % 3 == 0]  # a bot at one match in three
    assert [p["match"] for p in thinned(sparse, 1000, stretches=10)] == [0, 99, 198, 300, 399, 498, 600, 699, 798,
                                                                          900, 999]
    few = points[:11]
    assert thinned(few, 1000, stretches=10) == few  # no more than a chart keeps: all of them


def test_a_bot_that_came_later_starts_its_line_where_it_came(tmp_path: Path) -> None:
    db = tmp_path / "ladder.sqlite"
    with Store(db) as store:
        ids = add_bots(store, ["alpha", "bravo", "charlie"])
        runner = FakeRunner(strength=dict(zip(ids, [0.0, 0.5, 1.0])))
        Ladder(store, InlinePool(runner), LadderConfig(matches=6, sizes=(3,), seed=5)).run()
        ids += add_bots(store, ["delta"])
        Ladder(store, InlinePool(runner), LadderConfig(matches=12, sizes=(3,), seed=6)).run()
        stored = history_points(store, "gnadenlos")  # by bot id: the start (match 0), then each match played
    out = tmp_path / "report.html"
    referee("report", "--db", str(db), "--out", str(out), "--viewers", "0")
    shown = {s["bot"]: s["points"] for s in page_data(out.read_text())["charts"]["history"]["series"]}
    names = dict(zip(ids, ["alpha 1", "bravo 1", "charlie 1", "delta 1"]))
    assert set(shown) == set(names.values())
    for bot_id, points in stored.items():
        start, first = points[0], points[1]["match"]
        assert shown[names[bot_id]][0] == [first - 1, round(start["mu"], 2), round(start["sigma"], 2)]
    assert shown["alpha 1"][0][0] == 0 and shown["delta 1"][0][0] >= 6


def test_the_report_reads_the_store_as_of_one_moment_while_a_ladder_writes(tmp_path: Path) -> None:
    """The live page of a service read the matches, then the ratings'
    history, and met the history of a match stored in between (a KeyError,
    the page unserved). Here a ladder stores three more matches through its
    own connection right between those two reads: the report counts the six
    it began with everywhere, and the next report all nine."""
    db = tmp_path / "ladder.sqlite"
    with Store(db) as store:
        ids = add_bots(store, ["alpha", "bravo", "charlie"])
    runner = FakeRunner(strength=dict(zip(ids, [0.0, 0.5, 1.0])))

    def play(matches: int, seed: int) -> None:
        with Store(db) as store:
            Ladder(store, InlinePool(runner), LadderConfig(matches=matches, sizes=(3,), seed=seed)).run()

    class Interrupted(Store):
        """A store whose history is read just after a ladder stored more matches."""

        writes = 1

        def rating_history(self, game: str, rule_set: str = "") -> list[dict[str, object]]:
            if self.writes:
                self.writes -= 1
                play(3, seed=6)
            return super().rating_history(game, rule_set)

    play(6, seed=5)
    with Interrupted(db, create=False) as store:
        data = report_data(store, "gnadenlos")
        assert store.writes == 0, "the ladder wrote between the reads"
        assert data["table"]["matches"] == 6
        assert data["charts"]["history"]["matches"] == 6
        assert all(point[0] <= 6 for series in data["charts"]["history"]["series"] for point in series["points"])
        assert report_data(store, "gnadenlos")["table"]["matches"] == 9
