"""Issue 20 through the ladder service and the report: `referee serve
--variant` plays one rule set's ladder (seating only the bots that declare
it), its API (`table/submit/report --server`, Watch) answers for that rule
set unless asked for another, `referee report --variant` reports any rule
set of a store, and the report and the live page name the rule set they
show and list the others (the report read in headless Chromium once).

The store is filled first by an in-process ladder with a fake match runner
(real scheduler, ratings and store) under two rule sets, among real random
bots, three of which declare the opt-out; the service is then started on
it as its own process.
"""

from __future__ import annotations

import json
import re
import shutil
import signal
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from botsdk.pb.ladder.v1 import ladder_pb2, ladder_pb2_grpc
from browser_support import chromium, console_errors, open_page
from ladder.cli.run import live_page
from ladder.intake.archive import pack
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import Store
from ladder_support import FakeRunner, declaring_bot, install_bot, random_bot_folder
from report_support import page_data
from service_support import free_address, referee, start_service

pytestmark = pytest.mark.slow  # real ladder services and a browser

OPT_OUT = "gnadenlos:gunfight_opt_out=on"
VARIANT = {"gunfight_opt_out": "on"}
RULE_SET = "gunfight_opt_out=on"
DECLARING = ("alpha", "bravo", "charlie")
BASE_MATCHES, VARIANT_MATCHES = 6, 3
"""Whole duplicate sets of 3 under each rule set: nothing left planned."""
SERVE = ("--no-builtins", "--players", "4", "--workers", "1", "--move-time", "1s", "--variant", "gunfight_opt_out=on")
"""4-seat tables under the opt-out: 3 of the 4 bots declare it, so the service waits."""


@pytest.fixture(scope="module")
def two_rule_sets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The data folder of a store with matches under the base rules and the opt-out (made once; tests copy it)."""
    folder = tmp_path_factory.mktemp("rule-sets")
    db = folder / "data" / "ladder.sqlite"
    with Store(db) as store:
        ids = [install_bot(store, declaring_bot(folder / "bots" / name, (OPT_OUT,)), name) for name in DECLARING]
        install_bot(store, random_bot_folder(folder / "bots" / "plain"), "plain")
        runner = FakeRunner(strength=dict(zip(ids, [0.0, 1.0, 2.0])))
        Ladder(store, InlinePool(runner), LadderConfig(matches=BASE_MATCHES, sizes=(3,), seed=3)).run()
        Ladder(store, InlinePool(runner), LadderConfig(matches=VARIANT_MATCHES, sizes=(3,), seed=4,
                                                       variant=VARIANT)).run()
    return db.parent


@pytest.fixture
def data(two_rule_sets: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(two_rule_sets, copy, symlinks=True)
    return copy / "ladder.sqlite"


def report_of(*args: str, out: Path) -> dict[str, Any]:
    referee("report", *args, "--out", str(out), "--viewers", "0")
    text = out.read_text()
    data = page_data(text)
    assert f"<h1>{data['title']}</h1>" in text
    assert data.pop("generated")
    return data


def test_report_and_live_page_of_a_rule_set(data: Path, tmp_path: Path) -> None:
    varied = report_of("--db", str(data), "--variant", "gunfight_opt_out=on", out=tmp_path / "varied.html")
    base = report_of("--db", str(data), out=tmp_path / "base.html")
    assert varied["title"] == "Gnadenlos! ladder (gunfight_opt_out=on)" and varied["rule_set"] == RULE_SET
    assert base["title"] == "Gnadenlos! ladder (base rules)" and base["rule_set"] == ""
    assert varied["other_rule_sets"] == [{"rule_set": "", "name": "base rules", "matches": BASE_MATCHES}]
    assert base["other_rule_sets"] == [{"rule_set": RULE_SET, "name": RULE_SET, "matches": VARIANT_MATCHES}]
    # each shows its own rule set's matches, ratings and history only
    table = json.loads(referee("table", "--db", str(data), "--json", "--h2h", "--variant", "gunfight_opt_out=on"))
    assert varied["table"]["standings"] == table["standings"] and varied["table"]["matches"] == VARIANT_MATCHES
    assert varied["table"]["head_to_head"] == table["head_to_head"]
    assert [m["number"] for m in varied["recent"]] == [3, 2, 1]
    assert len(base["recent"]) == BASE_MATCHES
    with Store(data, create=False) as store:
        assert {m["match_id"] for m in varied["recent"]} == {m["match_id"] for m in store.matches("gnadenlos",
                                                                                               RULE_SET)}
    history = varied["charts"]["history"]
    assert history["matches"] == max(s["points"][-1][0] for s in history["series"]) == VARIANT_MATCHES

    with live_page(data, "gnadenlos", 0, RULE_SET) as url:  # what `referee ladder --variant --web` serves
        live = page_data(urllib.request.urlopen(url, timeout=30).read().decode())
    assert live["title"] == varied["title"] and live["other_rule_sets"] == varied["other_rule_sets"]
    assert live["table"]["matches"] == VARIANT_MATCHES and live["live"]

    with chromium() as browser:  # what a reader sees: the heading, and the other rule sets named
        open_page(browser, (tmp_path / "varied.html").resolve().as_uri())
        assert browser.find_element("css selector", "h1").text == "Gnadenlos! ladder (gunfight_opt_out=on)"
        assert browser.find_element("id", "rule-sets").text == (
            f"Other rule sets of this game, each rated apart: base rules ({BASE_MATCHES} matches).")
        assert console_errors(browser) == []


def live_url(log: Path) -> str:
    deadline = time.monotonic() + 30
    while not (found := re.search(r"live page: (http://127\.0\.0\.1:\d+/)", log.read_text())):
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)
    return found.group(1)


@pytest.fixture
def service(data: Path, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`referee serve --variant gunfight_opt_out=on --web 0` on the store: (API address, its log)."""
    address, log = free_address(), tmp_path / "serve.log"
    process = start_service(data, address, *SERVE, "--web", "0", log=log)
    try:
        yield address, log
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0, log.read_text()


