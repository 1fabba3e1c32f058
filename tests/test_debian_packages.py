"""The Debian packages the Makefile installs against what the kits' builds
and the tests really use (issue 29).

`make test` on a fresh Debian 12 machine once stopped at the C++ kit's
`google/protobuf/struct.proto: File not found`: the set-up tested for
commands, and `libgrpc++-dev` does not bring `libprotobuf-dev`. The set-up
now installs lists of packages by name (Makefile: KIT_PACKAGES,
TEST_PACKAGES; .ci/debian-packages); this test keeps those lists and the
builds from drifting apart. It asks the toolchain itself what a build
reads: protoc's --dependency_out for the .proto files it imports, `g++ -M`
for every header of the kit's sources, pkg-config for its .pc files and
libraries, and the programs the builds and tests run. Each of those files
must belong (dpkg -S) to a listed package or to one a listed package
depends on (the Depends recorded by dpkg, followed through), and each
listed package must own at least one of them, itself or through its own
Depends (pkg-config is a transitional package for pkgconf).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CPP_KIT = ROOT / "examples" / "cpp"
KIT_PROGRAMS = ("g++", "make", "pkg-config", "protoc", "grpc_cpp_plugin", "node", "npm")
"""What `make kits` runs: the C++ kit's Makefile (g++, make, pkg-config,
protoc with grpc_cpp_plugin) and the JavaScript kit's `npm ci`, and node,
which the kit runs on."""
TEST_PROGRAMS = ("chromium", "chromedriver", "tmux")
"""What the browser and terminal tests drive (tests/browser_support.py, tests/test_play_screen.py)."""
CONDITIONAL = {"npm"}
""".ci/debian-packages adds npm when the nodejs asked for does not carry its own."""

pytestmark = pytest.mark.skipif(shutil.which("dpkg-query") is None, reason="not a Debian machine (no dpkg)")


def makefile_packages(variable: str) -> list[str]:
    text = (ROOT / "Makefile").read_text()
    found = re.search(rf"^{variable} := (.+)$", text, re.M)
    assert found, f"no {variable} in the Makefile"
    return found.group(1).split()


def run(*argv: str, cwd: Path | None = None) -> str:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(argv)} failed:\n{done.stderr}"
    return done.stdout


def cpp_kit_files(work: Path) -> set[str]:
    """The system's files the C++ kit's build reads: the .proto files protoc
    imports, the headers its sources and the generated code include, its
    pkg-config files and the libraries it links (examples/cpp/Makefile)."""
    proto = CPP_KIT / "proto"
    protos = [str(p.relative_to(proto)) for p in sorted(proto.rglob("*.proto"))]
    run("protoc", f"-I{proto}", f"--cpp_out={work}", f"--grpc_out={work}",
        f"--plugin=protoc-gen-grpc={shutil.which('grpc_cpp_plugin')}", *protos)
    run("protoc", f"-I{proto}", f"--cpp_out={work}", f"--dependency_out={work / 'protos.d'}",
        "tournament/v1/tournament.proto")
    files = set(_make_dependencies((work / "protos.d").read_text()))
    modules = ("grpc++", "protobuf")
    cflags = run("pkg-config", "--cflags", *modules).split()
    sources = [CPP_KIT / "bot.cc", CPP_KIT / "strategy.cc", work / "tournament" / "v1" / "tournament.grpc.pb.cc"]
    for source in sources:
        files.update(_make_dependencies(run("g++", "-M", "-std=c++17", f"-I{work}", *cflags, str(source))))
    files.update(run("pkg-config", "--path", *modules).split())
    libraries = [flag[2:] for flag in run("pkg-config", "--libs", *modules).split() if flag.startswith("-l")]
    for name in dict.fromkeys([*libraries, "grpc++_reflection"]):
        found = run("g++", f"-print-file-name=lib{name}.so").strip()
        if os.path.isabs(found):
            files.add(os.path.normpath(found))
    return {path for path in files if path.startswith("/usr/") and not path.startswith(str(work))}


def _make_dependencies(text: str) -> Iterable[str]:
    """The prerequisites of a make rule as `g++ -M` and protoc write it."""
    _target, _colon, prerequisites = text.replace("\\\n", " ").partition(": ")
    return (os.path.normpath(word) for word in prerequisites.split())


def programs(names: Iterable[str]) -> set[str]:
    """Each program's path on PATH (not resolved: /usr/bin/g++ belongs to
    g++, the compiler it links to to g++-12)."""
    paths = {name: shutil.which(name) for name in names}
    missing = [name for name, path in paths.items() if path is None]
    assert not missing, f"not installed: {missing} (make test-packages)"
    return {str(path) for path in paths.values()}


def owners(paths: Iterable[str]) -> dict[str, set[str]]:
    """The Debian packages each path belongs to (`dpkg -S`, one call for
    all; a path dpkg does not know is tried once more resolved, as a link
    of /usr/bin to /etc/alternatives is)."""
    wanted = sorted(paths)
    found = _dpkg_search(wanted)
    resolved = {os.path.realpath(path): path for path in wanted if path not in found}
    for real, packages in _dpkg_search(sorted(resolved)).items():
        found[resolved[real]] = packages
    unknown = [path for path in wanted if path not in found]
    assert not unknown, f"these belong to no Debian package: {unknown}"
    return found


def _dpkg_search(paths: list[str]) -> dict[str, set[str]]:
    if not paths:
        return {}
    done = subprocess.run(["dpkg", "-S", *paths], capture_output=True, text=True)  # 1: some path unknown
    found: dict[str, set[str]] = {}
    for line in done.stdout.splitlines():
        names, _sep, path = line.partition(": ")
        if path in paths and not names.startswith("diversion by"):
            found.setdefault(path, set()).update(name.split(":")[0] for name in names.split(", "))
    return found


def installed_dependencies() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Every installed package's Depends and Pre-Depends (each alternative
    and version dropped to a name) and which installed packages provide
    each virtual name."""
    text = run("dpkg-query", "-W", "-f=${Package}\t${Status}\t${Depends}, ${Pre-Depends}\t${Provides}\n")
    depends: dict[str, set[str]] = {}
    providers: dict[str, set[str]] = {}
    for line in text.splitlines():
        package, status, needs, provides = line.split("\t")
        if not status.endswith(" installed"):
            continue
        depends[package] = {_name(word) for word in re.split(r"[,|]", needs) if word.strip()}
        for word in provides.split(","):
            if word.strip():
                providers.setdefault(_name(word), set()).add(package)
    return depends, providers


