"""Benchmarks: speed is measured here, never asserted in tests.

Each benchmark is a module `bench/<name>_bench.py` with a `main(argv)` that
measures, prints a small table and records its figures as one section of
`docs/benchmarks.md` (through `bench.recording.write_section`). Figures that
compare two things are measured side by side in the same run and recorded as
ratios, so a slower or busier machine shifts both alike.

Run them all with `python -m bench` (or `make bench`), or some with
`python -m bench engine ...` (names without the `_bench` suffix).
"""