def test_a_service_plays_and_shows_its_rule_set_and_any_other_on_request(
        service: tuple[str, Path], data: Path, tmp_path: Path) -> None:
    address, log = service
    live = page_data(urllib.request.urlopen(live_url(log), timeout=30).read().decode())
    assert live["title"] == "Gnadenlos! ladder (gunfight_opt_out=on)"
    assert live["other_rule_sets"] == [{"rule_set": "", "name": "base rules", "matches": BASE_MATCHES}]
    assert "serving the Gnadenlos! ladder (gunfight_opt_out=on)" in log.read_text()
    # the bot that declares nothing is not counted: 3 bots for 4 seats, so it waits
    assert "the Gnadenlos! ladder has 3 bots" in log.read_text()

    # the service's rule set unless another is asked for; each the same as the store's own table
    served = json.loads(referee("table", "--server", address, "--json"))
    assert served == json.loads(referee("table", "--db", str(data), "--json", "--variant", "gunfight_opt_out=on"))
    assert served["rule_set"] == RULE_SET and served["matches"] == VARIANT_MATCHES
    base = json.loads(referee("table", "--server", address, "--json", "--variant", "gunfight_opt_out=off"))
    assert base == json.loads(referee("table", "--db", str(data), "--json"))
    text = referee("table", "--server", address)
    assert f"Gnadenlos! ladder (gunfight_opt_out=on): {VARIANT_MATCHES} matches" in text
    assert f"base rules ({BASE_MATCHES} matches)" in " ".join(text.split())  # the line may wrap at $COLUMNS

    # the report from the service is the report of its store, for either rule set
    assert report_of("--server", address, out=tmp_path / "s1.html") == report_of(
        "--db", str(data), "--variant", "gunfight_opt_out=on", out=tmp_path / "l1.html")
    assert report_of("--server", address, "--variant", "gunfight_opt_out=off", out=tmp_path / "s2.html") == \
        report_of("--db", str(data), out=tmp_path / "l2.html")

    stub = ladder_pb2_grpc.LadderStub(grpc.insecure_channel(address))
    with pytest.raises(grpc.RpcError) as refused:
        stub.Standings(ladder_pb2.StandingsRequest(variant={"auction": "sealed"}), timeout=30)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "auction" in (refused.value.details() or "") and "single" in (refused.value.details() or "")
    with pytest.raises(grpc.RpcError) as refused:  # a tag the game lacks, sent by a client of its own
        stub.Submit(ladder_pb2.SubmitRequest(archive=pack(random_bot_folder(tmp_path / "odd")), name="odd",
                                             variants=["gnadenlos:auction=sealed"]), timeout=60)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "gnadenlos:auction=single" in (refused.value.details() or "")  # what the game has
    history = stub.RatingHistory(ladder_pb2.RatingHistoryRequest(), timeout=30)
    assert history.rule_set == RULE_SET and len(history.bots) == len(DECLARING)

    # a fourth bot submitted for the variant through the service: now the service can seat its tables
    watch = stub.Watch(ladder_pb2.WatchRequest(), timeout=300)
    assert json.loads(next(watch).standings.json)["rule_set"] == RULE_SET
    out = referee("submit", str(declaring_bot(tmp_path / "delta", (OPT_OUT,), in_manifest=False)), "--name", "delta",
                  "--variant", "gunfight_opt_out=on", "--move-time", "1s", "--server", address)
    assert f"registered delta version v1 for gnadenlos with variants {OPT_OUT}" in out
    listed = {b["name"]: b["variants"] for b in json.loads(referee("bots", "--server", address, "--json"))}
    assert listed["delta"] == [OPT_OUT] and listed["plain"] == []
    match = next(event.match for event in watch if event.WhichOneof("event") == "match")
    watch.cancel()
    assert match.rule_set == RULE_SET
    assert sorted(seat.bot for seat in match.seats) == ["alpha", "bravo", "charlie", "delta"]
