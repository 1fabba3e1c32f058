"""A person's seat page over HTTP (referee/web/seat_server.py): what it is
sent and whom it answers.

Whole matches are played through the page's own HTTP interface, as its
script plays them (tests/seat_support.py), against the games' heuristic
players in this process; everything the page received — its HTML, script,
every poll's reply, its viewer at the end — is checked against the
match's record for anything the seat did not know (G-10, S-8, L-6). The
hostile tests then knock on the server as another site, another seat's
page or a careless client would.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from botsdk.contract import TimeControl

from referee.audit import audit
from referee.games import load_game
from referee.match import MatchResult, run_match
from referee.records import read_record
from referee.replay import verify
from referee.seats import Seat
from referee.seats.person import PersonSeat
from referee.seats.policy import HEURISTIC, PlayerSeat, heuristic_seat
from referee.web.seat_server import BrowserDesk, SeatServer
from seat_support import PageClient, assert_nothing_hidden, play_page

BIG_SEED = 3_141_592_653
"""A seed whose decimal text is found nowhere by chance."""


@contextmanager
def seat_server() -> Iterator[SeatServer]:
    server = SeatServer()
    server.start()
    try:
        yield server
    finally:
        server.close()


def match_with_pages(tmp_path: Path, game: str, players: int, people: list[int], seed: int, *,
                     variant: dict[str, str] | None = None, move_time: float = 30.0,
                     names: dict[int, str] | None = None) -> tuple[MatchResult, Path, dict[int, PageClient],
                                                                      dict[int, list[dict[str, Any]]]]:
    """A match of `game` with a person's page at each seat of `people` (each
    played by `play_page`) and the game's heuristic elsewhere."""
    rules = load_game(game)
    record = tmp_path / f"{game}-{seed}.jsonl"
    with seat_server() as server:
        seats: list[Seat] = []
        clients: dict[int, PageClient] = {}
        for seat in range(players):
            if seat in people:
                desk = server.pages.add(game)
                seats.append(PersonSeat(desk))
                clients[seat] = PageClient(server.url(desk))
            else:
                name = (names or {}).get(seat)
                seats.append(heuristic_seat(rules) if name is None else PlayerSeat(heuristic_seat(rules).player, name))
        messages: dict[int, list[dict[str, Any]]] = {}
        failed: list[BaseException] = []

        def person(seat: int) -> None:
            try:
                messages[seat] = play_page(clients[seat], seed + seat)
            except BaseException as exc:  # raised in the test's thread below
                failed.append(exc)
        threads = [threading.Thread(target=person, args=(seat,)) for seat in people]
        for thread in threads:
            thread.start()
        result = run_match(load_game(game, variant), seats, seed=seed, time_control=TimeControl(move_time=move_time),
                           record_path=record, on_event=server.pages.recorder(server.pages.desks))
        for thread in threads:
            thread.join(timeout=60)
    if failed:
        raise failed[0]
    return result, record, clients, messages


CASES = [
    ("gnadenlos", 4, None, BIG_SEED),
    ("gnadenlos", 4, None, BIG_SEED + 1),
    ("gnadenlos", 4, {"auction": "single"}, BIG_SEED + 2),
    ("gnadenlos", 3, {"auction": "single", "auction_order": "best"}, BIG_SEED + 3),
    ("saboteur", 5, None, BIG_SEED),
    ("saboteur", 4, None, BIG_SEED + 1),
    ("leduc", 2, None, BIG_SEED),
    ("leduc", 2, None, BIG_SEED + 1),
    ("leduc", 3, None, BIG_SEED + 2),
]


@pytest.mark.parametrize("game,players,variant,seed", CASES)
def test_a_page_receives_nothing_its_seat_did_not_know(tmp_path: Path, game: str, players: int,
                                                       variant: dict[str, str] | None, seed: int) -> None:
    person = seed % players
    result, path, clients, messages = match_with_pages(tmp_path, game, players, [person], seed, variant=variant)
    record = read_record(path)
    assert record.header["seats"][person]["kind"] == "person"
    assert result.seats[person].strikes == 0 and result.decisions > 0
    looked_for = assert_nothing_hidden(clients[person].received, record, person)
    if game != "saboteur":
        assert looked_for > 2, "no card was hidden from the seat: the check checked nothing"
    # the page was asked every decision its seat made, and saw the end
    asks = [m for m in messages[person] if m["type"] == "ask"]
    assert len(asks) == result.seats[person].decisions
    assert any(m["type"] == "end" and m["ranks"] == list(result.ranks) for m in messages[person])
    verify(record)
    assert audit(record).decisions == result.decisions


