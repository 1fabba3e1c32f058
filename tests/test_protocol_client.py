"""BotClient against real bot processes on temporary sockets (docs/protocol.md).

Each misbehaviour is a small real program in tests/bots/; the client must
name the fault by its stable reason code and never hang.
"""

from __future__ import annotations

import random
import time

import pytest

from referee.games import load_game
from protocol_support import a_decision, ask, bot_process, random_bot, script, start_match
from botsdk.contract import PROTOCOL_VERSION
from referee.protocol.client import (
    BotCrashed,
    BotStartFailed,
    BotTimeout,
    IllegalAnswer,
    MalformedAnswer,
    ProtocolMismatch,
)


def test_handshake_reports_the_random_bot():
    with bot_process(random_bot()) as bot:
        info = bot.client.info
        assert info is not None
        assert (info.name, info.protocol_version) == ("random", PROTOCOL_VERSION)
        assert "gnadenlos" in info.games


def test_full_match_seat_played_by_the_random_bot_process():
    """Every decision of seat 0 round-trips through the bot; every answer is legal
    and the engine accepts it (events are notified as they happen)."""
    state = load_game("gnadenlos").new_state(4, 11)
    rng = random.Random(11)
    with bot_process(random_bot()) as bot:
        start_match(bot.client, state, 0)
        request_id = 0
        while not state.is_terminal():
            actions = {}
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                if seat == 0 and len(legal) > 1:
                    request_id += 1
                    actions[seat] = ask(bot.client, state, seat, request_id)
                    assert actions[seat] in legal
                else:
                    actions[seat] = rng.choice(legal)
            events = state.apply(actions)
            bot.client.notify([e for e in events if 0 in e.visible_to])
        bot.client.end_match(state.outcome(), state.outcome().reason)
        assert request_id > 10


def test_consecutive_matches_in_one_bot_process():
    _, state, seat = a_decision()
    with bot_process(random_bot()) as bot:
        for match in range(3):
            start_match(bot.client, state, seat, match_id=f"m{match}")
            assert ask(bot.client, state, seat, 1) in state.legal_actions(seat)
            bot.client.end_match(_outcome(state), "test")
        assert bot.process.poll() is None


def test_seeded_random_bot_repeats_its_choices_per_match():
    _, state, seat = a_decision(seed=5)
    runs = []
    for _ in range(2):
        with bot_process(random_bot(seed=42)) as bot:
            start_match(bot.client, state, seat, match_id="same")
            runs.append([ask(bot.client, state, seat, r) for r in range(1, 6)])
    assert runs[0] == runs[1]


def test_no_answer_in_time_is_a_timeout_and_the_late_answer_is_stale():
    _, state, seat = a_decision()
    with bot_process(script("proto_late_then_prompt.py")) as bot:
        start_match(bot.client, state, seat)
        with pytest.raises(BotTimeout) as fault:
            ask(bot.client, state, seat, 1, timeout=0.1)
        assert fault.value.reason == "timeout"
        # The answer to request 1 arrives while request 2 waits: discarded.
        assert ask(bot.client, state, seat, 2) == state.legal_actions(seat)[-1]
        assert bot.client.stale_answers == 1


def test_an_action_that_is_not_legal_is_illegal():
    _, state, seat = a_decision()
    with bot_process(script("proto_illegal.py")) as bot:
        start_match(bot.client, state, seat)
        with pytest.raises(IllegalAnswer) as fault:
            ask(bot.client, state, seat, 1)
        assert fault.value.reason == "illegal"
        assert "commit 999" in fault.value.detail


@pytest.mark.parametrize("mode", ["garbage", "empty", "no-action", "unasked"])
def test_a_broken_answer_is_malformed(mode):
    _, state, seat = a_decision()
    with bot_process(script("proto_raw.py", "--answer", mode)) as bot:
        start_match(bot.client, state, seat)
        with pytest.raises(MalformedAnswer) as fault:
            ask(bot.client, state, seat, 1)
        assert fault.value.reason == "malformed"


def test_unknown_fields_in_an_answer_are_tolerated():
    _, state, seat = a_decision()
    with bot_process(script("proto_raw.py", "--answer", "ok")) as bot:
        start_match(bot.client, state, seat)
        assert ask(bot.client, state, seat, 1) == state.legal_actions(seat)[0]


def test_a_bot_that_floods_the_stream_is_cut_off():
    """One answer per Decide; hundreds of unread ones cut the stream (a crash)
    before they fill the referee's memory."""
    _, state, seat = a_decision()
    with bot_process(script("proto_raw.py", "--answer", "flood")) as bot:
        start_match(bot.client, state, seat)
        assert ask(bot.client, state, seat, 1) == state.legal_actions(seat)[0]
        time.sleep(1.0)  # let the flood pile up unread
        with pytest.raises(BotCrashed) as fault:
            ask(bot.client, state, seat, 2)
        assert "answers nobody asked for" in fault.value.detail


def test_a_bot_that_dies_mid_match_has_crashed():
    _, state, seat = a_decision()
    with bot_process(script("proto_crash.py")) as bot:
        start_match(bot.client, state, seat)
        begin = time.monotonic()
        with pytest.raises(BotCrashed) as fault:
            ask(bot.client, state, seat, 1, timeout=30)
        assert time.monotonic() - begin < 30, "a crash must not wait for the deadline"
        assert fault.value.reason == "crashed"
        assert bot.process.wait(10) == 9
        with pytest.raises(BotCrashed):  # and stays crashed
            bot.client.receive_decision(request_id=1, legal_actions=state.legal_actions(seat), timeout=1)


def test_a_newer_protocol_version_is_a_mismatch():
    with bot_process(script("proto_raw.py", "--protocol-version", "2"), ready=False) as bot:
        with pytest.raises(ProtocolMismatch) as fault:
            bot.client.wait_ready(20)
        assert fault.value.reason == "protocol_version"
        assert "version 2" in fault.value.detail


def test_a_bot_that_never_listens_fails_to_start():
    with bot_process(script("proto_never_listens.py"), ready=False) as bot:
        with pytest.raises(BotStartFailed) as fault:
            bot.client.wait_ready(0.5)
        assert fault.value.reason == "startup"


def _outcome(state):
    from referee.games.base import Outcome

    return Outcome("test", tuple(range(state.num_seats)))
