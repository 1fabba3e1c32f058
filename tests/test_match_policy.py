"""The referee's failure policy and time control, driven through `run_match`
with in-process fake bots (the wire layer is tested end to end elsewhere:
tests/test_match_e2e.py, tests/test_misbehaving_bots.py).

DESIGN.md, Failure policy; G-5.4 (simultaneous commitment); G-10 (events only
to their audience).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from referee.games import Action, Event, Observation, Outcome
from referee.match import STRIKE_LIMIT, final_ranks, run_match
from botsdk.contract import TimeControl
from referee.protocol.client import BotCrashed, BotInfo, BotTimeout, IllegalAnswer, MalformedAnswer
from referee.records import read_record
from referee.replay import verify

Policy = Callable[[int, Observation, tuple[Action, ...]], Action]
"""(request number for this seat, observation, legal actions) -> action, or raise a BotFault."""


class FakeClient:
    """Implements the BotClient methods the referee uses, in process."""

    def __init__(self, policy: Policy, seed: int) -> None:
        self.policy = policy
        self.rng = random.Random(seed)
        self.asked = 0
        self.pending: dict[int, tuple[Observation, tuple[Action, ...]]] = {}
        self.received: list[tuple[str, Any]] = []
        self.deadlines: list[float] = []

    def start_match(self, **kwargs: Any) -> None:
        self.received.append(("start", kwargs))

    def send_decide(self, *, request_id: int, observation: Observation,
                    legal_actions: Sequence[Action], allowance: float) -> None:
        self.pending[request_id] = (observation, tuple(legal_actions))
        self.deadlines.append(allowance)
        self.received.append(("decide", request_id))

    def receive_decision(self, *, request_id: int, legal_actions: Sequence[Action], timeout: float) -> Action:
        observation, legal = self.pending.pop(request_id)
        self.asked += 1
        return self.policy(self.asked, observation, legal)

    def notify(self, events: Sequence[Event]) -> None:
        self.received.append(("notify", list(events)))

    def end_match(self, outcome: Outcome, reason: str, seed: int | None = None, seed_salt: bytes = b"") -> None:
        self.received.append(("end", outcome))

    def close(self) -> None:
        pass


class FakeBot:
    """Stands in for a BotProcess."""

    def __init__(self, name: str, policy: Policy, seed: int = 0) -> None:
        self.label = name
        self.info = BotInfo(name, "1", 1, ("gnadenlos",))
        self.client = FakeClient(policy, seed)
        self.fault = None
        self.alive = True
        self.pid = 1

    def exit_description(self, wait: float = 0.0) -> str:
        return "the process is still running"

    def begin_match(self) -> None:
        """No sandbox: no budgets to renew."""

    def kill(self) -> None:
        """No process to kill."""

    def protections(self) -> dict[str, Any]:
        return {}


def random_policy(asked: int, observation: Observation, legal: tuple[Action, ...]) -> Action:
    return legal[asked % len(legal)]


def failing(fault: Exception, on: Callable[[int], bool] = lambda asked: True) -> Policy:
    def policy(asked: int, observation: Observation, legal: tuple[Action, ...]) -> Action:
        if on(asked):
            raise fault
        return legal[0]
    return policy


def play(bots: list[Any], tmp_path: Path, seed: int = 7, **kwargs: Any) -> tuple[Any, Any]:
    path = tmp_path / "match.jsonl"
    result = run_match("gnadenlos", bots, seed=seed, record_path=path,
                       time_control=kwargs.pop("time_control", TimeControl(move_time=0.2)), **kwargs)
    return result, read_record(path)


def test_final_ranks_put_forfeiters_last_sharing_the_place() -> None:
    assert final_ranks((0, 1, 2, 3), frozenset()) == (0, 1, 2, 3)
    assert final_ranks((0, 1, 2, 3), frozenset({0})) == (3, 0, 1, 2)
    assert final_ranks((1, 0, 1, 3), frozenset({1, 3})) == (0, 2, 0, 2)
    assert final_ranks((0, 0, 2), frozenset({2})) == (0, 0, 2)


def test_a_clean_match_has_no_strikes_and_replays(tmp_path: Path) -> None:
    bots = [FakeBot(f"b{i}", random_policy) for i in range(4)]
    result, record = play(bots, tmp_path)
    assert all(s.strikes == 0 and s.forfeit is None for s in result.seats)
    assert sorted(result.ranks) == sorted(record.footer["engine_ranks"])  # type: ignore[index]
    assert result.decisions == len(record.decisions)
    verify(record)


@pytest.mark.parametrize("fault", [BotTimeout("late"), IllegalAnswer("no"), MalformedAnswer("garbage")])
def test_one_bad_answer_is_a_strike_and_a_fallback(tmp_path: Path, fault: Exception) -> None:
    bots = [FakeBot("bad", failing(fault, on=lambda asked: asked == 1))]
    bots += [FakeBot(f"b{i}", random_policy) for i in range(1, 4)]
    result, record = play(bots, tmp_path)
    assert result.seats[0].strikes == 1 and result.seats[0].forfeit is None
    struck = [line for d in record.decisions for line in d["seats"] if "strike" in line]
    assert [(line["seat"], line["by"], line["strike"]["reason"]) for line in struck] == [(0, "referee", fault.reason)]  # type: ignore[attr-defined]
    verify(record)


def test_strike_limit_forfeits_and_ranks_last(tmp_path: Path) -> None:
    bots = [FakeBot("b0", random_policy), FakeBot("bad", failing(IllegalAnswer("never legal")))]
    bots += [FakeBot(f"b{i}", random_policy) for i in range(2, 4)]
    result, record = play(bots, tmp_path)
    assert result.seats[1].forfeit == "strike_limit"
    assert result.seats[1].strikes == STRIKE_LIMIT
    assert result.ranks[1] == 3
    assert [f["seat"] for f in record.forfeits] == [1]
    # After the forfeit the referee decides for that seat without asking it.
    assert bots[1].client.asked == STRIKE_LIMIT
    assert record.footer["forfeits"][0]["reason"] == "strike_limit"  # type: ignore[index]
    verify(record)


def test_a_crash_forfeits_at_once(tmp_path: Path) -> None:
    bots = [FakeBot(f"b{i}", random_policy) for i in range(3)]
    bots.append(FakeBot("crash", failing(BotCrashed("stream broke"), on=lambda asked: asked == 2)))
    result, record = play(bots, tmp_path)
    assert result.seats[3].forfeit == "crashed" and result.ranks[3] == 3
    assert bots[3].client.asked == 2
    assert all(s.forfeit is None for s in result.seats[:3])
    verify(record)


def test_fallback_actions_are_reproducible_from_the_seed(tmp_path: Path) -> None:
    def actions(run: int) -> list[Any]:
        bots = [FakeBot(f"b{i}", failing(IllegalAnswer("x"))) for i in range(3)]
        _, record = play(bots, tmp_path / str(run))
        return [line["action"] for d in record.decisions for line in d["seats"]]
    assert actions(1) == actions(2)


def test_a_forfeited_seat_hears_nothing_more(tmp_path: Path) -> None:
    bots = [FakeBot("crash", failing(BotCrashed("gone"), on=lambda asked: asked == 1))]
    bots += [FakeBot(f"b{i}", random_policy) for i in range(1, 3)]
    play(bots, tmp_path)
    kinds = [kind for kind, _ in bots[0].client.received]
    last_decide = max(i for i, k in enumerate(kinds) if k == "decide")
    assert kinds[last_decide + 1:] == ["end"]  # only the end of the match, to close the stream


def test_events_reach_only_their_audience(tmp_path: Path) -> None:
    bots = [FakeBot(f"b{i}", random_policy) for i in range(4)]
    play(bots, tmp_path)
    for seat, bot in enumerate(bots):
        events = [e for kind, batch in bot.client.received if kind == "notify" for e in batch]
        assert events and all(seat in e.visible_to for e in events)


def test_simultaneous_requests_all_go_out_before_any_answer_is_read(tmp_path: Path) -> None:
    """G-5.4: every committing seat is asked before the referee reads an answer."""
    order: list[tuple[str, int]] = []

    class Watching(FakeClient):
        def send_decide(self, **kwargs: Any) -> None:
            order.append(("send", id(self)))
            super().send_decide(**kwargs)

        def receive_decision(self, **kwargs: Any) -> Action:
            order.append(("receive", id(self)))
            return super().receive_decision(**kwargs)

    bots = [FakeBot(f"b{i}", random_policy) for i in range(4)]
    for bot in bots:
        bot.client.__class__ = Watching
    _, record = play(bots, tmp_path)
    simultaneous = [d for d in record.decisions if len(d["seats"]) > 1]
    assert simultaneous
    position = 0
    for decision in record.decisions:
        asked = len(decision["seats"])
        batch = order[position: position + 2 * asked]
        assert [k for k, _ in batch[:asked]] == ["send"] * asked
        assert sorted(k for k, _ in batch[asked:]) == ["receive"] * asked
        position += 2 * asked


def test_time_beyond_move_time_comes_out_of_the_bank(tmp_path: Path) -> None:
    import time as clock

    def slow_first(asked: int, observation: Observation, legal: tuple[Action, ...]) -> Action:
        if asked == 1:
            clock.sleep(0.15)
        return legal[0]

    bots = [FakeBot("slow", slow_first)] + [FakeBot(f"b{i}", random_policy) for i in range(1, 3)]
    result, record = play(bots, tmp_path, time_control=TimeControl(move_time=0.05, time_bank=1.0, grace=0.05))
    first = next(line for d in record.decisions for line in d["seats"] if line["seat"] == 0)
    assert first["time"] >= 0.15
    assert first["bank"] == pytest.approx(1.0 - (first["time"] - 0.05), abs=1e-5)  # beyond 0.05 s from the bank
    assert bots[0].client.deadlines[0] == pytest.approx(1.05)
    assert bots[0].client.deadlines[1] == pytest.approx(0.05 + first["bank"], abs=1e-6)
    assert result.seats[0].strikes == 0
