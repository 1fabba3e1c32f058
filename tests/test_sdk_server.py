"""The bot SDK as stock gRPC tools see it, and its lifecycle (docs/protocol.md)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from process_support import with_default_sigint
from protocol_support import ROOT, a_decision, ask, bot_process, random_bot, start_match
from bots.sdk import Bot, create_server
from referee.games.base import Outcome
from referee.protocol import codec as wire
from botsdk.contract import SERVICE, TimeControl
from referee.protocol.client import BotClient
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb


def _channel(socket_path):
    return grpc.insecure_channel(f"unix:{socket_path}")


def test_standard_health_check_says_serving():
    with bot_process(random_bot()) as bot, _channel(bot.socket_path) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        for service in ("", SERVICE):
            answer = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
            assert answer.status == health_pb2.HealthCheckResponse.SERVING


def test_reflection_lists_the_bot_service_and_describes_it():
    with bot_process(random_bot()) as bot, _channel(bot.socket_path) as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        requests = [
            reflection_pb2.ServerReflectionRequest(list_services=""),
            reflection_pb2.ServerReflectionRequest(file_containing_symbol=SERVICE),
        ]
        listed, described = list(stub.ServerReflectionInfo(iter(requests), timeout=5))
        names = {s.name for s in listed.list_services_response.service}
        assert {SERVICE, "grpc.health.v1.Health"} <= names
        assert described.file_descriptor_response.file_descriptor_proto


def test_the_socket_can_come_from_the_environment():
    _, state, seat = a_decision()
    env = dict(os.environ)
    folder = tempfile.mkdtemp(prefix="bot", dir="/tmp")
    env["REFEREE_BOT_SOCKET"] = os.path.join(folder, "env.sock")
    process = subprocess.Popen([sys.executable, "-m", "bots.random"], cwd=ROOT, env=env,
                               preexec_fn=with_default_sigint)
    client = BotClient(env["REFEREE_BOT_SOCKET"])
    try:
        assert client.wait_ready(20).name == "random"
        start_match(client, state, seat)
        assert ask(client, state, seat, 1) in state.legal_actions(seat)
    finally:
        client.close()
        process.kill()
        process.wait()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_graceful_shutdown_on_signal(signum):
    """Exit 0 and remove the socket, whichever of the bot's threads the kernel
    hands the signal to (repeated: one delivery to a gRPC thread once hung)."""
    for _ in range(3):
        with bot_process(random_bot()) as bot:
            bot.process.send_signal(signum)
            assert bot.process.wait(10) == 0
            assert not os.path.exists(bot.socket_path)


def test_the_socket_accepts_as_soon_as_it_exists():
    """The referee may connect the moment the file appears (docs/protocol.md)."""
    with bot_process(random_bot(), ready=False) as bot:
        while not os.path.exists(bot.socket_path):
            assert bot.process.poll() is None
            time.sleep(0.001)
        with socket.socket(socket.AF_UNIX) as conn:
            conn.connect(bot.socket_path)  # ECONNREFUSED here was the bug


def test_unknown_message_kinds_and_fields_from_a_newer_referee_are_skipped():
    """A RefereeMessage of an unknown kind (field 99) is skipped; a Decide with
    an unknown field (127) appended is answered as usual."""
    _, state, seat = a_decision()
    observation = state.observe(seat)
    legal = state.legal_actions(seat)
    codec = wire.codec_for("gnadenlos")
    start = tpb.RefereeMessage(match_start=tpb.MatchStart(
        match_id="m", game="gnadenlos", seat=seat, num_seats=4,
        observation=wire.game_observation(codec, observation)))
    decide = tpb.Decide(request_id=5, observation=wire.game_observation(codec, observation), deadline_ms=5000,
                        legal_actions=[wire.game_action(codec, a) for a in legal])
    decide_with_unknown_field = decide.SerializeToString() + b"\xf8\x07\x01"
    messages = [
        start.SerializeToString(),
        _field(99, b""),  # a message kind this SDK does not know
        _field(2, decide_with_unknown_field),  # RefereeMessage.decide
    ]
    with bot_process(random_bot()) as bot, _channel(bot.socket_path) as channel:
        play = channel.stream_stream(f"/{SERVICE}/Play")
        answers = play(iter(messages), timeout=10)
        decision = tpb.BotMessage.FromString(next(answers)).decision
        assert decision.request_id == 5
        assert wire.decode_game_action(codec, decision.action) in legal


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field (varint tag and length)."""
    def varint(n: int) -> bytes:
        out = bytearray()
        while n > 0x7F:
            out.append(n & 0x7F | 0x80)
            n >>= 7
        return bytes(out + bytes([n]))

    return varint(number << 3 | 2) + varint(len(payload)) + payload


def test_a_decide_before_match_start_ends_the_stream():
    with bot_process(random_bot()) as bot, _channel(bot.socket_path) as channel:
        play = channel.stream_stream(f"/{SERVICE}/Play", request_serializer=tpb.RefereeMessage.SerializeToString,
                                     response_deserializer=tpb.BotMessage.FromString)
        answers = play(iter([tpb.RefereeMessage(decide=tpb.Decide(request_id=1))]), timeout=5)
        with pytest.raises(grpc.RpcError) as error:
            list(answers)
        assert error.value.code() == grpc.StatusCode.FAILED_PRECONDITION


class _Recorder(Bot):
    """Records every callback, to check what the SDK hands a bot."""

    name = "recorder"

    def __init__(self):
        self.calls = []

    def on_match_start(self, match, observation):
        self.calls.append(("start", match, observation))

    def decide(self, observation, legal_actions, context):
        self.calls.append(("decide", observation, legal_actions, context))
        return legal_actions[-1]

    def on_events(self, events):
        self.calls.append(("events", list(events)))

    def on_match_end(self, outcome):
        self.calls.append(("end", outcome))


def test_create_server_hands_the_bot_engine_values_in_order():
    game, state, seat = a_decision()
    bot = _Recorder()
    folder = tempfile.mkdtemp(prefix="bot", dir="/tmp")
    socket_path = os.path.join(folder, "s")
    server = create_server(f"unix:{socket_path}", bot)
    server.start()
    client = BotClient(socket_path)
    try:
        assert client.wait_ready(10).name == "recorder"
        expected = state.observe(seat)
        start_match(client, state, seat, match_id="cb")
        legal = state.legal_actions(seat)
        assert ask(client, state, seat, 1) == legal[-1]
        events = state.apply({s: state.legal_actions(s)[0] for s in state.to_act()})
        visible = [e for e in events if seat in e.visible_to]
        client.notify(visible)
        client.end_match(Outcome("goal", (1, 0, 2, 3)), "goal")
    finally:
        client.close()
        server.stop(None)
    assert visible, "the chosen position's step must produce events for the seat"
    assert [c[0] for c in bot.calls] == ["start", "decide", "events", "end"]
    _, match, first_observation = bot.calls[0]
    assert (match.match_id, match.game, match.seat, match.num_seats) == ("cb", "gnadenlos", seat, 4)
    assert match.time_control == TimeControl(move_time=0.2)
    _, observation, offered, context = bot.calls[1]
    assert observation == first_observation == expected
    assert offered == legal and context.request_id == 1 and context.match == match
    assert [(e.kind, dict(e.data)) for e in bot.calls[2][1]] == [(e.kind, dict(e.data)) for e in visible]
    assert bot.calls[-1] == ("end", Outcome("goal", (1, 0, 2, 3), ""))
