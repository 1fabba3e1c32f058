"""Gnadenlos! events on the wire: the typed form against the first v1's untyped one.

`python -m bench gnadenlos_events` collects the events every seat may see in
random 3- and 4-seat matches (standard and advanced setup) and measures, in
one run and interleaved pass by pass:

- the referee's encoding of an event, as the first gnadenlos.v1 sent it (its
  kind and a `google.protobuf.Struct`) and as it is sent now (the typed body
  and, for bots written against the first v1, the same Struct);
- a bot's decoding of it into the engine's `Event`: from the Struct (the
  first v1's codec, kept here to measure it) and from the typed body;
- the bytes of an event in each form, and the largest `Notify` a seat gets.

The referee encodes each event once for all the seats that see it
(referee.protocol.codec.notify_message); every seat's bot decodes it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from google.protobuf import struct_pb2

from bench.recording import machine_summary, write_section
from botsdk.pb.gnadenlos.v1 import gnadenlos_pb2 as pb
from referee.games import load_game
from referee.games.base import Event
from referee.games.gnadenlos import codec
from referee.protocol import codec as wire


def first_v1_encode(event: Event) -> pb.Event:
    """The first gnadenlos.v1's encoding: the kind and the data as a Struct."""
    data = struct_pb2.Struct()
    data.update(event.data)
    return pb.Event(kind=event.kind, data=data)


def _plain(value: Any) -> Any:
    """A Struct value as plain JSON; Struct numbers are doubles, ours integers."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, struct_pb2.Struct):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, struct_pb2.ListValue):
        return [_plain(v) for v in value]
    return value


def first_v1_decode(msg: pb.Event, seat: int) -> Event:
    """The first gnadenlos.v1's decoding, from the Struct."""
    return Event(msg.kind, _plain(msg.data), frozenset((seat,)))


def collect(matches: int) -> tuple[list[Event], list[int]]:
    """The seat-visible events of random matches, and per seat and step the
    size of the Notify that seat is sent."""
    game_codec = wire.codec_for("gnadenlos")
    events: list[Event] = []
    notify_sizes: list[int] = []
    for seed in range(matches):
        rules = load_game("gnadenlos", "setup=advanced" if seed % 2 else None)
        state, step = rules.new_state_with_events(3 + seed % 3 // 2, seed)
        rng = random.Random(seed)
        while True:
            visible = [e for e in step if e.visible_to]
            events += visible
            for seat in range(state.num_seats):
                mine = [e for e in visible if seat in e.visible_to]
                if mine:
                    notify_sizes.append(len(wire.notify_message(game_codec, mine)))
            if state.is_terminal():
                break
            step = state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
    return events, notify_sizes


def per_item(run: Callable[[], object], count: int, passes: int) -> list[float]:
    """Microseconds per item of each pass of `run` over `count` items."""
    times = []
    for _ in range(passes):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) / count * 1e6)
    return times


def measure(events: Sequence[Event], passes: int) -> dict[str, list[float]]:
    """µs per event of each side in each of `passes` interleaved passes."""
    old_messages = [first_v1_encode(e) for e in events]
    new_messages = [codec.encode_event(e) for e in events]
    sides: dict[str, Callable[[], object]] = {
        "encode_first": lambda: [first_v1_encode(e).SerializeToString() for e in events],
        "encode_now": lambda: [codec.encode_event(e).SerializeToString() for e in events],
        "decode_first": lambda: [first_v1_decode(m, 0) for m in old_messages],
        "decode_now": lambda: [codec.decode_event(m, 0) for m in new_messages],
    }
    times: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(passes):
        for name, run in sides.items():
            times[name] += per_item(run, len(events), 1)
    return times


def _ratio(times: dict[str, list[float]], now: str, first: str) -> str:
    """The median of the per-pass ratios now/first, and their range."""
    ratios = [a / b for a, b in zip(times[now], times[first])]
    return f"{statistics.median(ratios):.2f}× ({min(ratios):.2f}–{max(ratios):.2f})"


def report(events: Sequence[Event], notify_sizes: Sequence[int], times: dict[str, list[float]], matches: int,
           passes: int) -> str:
    best = {name: min(values) for name, values in times.items()}
    old_bytes = [len(first_v1_encode(e).SerializeToString()) for e in events]
    new_bytes = [len(codec.encode_event(e).SerializeToString()) for e in events]
    typed_only = [len(codec.encode_event(e).SerializeToString()) - len(first_v1_encode(e).SerializeToString())
                  for e in events]
    rows = [
        ("referee: encode an event (once for all its seats)", f"{best['encode_first']:.1f} µs",
         f"{best['encode_now']:.1f} µs", _ratio(times, "encode_now", "encode_first")),
        ("bot: decode an event into the engine's Event", f"{best['decode_first']:.1f} µs",
         f"{best['decode_now']:.1f} µs", _ratio(times, "decode_now", "decode_first")),
        ("bytes per event, mean", f"{statistics.fmean(old_bytes):.0f} B", f"{statistics.fmean(new_bytes):.0f} B",
         f"{statistics.fmean(new_bytes) / statistics.fmean(old_bytes):.2f}×"),
    ]
    table = "\n".join(f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows)
    return f"""Measured by `python -m bench gnadenlos_events` (bench/gnadenlos_events_bench.py) on {machine_summary()}.
{len(events)} seat-visible events of {matches} random 3- and 4-seat matches (standard and advanced setup); {passes} interleaved passes: the times are the best pass's, the ratios the median of the passes' ratios (their range).

| figure | first v1 (kind + Struct) | now (typed body + the same Struct) | now / first |
|---|---|---|---|
{table}

The typed body alone adds {statistics.fmean(typed_only):.0f} B to an event on average; the largest `Notify` a seat was sent is {max(notify_sizes):,} B. Decoding reads only the typed body, so a bot decodes faster than from the Struct; the referee pays for both forms once per event, not per seat (a match of about 200 events: a few ms). Load average at the end of the run: {os.getloadavg()[0]:.1f} on a shared machine: absolute times move with it, the ratios are measured side by side.
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="random matches to collect events from")
    parser.add_argument("--passes", type=int, default=9, help="interleaved passes")
    parser.add_argument("--no-record", action="store_true", help="print only, do not write docs/benchmarks.md")
    args = parser.parse_args(argv)
    events, notify_sizes = collect(args.matches)
    text = report(events, notify_sizes, measure(events, args.passes), args.matches, args.passes)
    print(text)
    if not args.no_record:
        write_section("Gnadenlos! events", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
