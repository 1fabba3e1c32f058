"""Copying an untrusted bot into the store, within limits, and hashing it.

A submission is whatever its author put in a folder, so its copy must be
bounded by limits of its own, not by the store's free space or the
referee's memory: a folder of two links `a -> .` and `b -> .` is an
infinite tree to a copy that follows links, and a sparse file of 1 GiB
costs its author nothing. So the copy

- never follows a link: every name is opened relative to its folder's
  descriptor with O_NOFOLLOW, and a link is copied as a link (only a link
  to a file inside the folder is kept; see `_check_links`);
- counts every file, folder and link against `Limits.max_files`, and each
  folder's depth against `Limits.max_depth`, refusing at the first one over;
- checks each file's size (from lstat) against what is left of
  `Limits.max_bytes` before opening it, then counts the bytes as it copies
  them in fixed-size chunks (a file can grow meanwhile);
- refuses anything but files, folders and links (reading a named pipe
  would wait forever; a device has no end).

It sets the modes the bot's own sandboxed user needs as it goes: folders
0755, files 0644, or 0755 when their owner may run them.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePath

MIB = 1 << 20
MAX_BYTES = 64 * MIB
"""Default bound on the bytes of all a submission's files together."""
MAX_FILES = 2000
"""Default bound on a submission's files, folders and links together."""
MAX_DEPTH = 16
"""Default bound on how deep a submission's folders nest (its top folder is 0)."""
CHUNK = MIB
"""Bytes read at a time while copying or hashing: memory stays flat."""

_OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_OPEN_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_CREATE_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


class IntakeError(Exception):
    """A submission broke a limit or holds what a bot folder may not; the
    message is one line saying what and how to fix it."""


@dataclass(frozen=True)
class Limits:
    """How big a submission may be (`referee submit --max-mib/--max-files/--max-depth`)."""

    max_bytes: int = MAX_BYTES
    max_files: int = MAX_FILES
    max_depth: int = MAX_DEPTH


@dataclass
class _Budget:
    """What a copy has used so far; refuses as soon as a limit is passed."""

    limits: Limits
    entries: int = 0
    bytes: int = 0
    links: list[PurePath] = field(default_factory=list)

    def entry(self) -> None:
        self.entries += 1
        if self.entries > self.limits.max_files:
            raise IntakeError(
                f"the bot has more than {self.limits.max_files:,} files and folders (the limit): remove build "
                "outputs, caches and version control (__pycache__, .git, node_modules, virtual environments), "
                "or ask the operator to raise --max-files"
            )

    def folder(self, relative: PurePath, depth: int) -> None:
        if depth > self.limits.max_depth:
            raise IntakeError(
                f"the bot's folders nest more than {self.limits.max_depth} deep (at {relative}): flatten them, "
                "or ask the operator to raise --max-depth"
            )

    def fits(self, relative: PurePath, size: int) -> None:
        """Refuse a file of `size` bytes (its lstat size) before reading it."""
        if self.bytes + size > self.limits.max_bytes:
            raise self._too_big(f"{relative} is {_mib(size)}")

    def count(self, relative: PurePath, size: int) -> None:
        """Count `size` bytes just read of the file `relative` (which may
        have grown since its size was checked)."""
        self.bytes += size
        if self.bytes > self.limits.max_bytes:
            raise self._too_big(f"passed while copying {relative}, which grew")

    def _too_big(self, where: str) -> IntakeError:
        return IntakeError(
            f"the bot has more than {_mib(self.limits.max_bytes)} of files (the limit; {where}): "
            "leave data files, build outputs and caches out, or ask the operator to raise --max-mib"
        )


def _mib(size: int) -> str:
    return f"{size / MIB:,.0f} MiB" if size >= MIB else f"{size:,} bytes"


def copy_in(source: Path, target: Path, limits: Limits) -> None:
    """Copy the file or folder `source` into the new folder `target` (whose
    parent exists): a file as `target/<its name>`, a folder's content as
    `target`'s. Raises IntakeError; the caller removes `target` on failure.
    `source` itself may be a link (the operator named it); nothing in it is
    followed."""
    budget = _Budget(limits)
    target.mkdir(mode=0o700)
    target_fd = os.open(target, _OPEN_DIR)
    try:
        if source.is_dir():
            source_fd = os.open(source, _OPEN_DIR & ~os.O_NOFOLLOW)
            try:
                _copy_folder(source_fd, target_fd, PurePath(), 0, budget)
            finally:
                os.close(source_fd)
        else:
            budget.entry()
            _copy_file(os.open(source, _OPEN_FILE & ~os.O_NOFOLLOW), target_fd, PurePath(source.name), budget)
        os.fchmod(target_fd, 0o755)
    finally:
        os.close(target_fd)
    _check_links(target, budget.links)


