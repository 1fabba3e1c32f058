"""Generate the Python protobuf and gRPC code of `proto/` into the bot SDK's `botsdk/pb/`.

Run with `make proto` (= `python -m referee.protocol.generate`). The code
lives in the SDK distribution (`sdk/python/`, package `botsdk`) because both
sides import it: the referee, and bots that install only the SDK. The proto
sources keep language-neutral paths (`tournament/v1/tournament.proto`), which
protoc turns into top-level Python imports (`from gnadenlos.v1 import ...`);
the generated modules live inside `botsdk.pb`, so those imports are
rewritten to `botsdk.pb....` — the only change made to protoc's output. A
test (tests/test_protocol_generated.py) regenerates into a temporary folder
and fails when the committed code is stale.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROTO_DIR = ROOT / "proto"
OUT_DIR = ROOT / "sdk" / "python" / "botsdk" / "pb"
PACKAGE = "botsdk.pb"


def proto_files(proto_dir: Path = PROTO_DIR) -> list[Path]:
    """Every .proto source, relative to `proto_dir`, in a stable order."""
    return sorted(p.relative_to(proto_dir) for p in proto_dir.rglob("*.proto"))


def _protoc(proto_dir: Path, out_dir: Path) -> None:
    """Run grpcio-tools' bundled protoc (a dev dependency) on every source."""
    import grpc_tools
    from grpc_tools import protoc

    well_known = Path(grpc_tools.__file__).parent / "_proto"
    args = [
        "grpc_tools.protoc",
        f"-I{proto_dir}",
        f"-I{well_known}",
        f"--python_out={out_dir}",
        f"--pyi_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        *(str(p) for p in proto_files(proto_dir)),
    ]
    if protoc.main(args) != 0:
        raise RuntimeError("protoc failed on proto/ (see its messages above)")


def _fix_imports(out_dir: Path, roots: set[str]) -> None:
    """Make the generated cross-file imports absolute inside `PACKAGE`."""
    pattern = re.compile(rf"^(\s*)from ({'|'.join(map(re.escape, sorted(roots)))})([. ])", re.M)
    for path in out_dir.rglob("*.py*"):
        text = path.read_text()
        fixed = pattern.sub(rf"\1from {PACKAGE}.\2\3", text)
        if fixed != text:
            path.write_text(fixed)


def _add_packages(out_dir: Path) -> None:
    """An `__init__.py` in every generated folder so the modules import."""
    for folder in [out_dir, *(p for p in out_dir.rglob("*") if p.is_dir())]:
        init = folder / "__init__.py"
        if not init.exists():
            init.write_text('"""Generated from proto/ by referee.protocol.generate; do not edit."""\n')


def generate(out_dir: Path, proto_dir: Path = PROTO_DIR) -> None:
    """Write the generated package for `proto_dir` into `out_dir` (replaced whole)."""
    with tempfile.TemporaryDirectory() as tmp:
        build = Path(tmp) / "pb"
        build.mkdir()
        _protoc(proto_dir, build)
        _fix_imports(build, {p.parts[0] for p in proto_files(proto_dir)})
        _add_packages(build)
        if out_dir.exists():
            shutil.rmtree(out_dir)
        shutil.copytree(build, out_dir)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="output folder (default: %(default)s)")
    args = parser.parse_args(argv)
    generate(args.out)
    print(f"generated {len(proto_files())} proto files into {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