def test_two_people_at_one_table_each_see_their_own_seat(tmp_path: Path) -> None:
    result, path, clients, messages = match_with_pages(tmp_path, "leduc", 3, [0, 2], BIG_SEED + 7)
    record = read_record(path)
    assert [seat["kind"] for seat in record.header["seats"]] == ["person", "policy", "person"]
    for seat in (0, 2):
        assert assert_nothing_hidden(clients[seat].received, record, seat) > 2
        starts = [m for m in messages[seat] if m["type"] == "start"]
        assert [m["seat"] for m in starts] == [seat]


# ------------------------------------------------------------------ hostile


@pytest.fixture
def open_page() -> Iterator[tuple[SeatServer, list[BrowserDesk], threading.Thread]]:
    """A Leduc match with people at both seats, waiting for seat 0's first answer."""
    with seat_server() as server:
        desks = [server.pages.add("leduc"), server.pages.add("leduc")]
        thread = threading.Thread(target=run_match, args=("leduc", [PersonSeat(desk) for desk in desks]),
                                  kwargs={"seed": 5, "time_control": TimeControl(move_time=20.0)}, daemon=True)
        thread.start()
        client = PageClient(server.url(desks[0]))
        while client.poll(0)["open"] is None:
            pass
        yield server, desks, thread
        for desk in desks:  # the match ends at once: every answer from now on is late
            desk.close()
        thread.join(timeout=30)


def test_without_its_secret_there_is_no_page(open_page: Any) -> None:
    server, desks, _ = open_page
    good = PageClient(server.url(desks[0]))
    for secret in ("", desks[0].secret[:-1], desks[0].secret + "x", desks[0].secret.upper(), "../" + desks[0].secret):
        other = PageClient(good.origin + "/seat/" + secret + "/")
        for path in ("", "poll?after=0", "view"):
            assert other.get(path)[0] == 404, (secret, path)
        assert other.answer(1, 0) == 404
    assert PageClient(good.origin + "/").get("")[0] == 404


def test_it_answers_only_to_its_own_address(open_page: Any) -> None:
    """A page of another site that resolves its own name to 127.0.0.1 (DNS
    rebinding) sends that name as Host: it is refused."""
    server, desks, _ = open_page
    client = PageClient(server.url(desks[0]))
    port = client.origin.rsplit(":", 1)[1]
    for host in (f"evil.example:{port}", "127.0.0.1", f"127.0.0.1:{int(port) + 1}", ""):
        assert client.request("GET", "", headers={"Host": host})[0] == 421, host
    assert client.request("GET", "", headers={"Host": f"localhost:{port}"})[0] == 200


