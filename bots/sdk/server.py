"""Serve an engine-object `Bot`: `botsdk`'s server around the codec bridge.

`serve(bot, argv)` and `create_server(address, bot)` behave as botsdk's
(docs/protocol.md: socket, health, reflection, warm-up, graceful shutdown).
"""

from __future__ import annotations

from collections.abc import Sequence

import botsdk
import grpc

from bots.sdk.bot import Bot
from bots.sdk.bridge import EngineBot


def create_server(address: str, bot: Bot, *, max_workers: int = 4) -> grpc.Server:
    """A gRPC server for `bot` bound to `address` ("unix:/path"), not started.
    Raises OSError when it cannot listen on `address`."""
    return botsdk.create_server(address, EngineBot(bot), max_workers=max_workers)


def serve(bot: Bot, argv: Sequence[str] | None = None) -> None:
    """Serve `bot` until SIGTERM or SIGINT. A main function: configures logging."""
    botsdk.serve(EngineBot(bot), argv)
