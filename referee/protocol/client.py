"""The referee's side of the bot protocol: one `BotClient` per bot process.

Implements docs/protocol.md from the caller's end. The bot is the gRPC server
on a Unix socket; this client connects only once the socket exists (so gRPC's
one-second reconnect backoff never starts), checks health and handshakes with
unary calls that carry timeouts, then runs each match over one bidirectional
`Play` stream. Deadlines on the stream are the referee's own timers:
`receive_decision(timeout=...)` waits on a queue that a reader thread fills,
so a late answer never blocks the match and is discarded as stale later.

Per-decision path, measured in bench/protocol_bench.py: the `Decide` is
assembled from cached action bytes (referee.protocol.codec.DecideEncoder), the
stream's messages are raw bytes (no serializer callbacks), no logging, and one
thread hop each way beyond gRPC's own (the reader thread, needed for the
timeout; the request iterator is consumed by gRPC's own thread).
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, final

import grpc
from google.protobuf.message import DecodeError
from botsdk.contract import HANDSHAKE_METHOD, PLAY_METHOD, PROTOCOL_VERSION, SERVICE, TimeControl, milliseconds
from botsdk.fairness import Evaluation
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee.games.base import Action, Event, Observation, Outcome
from referee.protocol import codec as wire
from referee.protocol.faults import (
    BotCrashed,
    BotFault,
    BotStartFailed,
    BotTimeout,
    IllegalAnswer,
    MalformedAnswer,
    ProtocolMismatch,
    StaleAnswer,
)
from referee.protocol.handshake import check_handshake

REFEREE_VERSION = "0.1.0"
_MAX_ANSWER_BYTES = 1 << 20
"""A decision is a few dozen bytes; anything near this is hostile."""
_MAX_UNREAD_ANSWERS = 64
"""A bot answers each Decide once; this many unread answers is a flood, and
the stream is cut (a crash) before it eats the referee's memory."""
_CLOSE_WAIT = 1.0
"""Seconds `end_match` waits for the bot to close its side of the stream."""

CHANNEL_OPTIONS: tuple[tuple[str, int], ...] = (
    ("grpc.enable_retries", 0),
    # If the first connect still races the bot's listen, retry within
    # milliseconds instead of gRPC's default 1 s initial backoff.
    ("grpc.initial_reconnect_backoff_ms", 10),
    ("grpc.min_reconnect_backoff_ms", 10),
    ("grpc.max_reconnect_backoff_ms", 100),
    ("grpc.max_receive_message_length", _MAX_ANSWER_BYTES),
    # One connection per bot: never share a subchannel between clients.
    ("grpc.use_local_subchannel_pool", 1),
)

__all__ = [
    "BotClient",
    "BotCrashed",
    "BotFault",
    "BotInfo",
    "BotStartFailed",
    "BotTimeout",
    "IllegalAnswer",
    "MalformedAnswer",
    "ProtocolMismatch",
    "StaleAnswer",
]


@dataclass(frozen=True)
class BotInfo:
    """What a bot said about itself in the handshake."""

    name: str
    version: str
    protocol_version: int
    games: tuple[str, ...]
    variants: tuple[str, ...] = ()
    """The variants it plays beyond the base rules, as `GAME:OPTION=VALUE`
    tags (referee.games.rule_sets)."""


@final  # `type(raw) is _Closed` then narrows both ways
class _Closed:
    """Put on the answer queue by the reader when the stream ends."""

    __slots__ = ("detail",)

    def __init__(self, detail: str) -> None:
        self.detail = detail


_END = object()
"""Ends the request iterator, which closes the referee's side of the stream."""


