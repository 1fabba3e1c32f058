"""The ladder service against hostile clients (issue 24), each attack
through a real `referee serve` process: squatting names, refused calls
that leave traces, upload bombs, streams that starve the API, rate
floods, tokens sent in clear to a fake server, and refusals that name the
service's own paths. docs/security.md's table of the service lists these
tests by the property each shows."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import tarfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from botsdk.pb.ladder.v1 import ladder_pb2, ladder_pb2_grpc
from ladder.intake.archive import pack
from ladder_support import random_bot_folder
from service_support import (
    free_address,
    issue_token,
    long_name_bomb,
    memory_mib,
    referee,
    reset_peak,
    snapshot,
    start_service,
)

pytestmark = pytest.mark.slow  # real services under hostile clients, seconds each

QUIET = ("--no-builtins", "--players", "3", "--workers", "1", "--move-time", "1s")
"""A service that plays nothing while it has fewer than three bots: its stores change only by submissions."""


class Service:
    """A `referee serve` process and a channel to it."""

    def __init__(self, tmp_path: Path, *extra: str) -> None:
        self.data = tmp_path / "service" / "data"
        self.db = self.data / "ladder.sqlite"
        self.address = free_address()
        self.log = tmp_path / "serve.log"
        self.tokens = {name: issue_token(self.db, name) for name in ("alice", "bob")}
        self.process = start_service(self.db, self.address, *QUIET, *extra, log=self.log)
        self.channel = grpc.insecure_channel(self.address)
        self.stub = ladder_pb2_grpc.LadderStub(self.channel)

    def call(self, method: str, request: Any, who: str | None = None, timeout: float = 120) -> Any:
        """The reply, or the grpc.RpcError it was refused with."""
        metadata = (("authorization", f"Bearer {self.tokens[who]}"),) if who else ()
        try:
            return getattr(self.stub, method)(request, metadata=metadata, timeout=timeout)
        except grpc.RpcError as refused:
            return refused

    def stop(self) -> None:
        self.channel.close()
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(30) == 0, self.log.read_text()


@pytest.fixture()
def started(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Service]:
    service = Service(tmp_path, *getattr(request, "param", ()))
    try:
        yield service
    finally:
        service.stop()


def archive_of(folder: Path) -> bytes:
    return pack(folder)


def crashing_bot(path: Path) -> Path:
    """A bot folder whose program exits at once: refused at its validation."""
    path.mkdir(parents=True)
    (path / "bot.sh").write_text("#!/bin/sh\necho 'dying on purpose' >&2\nexit 3\n")
    (path / "bot.sh").chmod(0o755)
    (path / "bot.toml").write_text('command = "./bot.sh"\ngames = ["gnadenlos"]\n')
    return path


def refused(answer: Any, code: grpc.StatusCode, says: str) -> str:
    assert isinstance(answer, grpc.RpcError), f"not refused: {answer}"
    assert answer.code() == code, (answer.code(), answer.details())
    details = answer.details() or ""
    assert says in details, details
    return details


def no_service_path(text: str, service: Service) -> None:
    """Nothing of the service's machine: its data folder, its temporary folders."""
    for secret in (str(service.data), str(service.data.parent), "/tmp/", "upload-", "referee-submit-"):
        assert secret not in text, f"{secret!r} in {text!r}"


@pytest.mark.parametrize("started", [("--require-tokens", "--max-names-per-token", "2", "--submits-per-hour", "3600")],
                         indirect=True)
