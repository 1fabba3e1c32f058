"""A bot's files as one archive: how they travel to workers and to the service.

A bot folder (or a single executable file) is packed as a gzipped tar
whose entries are files, folders and links only, in path order, with no
owners or times (the same files make the same archive). Unpacking takes an
archive from anyone, so it is bounded while it is read, not after:

- the decompressed stream is read through `_Bounded`, which refuses any
  read or seek that would take it past the archive's budget (the
  submission's `Limits.max_bytes` plus a few KiB of headers per allowed
  entry) before a byte of it is decompressed: a gzip bomb, or a long-name
  or pax header that declares 200 MiB, stops at the budget, not after
  `tarfile` has read the header whole (it reads a header's data in one
  call, so it was held in memory: +1.6 GiB for a 0.2 MB upload);
- every header is checked as `tarfile` parses it (`_checked_header`):
  only files, folders, links and the extended headers that carry long
  names (GNU long names, pax) are accepted, an extended header may hold
  at most `EXTENDED_LIMIT` bytes, and at most `EXTENDED_CHAIN` of them may
  precede an entry;
- every entry is checked as it is read, before a byte is written: counted
  against `Limits.max_files`, its declared size against `Limits.max_bytes`,
  its depth against `Limits.max_depth`, its name and link target against
  `NAME_LIMIT` bytes (`PART_LIMIT` a part); names that are absolute or
  climb out (`..`), hard links, devices, pipes and sparse files are
  refused with a message naming the entry.

The first limit passed stops the read. Extraction then goes through
tarfile's "data" filter, which refuses links out of the folder and strips
set-uid bits (on a Python without it, before 3.11.4 such as Debian 12's
3.11.2, `_extract` makes the same checks itself). A refusal leaves nothing behind: the caller's target folder
is made only by a successful unpack.
"""

from __future__ import annotations

import contextlib
import copy
import gzip
import io
import os
import shutil
import tarfile
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Self

from ladder.intake.copying import MIB, Limits

NAME_LIMIT = 4096
"""Bytes of an entry's name or link target (Linux's PATH_MAX)."""
PART_LIMIT = 255
"""Bytes of one part of a name (Linux's NAME_MAX)."""
EXTENDED_LIMIT = 3 * NAME_LIMIT
"""Bytes of one extended header: a long name, or pax records (a name, a link target and a few numbers)."""
EXTENDED_CHAIN = 3
"""Extended headers before one entry: a long name, a long link target, pax records."""
ENTRY_OVERHEAD = 4096
"""Header bytes an entry may take beyond its content: its header block, a
pax header of a long name and the padding to whole blocks."""
GZIP_MAGIC = b"\x1f\x8b"
_EXTENDED = {tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK, tarfile.XHDTYPE, tarfile.XGLTYPE}
_FILTER_ERRORS: tuple[type[tarfile.FilterError], ...] = (tarfile.FilterError,) if hasattr(tarfile, "FilterError") else ()
"""The "data" filter's refusals: none on a Python without it (before 3.11.4), where `_extract` refuses itself."""
_ENTRIES = {tarfile.REGTYPE, tarfile.AREGTYPE, tarfile.DIRTYPE, tarfile.SYMTYPE}


class ArchiveError(Exception):
    """An archive cannot be unpacked: the message says which entry and why."""


