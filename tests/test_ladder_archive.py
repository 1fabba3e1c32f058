"""Bot files as archives: what travels to workers and to the service.
Unpacking is bounded and refuses what `referee submit` refuses, leaving
nothing behind; a worker's cache fetches each hash once and checks it;
bots' output travels back from a worker once, across a rotation."""

from __future__ import annotations

import io
import tarfile
import threading
from pathlib import Path

import pytest

from ladder.intake.archive import ArchiveError, pack, unpack
from ladder.intake.copying import Limits, content_hash
from ladder.running.botfiles import BotFileCache
from ladder.running.botlogs import SHIP_LIMIT, LogCursor, append_capped
from ladder.store.tasks import BotSpec, NotRated


def bot_folder(path: Path) -> Path:
    (path / "lib").mkdir(parents=True)
    (path / "bot.py").write_text("print('hello')\n")
    (path / "bot.py").chmod(0o755)
    (path / "lib" / "data.txt").write_text("numbers\n")
    (path / "link").symlink_to("lib/data.txt")
    return path


def tar_of(*members: tuple[tarfile.TarInfo, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data else None)
    return buffer.getvalue()


def entry(name: str, data: bytes = b"", kind: bytes = tarfile.REGTYPE, link: str = "") -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    info.linkname = link
    info.mode = 0o644
    return info, data


def test_a_packed_folder_unpacks_to_the_same_content_hash(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "bot")
    data = pack(folder)
    assert data == pack(folder)  # the same files, the same archive
    names = unpack(data, tmp_path / "copy", Limits())
    assert sorted(names) == ["bot.py", "lib", "lib/data.txt", "link"]
    assert content_hash(tmp_path / "copy") == content_hash(folder)
    assert (tmp_path / "copy" / "link").is_symlink()
    assert (tmp_path / "copy" / "bot.py").stat().st_mode & 0o777 == 0o755


@pytest.mark.parametrize(("members", "says"), [
    ([entry("../escape", b"x")], "leads out of the bot's folder"),
    ([entry("/etc/evil", b"x")], "leads out of the bot's folder"),
    ([entry("fifo", kind=tarfile.FIFOTYPE)], "not a file, folder or link"),
    ([entry("a", b"x"), entry("hard", kind=tarfile.LNKTYPE, link="a")], "not a file, folder or link"),
    ([entry("up", kind=tarfile.SYMTYPE, link="../../etc/passwd")], "links out of the bot.s folder"),
    ([entry(f"f{i}", b"x") for i in range(6)], "more than 5 entries"),
    ([entry("big", b"x" * 3000)], "more than 2,000 bytes"),
    ([entry("a/b/c/d/e", b"x")], "nests more than 3 folders deep"),
])
def test_a_bad_archive_is_refused_naming_why_and_leaves_nothing(
        tmp_path: Path, members: list[tuple[tarfile.TarInfo, bytes]], says: str) -> None:
    target = tmp_path / "unpacked"
    with pytest.raises(ArchiveError, match=says):
        unpack(tar_of(*members), target, Limits(max_bytes=2000, max_files=5, max_depth=3))
    assert not target.exists()


def test_bytes_that_are_no_archive_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ArchiveError, match="cannot be read"):
        unpack(b"this is not a tar archive at all", tmp_path / "x", Limits())
    assert not (tmp_path / "x").exists()


def spec_of(folder: Path, digest: str | None = None) -> BotSpec:
    return BotSpec(7, "bot@v1", "submitted", ("./bot.py",), digest or content_hash(folder))