def test_refused_calls_change_neither_store_and_claim_no_name(started: Service, tmp_path: Path) -> None:
    service = started
    mine = random_bot_folder(tmp_path / "author" / "mine")
    answer = service.call("Submit", ladder_pb2.SubmitRequest(archive=archive_of(mine), name="mine", move_time=1),
                          "alice")
    assert answer.name == "mine" and answer.new, answer
    before = snapshot(service.data)
    assert any(name.startswith("bots/mine/") for name in before)

    junk = crashing_bot(tmp_path / "author" / "junk")
    bomb = long_name_bomb(200 << 20)
    attempts: list[tuple[str, Any, str | None, grpc.StatusCode, str]] = [
        ("Submit", ladder_pb2.SubmitRequest(archive=archive_of(mine), name="mine"), "bob",
         grpc.StatusCode.PERMISSION_DENIED, "belongs to submitter 'alice'"),
        ("Submit", ladder_pb2.SubmitRequest(archive=archive_of(mine), name="x" * 60_000), "bob",
         grpc.StatusCode.INVALID_ARGUMENT, "must be 1-40 letters"),
        ("Submit", ladder_pb2.SubmitRequest(archive=archive_of(mine), name="../mine"), "bob",
         grpc.StatusCode.INVALID_ARGUMENT, "must be 1-40 letters"),
        ("Submit", ladder_pb2.SubmitRequest(archive=archive_of(mine), name="random"), "bob",
         grpc.StatusCode.INVALID_ARGUMENT, "built-in bot"),
        ("Submit", ladder_pb2.SubmitRequest(archive=archive_of(mine), name="ok", version="v" * 5000), "bob",
         grpc.StatusCode.INVALID_ARGUMENT, "version"),
        ("Submit", ladder_pb2.SubmitRequest(archive=archive_of(mine), name="ok", games=["chess"]), "bob",
         grpc.StatusCode.INVALID_ARGUMENT, "unknown game"),
        ("Submit", ladder_pb2.SubmitRequest(archive=archive_of(mine), name="ok", startup_timeout=1e9), "bob",
         grpc.StatusCode.INVALID_ARGUMENT, "startup timeout must be between 0 and 60"),
        ("Submit", ladder_pb2.SubmitRequest(archive=b"", name="ok"), "bob",
         grpc.StatusCode.INVALID_ARGUMENT, "archive is empty"),
        ("Submit", ladder_pb2.SubmitRequest(archive=b"\x1f\x8bnot gzip at all", name="ok"), "bob",
         grpc.StatusCode.INVALID_ARGUMENT, "cannot be read"),
        ("Submit", ladder_pb2.SubmitRequest(archive=bomb, name="bomb"), "bob",
         grpc.StatusCode.INVALID_ARGUMENT, "extended header"),
        ("Submit", ladder_pb2.SubmitRequest(archive=archive_of(junk), name="contested", move_time=1), "bob",
         grpc.StatusCode.INVALID_ARGUMENT, "did not start"),
        ("SubmitStream", iter([ladder_pb2.SubmitPiece(request=ladder_pb2.SubmitRequest(name="y" * 60_000)),
                               ladder_pb2.SubmitPiece(archive=archive_of(mine))]), "bob",
         grpc.StatusCode.INVALID_ARGUMENT, "must be 1-40 letters"),
        ("SubmitStream", iter([ladder_pb2.SubmitPiece(request=ladder_pb2.SubmitRequest(name="ok")),
                               ladder_pb2.SubmitPiece(archive=bomb)]), "bob",
         grpc.StatusCode.INVALID_ARGUMENT, "extended header"),
        ("SubmitStream", iter([ladder_pb2.SubmitPiece(request=ladder_pb2.SubmitRequest(name="ok")),
                               ladder_pb2.SubmitPiece(request=ladder_pb2.SubmitRequest(name="again"))]), "bob",
         grpc.StatusCode.INVALID_ARGUMENT, "only the archive's bytes"),
        ("Submit", ladder_pb2.SubmitRequest(archive=archive_of(mine), name="ok"), None,
         grpc.StatusCode.UNAUTHENTICATED, "needs a token"),
        ("Submit", ladder_pb2.SubmitRequest(archive=archive_of(mine), name="ok"), "forged",
         grpc.StatusCode.UNAUTHENTICATED, "not valid"),
        ("Retire", ladder_pb2.RetireRequest(name="mine"), "bob", grpc.StatusCode.PERMISSION_DENIED, "belongs to"),
        ("Retire", ladder_pb2.RetireRequest(name="nobody"), "alice", grpc.StatusCode.NOT_FOUND, "no bot named"),
        ("BotLogs", ladder_pb2.BotLogsRequest(name="mine"), "bob", grpc.StatusCode.PERMISSION_DENIED, "belongs to"),
        ("BotRecords", ladder_pb2.BotRecordsRequest(name="mine"), "bob", grpc.StatusCode.PERMISSION_DENIED,
         "belongs to"),
        ("GetRecord", ladder_pb2.GetRecordRequest(match_id="../../ladder.sqlite"), None, grpc.StatusCode.NOT_FOUND,
         "no record"),
        ("Standings", ladder_pb2.StandingsRequest(game="chess"), None, grpc.StatusCode.INVALID_ARGUMENT, "no game"),
    ]
    service.tokens["forged"] = "rft_" + "x" * 43
    details = []
    for method, request, who, code, says in attempts:
        answer = service.call(method, request, who)
        if method == "BotRecords":  # a stream: the refusal comes with its first item
            try:
                list(answer)
            except grpc.RpcError as stream_refused:
                answer = stream_refused
        details.append(refused(answer, code, says))
    assert snapshot(service.data) == before  # byte for byte: the ladder's store, the access store, the folders
    for text in details:
        no_service_path(text, service)
    crashed = next(text for text in details if "did not start" in text)
    assert "its last lines of output" in crashed and "dying on purpose" in crashed

    # bob's refused "contested" claimed nothing: alice registers it; her third name is one too many
    other = random_bot_folder(tmp_path / "author" / "contested")
    answer = service.call("Submit", ladder_pb2.SubmitRequest(archive=archive_of(other), name="contested",
                                                             move_time=1), "alice")
    assert answer.name == "contested" and answer.new, answer
    before = snapshot(service.data)
    third = random_bot_folder(tmp_path / "author" / "third")
    refused(service.call("Submit", ladder_pb2.SubmitRequest(archive=archive_of(third), name="third"), "alice"),
            grpc.StatusCode.RESOURCE_EXHAUSTED, "holds 2 bot names")
    assert snapshot(service.data) == before
    (mine / "bot.py").write_text((mine / "bot.py").read_text() + "# v2\n")  # a new version of a name she holds
    answer = service.call("Submit", ladder_pb2.SubmitRequest(archive=archive_of(mine), name="mine", move_time=1),
                          "alice")
    assert (answer.name, answer.version) == ("mine", "v2"), answer

    audit = [json.loads(line) for line in (service.data / "audit.jsonl").read_text().splitlines()]
    assert [(a["submitter"], a["name"], a["outcome"]) for a in audit if a["outcome"] != "refused"] == [
        ("alice", "mine", "registered"), ("alice", "contested", "registered"), ("alice", "mine", "registered")]
    squat = [a for a in audit if a["name"] == "contested" and a["outcome"] == "refused"]
    assert squat and squat[0]["submitter"] == "bob" and "did not start" in squat[0]["detail"]
    assert all(len(a["name"]) <= 200 for a in audit)  # the 60 KB name is cut, not kept
    assert (service.data / "audit.jsonl").stat().st_mode & 0o777 == 0o600


