"""Helpers for the ladder service tests: `referee serve` started as its own
process on 127.0.0.1, waited for through its health check, and tokens."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import grpc
from click.testing import CliRunner
from grpc_health.v1 import health_pb2, health_pb2_grpc

from referee.cli.main import cli

START_TIMEOUT = 90.0


def free_address() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"


def start_service(db: Path, address: str, *extra: str, log: Path) -> subprocess.Popen[bytes]:
    """`referee serve` on `address` (its own process and session), healthy."""
    output = log.open("ab")
    service = subprocess.Popen(
        [sys.executable, "-m", "referee.cli.main", "serve", "--db", str(db), "--listen", address, *extra],
        stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
    )
    wait_healthy(service, address, log)
    return service


def wait_healthy(service: subprocess.Popen[bytes], address: str, log: Path, channel: grpc.Channel | None = None) -> None:
    """Until the service's health check says SERVING (ladder.v1.Ladder)."""
    channel = channel or grpc.insecure_channel(address)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        assert service.poll() is None, f"the service exited: {log.read_text()}"
        assert time.monotonic() < deadline, f"the service did not start: {log.read_text()}"
        try:
            status = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service="ladder.v1.Ladder"), timeout=1)
            if status.status == health_pb2.HealthCheckResponse.SERVING:
                return
        except grpc.RpcError:
            pass
        time.sleep(0.1)


def referee(*args: str, code: int = 0) -> str:
    """A `referee` command run here, in the test's own process."""
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def issue_token(db: Path, name: str) -> str:
    return referee("token", "add", name, "--db", str(db)).splitlines()[0]
