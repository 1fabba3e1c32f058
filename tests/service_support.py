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


def snapshot(data: Path) -> dict[str, bytes | None]:
    """Every file of a service's data folder with its bytes (a folder: None):
    the ladder's store and the access store byte for byte, and what lies
    beside them. Left out: SQLite's shared-memory index (`-shm`, where
    readers mark what they read) and the audit log (ladder/service/audit.py,
    which records refusals too)."""
    return {str(path.relative_to(data)): None if path.is_dir() else path.read_bytes()
            for path in sorted(data.rglob("*"))
            if not path.name.endswith("-shm") and path.name != "audit.jsonl"}


def long_name_bomb(declared: int, kind: bytes = b"L") -> bytes:
    """A gzipped tar whose first header, a GNU long name (or with `kind`
    b"x" a pax header), declares `declared` bytes and holds them: a run of
    one letter, which gzip shrinks a thousandfold."""
    import gzip
    import io
    import tarfile

    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as packed:
        header = tarfile.TarInfo("././@LongLink")
        header.type = kind
        header.size = declared
        packed.write(header.tobuf(format=tarfile.USTAR_FORMAT if kind == b"x" else tarfile.GNU_FORMAT))
        chunk = b"a" * (1 << 20)
        for start in range(0, declared, len(chunk)):
            packed.write(chunk[:min(len(chunk), declared - start)])
        packed.write(b"\0" * (-declared % tarfile.BLOCKSIZE))
        packed.write(tarfile.TarInfo("bot.py").tobuf(format=tarfile.GNU_FORMAT) + b"\0" * 2 * tarfile.BLOCKSIZE)
    return out.getvalue()


def memory_mib(pid: int, field: str) -> int:
    """`VmRSS` (now) or `VmHWM` (the peak) of process `pid`, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) // 1024
    raise AssertionError(f"no {field} in /proc/{pid}/status")


def reset_peak(pid: int) -> None:
    """Start `VmHWM` again from the current RSS (Linux's clear_refs 5)."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")
