"""`python -m bench [NAME ...]`: run every benchmark in bench/, or the named ones.

Each runs in its own interpreter, so one benchmark's imports, caches and
worker processes cannot skew another's figures, and one failing does not stop
the rest. Names are module names without `_bench` (`engine` for
bench/engine_bench.py); `--list` shows them. Other options are passed on to
each benchmark run (e.g. `python -m bench engine --no-record`).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
SUFFIX = "_bench"


def available() -> list[str]:
    """Benchmark names, in a stable order."""
    return sorted(p.stem[: -len(SUFFIX)] for p in BENCH_DIR.glob(f"*{SUFFIX}.py"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    args, passed_on = parser.parse_known_args(argv)
    names = available()
    if args.list:
        print("\n".join(names))
        return 0
    unknown = sorted(set(args.names) - set(names))
    if unknown:
        parser.error(f"unknown benchmark(s) {', '.join(unknown)}; available: {', '.join(names)}")
    failed = []
    for name in args.names or names:
        print(f"== bench {name}", flush=True)
        done = subprocess.run([sys.executable, "-m", f"bench.{name}{SUFFIX}", *passed_on], cwd=BENCH_DIR.parent, check=False)
        if done.returncode != 0:
            failed.append(name)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