def test_an_upload_bomb_is_refused_within_a_few_mib_of_memory(started: Service) -> None:
    service = started
    pid = service.process.pid
    chained = io.BytesIO()  # more extended headers before one entry than a tar writer makes
    with tarfile.open(fileobj=chained, mode="w:gz", format=tarfile.GNU_FORMAT) as tar:
        for _ in range(5):
            info = tarfile.TarInfo("././@LongLink")
            info.type = tarfile.GNUTYPE_LONGNAME
            info.size = 10
            tar.fileobj.write(info.tobuf(format=tarfile.GNU_FORMAT) + b"n" * 10 + b"\0" * 502)  # type: ignore[union-attr]
        tar.addfile(tarfile.TarInfo("bot.py"), io.BytesIO(b""))
    content = io.BytesIO()  # a file whose header declares 1 TiB
    with tarfile.open(fileobj=content, mode="w:gz") as tar:
        info = tarfile.TarInfo("weights.bin")
        info.size = 1 << 40
        tar.fileobj.write(info.tobuf())  # type: ignore[union-attr]
    # written piece by piece: a bomb made whole would raise this process's peak, which the processes it starts inherit
    for archive, says in ((long_name_bomb(200 << 20), "extended header"), (long_name_bomb(200 << 20, b"x"), "extended header"),
                          (chained.getvalue(), "extended headers precede one entry"),
                          (content.getvalue(), "more than 64 MiB")):
        baseline = memory_mib(pid, "VmRSS")
        reset_peak(pid)
        refused(service.call("Submit", ladder_pb2.SubmitRequest(archive=archive, name="bomb")),
                grpc.StatusCode.INVALID_ARGUMENT, says)
        growth = memory_mib(pid, "VmHWM") - baseline
        assert len(archive) < 1 << 20 and growth < 16, f"{says}: {len(archive)} bytes took +{growth} MiB"
    assert not list(service.data.glob("upload-*"))


