"""Cold start of the command line and of a served bot, against a base commit (issue 25, part 3).

Since the ladder's rooms, `referee` finds its commands in declarations
(referee/cli/commands.py, the ladder's through an entry point) and imports
a command's module only when it runs, while each command's module imports
at its top what it needs. This runs each command of this checkout and of
a base commit (default 05a1937, the last before the rooms: exported with
`git archive` into a temporary folder and run from there) alternately,
round after round, each in a fresh interpreter, and a built-in bot served
until its socket is there. Figures: the best round's CPU time of the
process (user + system: other load on the shared machine only ever adds)
and its imports' total by `python -X importtime`; the ratio is new / old.

Prints the table and rewrites the "Cold start" section of
docs/benchmarks.md (unless --no-record).

    python -m bench cold_start [--rounds N] [--base COMMIT] [--no-record]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench.recording import machine_summary, write_section
from ladder.store.database import Store

SECTION = "Cold start"
ROOT = Path(__file__).resolve().parent.parent
BASE = "05a1937"


def referee(*args: str) -> list[str]:
    """`referee ARGS` as an interpreter's arguments, run from whichever tree is first on the path."""
    return ["-c", f"import sys; sys.argv = ['referee', *{list(args)!r}]; from referee.cli.main import main; main()"]


@dataclass
class Figures:
    cpu: list[float] = field(default_factory=list)
    imports: float = 0.0


def run(tree: Path, args: list[str]) -> float:
    """CPU seconds (user + system) of one run of `python ARGS` from `tree`."""
    process = subprocess.Popen([sys.executable, *args], cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{args} failed in {tree} (exit {process.returncode})")
    return usage.ru_utime + usage.ru_stime


def serve_bot(tree: Path, folder: Path) -> float:
    """CPU seconds of a random bot served until its socket is there (then stopped)."""
    socket = folder / "bot.sock"
    process = subprocess.Popen([sys.executable, "-m", "bots.random", "--socket", str(socket)], cwd=tree,
                               env={**os.environ, "PYTHONPATH": str(tree)},
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not socket.exists():
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            raise SystemExit(f"the random bot of {tree} did not serve")
        time.sleep(0.002)
    process.terminate()
    _, _, usage = os.wait4(process.pid, 0)
    socket.unlink(missing_ok=True)
    return usage.ru_utime + usage.ru_stime


def import_total(tree: Path, args: list[str]) -> float:
    """Seconds of imports of one run (the top-level entries of -X importtime)."""
    done = subprocess.run([sys.executable, "-X", "importtime", *args], cwd=tree, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(tree)}, check=False)
    total = sum(int(m.group(1)) for m in re.finditer(r"^import time:\s+\d+ \|\s+(\d+) \| (\S.*)$", done.stderr,
                                                    re.MULTILINE))
    return total / 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--base", default=BASE)
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cold-start-") as scratch:
        base = Path(scratch) / "base"
        base.mkdir()
        archive = subprocess.run(["git", "archive", args.base], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        store = Path(scratch) / "empty.sqlite"
        Store(store).close()
        commands = {
            "referee --help": referee("--help"),
            "referee simulate --games 1": referee("simulate", "--games", "1"),
            "referee table (an empty store)": referee("table", "--db", str(store)),
            "referee bots (an empty store)": referee("bots", "--db", str(store)),
            "referee submit --help": referee("submit", "--help"),
            "referee ladder --help": referee("ladder", "--help"),
            "referee serve --help": referee("serve", "--help"),
        }
        trees = {"old": base, "new": ROOT}
        figures = {(name, tree): Figures() for name in [*commands, "random bot served"] for tree in trees}
        for name, command in commands.items():
            for tree, path in trees.items():
                figures[name, tree].imports = import_total(path, command)
        for round_ in range(args.rounds):
            for name, command in commands.items():
                for tree, path in trees.items():
                    figures[name, tree].cpu.append(run(path, command))
            for tree, path in trees.items():
                figures["random bot served", tree].cpu.append(serve_bot(path, Path(scratch)))
        shutil.rmtree(base)
    table = Table(title=f"cold start: best of {args.rounds} rounds, CPU time; imports by -X importtime")
    for column in ("command", f"{args.base} CPU", "new CPU", "new / old", f"{args.base} imports", "new imports"):
        table.add_column(column, justify="left" if column == "command" else "right")
    rows = []
    for name in [*commands, "random bot served"]:
        old, new = figures[name, "old"], figures[name, "new"]
        ratio = min(new.cpu) / min(old.cpu)
        imports = (f"{old.imports * 1000:.0f} ms", f"{new.imports * 1000:.0f} ms") if name in commands else ("", "")
        row = (name, f"{min(old.cpu) * 1000:.0f} ms", f"{min(new.cpu) * 1000:.0f} ms", f"{ratio:.2f}", *imports)
        rows.append(row)
        table.add_row(*row)
    Console().print(table)
    if args.no_record:
        return
    lines = ["| " + " | ".join(row) + " |" for row in rows]
    write_section(SECTION, f"""
Measured by `python -m bench cold_start` (bench/cold_start_bench.py) on {machine_summary()}.
Each command in a fresh interpreter, this checkout against {args.base} (the last commit before the ladder's
rooms), alternately for {args.rounds} rounds; the best round's CPU time (user + system) of the process,
and its imports' total by `python -X importtime` (one run each; it counts wall time, so it is noisier).
`referee --help` no longer imports any command's module: it reads the commands' declarations
(referee/cli/commands.py; the ladder's through the `bot_referee.commands` entry point). A command's
module now imports at its top what it needs, so `--help` of one command costs what running it costs
in imports (`ladder` and `serve`: Dask); the built-in bot imports nothing of the ladder or the
command line before or after.

| command | {args.base} CPU | new CPU | new / old | {args.base} imports | new imports |
|---|---|---|---|---|---|
""" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
