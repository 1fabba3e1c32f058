"""The first gnadenlos.v1 schema (gnadenlos_v1_first.proto beside this module),
compiled for the wire-compatibility tests into its own descriptor pool: the
current schema keeps the package's names in the default pool, and the wire
carries field numbers, never names."""

from pathlib import Path
from types import SimpleNamespace

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

PROTO = Path(__file__).resolve().with_name("gnadenlos_v1_first.proto")


def compile_schema(out: Path) -> Path:
    """Compile PROTO with grpcio-tools' protoc into a descriptor set file in `out`."""
    import grpc_tools
    from grpc_tools import protoc

    target = out / "gnadenlos_v1_first.pb"
    well_known = Path(grpc_tools.__file__).parent / "_proto"
    args = ["protoc", f"-I{PROTO.parent}", f"-I{well_known}", "--include_imports",
            f"--descriptor_set_out={target}", PROTO.name]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed on {PROTO}")
    return target


def load_schema(descriptor_set: Path) -> SimpleNamespace:
    """The first v1's Observation, Action and Event classes from a compiled descriptor set."""
    pool = descriptor_pool.DescriptorPool()
    for file in descriptor_pb2.FileDescriptorSet.FromString(descriptor_set.read_bytes()).file:
        pool.Add(file)
    return SimpleNamespace(**{
        name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"gnadenlos.v1.{name}"))
        for name in ("Observation", "Action", "Event")
    })
