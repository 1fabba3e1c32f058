"""Which code runs the engines: the compiled build, or the Python sources.

The package's build (setup.py) compiles the engines, the built-in bots'
strategies and the MCTS search with mypyc, and the chance streams'
arithmetic in C (`_splitmix.c`), when a C compiler is at hand; the
extension modules land beside the sources, and Python prefers them. Both
paths play identically (tests/test_native_build.py plays the same matches
through each); the compiled one is several times faster (docs/benchmarks.md,
"Engine speed").

The build leaves a manifest (`_native.json`) naming every compiled module
and a digest of the source it was compiled from. The compiled code is used
only while every one of those sources is unchanged: an edited engine file
would otherwise be shadowed by its stale extension module, so instead the
whole package runs from its sources (one group compiled together cannot be
mixed with sources) and a warning says how to rebuild. Setting the
environment variable BOT_REFEREE_PURE=1 chooses the sources too (for
platforms without a compiler, to check that both paths agree, and to
profile the Python code).

`select()` runs once, from referee/games/__init__.py, before any engine
module is imported; this module itself is never compiled and imports only
the standard library.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

PURE_ENV = "BOT_REFEREE_PURE"
"""Set to 1 to run everything from the Python sources."""
MANIFEST = Path(__file__).with_name("_native.json")
"""Written by the build (setup.py): {"root": ..., "groups": {group: {module: [path, size, mtime_ns, sha256]}}}."""
ROOT = Path(__file__).resolve().parent.parent.parent
"""The folder holding the `referee` and `bots` packages: the manifest's paths are relative to it."""
COMPILED_GROUP = "mypyc"
HELPER_GROUP = "helper"
HELPER_MODULE = "referee.games._splitmix"
COMPILED_PACKAGES = ("referee.games.", "bots.mcts.")
"""Where compiled modules live; from the sources, every module there is read from its .py."""
REBUILD = "pip install -e . (make venv does) or python setup.py build_ext --inplace"

_state: dict[str, bool] = {}
"""Per group, whether its compiled code is in use (filled by `select`)."""


def pure_requested() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def _read_manifest() -> dict[str, dict[str, list[Any]]]:
    try:
        data = json.loads(MANIFEST.read_text(encoding="utf-8"))
        groups: dict[str, dict[str, list[Any]]] = data["groups"]
        return groups
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _unchanged(entry: Sequence[Any]) -> bool:
    """Whether a source is the one compiled: its size and time first, its digest if those moved."""
    path, size, mtime_ns, digest = entry
    source = ROOT / str(path)
    try:
        stat = source.stat()
        if stat.st_size != size:
            return False
        return bool(stat.st_mtime_ns == mtime_ns or hashlib.sha256(source.read_bytes()).hexdigest() == digest)
    except OSError:
        return False


def stale(modules: dict[str, list[Any]]) -> list[str]:
    """The sources of a manifest's group (module -> [path, size, mtime_ns,
    sha256]) that differ from what was compiled."""
    return [str(entry[0]) for entry in modules.values() if not _unchanged(entry)]


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Loads every module of the compiled packages from its .py source, past
    any extension module beside it (a build's, however old), and refuses the
    C helper, as `select` decided."""

    def __init__(self, sources: bool, helper: bool) -> None:
        self.sources = sources
        self.helper = helper

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None) -> Any:
        if fullname == HELPER_MODULE:
            if self.helper:
                raise ModuleNotFoundError(f"{fullname} is not used: the Python sources were chosen", name=fullname)
            return None
        if not self.sources or path is None or not fullname.startswith(COMPILED_PACKAGES):
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for folder in path:
            candidate = Path(folder) / leaf
            if candidate.is_file():
                return importlib.util.spec_from_file_location(fullname, candidate)
        return None


def select() -> None:
    """Decide once, for this process, which code runs (see the module's docstring)."""
    if _state:
        return
    groups = _read_manifest()
    pure = pure_requested()
    for group in (COMPILED_GROUP, HELPER_GROUP):
        modules = groups.get(group, {})
        stale_paths = stale(modules) if modules else []
        if stale_paths and not pure:
            warnings.warn(
                f"the compiled engines are older than their sources ({', '.join(stale_paths[:3])}"
                f"{', ...' if len(stale_paths) > 3 else ''}): running the Python sources, which play the same "
                f"but slower; rebuild with {REBUILD}",
                RuntimeWarning,
                stacklevel=3,
            )
        _state[group] = bool(modules) and not stale_paths and not pure
    if not _state[COMPILED_GROUP] or not _state[HELPER_GROUP]:
        sys.meta_path.insert(0, _SourceFinder(sources=not _state[COMPILED_GROUP], helper=not _state[HELPER_GROUP]))


def compiled() -> bool:
    """True when the mypyc-compiled engines are in use."""
    select()
    return _state[COMPILED_GROUP]


def chance_helper() -> Any:
    """The C chance module (`_splitmix`), or None when it is not built or not to be used."""
    select()
    if not _state[HELPER_GROUP]:
        return None
    try:
        return importlib.import_module(HELPER_MODULE)
    except ImportError:
        return None


def describe() -> str:
    """One line for benchmarks and reports: which code ran."""
    select()
    if pure_requested():
        return f"Python sources ({PURE_ENV}=1)"
    parts = ["mypyc-compiled engines" if _state[COMPILED_GROUP] else "engines from the Python sources",
             "C chance helper" if _state[HELPER_GROUP] else "chance in Python"]
    return ", ".join(parts)
