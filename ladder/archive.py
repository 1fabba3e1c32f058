"""A bot's files as one archive: how they travel to workers and to the service.

A bot folder (or a single executable file) is packed as a gzipped tar
whose entries are files, folders and links only, in path order, with no
owners or times (the same files make the same archive). Unpacking takes an
archive from anyone, so it is bounded like `referee submit`'s copy
(ladder/intake.py): entries are counted against `Limits.max_files`, their
declared sizes against `Limits.max_bytes` and their depth against
`Limits.max_depth` as they are read, before a byte is written, so a
compression bomb stops at the first limit. Names that are absolute or
climb out (`..`), links out of the folder, hard links, devices and pipes
are refused with a message naming the entry; extraction then goes through
tarfile's "data" filter, which refuses the same again and strips
set-uid bits (on a Python without it, before 3.11.4 such as Debian 12's
3.11.2, `_extract` makes its checks itself). A refusal leaves nothing
behind: the caller's target folder is made only by a successful unpack.
"""

from __future__ import annotations

import copy
import io
import os
import shutil
import tarfile
from pathlib import Path, PurePosixPath

from ladder.intake import MIB, Limits

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


def unpack(data: bytes, target: Path, limits: Limits) -> list[str]:
    """Unpack `data` into the new folder `target` within `limits`; return
    the names of its entries. Raises ArchiveError (and `target` does not
    exist afterwards)."""
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as tar:
            members = _checked_members(tar, limits)
            target.mkdir(mode=0o700)
            try:
                _extract(tar, members, target)
                _open_modes(target)
            except BaseException:
                shutil.rmtree(target, ignore_errors=True)
                raise
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise ArchiveError(f"the archive cannot be read ({exc}); send a tar archive of the bot's folder "
                           "(`referee submit --server` makes one)") from None
    return [m.name for m in members]


def _extract(tar: tarfile.TarFile, members: list[tarfile.TarInfo], target: Path) -> None:
    """Extract `members` into `target` through tarfile's "data" filter
    (PEP 706), or where Python lacks it (before 3.11.4) through the same
    checks made here, entry by entry against what is already extracted: the
    entry's path, followed through links, and a link's target stay inside
    `target`; modes lose set-uid, set-gid, sticky and write bits for others,
    owners are not taken from the archive. Raises tarfile.TarError."""
    if hasattr(tarfile, "data_filter"):
        tar.extractall(target, members=members, filter="data")
        return
    root = os.path.realpath(target)
    for member in members:
        if not _inside(os.path.realpath(os.path.join(root, member.name)), root):
            raise tarfile.TarError(f"{member.name!r} would be extracted to a path outside the destination")
        if member.issym():
            linked = os.path.realpath(os.path.join(root, os.path.dirname(member.name), member.linkname))
            if os.path.isabs(member.linkname) or not _inside(linked, root):
                raise tarfile.TarError(f"{member.name!r} would link to {member.linkname!r}, which is outside "
                                       "the destination")
        safe = copy.copy(member)  # as the filter leaves it: no set-uid or group/other write, owned by us
        safe.mode &= 0o755
        safe.uid, safe.gid, safe.uname, safe.gname = os.geteuid(), os.getegid(), "", ""
        tar.extract(safe, root)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root + os.sep)


def _checked_members(tar: tarfile.TarFile, limits: Limits) -> list[tarfile.TarInfo]:
    """Every entry of `tar`, each checked as it is read. Raises ArchiveError."""
    members: list[tarfile.TarInfo] = []
    total = 0
    for member in tar:
        members.append(member)
        if len(members) > limits.max_files:
            raise ArchiveError(f"the archive holds more than {limits.max_files} entries (the limit): leave "
                               "data files, build outputs and caches out, or ask the operator to raise --max-files")
        name = PurePosixPath(member.name)
        if name.is_absolute() or ".." in name.parts:
            raise ArchiveError(f"entry {member.name!r} leads out of the bot's folder; archive the folder's "
                               "content with relative names")
        if len(name.parts) - 1 > limits.max_depth:
            raise ArchiveError(f"entry {member.name!r} nests more than {limits.max_depth} folders deep: "
                               "flatten the bot's folders, or ask the operator to raise --max-depth")
        if not (member.isfile() or member.isdir() or member.issym()):
            raise ArchiveError(f"entry {member.name!r} is not a file, folder or link (a hard link, device or "
                               "pipe): remove it from the bot's folder")
        total += member.size
        if total > limits.max_bytes:
            raise ArchiveError(f"the archive's files hold more than {_size(limits.max_bytes)} (the limit; "
                               f"at {member.name!r}): leave data files, build outputs and caches out, or ask "
                               "the operator to raise --max-mib")
    return members


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