def test_an_upload_is_held_on_disk_not_in_memory_and_refused_at_its_limit(started: Service, tmp_path: Path) -> None:
    service = started
    pid = service.process.pid
    piece = os.urandom(1 << 20)

    def flood(first: Any, count: int) -> Iterator[Any]:
        yield first
        for _ in range(count):
            yield ladder_pb2.SubmitPiece(archive=piece)

    for pieces, code, says in (
        (flood(ladder_pb2.SubmitPiece(request=ladder_pb2.SubmitRequest(name="flood")), 200),
         grpc.StatusCode.RESOURCE_EXHAUSTED, "larger than the ladder service accepts (65 MiB"),
        (flood(ladder_pb2.SubmitPiece(archive=b"x"), 1), grpc.StatusCode.INVALID_ARGUMENT, "SubmitRequest first"),
    ):
        baseline = memory_mib(pid, "VmRSS")
        reset_peak(pid)
        refused(service.call("SubmitStream", pieces), code, says)
        assert memory_mib(pid, "VmHWM") - baseline < 16, f"{says}: +{memory_mib(pid, 'VmHWM') - baseline} MiB"
    big = random_bot_folder(tmp_path / "big")  # 60 MiB that gzip cannot shrink, in 1 MiB pieces
    with (big / "weights.bin").open("wb") as weights:
        for _ in range(60):
            weights.write(os.urandom(1 << 20))
    baseline = memory_mib(pid, "VmRSS")
    reset_peak(pid)
    submitted = subprocess.run(  # its own process: packing 60 MiB here would raise this process's peak
        [sys.executable, "-m", "referee.cli.main", "submit", str(big), "--name", "big", "--server", service.address,
         "--move-time", "1s"], capture_output=True, text=True, timeout=300, check=False)
    assert "registered big version v1" in submitted.stdout, submitted.stdout + submitted.stderr
    growth = memory_mib(pid, "VmHWM") - baseline
    assert growth < 32, f"a 60 MiB upload took +{growth} MiB"  # sent whole, gRPC and protobuf held it 3 times over
    refused(service.call("Submit", ladder_pb2.SubmitRequest(archive=piece * 5, name="whole")),
            grpc.StatusCode.RESOURCE_EXHAUSTED, "larger than max")  # one message is at most 4 MiB
    assert not list(service.data.glob("upload-*"))


@pytest.mark.parametrize("started", [("--max-watchers", "6", "--max-watchers-per-client", "3",
                                      "--watch-lifetime", "4s")], indirect=True)
