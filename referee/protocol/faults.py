"""A bot's faults, by kind, each with a stable reason code (docs/protocol.md).

The reason code goes into match records and reports; `detail` is a short text
for the bot's author. Details name only what the bot itself sent or did —
never another seat's cards or anything hidden from it (DESIGN.md: error texts
go through the same projection as observations).
"""

from __future__ import annotations

from typing import ClassVar


class BotFault(Exception):
    """A failure that is the bot's fault; `reason` is a stable code."""

    reason: ClassVar[str] = "fault"

    def __init__(self, detail: str) -> None:
        super().__init__(f"{self.reason}: {detail}")
        self.detail = detail


class BotTimeout(BotFault):
    """No answer before the referee's deadline (move time + bank + grace)."""

    reason = "timeout"


class BotCrashed(BotFault):
    """The connection or the match stream broke (the process died, closed the
    stream, or its handler raised)."""

    reason = "crashed"


class IllegalAnswer(BotFault):
    """A well-formed action that is not one of the legal actions offered."""

    reason = "illegal"


class MalformedAnswer(BotFault):
    """An answer that does not parse, is the wrong message, or answers a
    request that was never asked."""

    reason = "malformed"


class ProtocolMismatch(BotFault):
    """The bot speaks a protocol version this referee does not."""

    reason = "protocol_version"


class BotStartFailed(BotFault):
    """The bot did not start, become healthy or answer the handshake in time."""

    reason = "startup"


class BotExitedAtStart(BotStartFailed):
    """The bot's process ended before it listened on its socket: its own
    output says why (a file or module it did not find, an exception)."""


class StaleAnswer(BotFault):
    """An answer to an earlier request. Never raised by `BotClient`, which
    discards such answers; the code exists for records that count them."""

    reason = "stale"