def pack(path: Path) -> bytes:
    """The folder `path` (its content), or the file `path` alone, as a
    gzipped tar. Links are packed as links, never followed; anything that is
    not a file, folder or link is packed as what it is, for the receiver to
    refuse with the same message `referee submit` gives."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
        if path.is_dir():
            for entry in sorted(_walk(path)):
                tar.add(path / entry, arcname=entry, recursive=False, filter=_anonymous)
        else:
            tar.add(path, arcname=path.name, recursive=False, filter=_anonymous)
    return buffer.getvalue()


def _walk(folder: Path) -> list[str]:
    """Relative paths of everything under `folder`, not entering linked folders."""
    found = []
    for root, dirs, files in os.walk(folder, followlinks=False):
        relative = Path(root).relative_to(folder)
        found += [str(relative / name) for name in (*dirs, *files)]
    return found


def _anonymous(info: tarfile.TarInfo) -> tarfile.TarInfo:
    """No owner, group or time: an archive depends on the files alone."""
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.mtime = 0
    return info


def unpack(data: bytes | Path, target: Path, limits: Limits) -> list[str]:
    """Unpack `data` (a gzipped or plain tar, or the file holding one) into
    the new folder `target` within `limits`; return the names of its
    entries. Raises ArchiveError (and `target` does not exist afterwards)."""
    with contextlib.ExitStack() as opened:
        source: BinaryIO = opened.enter_context(data.open("rb")) if isinstance(data, Path) else io.BytesIO(data)
        packed = source.read(len(GZIP_MAGIC)) == GZIP_MAGIC
        source.seek(0)
        return _unpack(gzip.GzipFile(fileobj=source) if packed else source, target, limits)


def _unpack(raw: gzip.GzipFile | BinaryIO, target: Path, limits: Limits) -> list[str]:
    stream = _Bounded(raw, budget(limits))
    try:
        with tarfile.open(fileobj=stream, mode="r:", tarinfo=_checked_header()) as tar:
            members = _checked_members(tar, limits)
            target.mkdir(mode=0o700)
            try:
                _extract(tar, members, target)
                _open_modes(target)
            except BaseException:
                shutil.rmtree(target, ignore_errors=True)
                raise
    except _FILTER_ERRORS as exc:  # the "data" filter: its message names the folder it unpacks into
        raise ArchiveError(f"entry {_shown(exc.tarinfo.name)} links out of the bot's folder (or is absolute); "
                           "a bot's links may lead only to its own files") from None
    except OSError as exc:  # its text would name the folder it unpacks into: the reason alone
        reason = exc if exc.filename is None else exc.strerror
        raise ArchiveError(f"the archive cannot be read ({reason}); send a gzipped tar "
                           "of the bot's folder (`referee submit --server` makes one)") from None
    except (tarfile.TarError, EOFError, ValueError) as exc:
        raise ArchiveError(f"the archive cannot be read ({exc}); send a gzipped tar of the bot's folder "
                           "(`referee submit --server` makes one)") from None
    return [m.name for m in members]


def _extract(tar: tarfile.TarFile, members: list[tarfile.TarInfo], target: Path) -> None:
    """Extract `members` into `target` through tarfile's "data" filter
    (PEP 706), or where Python lacks it (before 3.11.4) through the same
    checks made here, entry by entry against what is already extracted: the
    entry's path, followed through links, and a link's target stay inside
    `target`; modes lose set-uid, set-gid, sticky and write bits for others,
    owners are not taken from the archive. Raises ArchiveError or
    tarfile.FilterError."""
    if hasattr(tarfile, "data_filter"):
        tar.extractall(target, members=members, filter="data")
        return
    root = os.path.realpath(target)
    for member in members:
        if not _inside(os.path.realpath(os.path.join(root, member.name)), root):
            raise _links_out(member)
        if member.issym():
            linked = os.path.realpath(os.path.join(root, os.path.dirname(member.name), member.linkname))
            if os.path.isabs(member.linkname) or not _inside(linked, root):
                raise _links_out(member)
        safe = copy.copy(member)  # as the filter leaves it: no set-uid or group/other write, owned by us
        safe.mode &= 0o755
        safe.uid, safe.gid, safe.uname, safe.gname = os.geteuid(), os.getegid(), "", ""
        tar.extract(safe, root)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root + os.sep)


def _links_out(member: tarfile.TarInfo) -> ArchiveError:
    """What the "data" filter's refusal becomes (see `_unpack`), for the
    checks made without it."""
    return ArchiveError(f"entry {_shown(member.name)} leads out of the bot's folder (a link out, an absolute "
                        "path, or a path through such a link); a bot's links may lead only to its own files")


def budget(limits: Limits) -> int:
    """The most bytes an archive within `limits` unpacks to, headers included."""
    return limits.max_bytes + (limits.max_files + 1) * ENTRY_OVERHEAD + tarfile.RECORDSIZE


class _Bounded(io.RawIOBase):
    """The decompressed archive as tarfile reads it: a read or seek that
    would pass `limit` bytes is refused before anything is decompressed."""

    def __init__(self, raw: gzip.GzipFile | BinaryIO, limit: int) -> None:
        super().__init__()
        self._raw = raw
        self._limit = limit

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._raw.tell()

    def read(self, size: int | None = -1) -> bytes:
        position = self._raw.tell()
        if size is None or size < 0:
            size = self._limit - position + 1  # all that is left, and one byte to tell whether it is too much
        if position + size > self._limit:
            wanted = self._raw.read(self._limit - position + 1)
            if position + len(wanted) > self._limit:
                raise self._too_big()
            return wanted
        return self._raw.read(size)

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        target = offset if whence == os.SEEK_SET else self._raw.tell() + offset if whence == os.SEEK_CUR else -1
        if not 0 <= target <= self._limit:
            raise self._too_big()
        return self._raw.seek(target)

    def _too_big(self) -> ArchiveError:
        return ArchiveError(f"the archive unpacks to more than {_size(self._limit)} (the limit, headers included): "
                            "leave data files, build outputs and caches out, or ask the operator to raise --max-mib")


def _checked_header() -> type[tarfile.TarInfo]:
    """A TarInfo class for one archive that checks every header as tarfile
    parses it, before tarfile reads what the header declares (see the
    module doc). A class per archive: it counts the extended headers in a row."""

    class CheckedHeader(tarfile.TarInfo):
        extended_in_a_row = 0

        @classmethod
        def frombuf(cls, buf: bytes | bytearray, encoding: str, errors: str) -> Self:
            header = super().frombuf(buf, encoding, errors)
            if header.type in _EXTENDED:
                cls.extended_in_a_row += 1
                if header.size > EXTENDED_LIMIT:
                    raise ArchiveError(f"an extended header (a long name or pax records) declares {_size(header.size)}, "
                                       f"more than {_size(EXTENDED_LIMIT)}; give the bot's files shorter names")
                if cls.extended_in_a_row > EXTENDED_CHAIN:
                    raise ArchiveError(f"more than {EXTENDED_CHAIN} extended headers precede one entry; send the "
                                       "archive `referee submit --server` makes")
            elif header.type in _ENTRIES:
                cls.extended_in_a_row = 0
            else:
                raise ArchiveError(f"entry {_shown(header.name)} is not a file, folder or link (a hard link, device, "
                                   "pipe or sparse file): remove it from the bot's folder")
            return header

    return CheckedHeader


def _checked_members(tar: tarfile.TarFile, limits: Limits) -> list[tarfile.TarInfo]:
    """Every entry of `tar`, each checked as it is read. Raises ArchiveError."""
    members: list[tarfile.TarInfo] = []
    total = 0
    for member in tar:
        members.append(member)
        if len(members) > limits.max_files:
            raise ArchiveError(f"the archive holds more than {limits.max_files} entries (the limit): leave "
                               "data files, build outputs and caches out, or ask the operator to raise --max-files")
        _check_name(member)
        name = PurePosixPath(member.name)
        if name.is_absolute() or ".." in name.parts:
            raise ArchiveError(f"entry {_shown(member.name)} leads out of the bot's folder; archive the folder's "
                               "content with relative names")
        if len(name.parts) - 1 > limits.max_depth:
            raise ArchiveError(f"entry {_shown(member.name)} nests more than {limits.max_depth} folders deep: "
                               "flatten the bot's folders, or ask the operator to raise --max-depth")
        if not (member.isfile() or member.isdir() or member.issym()) or member.sparse is not None:
            raise ArchiveError(f"entry {_shown(member.name)} is not a file, folder or link (a hard link, device, "
                               "pipe or sparse file): remove it from the bot's folder")
        total += member.size
        if total > limits.max_bytes:
            raise ArchiveError(f"the archive's files hold more than {_size(limits.max_bytes)} (the limit; "
                               f"at {_shown(member.name)}): leave data files, build outputs and caches out, or ask "
                               "the operator to raise --max-mib")
    return members


def _check_name(member: tarfile.TarInfo) -> None:
    """An entry's name and link target within NAME_LIMIT, each part within PART_LIMIT."""
    for what, text in (("name", member.name), ("link target", member.linkname)):
        encoded = os.fsencode(text)
        if len(encoded) > NAME_LIMIT or any(len(part) > PART_LIMIT for part in encoded.split(b"/")):
            raise ArchiveError(f"entry {_shown(member.name)} has a {what} longer than {NAME_LIMIT:,} bytes (or a "
                               f"part of it longer than {PART_LIMIT}); give the bot's files shorter names")


def _shown(name: str) -> str:
    """An entry's name as a message quotes it: its start, if it is long."""
    return repr(name if len(name) <= 80 else name[:80] + "...")


def _size(size: int) -> str:
    return f"{size / MIB:,.0f} MiB" if size >= MIB else f"{size:,} bytes"


def _open_modes(folder: Path) -> None:
    """Folders 0755, files 0644 or 0755 when executable: what the bot's own
    sandboxed user needs to read them (as `referee submit`'s copy sets)."""
    folder.chmod(0o755)
    for root, dirs, files in os.walk(folder, followlinks=False):
        for name in dirs:
            path = Path(root) / name
            if not path.is_symlink():
                path.chmod(0o755)
        for name in files:
            path = Path(root) / name
            if not path.is_symlink():
                path.chmod(0o755 if path.stat().st_mode & 0o100 else 0o644)
