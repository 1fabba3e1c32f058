"""The raw-protobuf bot SDK (`botsdk`, sdk/python/) through the referee's own
client: what a bot is handed, what it may answer, how its failures end the
stream, its warm-up, and that it stands apart from the referee."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import grpc
import pytest
from botsdk import Bot, DecisionContext, MatchInfo, MatchResult, create_server
from botsdk.contract import PLAY_METHOD, TimeControl, protocol_games
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb
from google.protobuf.message import Message

from protocol_support import ROOT, a_decision, ask, bot_process, script, start_match
from referee.games.base import Outcome
from referee.protocol import codec as wire
from referee.protocol.client import BotClient, BotCrashed


class _Recorder(Bot):
    """Records every call; answers with what `choose` picks."""

    name = "raw-recorder"

    def __init__(self, choose: Any = lambda legal: legal[-1]) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.choose = choose

    def on_match_start(self, match: MatchInfo, observation: Message) -> None:
        self.calls.append(("start", match, observation))

    def decide(self, observation: Message, legal_actions: Sequence[Message], context: DecisionContext) -> Any:
        self.calls.append(("decide", observation, list(legal_actions), context))
        return self.choose(legal_actions)

    def on_events(self, events: Sequence[Message]) -> None:
        self.calls.append(("events", list(events)))

    def on_match_end(self, result: MatchResult) -> None:
        self.calls.append(("end", result))


@contextmanager
def _served(bot: Bot) -> Iterator[BotClient]:
    """`bot` on a real gRPC server on a temporary socket, and a referee client ready to play it."""
    folder = tempfile.mkdtemp(prefix="bot", dir="/tmp")
    socket_path = os.path.join(folder, "s")
    server = create_server(f"unix:{socket_path}", bot)
    server.start()
    client = BotClient(socket_path)
    try:
        client.wait_ready(10)
        yield client
    finally:
        client.close()
        server.stop(None)


def test_a_bot_is_handed_the_games_messages_and_its_choice_is_played():
    game, state, seat = a_decision()
    codec = wire.codec_for("gnadenlos")
    bot = _Recorder()
    expected = codec.encode_observation(state.observe(seat))
    legal = state.legal_actions(seat)
    with _served(bot) as client:
        assert client.info is not None and client.info.name == "raw-recorder"
        assert client.info.games == protocol_games()
        start_match(client, state, seat, match_id="raw")
        assert ask(client, state, seat, 1) == legal[-1]
        events = state.apply({s: state.legal_actions(s)[0] for s in state.to_act()})
        visible = [e for e in events if seat in e.visible_to]
        client.notify(visible)
        client.end_match(Outcome("goal", (1, 0, 2, 3)), "goal")
    assert visible, "the chosen position's step must produce events for the seat"
    assert [c[0] for c in bot.calls] == ["start", "decide", "events", "end"]
    _, match, first = bot.calls[0]
    assert (match.match_id, match.game, match.seat, match.num_seats) == ("raw", "gnadenlos", seat, 4)
    assert match.time_control == TimeControl(move_time=0.2)
    _, observation, offered, context = bot.calls[1]
    assert observation.DESCRIPTOR.full_name == "gnadenlos.v1.Observation"
    assert observation == first == expected
    assert offered == [codec.encode_action(a) for a in legal]
    assert context.request_id == 1 and context.match == match
    assert bot.calls[2][1] == [codec.encode_event(e) for e in visible]
    assert bot.calls[3] == ("end", MatchResult((1, 0, 2, 3), "goal", ""))


def test_events_held_for_a_seat_arrive_in_its_next_decide_before_it_decides():
    """botsdk's handshake sets events_in_decide, so the events of several
    steps go to the seat inside its next Decide (docs/protocol.md): one
    on_events call with all of them, in order, then decide."""
    game, state, seat = a_decision()
    codec = wire.codec_for("gnadenlos")
    rng = random.Random(1)
    bot = _Recorder()
    with _served(bot) as client:
        start_match(client, state, seat)
        ask(client, state, seat, 1)
        visible, steps = [], 0
        while True:
            events = state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
            steps += 1
            mine = [e for e in events if seat in e.visible_to]
            client.notify(mine)
            visible += mine
            if seat in state.to_act() and len(state.legal_actions(seat)) > 1:
                break
        ask(client, state, seat, 2)
    assert steps > 1, "the seat's next decision should come several steps later"
    assert [c[0] for c in bot.calls] == ["start", "decide", "events", "decide"]
    assert bot.calls[2][1] == [codec.encode_event(e) for e in visible]


def test_decide_may_answer_with_an_equal_message_of_its_own():
    game, state, seat = a_decision()

    def rebuilt(legal: Sequence[Message]) -> Message:
        copy = type(legal[1])()
        copy.CopyFrom(legal[1])
        return copy

    with _served(_Recorder(rebuilt)) as client:
        start_match(client, state, seat)
        assert ask(client, state, seat, 1) == state.legal_actions(seat)[1]


def test_an_answer_that_is_no_action_ends_the_stream_saying_what_was_expected():
    game, state, seat = a_decision()
    with _served(_Recorder(lambda legal: 0)) as client:
        start_match(client, state, seat)
        with pytest.raises(BotCrashed) as crash:
            ask(client, state, seat, 1)
    assert "the bot's decide raised TypeError: decide must return one of legal_actions " \
           "(a gnadenlos.v1.Action message), not int" in crash.value.detail


class _FailsOnEvents(_Recorder):
    def on_events(self, events: Sequence[Message]) -> None:
        raise KeyError("no such card")


def test_a_hook_that_raises_ends_the_stream_with_its_type_and_message():
    game, state, seat = a_decision()
    with _served(_FailsOnEvents()) as client:
        start_match(client, state, seat)
        events = state.apply({s: state.legal_actions(s)[0] for s in state.to_act()})
        client.notify([e for e in events if seat in e.visible_to])
        with pytest.raises(BotCrashed) as crash:
            ask(client, state, seat, 2)
    assert "INTERNAL (the bot's on_events raised KeyError: 'no such card')" in crash.value.detail


def test_a_match_of_a_game_the_sdk_does_not_carry_is_refused_with_the_fix():
    start = tpb.RefereeMessage(match_start=tpb.MatchStart(match_id="m", game="chess", seat=0, num_seats=2))
    with _served(_Recorder()) as client:
        assert client.socket_path
        with grpc.insecure_channel(f"unix:{client.socket_path}") as channel:
            play = channel.stream_stream(PLAY_METHOD, request_serializer=tpb.RefereeMessage.SerializeToString,
                                         response_deserializer=tpb.BotMessage.FromString)
            with pytest.raises(grpc.RpcError) as error:
                list(play(iter([start]), timeout=5))
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "no messages for game 'chess'" in error.value.details()
    assert "update bot-referee-sdk" in error.value.details()


def test_the_first_match_waits_for_the_warm_up_and_a_failed_warm_up_is_survived():
    """tests/bots/botsdk_warm_up.py's decide raises unless its 0.5 s warm-up
    (which then raises) has finished; the referee starts the match at once."""
    _, state, seat = a_decision()
    with bot_process(script("botsdk_warm_up.py")) as bot:
        start_match(bot.client, state, seat)
        assert ask(bot.client, state, seat, 1) == state.legal_actions(seat)[0]


def test_the_protocol_games_are_the_games_the_referee_can_encode():
    assert set(protocol_games()) == set(wire.protocol_games())


def test_importing_botsdk_loads_nothing_of_the_referee():
    """Also checked where only the SDK is installed (test_botsdk_standalone.py)."""
    code = ("import json, sys, botsdk; "
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('referee', 'bots', 'ladder'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=tempfile.gettempdir())
    assert json.loads(done.stdout) == []


def test_the_documented_example_bot_is_the_one_that_is_run():
    """docs/protocol.md shows sdk/python/examples/random_bot.py, which
    test_botsdk_standalone.py plays from an SDK-only environment."""
    example = (ROOT / "sdk" / "python" / "examples" / "random_bot.py").read_text()
    code = example[example.index('"""', 3) + 3:].lstrip("\n")
    assert f"```python\n{code}```" in (ROOT / "docs" / "protocol.md").read_text()
