"""The committed generated code under sdk/python/botsdk/pb/ matches proto/.

`make proto` regenerates it. The comparison is by content that matters: the
same set of files, and for each proto file the same serialized descriptor
(which is what the proto sources define), so the test does not depend on the
grpcio-tools release's header comments.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

from google.protobuf import descriptor_pb2

from referee.protocol import generate

PB = generate.OUT_DIR


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def _descriptor(module_source: str) -> descriptor_pb2.FileDescriptorProto:
    """The FileDescriptorProto serialized in a generated _pb2.py source."""
    match = re.search(r"AddSerializedFile\((b'.*?')\)\n", module_source, re.S)
    assert match, "no serialized descriptor in generated module"
    return descriptor_pb2.FileDescriptorProto.FromString(eval(match.group(1)))  # our own generated literal


def test_generated_code_is_not_stale(tmp_path):
    fresh = tmp_path / "pb"
    generate.generate(fresh)
    assert _files(fresh) == _files(PB), "run `make proto`: generated files differ from proto/"
    for name in sorted(_files(PB)):
        if name.endswith("_pb2.py"):
            assert _descriptor((fresh / name).read_text()) == _descriptor((PB / name).read_text()), (
                f"run `make proto`: {name} is stale"
            )


def test_generated_modules_import_inside_the_package():
    for proto in generate.proto_files():
        module = "botsdk.pb." + str(proto.with_suffix("")).replace("/", ".") + "_pb2"
        assert importlib.import_module(module).DESCRIPTOR.name == str(proto)
    assert not any(m in sys.modules for m in ("tournament", "gnadenlos")), "a top-level import leaked"
