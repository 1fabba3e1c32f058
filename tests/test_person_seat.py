"""A person's seat in the one match loop (referee/seats/person/seat.py):
the clock, strikes, the time bank and forfeits apply to it as to a bot.

The person is a scripted `Desk` (what each decision gets: an answer, an
answer after a while, none, a closed terminal); the matches are real,
recorded, and replay and verify like any other.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from botsdk.contract import TimeControl

from referee.audit import audit
from referee.games import Event, load_game
from referee.match import FALLBACK_POLICY, run_match
from referee.records import read_record
from referee.replay import verify
from referee.seats import Answer, MatchEnd, MatchStart, Request, Seat, SeatInfo
from referee.seats.person import Desk, DeskClosed, PersonSeat, person_clock
from referee.seats.person.menu import Menu
from referee.seats.policy import heuristic_seat

ANSWER, SLOW, LATE, CLOSE = "answer", "slow", "late", "close"


class ScriptedDesk(Desk):
    """A person who does what `script` says, decision by decision (then answers)."""

    def __init__(self, script: Sequence[str], slow: float = 0.0) -> None:
        self.script = list(script)
        self.slow = slow
        self.asked_ids: list[int] = []
        self.expired_ids: list[int] = []
        self.menus: list[Menu] = []
        self.offered: list[int] = []
        """How many legal actions each request offered."""
        self.heard_events = 0
        self.started: MatchStart | None = None
        self.end: MatchEnd | None = None
        self.was_dismissed = False

    def opened(self, start: MatchStart) -> None:
        self.started = start

    def heard(self, events: Sequence[Event]) -> None:
        self.heard_events += len(events)

    def asked(self, request: Request, menu: Menu) -> None:
        self.asked_ids.append(request.request_id)
        self.menus.append(menu)
        self.offered.append(len(request.legal_actions))

    def answer(self, request_id: int, until: float) -> int | None:
        what = self.script.pop(0) if self.script else ANSWER
        if what == CLOSE:
            raise DeskClosed("the terminal's input ended")
        if what == LATE:
            time.sleep(max(0.0, until - time.monotonic()))
            return None
        if what == SLOW:
            time.sleep(self.slow)
        return len(self.menus[-1].options) - 1

    def expired(self, request_id: int) -> None:
        self.expired_ids.append(request_id)

    def ended(self, end: MatchEnd) -> None:
        self.end = end

    def dismissed(self) -> None:
        self.was_dismissed = True


def leduc_match(tmp_path: Path, desk: ScriptedDesk, tc: TimeControl, seed: int = 4) -> tuple[object, Path]:
    rules = load_game("leduc")
    record = tmp_path / "match.jsonl"
    result = run_match("leduc", [PersonSeat(desk, "alice"), heuristic_seat(rules), heuristic_seat(rules)],
                       seed=seed, time_control=tc, record_path=record)
    return result, record


def person_lines(path: Path) -> list[dict[str, object]]:
    record = read_record(path)
    return [line for decision in record.decisions for line in decision["seats"] if line["seat"] == 0]


def test_a_person_is_a_seat_of_the_record_that_replays_and_verifies(tmp_path: Path) -> None:
    desk = ScriptedDesk([])
    result, path = leduc_match(tmp_path, desk, TimeControl(move_time=5.0))
    record = read_record(path)
    assert record.header["seats"][0] | {"sandbox": {}} == {
        "seat": 0, "label": "alice", "name": "alice", "version": "person", "protocol_version": 0, "sandbox": {},
        "kind": "person"}
    lines = person_lines(path)
    assert lines and all(line["by"] == "bot" and "strike" not in line for line in lines)
    assert desk.asked_ids == list(range(1, len(lines) + 1))  # its own count, never the match's
    assert desk.started is not None and desk.started.seat == 0 and desk.heard_events > 0
    assert desk.end is not None and list(desk.end.outcome.ranks) == list(record.footer["ranks"])  # type: ignore[index]
    verify(record)
    audit(record)


def test_an_answer_not_given_in_time_is_a_strike_and_the_referee_plays(tmp_path: Path) -> None:
    desk = ScriptedDesk([LATE])
    tc = TimeControl(move_time=0.05, time_bank=0.5, grace=0.05)
    _, path = leduc_match(tmp_path, desk, tc)
    first = person_lines(path)[0]
    assert first["by"] == "referee" and first["strike"]["reason"] == "timeout"  # type: ignore[index]
    assert first["bank"] == 0.0, "a timeout empties the time bank"
    assert first["time"] >= 0.6  # type: ignore[operator]  # it waited the move time, the bank and the grace
    assert desk.expired_ids == [1]
    record = read_record(path)
    assert record.header["fallback"] == FALLBACK_POLICY
    verify(record)


def test_time_beyond_the_move_time_comes_out_of_the_bank(tmp_path: Path) -> None:
    desk = ScriptedDesk([SLOW], slow=0.3)
    _, path = leduc_match(tmp_path, desk, TimeControl(move_time=0.1, time_bank=2.0, grace=0.05))
    first = person_lines(path)[0]
    assert first["by"] == "bot" and "strike" not in first
    assert 1.7 < first["bank"] < 1.85  # type: ignore[operator]


def test_three_timeouts_forfeit_the_seat(tmp_path: Path) -> None:
    path = None
    for seed in range(4, 40):  # a hand in which the person decides three times or more
        desk = ScriptedDesk([LATE, LATE, LATE])
        _, path = leduc_match(tmp_path, desk, TimeControl(move_time=0.02, grace=0.02), seed=seed)
        if len(desk.asked_ids) >= 3:
            break
    assert path is not None and len(desk.asked_ids) == 3, "the seat is asked nothing after its forfeit"
    record = read_record(path)
    assert record.forfeits[0]["seat"] == 0 and record.forfeits[0]["reason"] == "strike_limit"
    assert desk.was_dismissed and desk.expired_ids == [1, 2, 3]
    assert record.footer is not None and record.footer["ranks"][0] == max(record.footer["ranks"])
    verify(record)


def test_a_desk_that_is_gone_forfeits_at_once(tmp_path: Path) -> None:
    desk = ScriptedDesk([CLOSE])
    _, path = leduc_match(tmp_path, desk, TimeControl(move_time=5.0))
    record = read_record(path)
    assert record.forfeits[0]["reason"] == "crashed"
    assert "the person left: the terminal's input ended" in record.forfeits[0]["detail"]
    assert desk.asked_ids == [1] and desk.was_dismissed
    verify(record)


@pytest.mark.parametrize("game,players,variant", [("gnadenlos", 4, None), ("gnadenlos", 4, {"auction": "single"}),
                                                  ("saboteur", 5, None), ("leduc", 2, None)])
def test_every_menu_offers_each_legal_action_once(game: str, players: int, variant: dict[str, str] | None) -> None:
    """Whatever the decision, the menu's options are the legal actions, each
    exactly once (a person can choose anything a bot can, and nothing else)."""
    rules = load_game(game, variant)
    desk = ScriptedDesk([])
    seats = [PersonSeat(desk)] + [heuristic_seat(rules) for _ in range(players - 1)]
    run_match(rules, seats, seed=21, time_control=TimeControl(move_time=5.0))
    assert desk.menus
    for menu, offered in zip(desk.menus, desk.offered):
        assert sorted(option.index for option in menu.options) == list(range(offered))
        assert all(option.words for option in menu.options) and menu.prompt


class StartSpy(Seat):
    """The heuristic, keeping the MatchStart it was told (its clock)."""

    kind = "policy"

    def __init__(self, inner: Seat) -> None:
        self.inner = inner
        self.told: MatchStart | None = None

    @property
    def info(self) -> SeatInfo:
        return self.inner.info

    def start(self, start: MatchStart) -> None:
        self.told = start
        self.inner.start(start)

    def tell(self, events: Sequence[Event]) -> None:
        self.inner.tell(events)

    def send(self, request: Request) -> None:
        self.inner.send(request)

    def collect(self) -> Answer:
        return self.inner.collect()

    def end(self, end: MatchEnd) -> None:
        self.inner.end(end)

    def dismiss(self) -> None:
        self.inner.dismiss()


def test_a_person_keeps_a_clock_of_their_own_and_the_bots_keep_theirs(tmp_path: Path) -> None:
    """A person's minutes are the person's: the other seats are told, and
    timed by, the match's clock (a bot given five minutes a decision would
    stall a table or think far longer than its ladder lets it)."""
    rules = load_game("leduc")
    desk = ScriptedDesk([SLOW], slow=0.4)  # slower than a bot may be, well within a person's time
    bot = StartSpy(heuristic_seat(rules))
    match_clock = TimeControl(move_time=0.2, grace=0.05)
    record = tmp_path / "match.jsonl"
    run_match("leduc", [PersonSeat(desk, "alice", clock=person_clock(move_time=30.0)), bot], seed=4,
              time_control=match_clock, record_path=record)
    assert desk.started is not None and desk.started.time_control.move_time == 30.0
    assert bot.told is not None and bot.told.time_control == match_clock
    lines = person_lines(record)
    assert lines and lines[0]["by"] == "bot" and "strike" not in lines[0]  # 0.4 s: a person's time, not a bot's
    header = read_record(record).header
    assert header["time_control"]["move_time"] == 0.2
    assert header["seats"][0]["time_control"]["move_time"] == 30.0 and "time_control" not in header["seats"][1]
    verify(read_record(record))