class _MatchStream:
    """One `Play` call: a queue of encoded requests out, a queue of raw answers in."""

    def __init__(self, play: grpc.StreamStreamMultiCallable, first: bytes, label: str) -> None:
        self.requests: queue.SimpleQueue[bytes | object] = queue.SimpleQueue()  # bytes, then _END
        self.requests.put(first)
        self.answers: queue.SimpleQueue[bytes | _Closed] = queue.SimpleQueue()
        self.asked: set[int] = set()
        self.held: list[bytes] = []
        """Encoded events for the next Decide (a bot that takes them there)."""
        self.call: Any = play(iter(self.requests.get, _END))
        self.reader = threading.Thread(target=self._read, name=f"bot-stream-{label}", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        answers = self.answers
        try:
            for raw in self.call:
                if answers.qsize() >= _MAX_UNREAD_ANSWERS:
                    self.call.cancel()
                    answers.put(_Closed(f"the bot sent more than {_MAX_UNREAD_ANSWERS} answers nobody asked for"))
                    return
                answers.put(raw)
            answers.put(_Closed("the bot closed the match stream"))
        except grpc.RpcError as exc:
            answers.put(_Closed(f"the match stream broke: {_status(exc)}"))

    def finish(self, wait: float) -> None:
        self.requests.put(_END)
        self.reader.join(wait)
        if self.reader.is_alive():
            self.call.cancel()
            self.reader.join(wait)


def _status(exc: grpc.RpcError) -> str:
    """A failed call's status for a fault's detail. The details are the
    bot's own text (its handler's abort message), bound for the record, logs
    and terminals: cut short, every unprintable character escaped."""
    code = exc.code() if hasattr(exc, "code") else None
    details = exc.details() if hasattr(exc, "details") else None
    text = f"{code.name if code else 'UNKNOWN'} ({_printable(details or 'no details')})"
    return text if len(text) <= 300 else text[:297] + "..."


def _printable(text: str) -> str:
    """`text` with each unprintable character (a control, format or
    separator character) written as its Python escape."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


class BotClient:
    """Talks to one bot process over its Unix socket (docs/protocol.md).

    Not thread-safe: one referee thread drives it. `send_decide` and
    `receive_decision` are separate so that the referee can ask several seats
    at once (a simultaneous decision, G-5.4) and then collect each answer.
    """

    def __init__(self, socket_path: str) -> None:
        self.socket_path = socket_path
        self.info: BotInfo | None = None
        self.stale_answers = 0
        """Answers to earlier requests discarded during the current match."""
        self._channel: grpc.Channel | None = None
        self._play: grpc.StreamStreamMultiCallable | None = None
        self._stream: _MatchStream | None = None
        self._codec: wire.GameCodec | None = None
        self._encoder: wire.DecideEncoder | None = None
        self._seat = 0
        self._events_in_decide = False
        """The bot takes events in Decide (its handshake said so)."""
        self._ended: _MatchStream | None = None
        """The last match's stream after `end_match`, until the bot has closed its side."""

    # ------------------------------------------------------------ start-up

    def wait_ready(self, timeout: float) -> BotInfo:
        """Wait for the socket, the health check and the handshake.

        Raises BotStartFailed when any of them does not succeed within
        `timeout` seconds or the handshake breaks a bound of
        referee.protocol.handshake, ProtocolMismatch when the bot speaks a
        protocol version this referee does not.
        """
        deadline = time.monotonic() + timeout
        _wait_for_socket(self.socket_path, deadline)
        if self._channel is None:
            self._channel = grpc.insecure_channel(f"unix:{self.socket_path}", options=CHANNEL_OPTIONS)
            self._play = self._channel.stream_stream(PLAY_METHOD)
        try:
            health = health_pb2_grpc.HealthStub(self._channel).Check(
                health_pb2.HealthCheckRequest(service=SERVICE),
                timeout=_left(deadline),
                wait_for_ready=True,
            )
        except grpc.RpcError as exc:
            raise BotStartFailed(f"health check failed: {_status(exc)}") from None
        if health.status != health_pb2.HealthCheckResponse.SERVING:
            raise BotStartFailed(f"the bot reports health status {health.status} instead of SERVING")
        handshake = self._channel.unary_unary(
            HANDSHAKE_METHOD,
            request_serializer=tpb.HandshakeRequest.SerializeToString,
            response_deserializer=tpb.HandshakeResponse.FromString,
        )
        try:
            answer = handshake(
                tpb.HandshakeRequest(protocol_version=PROTOCOL_VERSION, referee_version=REFEREE_VERSION),
                timeout=_left(deadline),
            )
        except grpc.RpcError as exc:
            raise BotStartFailed(f"handshake failed: {_status(exc)}") from None
        if answer.protocol_version != PROTOCOL_VERSION:
            raise ProtocolMismatch(
                f"the bot speaks protocol version {answer.protocol_version}; "
                f"this referee speaks version {PROTOCOL_VERSION}"
            )
        check_handshake(answer.name, answer.version, answer.games, answer.variants)
        self._events_in_decide = answer.events_in_decide
        self.info = BotInfo(answer.name, answer.version, answer.protocol_version, tuple(answer.games),
                            tuple(answer.variants))
        return self.info

    # ---------------------------------------------------------------- match

    def start_match(
        self,
        *,
        match_id: str,
        game: str,
        variant: Mapping[str, str],
        seat: int,
        num_seats: int,
        seat_names: Sequence[str],
        time_control: TimeControl,
        observation: Observation,
        seed_commitment: bytes = b"",
        evaluation: Evaluation | None = None,
    ) -> None:
        """Open this match's `Play` stream and send `MatchStart` (with the
        referee's commitment to the match seed, revealed by `end_match`).

        A bot that is already gone shows up as BotCrashed at the first
        `receive_decision`, not here.
        """
        if self._play is None:
            raise RuntimeError("start_match before wait_ready")
        self._finish_stream()
        codec = wire.codec_for(game)
        if self._codec is not codec:
            self._codec, self._encoder = codec, wire.DecideEncoder(codec)
        self._seat = seat
        self.stale_answers = 0
        start = wire.match_start_message(
            codec, match_id=match_id, game=game, variant=variant, seat=seat, num_seats=num_seats,
            seat_names=seat_names, time_control=time_control.to_message(), observation=observation,
            seed_commitment=seed_commitment, evaluation=evaluation)
        self._stream = _MatchStream(self._play, start.SerializeToString(), f"{match_id}-{seat}")

    def send_decide(
        self, *, request_id: int, observation: Observation, legal_actions: Sequence[Action], allowance: float
    ) -> None:
        """Ask for a decision; `allowance` is the seconds the bot has for it
        (sent as `Decide.deadline_ms`, the protocol's name for it)."""
        stream = self._require_stream()
        stream.asked.add(request_id)
        events, stream.held = stream.held, []
        stream.requests.put(
            self._encoder.encode(request_id, observation, legal_actions, milliseconds(allowance), events)  # type: ignore[union-attr]
        )

    def receive_decision(self, *, request_id: int, legal_actions: Sequence[Action], timeout: float) -> Action:
        """The legal action the bot chose for `request_id`, matched by value.

        Waits at most `timeout` seconds. Answers to earlier requests are
        discarded (counted in `stale_answers`). Raises BotTimeout,
        BotCrashed, IllegalAnswer or MalformedAnswer.
        """
        stream = self._require_stream()
        answers = stream.answers
        deadline = time.monotonic() + timeout
        while True:
            try:
                raw = answers.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise BotTimeout(f"no answer to request {request_id} within {timeout:.3f} s") from None
            if type(raw) is _Closed:
                answers.put(raw)  # every later call sees the broken stream too
                raise BotCrashed(raw.detail)
            decision = _parse_decision(raw)
            if decision.request_id != request_id:
                if decision.request_id in stream.asked:
                    self.stale_answers += 1
                    continue
                raise MalformedAnswer(
                    f"answer to request {decision.request_id}, which was never asked (expected {request_id})"
                )
            return _match_legal(self._decode_action(decision), legal_actions)

    def notify(self, events: Sequence[Event]) -> None:
        """Send events this seat may see (the caller has filtered them).

        To a bot that takes events in Decide they go with the next Decide
        (or in a Notify before MatchEnd): a message of their own is one more
        the bot wakes up for and handles before it reads the Decide, on the
        path of every decision (bench/throughput_bench.py)."""
        if not events:
            return
        stream = self._require_stream()
        codec = self._codec
        assert codec is not None  # set with the stream by start_match
        encoded = [wire.event_payload(codec, event) for event in events]
        if self._events_in_decide:
            stream.held.extend(encoded)
        else:
            stream.requests.put(wire.notify_bytes(encoded))

    def end_match(self, outcome: Outcome, reason: str, seed: int | None = None, seed_salt: bytes = b"") -> None:
        """Send `MatchEnd` (revealing the committed seed) and close the
        referee's side of this match's stream. Never raises.

        The wait for the bot to close its side (its `on_match_end` done, at
        most _CLOSE_WAIT) comes with the next `start_match` or `close`: the
        seats of a match then end at the same time, and the wait overlaps
        the referee's work between matches instead of adding to it."""
        stream = self._stream
        if stream is None:
            return
        if stream.held:
            stream.requests.put(wire.notify_bytes(stream.held))
        stream.requests.put(wire.match_end_message(outcome, reason, seed, seed_salt).SerializeToString())
        stream.requests.put(_END)
        self._stream, self._ended = None, stream

    def close(self) -> None:
        """Close the stream and the channel. Idempotent; never raises."""
        self._await_ended()
        stream, self._stream = self._stream, None
        if stream is not None:
            stream.call.cancel()
            stream.requests.put(_END)
        if self._channel is not None:
            self._channel.close()
            self._channel = None
            self._play = None

    # ------------------------------------------------------------- helpers

    def _require_stream(self) -> _MatchStream:
        if self._stream is None:
            raise RuntimeError("no match in progress: call start_match first")
        return self._stream

    def _finish_stream(self) -> None:
        self._await_ended()
        stream, self._stream = self._stream, None
        if stream is not None:
            stream.finish(_CLOSE_WAIT)

    def _await_ended(self) -> None:
        """Wait for the bot to close the last ended match's stream."""
        ended, self._ended = self._ended, None
        if ended is not None:
            ended.finish(_CLOSE_WAIT)

    def _decode_action(self, decision: tpb.Decision) -> Action:
        try:
            return wire.decode_game_action(self._codec, decision.action)  # type: ignore[arg-type]
        except (ValueError, TypeError) as exc:
            raise MalformedAnswer(f"the decision's action is not valid: {exc}") from None


def _parse_decision(raw: bytes) -> tpb.Decision:
    """The Decision in a raw answer. Raises MalformedAnswer."""
    try:
        message = tpb.BotMessage.FromString(raw)
    except DecodeError:
        raise MalformedAnswer(f"the answer ({len(raw)} bytes) is not a tournament.v1.BotMessage") from None
    if message.WhichOneof("kind") != "decision":
        raise MalformedAnswer("the answer carries no decision")
    if not message.decision.HasField("action"):
        raise MalformedAnswer("the decision carries no action")
    decision: tpb.Decision = message.decision
    return decision


def _match_legal(action: Action, legal_actions: Sequence[Action]) -> Action:
    """The offered legal action equal to `action`. Raises IllegalAnswer."""
    for legal in legal_actions:
        if legal == action:
            return legal
    raise IllegalAnswer(f"{_quote_action(action)} is not one of the {len(legal_actions)} legal actions offered")


_QUOTED_ACTION_CHARS = 120
"""An illegal answer's text in its strike detail is cut to this: a bot
chooses it (a bid may list 200,000 IOUs in the 1 MiB an answer may take),
and the detail goes into the record that every seat's authors share."""


def _quote_action(action: Action) -> str:
    text = str(action)
    return text if len(text) <= _QUOTED_ACTION_CHARS else text[:_QUOTED_ACTION_CHARS] + "…"


def _left(deadline: float) -> float:
    return max(0.001, deadline - time.monotonic())


_SOCKET_POLL = 0.001
"""Seconds between looks for the socket file: a stat() costs microseconds,
and every millisecond waited here is a millisecond of cold start."""


def _wait_for_socket(path: str, deadline: float) -> None:
    """Poll for the socket file; connecting before it exists would start
    gRPC's reconnect backoff. Raises BotStartFailed at the deadline."""
    while not os.path.exists(path):
        if time.monotonic() >= deadline:
            raise BotStartFailed(f"the bot did not open its socket {path} in time")
        time.sleep(_SOCKET_POLL)


