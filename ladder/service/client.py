"""The client side of `ladder.v1.Ladder`: `referee submit/bots/table/logs/
records/report --server ADDR` talk to a ladder service through this instead
of a store.

`Remote` turns each reply into what the local command works with (a
`Submitted`, `BotRow`s, the standings' JSON object), so the command prints
the same output either way, and every gRPC failure into one `RemoteError`
line: the service's own refusal, or what to check when it cannot be
reached. The token goes as "authorization: Bearer TOKEN" metadata.

A token never leaves in clear for an address not provably this machine's
(ladder/service/addresses.py): the channel is TLS, verifying the service
against `tls_ca` or else the system's trust store, for every address but
a loopback one and `unix:`. Plain text to another address is only had by
asking for it by name (`insecure_plaintext`, `--insecure-plaintext`), and
then the token stays home: such a channel reads, it cannot submit.
"""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc

from botsdk.pb.ladder.v1 import ladder_pb2, ladder_pb2_grpc
from ladder.intake.archive import pack
from ladder.intake.submission import Submitted
from ladder.service.addresses import is_local
from ladder.service.bearer import AUTH_HEADER, BEARER
from ladder.store.database import BotRow
from referee.untrusted import MESSAGE_LIMIT, safe_line

CALL_TIMEOUT = 30.0
"""Seconds for a call that reads; a submission gets SUBMIT_TIMEOUT."""
SUBMIT_TIMEOUT = 300.0
PIECE = 1 << 20
"""Bytes of the archive a SubmitStream message carries."""
TOKEN_ENV = "REFEREE_TOKEN"


class RemoteError(Exception):
    """A call to the ladder service failed; the message says why (one line)."""


def system_roots() -> bytes | None:
    """The system's trust store (OpenSSL's default file, which
    $SSL_CERT_FILE overrides); None when there is none: gRPC's own roots."""
    cafile = ssl.get_default_verify_paths().cafile
    try:
        return Path(cafile).read_bytes() if cafile else None
    except OSError:
        return None


