"""The compiled part of the build (issue 30): everything else is in pyproject.toml.

`pip install -e .` (what `make venv` runs) and `pip install .` build two
optional things beside the Python sources:

- the rules engines, the built-in bots' strategies and the MCTS search
  (COMPILED below), compiled by mypyc into one extension library, so that
  `referee simulate`, search and training run several times faster;
- `referee.games._splitmix`, the chance streams' 64-bit arithmetic in C.

Both need a C compiler and Python's headers. Either may fail (no compiler,
a mypy release that rejects the code, a compiler error): the build then says
so and goes on, and the package runs from its sources, which play exactly
the same (referee/games/native.py decides at import time, and falls back to
the sources whenever a compiled module's source changed after the build).
The build leaves a manifest, referee/games/_native.json, with a digest of
every compiled source; the extension modules and the manifest are build
output, never committed.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
MANIFEST = "referee/games/_native.json"
HELPER = Extension("referee.games._splitmix", ["referee/games/_splitmix.c"], optional=True)
GROUP = "referee.games._native"
"""The compiled group's library: referee/games/_native__mypyc.*.so, beside the shims."""

GAME_MODULES = ("actions", "cards", "config", "determinize", "game", "observation", "state", "variants")
COMPILED = [
    "referee/games/base.py",
    "referee/games/chance.py",
    "referee/games/scenario.py",
    "referee/games/strategy.py",
    *(f"referee/games/gnadenlos/{m}.py" for m in (*GAME_MODULES, "market", "stages")),
    *(f"referee/games/gnadenlos/strategy/{m}.py" for m in ("policy", "rollout", "search", "values", "view")),
    *(f"referee/games/saboteur/{m}.py" for m in (*GAME_MODULES, "maze", "rewards")),
    *(f"referee/games/saboteur/strategy/{m}.py" for m in ("policy", "search", "suspicion", "tunnel", "view")),
    *(f"referee/games/leduc/{m}.py" for m in GAME_MODULES if m != "variants"),
    *(f"referee/games/leduc/strategy/{m}.py" for m in ("equity", "policy", "search")),
    "bots/mcts/search.py",
]
"""What runs in a playout, a search or a simulation. Not compiled: the
packages' __init__ modules, native.py (which chooses), the plugin registry,
the conformance suite, and what talks to the layers above (codecs,
renderers, viewers, summaries, JSON readers)."""


def _module(path: str) -> str:
    return path[: -len(".py")].replace("/", ".")


def _entry(path: str) -> list[object]:
    source = ROOT / path
    stat = source.stat()
    return [path, stat.st_size, stat.st_mtime_ns, hashlib.sha256(source.read_bytes()).hexdigest()]


def _say(message: str) -> None:
    print(f"bot-referee build: {message}", file=sys.stderr, flush=True)


def _mypyc_extensions() -> tuple[list[Extension], dict[str, list[object]]]:
    """The compiled group's extensions and its sources' manifest entries as
    mypyc read them, or nothing when mypyc cannot compile it (not installed,
    or the code does not type-check under its mypy)."""
    if os.environ.get("BOT_REFEREE_PURE", "") not in ("", "0"):
        _say("BOT_REFEREE_PURE is set: the engines are not compiled")
        return [], {}
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not installed: the engines are not compiled (they run from their sources)")
        return [], {}
    started = time.monotonic()
    target = Path("build") / "mypyc"
    sources = {_module(path): _entry(path) for path in COMPILED}  # before mypyc reads them
    try:
        extensions: list[Extension] = mypycify(
            COMPILED, opt_level="3", debug_level="0", multi_file=True, group_name=GROUP, target_dir=str(target),
        )
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error
        _say(f"mypyc could not compile the engines ({exc!r}): they run from their sources")
        return [], {}
    _say(f"mypyc translated {len(COMPILED)} modules to C in {time.monotonic() - started:.1f} s")
    for extension in extensions:
        extension.optional = True  # a compiler error leaves the sources in charge, not a failed install
        # mypyc writes a dotted group's headers into the group's package folder
        extension.include_dirs.append(str(target.joinpath(*GROUP.split(".")[:-1])))
    return extensions, sources


def _compile_in_parallel(compiler: Any, sources: list[str], output_dir: str | None = None, macros: Any = None,
                         include_dirs: Any = None, debug: bool = False, extra_preargs: Any = None,
                         extra_postargs: Any = None, depends: Any = None) -> list[str]:
    """distutils' CCompiler.compile, one C file per core at a time: the
    compiled group is some fifty C files of one extension, which distutils
    would compile one after the other."""
    macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
        output_dir, macros, include_dirs, sources, depends, extra_postargs)
    cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)

    def one(obj: str) -> None:
        source, ext = build[obj]
        compiler._compile(obj, source, ext, cc_args, extra_postargs, pp_opts)

    jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        list(pool.map(one, [obj for obj in objects if obj in build]))
    return list(objects)


class BuildNative(build_ext):
    """build_ext that adds the mypyc group and writes the manifest of what it built.

    The mypyc group is translated when the command is prepared, not at
    setup.py's import: pip runs this file several times per install
    (metadata, requirements), and translating takes a while.
    """

    compiled: list[Extension] | None = None
    sources: dict[str, list[object]] = {}
    """The compiled sources as mypyc read them: what the manifest says was built."""

    def finalize_options(self) -> None:
        if self.compiled is None:  # before setuptools prepares the extensions
            self.started = time.monotonic()
            self.helper_source = _entry(HELPER.sources[0])
            self.compiled, self.sources = _mypyc_extensions()
            self.distribution.ext_modules = [*(self.distribution.ext_modules or []), *self.compiled]
        super().finalize_options()

    def build_extension(self, ext: Extension) -> None:
        if len(ext.sources) > 1:
            self.compiler.compile = types.MethodType(_compile_in_parallel, self.compiler)
        super().build_extension(ext)

    def run(self) -> None:
        started, compiled = self.started, self.compiled or []
        manifest = Path(self.get_ext_fullpath(HELPER.name)).parent / Path(MANIFEST).name
        manifest.unlink(missing_ok=True)  # until this build completes, the sources run
        super().run()
        built = {ext.name: Path(self.get_ext_fullpath(ext.name)).exists() for ext in self.extensions}
        groups: dict[str, dict[str, list[object]]] = {}
        if compiled and all(built[ext.name] for ext in compiled):
            groups["mypyc"] = self.sources
        elif compiled:
            _say("some compiled modules failed to build: removing them; the engines run from their sources")
            for ext in compiled:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
        if built.get(HELPER.name):
            groups["helper"] = {HELPER.name: self.helper_source}
        manifest.parent.mkdir(parents=True, exist_ok=True)
        partial = manifest.with_name(manifest.name + ".partial")  # replaced whole: a killed build leaves no half manifest
        partial.write_text(json.dumps({"groups": groups}, indent=1) + "\n", encoding="utf-8")
        partial.replace(manifest)
        _say(f"built {', '.join(groups) or 'nothing'} in {time.monotonic() - started:.1f} s; manifest {manifest}")


setup(ext_modules=[HELPER], cmdclass={"build_ext": BuildNative})