def test_only_its_own_page_may_answer(open_page: Any) -> None:
    """Another site can send a request (a form, a fetch): its Origin, its
    Sec-Fetch-Site or its content type gives it away, and nothing is taken."""
    server, desks, _ = open_page
    client = PageClient(server.url(desks[0]))
    request = client.poll(0)["open"]["request"]
    body = json.dumps({"request": request, "choice": 0}).encode()
    for origin in (None, "null", "http://evil.example", client.origin.replace("127.0.0.1", "127.0.0.2"),
                   client.origin + ".evil.example"):
        headers = {"Content-Type": "application/json", **({"Origin": origin} if origin else {})}
        assert client.request("POST", "answer", body, headers)[0] == 403, origin
    form = {"Origin": client.origin, "Content-Type": "application/x-www-form-urlencoded"}
    assert client.request("POST", "answer", body, form)[0] == 415
    cross = {"Origin": client.origin, "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}
    assert client.request("POST", "answer", body, cross)[0] == 403
    assert client.request("GET", "poll?after=0", headers={"Sec-Fetch-Site": "same-site"})[0] == 403
    too_big = json.dumps({"request": request, "choice": 0, "pad": "x" * 2000}).encode()
    assert client.request("POST", "answer", too_big, {"Origin": client.origin,
                                                      "Content-Type": "application/json"})[0] == 413
    assert client.poll(0)["open"]["request"] == request, "a refused answer was taken"


def test_an_answer_names_the_open_request_and_one_of_its_choices(open_page: Any) -> None:
    server, desks, _ = open_page
    client = PageClient(server.url(desks[0]))
    request = client.poll(0)["open"]["request"]
    origin = {"Origin": client.origin, "Content-Type": "application/json"}
    for body in (b"", b"[]", b'{"request": 1}', b'{"request": "1", "choice": 0}', b'{"request": 1, "choice": 0.5}',
                 b'{"request": true, "choice": 0}', b"\xff"):
        assert client.request("POST", "answer", body, origin)[0] == 400, body
    assert client.answer(request + 1, 0) == 409
    assert client.answer(request - 1, 0) == 409
    assert client.answer(request, 99) == 422 and client.answer(request, -1) == 422
    assert client.answer(request, 0) == 200
    assert client.answer(request, 1) == 409, "a second answer to the same request"


def test_a_page_acts_only_for_its_own_seat(open_page: Any) -> None:
    """Seat 1's page cannot answer seat 0's request, even with its number."""
    server, desks, _ = open_page
    mine, theirs = PageClient(server.url(desks[0])), PageClient(server.url(desks[1]))
    request = mine.poll(0)["open"]["request"]
    assert theirs.poll(0)["open"] is None
    assert theirs.answer(request, 0) == 409
    assert mine.poll(0)["open"]["request"] == request, "the other page's answer was taken"
    assert mine.answer(request, 0) == 200


def test_nothing_is_shared_with_other_sites(open_page: Any) -> None:
    server, desks, _ = open_page
    client = PageClient(server.url(desks[0]))
    for method, path in (("GET", ""), ("GET", "poll?after=0"), ("OPTIONS", "answer"), ("GET", "view")):
        status, headers, _ = client.request(method, path, headers={"Origin": "http://evil.example",
                                                                    "Sec-Fetch-Site": "same-origin"})
        assert not any(name.lower().startswith("access-control-") for name in headers), (method, path)
        assert headers.get("X-Frame-Options") == "DENY" or status == 501
    _, headers, page = client.request("GET", "")
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert "connect-src 'self'" in headers["Content-Security-Policy"]
    assert headers["Referrer-Policy"] == "no-referrer" and headers["Cache-Control"] == "no-store"
    assert client.get("view")[0] == 404  # the viewer only once the match is over


def test_names_from_bots_reach_the_page_only_as_data(tmp_path: Path) -> None:
    """A bot chooses its name: it never enters the page's HTML (the tables
    and event lines carry marks, the script writes names as text), and it
    comes escaped of anything a terminal or a bidi override would obey."""
    hostile = '<img src=x onerror="alert(1)">\u202e</script>{{x}}'
    result, path, clients, messages = match_with_pages(tmp_path, "leduc", 2, [0], BIG_SEED + 11,
                                                       names={1: hostile})
    start = next(m for m in messages[0] if m["type"] == "start")
    assert start["names"][1] == '<img src=x onerror="alert(1)">\\u202e</script>{{x}}'
    everything_but_names = json.dumps([{k: v for k, v in m.items() if k != "names"} for m in messages[0]],
                                      ensure_ascii=False)
    assert "<img" not in everything_but_names and "onerror" not in everything_but_names
    assert "⁅1⁆" in everything_but_names  # the name's mark stands where the name goes
    script = next(text for text in clients[0].received if "seatPage" in text)
    assert script.count("innerHTML") == 1, "the page's script writes HTML in one place only (the tables)"


def test_an_idle_page_is_late_and_struck_and_plays_on_when_it_answers(tmp_path: Path) -> None:
    """A page that does not answer (closed, or its person away) gets a
    timeout like any seat: a strike, the referee's fallback, the bank
    emptied; the page is told, and its next answer is taken as usual."""
    record = tmp_path / "idle.jsonl"
    with seat_server() as server:
        desk = server.pages.add("leduc")
        client = PageClient(server.url(desk))
        rules = load_game("leduc")
        done: list[MatchResult] = []
        thread = threading.Thread(target=lambda: done.append(run_match(
            "leduc", [PersonSeat(desk), heuristic_seat(rules)], seed=BIG_SEED,
            time_control=TimeControl(move_time=0.3, time_bank=0.2), record_path=record)))
        thread.start()
        messages: list[dict[str, Any]] = []
        answered = 0
        while not any(m["type"] == "end" for m in messages):
            reply = client.poll(len(messages))
            messages += reply["messages"]
            if any(m["type"] == "expired" for m in messages) and reply["open"] is not None and not answered:
                answered = reply["open"]["request"]
                assert client.answer(answered, 0) == 200
        thread.join()
    expired = [m["request"] for m in messages if m["type"] == "expired"]
    assert expired and expired[0] == 1, "the first request ran out and the page was told"
    lines = [line for entry in read_record(record).decisions for line in entry["seats"] if line["seat"] == 0]
    first = lines[0]
    assert first["by"] == "referee" and first["strike"]["reason"] == "timeout" and first["bank"] == 0.0
    assert answered > 1 and lines[answered - 1]["by"] == "bot" and "strike" not in lines[answered - 1]
    assert done[0].seats[0].strikes == len(expired)