def _copy_folder(source_fd: int, target_fd: int, relative: PurePath, depth: int, budget: _Budget) -> None:
    """Copy the entries of one folder in name order, never following a link."""
    names = []
    with os.scandir(source_fd) as entries:
        for entry in entries:
            budget.entry()
            names.append(entry.name)
    for name in sorted(names):
        _copy_entry(source_fd, target_fd, name, relative / name, depth, budget)


def _copy_entry(source_fd: int, target_fd: int, name: str, relative: PurePath, depth: int,
                budget: _Budget) -> None:
    """Copy one entry of a folder at `depth`: a link as a link, a folder
    with its content, a file within the bytes left."""
    info = os.stat(name, dir_fd=source_fd, follow_symlinks=False)
    if stat.S_ISLNK(info.st_mode):
        os.symlink(os.readlink(name, dir_fd=source_fd), name, dir_fd=target_fd)
        budget.links.append(relative)
    elif stat.S_ISDIR(info.st_mode):
        budget.folder(relative, depth + 1)
        os.mkdir(name, 0o700, dir_fd=target_fd)
        inner_source = os.open(name, _OPEN_DIR, dir_fd=source_fd)
        inner_target = os.open(name, _OPEN_DIR, dir_fd=target_fd)
        try:
            _copy_folder(inner_source, inner_target, relative, depth + 1, budget)
            os.fchmod(inner_target, 0o755)
        finally:
            os.close(inner_source)
            os.close(inner_target)
    elif stat.S_ISREG(info.st_mode):
        budget.fits(relative, info.st_size)
        _copy_file(os.open(name, _OPEN_FILE, dir_fd=source_fd), target_fd, relative, budget)
    else:
        raise IntakeError(f"{relative} is not a file, folder or link (a named pipe, socket or device): "
                          "remove it from the bot's folder")


def _copy_file(source_fd: int, target_fd: int, relative: PurePath, budget: _Budget) -> None:
    """Copy the open file `source_fd` (closed here) in chunks, counting its
    bytes as they come; the copy may be read by anyone, and run if its
    owner may run the original."""
    with open(source_fd, "rb", buffering=0) as source:
        info = os.fstat(source_fd)
        if not stat.S_ISREG(info.st_mode):
            raise IntakeError(f"{relative} is not a file (or was replaced while it was copied): "
                              "submit a bot file, or a folder nobody is changing")
        budget.fits(relative, info.st_size)
        copy_fd = os.open(relative.name, _CREATE_FILE, 0o600, dir_fd=target_fd)
        with open(copy_fd, "wb") as copy:
            while chunk := source.read(CHUNK):
                budget.count(relative, len(chunk))
                copy.write(chunk)
            os.fchmod(copy_fd, 0o755 if info.st_mode & stat.S_IXUSR else 0o644)


def _check_links(folder: Path, links: list[PurePath]) -> None:
    """Each link of the copy leads to a file inside it (or to nothing). A
    bot's folder is what its sandbox may read, so a link out of it (another
    bot, the store's database) would hand the bot what is not its own; and
    a link to a folder makes a tree that some walker will follow forever
    (`a -> .`)."""
    root = os.path.realpath(folder)
    for relative in links:
        leads_to = os.path.realpath(folder / relative)
        if not PurePath(leads_to).is_relative_to(root):
            raise IntakeError(f"{relative} is a link out of the bot's folder; copy what it needs into the folder "
                              "instead")
        if os.path.isdir(leads_to):
            raise IntakeError(f"{relative} is a link to a folder; a bot's folder may link only to its own files: "
                              "replace the link by the folder itself")


def content_hash(folder: Path) -> str:
    """SHA-256 over every file's relative path, executable bit and bytes
    (read in chunks), and every link's path and target (never followed).
    A file's part is as it has always been, so resubmitting an unchanged
    bot is recognised."""
    digest = hashlib.sha256()
    for relative in _tree(folder, PurePath()):
        path = folder / relative
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            digest.update(os.fsencode(relative) + b"\0" + b"@" + os.fsencode(os.readlink(path)) + b"\0")
        elif stat.S_ISREG(info.st_mode):
            digest.update(os.fsencode(relative) + b"\0")
            digest.update(b"x" if info.st_mode & stat.S_IXUSR else b"-")
            with open(path, "rb") as content:
                while chunk := content.read(CHUNK):
                    digest.update(chunk)
    return digest.hexdigest()


def _tree(folder: Path, relative: PurePath) -> Iterator[PurePath]:
    """Every entry under `folder / relative`, in sorted path order (the
    order of sorting their paths), without entering linked folders."""
    with os.scandir(folder / relative) as scan:
        entries = sorted(scan, key=lambda entry: entry.name)
    for entry in entries:
        yield relative / entry.name
        if entry.is_dir(follow_symlinks=False):
            yield from _tree(folder, relative / entry.name)
