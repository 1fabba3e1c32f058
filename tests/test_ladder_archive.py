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

from ladder.archive import ArchiveError, pack, unpack
from ladder.botfiles import BotFileCache
from ladder.botlogs import SHIP_LIMIT, LogCursor, append_capped
from ladder.intake import Limits, content_hash
from ladder.tasks import BotSpec, NotRated


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
    ([entry("up", kind=tarfile.SYMTYPE, link="../../etc/passwd")], "cannot be read"),
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
