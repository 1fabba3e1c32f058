"""Unpacking a bot's archive on a Python without tarfile's "data" filter
(PEP 706 came with 3.11.4; Debian 12's python3 is 3.11.2, where every
unpack failed with "unexpected keyword argument 'filter'", issue 29).
ladder/intake/archive.py then makes the filter's checks itself; these tests take
the filter away and check that the same archives unpack and the same
hostile ones are refused, leaving nothing behind. Where Python lacks the
filter anyway, they run as they are.
"""

from __future__ import annotations

import io
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ladder.intake.archive import ArchiveError, pack, unpack
from ladder.intake.copying import Limits, content_hash


@pytest.fixture(autouse=True)
def no_data_filter(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if hasattr(tarfile, "data_filter"):
        monkeypatch.delattr(tarfile, "data_filter")
    yield


def tar_of(*members: tuple[str, bytes, str, int]) -> bytes:
    """An archive of (name, data, link target or "", mode) entries, in order."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data, link, mode in members:
            info = tarfile.TarInfo(name)
            info.mode = mode
            if name.endswith("/"):
                info.type = tarfile.DIRTYPE
            elif link:
                info.type, info.linkname = tarfile.SYMTYPE, link
            else:
                info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data else None)
    return buffer.getvalue()


def test_a_bot_folder_with_links_inside_it_round_trips(tmp_path: Path) -> None:
    """As npm leaves them: node_modules/.bin/cli -> ../tool/cli.js."""
    bot = tmp_path / "bot"
    (bot / "node_modules" / "tool").mkdir(parents=True)
    (bot / "node_modules" / ".bin").mkdir()
    (bot / "node_modules" / "tool" / "cli.js").write_text("console.log(1)\n")
    (bot / "node_modules" / ".bin" / "cli").symlink_to("../tool/cli.js")
    (bot / "bot.py").write_text("print('hello')\n")
    (bot / "bot.py").chmod(0o755)
    names = unpack(pack(bot), tmp_path / "copy", Limits())
    assert "node_modules/.bin/cli" in names
    assert content_hash(tmp_path / "copy") == content_hash(bot)
    assert (tmp_path / "copy" / "node_modules" / ".bin" / "cli").read_text() == "console.log(1)\n"
    assert (tmp_path / "copy" / "bot.py").stat().st_mode & 0o7777 == 0o755


def test_set_uid_bits_are_not_kept(tmp_path: Path) -> None:
    unpack(tar_of(("tool", b"#!/bin/sh\n", "", 0o6755)), tmp_path / "copy", Limits())
    assert (tmp_path / "copy" / "tool").stat().st_mode & 0o7777 == 0o755


@pytest.mark.parametrize("members", [
    [("up", b"", "../../etc/passwd", 0o777)],
    [("abs", b"", "/etc/passwd", 0o777)],
    [("d/", b"", "", 0o755), ("d/parent", b"", "../..", 0o777)],
    [("here", b"", ".", 0o777), ("here/out", b"", "..", 0o777)],
    [("out", b"", "..", 0o777), ("out/x", b"written outside", "", 0o644)],
], ids=["relative", "absolute", "from-a-folder", "through-a-link", "then-a-file-through-it"])
def test_a_link_out_of_the_folder_is_refused_and_leaves_nothing(tmp_path: Path, members: list[tuple[str, bytes, str, int]]) -> None:
    target = tmp_path / "unpacked"
    with pytest.raises(ArchiveError, match="leads out of the bot.s folder"):
        unpack(tar_of(*members), target, Limits())
    assert not target.exists() and not (tmp_path / "x").exists()