def test_a_worker_cache_fetches_each_hash_once_even_when_matches_ask_at_once(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "bot")
    asked: list[str] = []

    def fetch(digest: str) -> bytes:
        asked.append(digest)
        return pack(folder)

    cache = BotFileCache(tmp_path / "cache", fetch)
    spec = spec_of(folder)
    found: list[Path] = []
    threads = [threading.Thread(target=lambda: found.append(cache.folder(spec))) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert asked == [spec.content_hash]
    assert set(found) == {tmp_path / "cache" / spec.content_hash}
    assert content_hash(found[0]) == spec.content_hash
    assert BotFileCache(tmp_path / "cache", fetch).folder(spec) == found[0] and len(asked) == 1  # kept


def test_files_that_arrive_with_another_hash_are_not_used(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "bot")
    cache = BotFileCache(tmp_path / "cache", lambda digest: pack(folder))
    with pytest.raises(NotRated, match="arrived with hash") as raised:
        cache.folder(spec_of(folder, digest="0" * 64))
    assert raised.value.kind == "referee_error"
    assert not (tmp_path / "cache" / ("0" * 64)).exists()
    assert not any((tmp_path / "cache" / ".incoming").iterdir())


def test_a_workers_log_is_shipped_once_across_a_rotation_and_capped_in_the_store(tmp_path: Path) -> None:
    worker, store_logs = tmp_path / "worker", tmp_path / "logs"
    worker.mkdir()
    log = worker / "bot@v1.log"
    cursor = LogCursor(worker)
    log.write_bytes(b"one\n")
    assert cursor.new_output("bot@v1") == b"one\n"
    assert cursor.new_output("bot@v1") == b""  # nothing new: nothing again
    with log.open("ab") as out:
        out.write(b"two\n")
    log.rename(worker / "bot@v1.log.1")  # the sandbox's log pipe rotated it
    log.write_bytes(b"three\n")
    assert cursor.new_output("bot@v1") == b"two\nthree\n"
    log.write_bytes(b"x" * (SHIP_LIMIT + 10))  # a new file again (rotated and refilled)
    assert len(cursor.new_output("bot@v1")) <= SHIP_LIMIT + 100

    for part in (b"a" * 60, b"b" * 60):
        append_capped(store_logs, "bot@v1", part, cap=100)
    assert (store_logs / "bot@v1.log").read_bytes() == b"b" * 60
    assert (store_logs / "bot@v1.log.1").read_bytes() == b"a" * 60


def pax_record(key: str, value: str) -> bytes:
    """One pax record, "LENGTH key=value\\n", its length counting itself."""
    body = f" {key}={value}\n".encode()
    length = len(body) + len(str(len(body)))
    length += len(str(length)) - len(str(len(body)))
    return str(length).encode() + body


def raw_tar(*parts: tuple[bytes, bytes], end: bool = True) -> bytes:
    """A gzipped tar of (type, data) headers written block by block, as a
    hostile client writes them: `tarfile` would not write some of them."""
    import gzip

    blocks = b""
    for kind, data in parts:
        info = tarfile.TarInfo("entry" if kind in (tarfile.REGTYPE, tarfile.DIRTYPE) else "././@LongLink")
        info.type, info.size = kind, len(data)
        blocks += info.tobuf(format=tarfile.USTAR_FORMAT) + data + b"\0" * (-len(data) % tarfile.BLOCKSIZE)
    return gzip.compress(blocks + (b"\0" * 2 * tarfile.BLOCKSIZE if end else b""))


@pytest.mark.parametrize("kind", [tarfile.GNUTYPE_LONGNAME, tarfile.XHDTYPE])
def test_a_header_bomb_is_refused_before_it_is_read(tmp_path: Path, kind: bytes) -> None:
    """A long name or pax header declaring 200 MiB (0.2 MB gzipped) is
    refused from its header: tarfile would read the 200 MiB whole first."""
    import tracemalloc

    from service_support import long_name_bomb

    bomb = long_name_bomb(200 << 20, kind)
    tracemalloc.start()
    try:
        with pytest.raises(ArchiveError, match="declares 200 MiB"):
            unpack(bomb, tmp_path / "x", Limits())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(bomb) < 1 << 20 and peak < 1 << 20, f"{peak:,} bytes allocated while refusing"
    assert not (tmp_path / "x").exists()
    small = raw_tar((kind, pax_record("path", "bot.py") if kind == tarfile.XHDTYPE else b"bot.py\0"),
                    (tarfile.REGTYPE, b""))
    assert unpack(small, tmp_path / "fine", Limits()) == ["bot.py"]  # a small one is what tar writers make


@pytest.mark.parametrize(("parts", "says"), [
    ([(tarfile.XHDTYPE, pax_record("path", "x" * 5000)), (tarfile.REGTYPE, b"")], "longer than 4,096 bytes"),
    ([(tarfile.XHDTYPE, pax_record("path", "d/" + "x" * 300)), (tarfile.REGTYPE, b"")], "longer than 4,096 bytes"),
    ([(tarfile.GNUTYPE_LONGNAME, b"n\0")] * 4 + [(tarfile.REGTYPE, b"")], "more than 3 extended headers"),
    ([(tarfile.GNUTYPE_SPARSE, b"")], "not a file, folder or link"),
    ([(tarfile.CHRTYPE, b"")], "not a file, folder or link"),
    ([(tarfile.XHDTYPE, pax_record("GNU.sparse.realsize", "10") + pax_record("GNU.sparse.major", "1")
       + pax_record("GNU.sparse.minor", "0") + pax_record("GNU.sparse.name", "s")), (tarfile.REGTYPE, b"0\n\n")],
     "not a file, folder or link"),
])
def test_long_names_sparse_files_and_header_chains_are_refused(
        tmp_path: Path, parts: list[tuple[bytes, bytes]], says: str) -> None:
    with pytest.raises(ArchiveError, match=says):
        unpack(raw_tar(*parts), tmp_path / "x", Limits())
    assert not (tmp_path / "x").exists()


def test_an_archive_past_its_budget_is_refused_while_it_is_read(tmp_path: Path) -> None:
    """Headers count: three pax headers of 12 KB before one entry pass every
    header check, but not the bytes a one-entry, 1,000-byte archive may unpack to."""
    big = pax_record("comment", "c" * 12_000)
    archive = raw_tar((tarfile.XHDTYPE, big), (tarfile.XHDTYPE, big), (tarfile.XHDTYPE, big), (tarfile.REGTYPE, b""))
    with pytest.raises(ArchiveError, match="unpacks to more than .* headers included"):
        unpack(archive, tmp_path / "x", Limits(max_bytes=1000, max_files=1))
    assert unpack(archive, tmp_path / "y", Limits(max_bytes=1 << 20, max_files=10)) == ["entry"]