def test_streams_are_capped_live_out_their_lifetime_and_never_hold_up_other_calls(started: Service) -> None:
    service = started
    opened: list[Any] = []

    def watch(who: str | None) -> Any:
        metadata = (("authorization", f"Bearer {service.tokens[who]}"),) if who else ()
        stream = service.stub.Watch(ladder_pb2.WatchRequest(), metadata=metadata)
        first = next(stream)  # the standings now: the stream is open
        assert first.WhichOneof("event") == "standings"
        opened.append(stream)
        return stream

    def refused_watch(who: str | None, says: str) -> None:
        metadata = (("authorization", f"Bearer {service.tokens[who]}"),) if who else ()
        with pytest.raises(grpc.RpcError) as stream_refused:
            next(service.stub.Watch(ladder_pb2.WatchRequest(), metadata=metadata, timeout=30))
        refused(stream_refused.value, grpc.StatusCode.RESOURCE_EXHAUSTED, says)

    try:
        started_at = time.monotonic()
        for _ in range(3):
            watch(None)
        refused_watch(None, "the most one client may")  # this host, without a token: one client
        for _ in range(3):
            watch("alice")  # a token is a client of its own
        refused_watch("bob", "the most it keeps")  # six open: the service's cap
        health = health_pb2_grpc.HealthStub(service.channel)
        with ThreadPoolExecutor(12) as callers:  # more than every thread the API has, all at once
            answers = list(callers.map(lambda _: (
                health.Check(health_pb2.HealthCheckRequest(service="ladder.v1.Ladder"), timeout=5).status,
                service.stub.Standings(ladder_pb2.StandingsRequest(), timeout=5).json,
                service.stub.ListBots(ladder_pb2.ListBotsRequest(), timeout=5).bots), range(12)))
        assert all(status == health_pb2.HealthCheckResponse.SERVING and standings for status, standings, _ in answers)
        with pytest.raises(grpc.RpcError) as ended:
            for _ in opened[0]:
                pass
        assert time.monotonic() - started_at >= 3.5
        refused(ended.value, grpc.StatusCode.UNAVAILABLE, "longest life")
    finally:
        for stream in opened:
            stream.cancel()
    deadline = time.monotonic() + 10
    while True:  # the slots came back: six open again
        try:
            for who in (None, None, None, "alice", "alice", "alice"):
                watch(who)
            break
        except grpc.RpcError:
            assert time.monotonic() < deadline, "the closed streams' slots never came back"
            for stream in opened:
                stream.cancel()
            opened.clear()
            time.sleep(0.2)
    for stream in opened:
        stream.cancel()


def test_forty_anonymous_streams_do_not_starve_the_api(tmp_path: Path) -> None:
    service = Service(tmp_path, "--max-watchers-per-client", "40")
    streams = []
    try:
        for _ in range(40):  # the old service answered every call from 16 threads
            streams.append(service.stub.Watch(ladder_pb2.WatchRequest()))
            assert next(streams[-1]).WhichOneof("event") == "standings"
        health = health_pb2_grpc.HealthStub(service.channel)
        assert health.Check(health_pb2.HealthCheckRequest(), timeout=5).status == health_pb2.HealthCheckResponse.SERVING
        assert json.loads(service.stub.Standings(ladder_pb2.StandingsRequest(), timeout=5).json)["standings"] == []
    finally:
        for stream in streams:
            stream.cancel()
        service.stop()


@pytest.mark.parametrize("started", [("--submits-per-hour", "2", "--calls-per-second", "1")], indirect=True)
def test_each_client_is_held_to_its_rate(started: Service) -> None:
    service = started
    answers = [service.call("ListBots", ladder_pb2.ListBotsRequest(), "alice") for _ in range(4)]  # a burst of 3
    assert all(isinstance(a, ladder_pb2.ListBotsReply) for a in answers[:3])
    refused(answers[3], grpc.StatusCode.RESOURCE_EXHAUSTED, "try again in 1s")
    assert isinstance(service.call("ListBots", ladder_pb2.ListBotsRequest(), "bob"), ladder_pb2.ListBotsReply)
    submits = [service.call("Submit", ladder_pb2.SubmitRequest(archive=b"junk", name="n"), "bob") for _ in range(3)]
    refused(submits[0], grpc.StatusCode.INVALID_ARGUMENT, "cannot be read")
    refused(submits[2], grpc.StatusCode.RESOURCE_EXHAUSTED, "at most 2 an hour from one client")
    time.sleep(1.1)
    assert isinstance(service.call("ListBots", ladder_pb2.ListBotsRequest(), "alice"), ladder_pb2.ListBotsReply)


