"""What the referee and every bot must agree on (docs/protocol.md).

Both sides import these: the referee (`referee.protocol.client`, its
handshake check and its process launcher) and bots, through `botsdk` alone.
A value here changes only with the protocol: a new `PROTOCOL_VERSION`, or a
bound that both the referee's check and the docs state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from botsdk.pb.tournament.v1 import tournament_pb2 as tpb

PROTOCOL_VERSION: int = 1
"""The protocol version (tournament.v1): the referee sends it in its
`HandshakeRequest`, a bot answers with the version it speaks, and the
referee refuses any other."""

SERVICE = "tournament.v1.Bot"
"""The bot's gRPC service; also the health service name that must report SERVING."""

PLAY_METHOD = f"/{SERVICE}/Play"
HANDSHAKE_METHOD = f"/{SERVICE}/Handshake"

SOCKET_ENV = "REFEREE_BOT_SOCKET"
"""The environment variable that names the bot's socket path, given also
as the argument `--socket PATH`."""

GRACE: float = 0.05
"""The referee's default transport allowance, in seconds, added to every
decision's allowance (a decision's round trip costs well under a millisecond; the rest
absorbs scheduling and GC pauses on a busy machine). A bot reads the one in
force from `TimeControl.grace`; records write it with the time control."""

# Bounds on what a bot says about itself in its handshake: the referee
# refuses a handshake that breaks one (referee/protocol/handshake.py says why).
MAX_NAME_CHARS = 64
MAX_VERSION_CHARS = 64
MAX_GAMES = 16
GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,31}")
"""A game identifier, as the protocol's game names are (`gnadenlos`, `saboteur`)."""
MAX_VARIANTS = 64
VARIANT_TAG = re.compile(r"[a-z][a-z0-9_]{0,31}:[a-z][a-z0-9_]{0,31}=[a-z0-9_]{1,32}")
"""A variant a bot plays, `GAME:OPTION=VALUE` (`gnadenlos:auction=single`):
one option value other than its default (docs/protocol.md, Variants)."""


def protocol_games() -> tuple[str, ...]:
    """The games whose messages this protocol code carries: the fields of
    the envelope's `GameObservation` oneof, each named for its game."""
    fields = tpb.GameObservation.DESCRIPTOR.oneofs_by_name["game"].fields
    return tuple(sorted(field.name for field in fields))


@dataclass(frozen=True)
class TimeControl:
    """Seconds per decision, an optional bank per match, and the grace allowance.

    A decision's allowance is move_time + what is left of the bank (its
    deadline, the instant, is that long after the request is received); the
    referee waits the allowance plus `grace` before it calls the answer late.
    """

    move_time: float = 1.0
    time_bank: float | None = None
    grace: float = GRACE

    def to_message(self) -> tpb.TimeControl:
        return tpb.TimeControl(
            move_time_ms=milliseconds(self.move_time),
            time_bank_ms=None if self.time_bank is None else milliseconds(self.time_bank),
            grace_ms=milliseconds(self.grace),
        )

    @classmethod
    def from_message(cls, msg: tpb.TimeControl) -> "TimeControl":
        bank = msg.time_bank_ms / 1000 if msg.HasField("time_bank_ms") else None
        return cls(msg.move_time_ms / 1000, bank, msg.grace_ms / 1000)

    def to_json(self) -> dict[str, Any]:
        return {"move_time": self.move_time, "time_bank": self.time_bank, "grace": self.grace}


def milliseconds(seconds: float) -> int:
    """Seconds as the wire's whole milliseconds (its fields are unsigned:
    never negative)."""
    return max(0, round(seconds * 1000))
