"""Write benchmark figures into docs/benchmarks.md, one section per benchmark.

Several benchmarks (engine, protocol, bots, ladder) share the page, each
owning one `## <heading>` section: `write_section` replaces that section's
body and leaves every other section as it was, so benchmarks can be re-run in
any order.
"""

from __future__ import annotations

import datetime
import fcntl
import os
import platform
import re
import stat
from pathlib import Path

from referee.files import PRIVATE_FILE, private_folders, write_atomically

DOCS_PATH = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"

PAGE_HEADER = """# Benchmarks

Speed is measured by the scripts in `bench/`, never asserted in tests. Run all
of them with `make bench` (or `python -m bench`), or one with
`python -m bench NAME` (e.g. `python -m bench engine`). Each script rewrites
its own section below with the date and machine it ran on; comparisons are
measured side by side in the same run and given as ratios.
"""


def machine_summary() -> str:
    """When and where: the date, processor count (nproc), Python and platform."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"{today}; nproc {cores}; Python {platform.python_version()} "
        f"({platform.python_implementation()}); {platform.system()} {platform.machine()}"
    )


def write_section(heading: str, body: str, path: Path = DOCS_PATH) -> None:
    """Replace (or append) the `## heading` section of the benchmarks page.

    Holds an exclusive lock on the page's folder while it reads and rewrites
    the page, so benchmarks finishing at the same time do not lose each
    other's sections; the page is replaced whole (`write_atomically`, with
    its mode kept), so a benchmark killed while writing leaves it intact.
    """
    section = f"## {heading}\n\n{body.strip()}\n"
    pattern = re.compile(rf"^## {re.escape(heading)}\n.*?(?=^## |\Z)", re.MULTILINE | re.DOTALL)
    folder = os.open(private_folders(path.parent), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(folder, fcntl.LOCK_EX)
        text = (path.read_text(encoding="utf-8") if path.exists() else "") or PAGE_HEADER
        if pattern.search(text):
            text = pattern.sub(lambda _: section + "\n", text, count=1)
        else:
            text = text.rstrip("\n") + "\n\n" + section
        mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else PRIVATE_FILE
        write_atomically(path, text.rstrip("\n") + "\n", mode)
    finally:
        os.close(folder)  # releases the lock