def _name(word: str) -> str:
    return word.strip().split(" ")[0].split(":")[0]


def closure(packages: Iterable[str], depends: dict[str, set[str]], providers: dict[str, set[str]]) -> set[str]:
    """`packages` and everything installed that they depend on, followed through."""
    seen: set[str] = set()
    todo = list(packages)
    while todo:
        package = todo.pop()
        if package in seen:
            continue
        seen.add(package)
        todo += depends.get(package, ())
        todo += providers.get(package, ())
    return seen


def test_the_makefiles_packages_are_what_the_builds_and_tests_use(tmp_path: Path) -> None:
    kit_packages = makefile_packages("KIT_PACKAGES")
    test_packages = makefile_packages("TEST_PACKAGES")
    depends, providers = installed_dependencies()
    used = {"kits": cpp_kit_files(tmp_path) | programs(KIT_PROGRAMS), "tests": programs(TEST_PROGRAMS)}
    assert len(used["kits"]) > 100 and any(p.endswith("google/protobuf/struct.proto") for p in used["kits"])
    owned = owners(used["kits"] | used["tests"])
    lists = {"kits": [*kit_packages, *CONDITIONAL], "tests": [*kit_packages, *CONDITIONAL, *test_packages]}
    for purpose, paths in used.items():
        allowed = closure(lists[purpose], depends, providers)
        strays: dict[str, list[str]] = {}
        for path in sorted(paths):
            if not owned[path] & allowed:
                strays.setdefault(" or ".join(sorted(owned[path])), []).append(path)
        assert not strays, (f"files the {purpose} use come with packages the Makefile does not install (nor "
                            "any package it installs depends on them): add them to its lists: " + "; ".join(
                                f"{package} ({len(files)} files, e.g. {files[0]})" for package, files in strays.items()))
    owners_used = set().union(*owned.values())
    for package in [*kit_packages, *test_packages]:  # itself, or what it depends on if it is a transitional one
        assert ({package} | depends.get(package, set())) & owners_used, (
            f"{package}: the Makefile installs it, but no file the builds or tests use comes with it")