class Remote:
    """One ladder service, reached at `address`; see the module doc for
    when the channel is TLS and when the token is sent."""

    def __init__(self, address: str, *, token: str | None = None, tls_ca: Path | None = None,
                 tls: bool = False, insecure_plaintext: bool = False) -> None:
        self.address = address
        options = [("grpc.max_receive_message_length", -1), ("grpc.max_send_message_length", -1)]
        local = is_local(address)
        self.tls = tls or tls_ca is not None or not (local or insecure_plaintext)
        self.withheld = token is not None and not (self.tls or local)
        """A token was given but not sent: plain text to an address not known to be local."""
        self._metadata = ((AUTH_HEADER, BEARER + token),) if token and not self.withheld else ()
        if self.tls:
            try:
                roots = tls_ca.read_bytes() if tls_ca is not None else system_roots()
            except OSError as exc:
                raise RemoteError(f"cannot read --tls-ca {tls_ca} ({exc.strerror})") from None
            self._channel = grpc.secure_channel(address, grpc.ssl_channel_credentials(roots), options=options)
        else:
            self._channel = grpc.insecure_channel(address, options=options)
        self._stub = ladder_pb2_grpc.LadderStub(self._channel)  # type: ignore[no-untyped-call]  # generated, untyped

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> "Remote":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, method: str, request: Any, timeout: float = CALL_TIMEOUT) -> Any:
        try:
            return getattr(self._stub, method)(request, metadata=self._metadata, timeout=timeout)
        except grpc.RpcError as exc:
            raise self._error(exc) from None

    def _error(self, exc: Any) -> RemoteError:
        code, details = exc.code(), exc.details() or ""
        if code == grpc.StatusCode.UNAVAILABLE:
            how = "TLS" if self.tls else "plain text"
            hint = ("; a service on another machine is reached with TLS: give --tls-ca CERT if its certificate is "
                    "not one the system trusts, or --insecure-plaintext for a service without TLS (no token is "
                    "then sent)") if self.tls and not is_local(self.address) else ""
            return RemoteError(f"cannot reach the ladder service at {self.address} over {how} ({safe_line(details)}); "
                               f"is `referee serve` running there, and is the address right{hint}?")
        if code == grpc.StatusCode.DEADLINE_EXCEEDED:
            return RemoteError(f"the ladder service at {self.address} did not answer in time; try again")
        message = safe_line(details, MESSAGE_LIMIT) or f"the ladder service failed ({code.name})"
        if code == grpc.StatusCode.UNAUTHENTICATED and self.withheld:
            message += (" (your token was not sent: --insecure-plaintext never sends one; reach the service with "
                        "TLS to submit)")
        return RemoteError(message)

    # -- calls ----------------------------------------------------------------

    def submit(self, path: Path, *, name: str | None, version: str | None, games: tuple[str, ...],
               startup_timeout: float, move_time: float, variants: tuple[str, ...] = ()) -> Submitted:
        if not path.exists():
            raise RemoteError(f"{path} does not exist; give the path of your bot's executable or of a folder "
                              "with bot.toml")
        try:
            archive = pack(path)
        except OSError as exc:
            raise RemoteError(f"cannot pack {path} ({exc}); check that you may read every file of it") from None
        request = ladder_pb2.SubmitRequest(
            single_file=not path.is_dir(), name=name or "", version=version or "", games=list(games),
            startup_timeout=startup_timeout, move_time=move_time, shown_path=str(path), variants=list(variants))
        pieces = [ladder_pb2.SubmitPiece(request=request)] + [
            ladder_pb2.SubmitPiece(archive=archive[start:start + PIECE]) for start in range(0, len(archive), PIECE)]
        reply = self._call("SubmitStream", iter(pieces), timeout=SUBMIT_TIMEOUT)
        return Submitted(bot_id=-1, name=reply.name, version=reply.version, content_hash=reply.content_hash,
                         new=reply.new, games=tuple(reply.games), twins=tuple(reply.twins),
                         variants=tuple(reply.variants))

    def retire(self, name: str) -> tuple[str, str]:
        reply = self._call("Retire", ladder_pb2.RetireRequest(name=name))
        return reply.name, reply.version

    def bots(self) -> list[BotRow]:
        reply = self._call("ListBots", ladder_pb2.ListBotsRequest())
        return [BotRow(b.id, b.name, b.version, b.sha256, b.kind, (), None, tuple(b.games), b.description,
                       b.active, b.registered, tuple(b.variants)) for b in reply.bots]

    def standings(self, game: str, *, h2h: bool = False, seats: bool = False, include_retired: bool = False,
                  confidence: float = 0.0, margin: float = 0.0, text: bool = False, width: int = 0,
                  color: bool = False, variant: dict[str, str] | None = None) -> ladder_pb2.StandingsReply:
        """The StandingsReply of the rule set `variant` names (None or empty:
        the one the service plays): `json` as `referee table --json` prints
        it and, with `text`, the tables as `referee table` prints them at `width`."""
        reply: ladder_pb2.StandingsReply = self._call("Standings", ladder_pb2.StandingsRequest(
            game=game, h2h=h2h, seats=seats, include_retired=include_retired, confidence=confidence, margin=margin,
            text=text, width=width, color=color, variant=variant or {}))
        return reply

    def rating_history(self, game: str, variant: dict[str, str] | None = None) -> dict[int, list[dict[str, Any]]]:
        """Per bot id, its rating after each match of the rule set (`ladder.reporting.report.history_points`'s form)."""
        reply = self._call("RatingHistory", ladder_pb2.RatingHistoryRequest(game=game, variant=variant or {}))
        return {bot.bot_id: [{"match": p.match, "mu": p.mu, "sigma": p.sigma} for p in bot.points]
                for bot in reply.bots}

    def recent_matches(self, game: str, limit: int, variant: dict[str, str] | None = None) -> list[dict[str, Any]]:
        """The rule set's latest matches, newest first (`ladder.reporting.report.recent_matches`'s form)."""
        reply = self._call("RecentMatches", ladder_pb2.RecentMatchesRequest(game=game, limit=limit,
                                                                            variant=variant or {}))
        return [{
            "number": m.number, "match_id": m.match_id, "finished_at": m.finished_at, "end_reason": m.end_reason,
            "decisions": m.decisions,
            "seats": [{"seat": index, "bot": s.bot, "version": s.version, "place": s.rank, "forfeit": s.forfeit}
                      for index, s in enumerate(m.seats)],
            "record_kept": m.record_kept, "set_finished": m.set_finished,
        } for m in reply.matches]

    def record(self, match_id: str) -> bytes:
        return bytes(self._call("GetRecord", ladder_pb2.GetRecordRequest(match_id=match_id)).record)

    def logs(self, name: str, version: str | None, lines: int, game: str) -> ladder_pb2.BotLogsReply:
        reply: ladder_pb2.BotLogsReply = self._call("BotLogs", ladder_pb2.BotLogsRequest(
            name=name, version=version or "", lines=lines, game=game))
        return reply

    def records(self, name: str, *, version: str | None = None, game: str = "",
                limit: int = 0) -> Iterator[ladder_pb2.BotRecordsItem]:
        """The BotRecordsItems of `name`'s revealable records, as they come."""
        stream = self._stub.BotRecords(ladder_pb2.BotRecordsRequest(name=name, version=version or "", game=game,
                                                                    limit=limit),
                                       metadata=self._metadata, timeout=SUBMIT_TIMEOUT)
        try:
            yield from stream
        except grpc.RpcError as exc:
            raise self._error(exc) from None
        finally:
            stream.cancel()

    def watch(self, variant: dict[str, str] | None = None) -> Iterator[ladder_pb2.LadderEvent]:
        """The live events (LadderEvent) of the rule set until the caller stops reading."""
        stream = self._stub.Watch(ladder_pb2.WatchRequest(variant=variant or {}), metadata=self._metadata)
        try:
            yield from stream
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.CANCELLED:
                raise self._error(exc) from None
        finally:
            stream.cancel()
