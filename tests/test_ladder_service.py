"""The ladder service (`referee serve`) driven from this test's process, as a
bot author on another machine would: through its gRPC API and `referee
submit/bots/table/logs --server`. Tokens, refusals that change nothing, the
live stream, records; SIGKILL at any moment loses nothing and rates
nothing twice; TLS."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import grpc
import psutil
import pytest

from botsdk.pb.ladder.v1 import ladder_pb2, ladder_pb2_grpc
from ladder.scheduling.scheduler import recompute
from ladder.store.database import Store
from ladder_support import install_bot, random_bot_folder
from service_support import free_address, issue_token, referee, start_service, wait_healthy

SERVE = ("--no-builtins", "--players", "3", "--workers", "1", "--move-time", "1s")


def stored_matches(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def wait_until(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def stop(service: subprocess.Popen[bytes]) -> int:
    service.send_signal(signal.SIGTERM)
    return service.wait(60)


def listed_services(channel: grpc.Channel) -> list[str]:
    """The services the server names through gRPC reflection."""
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

    answers = reflection_pb2_grpc.ServerReflectionStub(channel).ServerReflectionInfo(
        iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=30)
    return [service.name for answer in answers for service in answer.list_services_response.service]


class Watcher(threading.Thread):
    """Reads the live stream into `events` until the stream ends."""

    def __init__(self, address: str) -> None:
        super().__init__(daemon=True)
        self.channel = grpc.insecure_channel(address)
        self.stream = ladder_pb2_grpc.LadderStub(self.channel).Watch(ladder_pb2.WatchRequest())
        self.events: list[Any] = []

    def run(self) -> None:
        try:
            for event in self.stream:
                self.events.append(event)
        except grpc.RpcError:
            pass  # cancelled at the end of the test

    def matches(self) -> list[Any]:
        return [e.match for e in self.events if e.WhichOneof("event") == "match"]


@pytest.mark.slow
def test_bot_authors_submit_remotely_with_tokens_and_watch_the_ladder_live(tmp_path: Path) -> None:
    db = tmp_path / "service" / "data" / "ladder.sqlite"
    address = free_address()
    alice, bob = issue_token(db, "alice"), issue_token(db, "bob")
    service = start_service(db, address, *SERVE, "--require-tokens", "--max-mib", "1", log=tmp_path / "serve.log")
    watcher = Watcher(address)
    try:
        watcher.start()
        author = tmp_path / "author"  # the bot author's own machine: nothing shared with the service but its address
        bots = {name: random_bot_folder(author / name) for name in ("a", "b", "c")}
        server = ("--server", address)

        assert "needs a token" in referee("submit", str(bots["a"]), "--name", "a", *server, code=1)
        assert "token is not valid" in referee("submit", str(bots["a"]), "--name", "a", *server, "--token", "rft_x",
                                               code=1)
        (author / "big").mkdir()
        (author / "big" / "bot.toml").write_text('command = "./bot.py"\ngames = ["gnadenlos"]\n')
        (author / "big" / "weights.bin").write_bytes(os.urandom(2 << 20))
        assert "larger than the ladder service accepts" in referee(
            "submit", str(author / "big"), "--name", "big", *server, "--token", alice, code=1)
        stub = ladder_pb2_grpc.LadderStub(watcher.channel)
        with pytest.raises(grpc.RpcError) as malformed:
            stub.Submit(ladder_pb2.SubmitRequest(archive=b"not an archive", name="junk"),
                        metadata=(("authorization", f"Bearer {alice}"),), timeout=30)
        assert malformed.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "cannot be read" in (malformed.value.details() or "")
        assert json.loads(referee("bots", *server, "--json")) == []  # every refusal changed nothing

        for name, folder in bots.items():
            assert f"registered {name} version v1" in referee("submit", str(folder), "--name", name, *server,
                                                               "--token", alice, "--move-time", "1s")
        assert "belongs to submitter 'alice'" in referee("submit", str(bots["a"]), "--name", "a", *server,
                                                         "--token", bob, code=1)

        wait_until(lambda: len(watcher.matches()) >= 3, 120, "no three matches came down the live stream")
        first = watcher.matches()[0]
        assert {seat.bot for seat in first.seats} == {"a", "b", "c"}
        latest = [e.standings for e in watcher.events if e.WhichOneof("event") == "standings"][-1]
        assert {row["bot"] for row in json.loads(latest.json)["standings"]} == {"a", "b", "c"}
        record = stub.GetRecord(ladder_pb2.GetRecordRequest(match_id=first.match_id), timeout=30).record
        assert json.loads(record.splitlines()[0])["match_id"] == first.match_id

        table = json.loads(referee("table", *server, "--json"))
        assert table["game"] == "gnadenlos" and table["matches"] >= 3
        assert {row["bot"] for row in table["standings"]} == {"a", "b", "c"}
        chain = table["deals"][-1]  # the run's seed chain: committed in the log before its first match
        assert f"deals committed: seed chain {chain['chain']} of {chain['length']} sets, commitment " \
               f"{chain['commitment']}" in (tmp_path / "serve.log").read_text()
        assert chain["ended_at"] is None and chain["ladder_seed"] is None and chain["sets_dealt"] >= 1
        plain = referee("table", *server)
        assert "Gnadenlos! ladder (base rules):" in plain and all(name in plain for name in "abc")
        shown = referee("logs", "a", *server, "--token", alice)
        assert "choice bot starting" in shown and str(db.parent) not in shown  # no path of the service's machine
        assert "belongs to submitter 'alice'" in referee("logs", "a", *server, "--token", bob, code=1)

        downloads = tmp_path / "downloads"  # her own bot's finished records (the first set is finished: see above)
        said = referee("records", "a", *server, "--token", alice, "--out", str(downloads))
        fetched = sorted(downloads.glob("*.jsonl"))
        assert f"wrote {len(fetched)} records of a" in said and first.match_id in {p.stem for p in fetched}, said
        for path in fetched:
            header = json.loads(path.read_text().splitlines()[0])
            assert header["match_id"] == path.stem and "a@v1" in {seat["label"] for seat in header["seats"]}
        assert "(%d were there already)" % len(fetched) in referee("records", "a", *server, "--token", alice,
                                                                    "--out", str(downloads))
        assert "belongs to submitter 'alice'" in referee("records", "a", *server, "--token", bob, "--out",
                                                         str(tmp_path / "theirs"), code=1)

        with pytest.raises(grpc.RpcError) as denied:
            stub.Retire(ladder_pb2.RetireRequest(name="c"), metadata=(("authorization", f"Bearer {bob}"),), timeout=30)
        assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
        retired = stub.Retire(ladder_pb2.RetireRequest(name="c"), metadata=(("authorization", f"Bearer {alice}"),),
                              timeout=30)
        assert (retired.name, retired.version) == ("c", "v1")
        assert {b["name"]: b["active"] for b in json.loads(referee("bots", *server, "--json"))} == \
            {"a": True, "b": True, "c": False}
        assert "ladder.v1.Ladder" in listed_services(watcher.channel)  # reflection, as a bot offers it
    finally:
        watcher.stream.cancel()
        assert stop(service) == 0, (tmp_path / "serve.log").read_text()


@pytest.mark.slow
def test_a_service_killed_mid_match_and_started_again_loses_nothing_and_rates_nothing_twice(tmp_path: Path) -> None:
    db = tmp_path / "data" / "ladder.sqlite"
    with Store(db) as store:
        for name in ("a", "b", "c"):
            install_bot(store, random_bot_folder(tmp_path / "bots" / name), name)
    address = free_address()
    log = tmp_path / "serve.log"
    service = start_service(db, address, *SERVE, log=log)
    wait_until(lambda: stored_matches(db) >= 4, 120, "the service rated no four matches")
    family = psutil.Process(service.pid).children(recursive=True)
    assert family
    os.kill(service.pid, signal.SIGKILL)
    service.wait(30)
    _, alive = psutil.wait_procs(family, timeout=30)
    assert not alive, f"left running: {[p.cmdline() for p in alive]}"
    with Store(db) as store:
        before = {m["match_id"] for m in store.matches("gnadenlos")}
        assert recompute(store, "gnadenlos")[0]

    stale = db.parent / "upload-killed"  # what a submission in progress leaves when the service is killed
    (stale / "bot").mkdir(parents=True)
    service = start_service(db, address, *SERVE, log=log)  # the run lock died with the killed service
    assert not stale.exists()
    wait_until(lambda: stored_matches(db) >= len(before) + 4, 120, "the restarted service rated nothing")
    assert stop(service) == 0, log.read_text()
    with Store(db) as store:
        ids = [m["match_id"] for m in store.matches("gnadenlos")]
        assert len(ids) == len(set(ids)) and set(ids) >= before
        assert len(store.rating_history("gnadenlos")) == len(store.seat_rows("gnadenlos"))
        assert recompute(store, "gnadenlos")[0]
        assert all(Path(m["record_path"]).exists() for m in store.matches("gnadenlos"))
        finished = [m["match_id"] for m in store.matches("gnadenlos") if not store.set_unfinished(m["match_id"])]
    said = referee("records", "a", "--db", str(db), "--out", str(tmp_path / "copies"))  # the operator's own copy
    copied = {path.stem for path in (tmp_path / "copies").glob("*.jsonl")}
    assert copied and copied <= set(finished) and f"wrote {len(copied)} records of a" in said


def test_the_service_speaks_tls_and_refuses_a_network_address_without_it(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=ladder",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    db = tmp_path / "data" / "ladder.sqlite"
    refused = referee("serve", "--db", str(db), "--listen", "0.0.0.0:1", *SERVE, code=2)
    assert "--tls-cert" in refused and "in clear" in refused

    address = free_address()
    log = tmp_path / "serve.log"
    channel = grpc.secure_channel(address, grpc.ssl_channel_credentials(cert.read_bytes()))
    service = subprocess.Popen(
        [sys.executable, "-m", "referee.cli.main", "serve", "--db", str(db),
         "--listen", address, "--tls-cert", str(cert), "--tls-key", str(key), *SERVE],
        stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_healthy(service, address, log, channel)
        assert json.loads(referee("bots", "--server", address, "--tls-ca", str(cert), "--json")) == []
        assert "cannot reach the ladder service" in referee("bots", "--server", address, "--json", code=1)
    finally:
        assert stop(service) == 0, log.read_text()
