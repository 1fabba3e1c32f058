"""bench.recording: each benchmark rewrites only its own section of the benchmarks page.

Several benchmarks share docs/benchmarks.md; a run of one must never disturb
another's figures. Tested on a temporary page, never the real one.
"""

from __future__ import annotations

import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.recording import PAGE_HEADER, machine_summary, write_section


def test_a_missing_page_is_created_with_its_header(tmp_path: Path) -> None:
    page = tmp_path / "docs" / "benchmarks.md"
    write_section("Engine", "| a | 1 |", path=page)
    text = page.read_text()
    assert text.startswith(PAGE_HEADER.splitlines()[0])
    assert "## Engine\n\n| a | 1 |\n" in text


def test_rewriting_a_section_keeps_the_others_in_place(tmp_path: Path) -> None:
    page = tmp_path / "benchmarks.md"
    write_section("Engine", "old engine figures", path=page)
    write_section("Protocol", "protocol figures", path=page)
    write_section("Ladder", "ladder figures", path=page)
    write_section("Protocol", "new protocol figures\n\nsecond paragraph", path=page)
    text = page.read_text()
    assert "old engine figures" in text and "ladder figures" in text
    assert "new protocol figures\n\nsecond paragraph" in text
    assert "\nprotocol figures" not in text
    assert text.index("## Engine") < text.index("## Protocol") < text.index("## Ladder")
    assert text.count("## Protocol") == 1


def test_a_heading_that_is_a_prefix_of_another_is_its_own_section(tmp_path: Path) -> None:
    page = tmp_path / "benchmarks.md"
    write_section("Saboteur engine", "long", path=page)
    write_section("Saboteur", "short", path=page)
    write_section("Saboteur", "shorter", path=page)
    text = page.read_text()
    assert "## Saboteur engine\n\nlong\n" in text and "## Saboteur\n\nshorter\n" in text


def test_the_page_is_replaced_whole_and_keeps_its_mode(tmp_path: Path) -> None:
    """Written under a temporary name and renamed over the page: a benchmark
    killed while writing leaves the old page, never half of the new one."""
    page = tmp_path / "benchmarks.md"
    write_section("Engine", "old figures", path=page)
    page.chmod(0o644)
    with open(page) as earlier:
        write_section("Engine", "new figures", path=page)
        assert "old figures" in earlier.read()  # the old page was not written into
    assert "new figures" in page.read_text() and stat.S_IMODE(page.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["benchmarks.md"]  # no temporary file left


def test_machine_summary_names_date_cores_and_python() -> None:
    summary = machine_summary()
    assert "nproc" in summary and "Python 3." in summary and "UTC" in summary


def test_benchmarks_finishing_together_keep_every_section(tmp_path: Path) -> None:
    page = tmp_path / "benchmarks.md"
    headings = [f"Bench {i}" for i in range(16)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda h: write_section(h, f"figures of {h}", path=page), headings))
    text = page.read_text()
    assert all(f"## {h}\n\nfigures of {h}\n" in text for h in headings)
