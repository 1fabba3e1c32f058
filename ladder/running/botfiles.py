"""Where a worker finds a bot's files: by their content hash, fetched once.

A submitted bot version is known everywhere by the SHA-256 of its files
(ladder/intake/copying.py's `content_hash`). The ladder's own copy is its folder
in the store; a worker on another machine has none, so `BotFileCache`
keeps one folder per hash in the worker's own working folder: the first
match that seats the bot fetches its archive (through `fetch`, from the
cluster), unpacks it into a private staging folder, checks the hash of
what was unpacked and renames it into place; every later match on that
worker finds it there. Concurrent matches of one worker fetch a hash once
(a lock per hash); a half-unpacked folder never has the final name.

`StoreFiles` is the ladder's own copy, for runners in the ladder's process.
"""

from __future__ import annotations

import shutil
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from ladder.intake.archive import ArchiveError, unpack
from ladder.intake.copying import MAX_BYTES, MAX_DEPTH, MAX_FILES, Limits, content_hash
from ladder.store.tasks import BotSpec, NotRated
from referee.files import private_folders

SHIPPED_LIMITS = Limits(max_bytes=4 * MAX_BYTES, max_files=4 * MAX_FILES, max_depth=MAX_DEPTH)
"""Bounds on unpacking what the cluster hands a worker: generous (the
ladder checked the bot against the operator's limits when it was
submitted), but a worker never unpacks without bounds."""


class BotFiles(Protocol):
    def folder(self, spec: BotSpec) -> Path:
        """The folder holding `spec`'s files. Raises NotRated when they
        cannot be had (not the bot's fault)."""


class StoreFiles:
    """The ladder's own copy: the folder in the store the spec names."""

    def folder(self, spec: BotSpec) -> Path:
        assert spec.folder is not None, f"{spec.label} is a built-in bot: it has no files"
        return Path(spec.folder)


class BotFileCache:
    """A worker's bot folders, one per content hash; see the module doc."""

    def __init__(self, root: Path, fetch: Callable[[str], bytes]) -> None:
        self.root = root
        self.fetch = fetch
        self.fetched = 0
        """Archives fetched so far (each hash at most once per cache)."""
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def folder(self, spec: BotSpec) -> Path:
        final = self.root / spec.content_hash
        if final.is_dir():
            return final
        with self._lock(spec.content_hash):
            if not final.is_dir():
                self._install(spec, final)
        return final

    def _lock(self, digest: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(digest, threading.Lock())

    def _install(self, spec: BotSpec, final: Path) -> None:
        data = self.fetch(spec.content_hash)
        self.fetched += 1
        staging = private_folders(self.root / ".incoming") / uuid.uuid4().hex
        try:
            try:
                unpack(data, staging, SHIPPED_LIMITS)
            except ArchiveError as exc:
                raise NotRated("referee_error", f"the files of {spec.label} arrived unreadable: {exc}") from None
            got = content_hash(staging)
            if got != spec.content_hash:
                raise NotRated("referee_error", f"the files of {spec.label} arrived with hash {got[:12]}, "
                                                f"not {spec.content_hash[:12]}")
            staging.rename(final)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