class FakeService(threading.Thread):
    """A gRPC server that is not the ladder: it records the metadata every
    call brings (what a mistyped address or an impostor would capture)."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.seen: list[tuple[str, str]] = []
        self.server = grpc.server(ThreadPoolExecutor(4))
        self.server.add_generic_rpc_handlers([self])  # type: ignore[list-item]
        self.port = self.server.add_insecure_port("0.0.0.0:0")
        self.server.start()

    def service(self, details: Any) -> Any:
        self.seen += [(str(key), str(value)) for key, value in details.invocation_metadata]
        return grpc.unary_unary_rpc_method_handler(lambda request, context: b"",
                                                   request_deserializer=None, response_serializer=None)


def test_the_client_never_sends_a_token_in_clear_beyond_this_machine(tmp_path: Path) -> None:
    import socket

    fake = FakeService()
    token = "rft_the-real-token-a-fake-server-wants"
    host = socket.gethostname()  # this machine, by a name the client cannot prove local
    address = f"{host}:{fake.port}"
    bot = random_bot_folder(tmp_path / "mine")
    try:
        said = referee("submit", str(bot), "--name", "mine", "--server", address, "--token", token, code=1)
        assert "over TLS" in said and "--insecure-plaintext" in said, said
        assert not fake.seen  # the TLS handshake failed: no call, no metadata
        said = referee("bots", "--server", address, "--token", token, "--insecure-plaintext")  # the impostor answers
        assert "token is not sent" in said, said
        referee("submit", str(bot), "--name", "mine", "--server", address, "--token", token, "--insecure-plaintext")
        assert len({value for key, value in fake.seen if key == "user-agent"}) >= 1, "no call reached the fake server"
        assert all(token not in value for _, value in fake.seen), fake.seen
        assert all(key != "authorization" for key, _ in fake.seen), fake.seen
    finally:
        fake.server.stop(0)


def test_logs_from_the_service_name_no_path_of_its_machine(tmp_path: Path) -> None:
    service = Service(tmp_path)
    try:
        bot = random_bot_folder(tmp_path / "author" / "mine")
        assert "registered mine" in referee("submit", str(bot), "--name", "mine", "--server", service.address,
                                            "--move-time", "1s")
        (service.data / "logs").mkdir(exist_ok=True)
        (service.data / "logs" / "mine@v1.log").write_text("choice bot starting\n")
        (service.data / "logs" / "mine@v1.log.1").write_text("older\n")
        shown = referee("logs", "mine", "--server", service.address)
        assert "choice bot starting" in shown and "rotated out" in shown, shown
        no_service_path(shown, service)
        crashing = crashing_bot(tmp_path / "author" / "crash")
        said = referee("submit", str(crashing), "--name", "crash", "--server", service.address, code=1)
        assert "dying on purpose" in said and f"{crashing}: " not in said, said
        no_service_path(said.replace(str(crashing), "<the author's folder>"), service)
    finally:
        service.stop()


def test_a_claim_cut_off_before_its_registration_is_released_at_the_next_start(tmp_path: Path) -> None:
    from ladder.service.access import Access

    data = tmp_path / "service" / "data"
    referee("token", "add", "alice", "--db", str(data / "ladder.sqlite"))
    access = Access(data)
    assert access.claim("orphan", "alice", registered=False)  # as if killed between the two commits
    access.close()
    address = free_address()
    process = start_service(data / "ladder.sqlite", address, *QUIET, log=tmp_path / "serve.log")
    try:
        assert "released the name 'orphan'" in (tmp_path / "serve.log").read_text()
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
    access = Access(data)
    assert access.owner("orphan") is None
    access.close()
