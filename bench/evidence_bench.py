"""What a look at the pairs' evidence costs as the store grows: `python -m bench evidence`.

`--until-stable` and `--versus` look at the evidence after every match.
This bench fills a store with a ladder of simulated matches (no referee: a
runner that ranks the seats by a fixed strength plus the set's luck, and
for Leduc writes a 100-hand summary with each hand's chips and luck, as the
referee does) and, at each size, times side by side:

- a look that reads the whole store (ladder.rating.standings.pair_evidence,
  ladder.rating.score_evidence.score_pair_evidence: every look before the
  evidence was kept);
- a look of the kept evidence (ladder.rating.set_feed.KeptEvidence, what
  the ladder does now) after one more duplicate set was stored.

Gnadenlos! by places (5 bots at 4 seats) and Leduc by chips (3 bots heads
up). The median of `--repeats` looks of each kind.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.recording import machine_summary, write_section
from ladder.rating.evidence import Evidence, PlacesCollector
from ladder.rating.score_evidence import ScoreCollector, basis_of, score_pair_evidence, score_reader
from ladder.rating.set_feed import KeptEvidence
from ladder.rating.standings import pair_evidence, read_places
from ladder.rating.stopping import DEFAULT_CONFIDENCE, DEFAULT_MARGIN
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import Store
from ladder.store.tasks import MatchTask, PlayedMatch

SECTION = "Evidence as the store grows"
SIZES = (500, 2000, 8000)
"""Matches in the store at each measurement."""


class SimulatedRunner:
    """Ranks the seats by strength (the bot id) plus the set's luck; a Leduc
    match gets a summary of `hands` hands of chips and luck."""

    def play(self, task: MatchTask) -> PlayedMatch:
        luck = random.Random(task.set_id)
        score = [0.2 * b + luck.random() for b in task.bot_ids]
        order = sorted(range(len(score)), key=lambda s: -score[s])
        ranks = [0] * len(score)
        for place, seat in enumerate(order):
            ranks[seat] = place
        summary: dict[str, object] = {}
        hands = task.match_format.get("hands")
        if hands:
            rng = random.Random(task.match_id)
            chips = [rng.choice((-1, 1)) * rng.uniform(0.0, 10.0) for _ in range(hands)]
            lucky = [c / 2 for c in chips]
            summary = {"hands": hands, "scores": [sum(chips), -sum(chips)],
                       "deal_scores": [[c, -c] for c in chips], "deal_luck": [[u, -u] for u in lucky]}
        seats = len(task.bot_ids)
        return PlayedMatch(
            match_id=task.match_id, game=task.game, set_id=task.set_id, rotation=task.rotation, seed=task.seed,
            variant=task.variant, bot_ids=task.bot_ids, ranks=tuple(ranks), forfeits=(None,) * seats,
            strikes=(0,) * seats, end_reason="simulated", decisions=10, seconds=0.0, record=None, summary=summary)

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class Case:
    game: str
    bots: int
    seats: int
    whole: Callable[[Store], Mapping[tuple[int, int], Evidence]]
    kept: Callable[[], KeptEvidence[Any]]


def cases() -> list[Case]:
    alpha = 1 - DEFAULT_CONFIDENCE
    chips = basis_of("leduc", DEFAULT_MARGIN)
    return [
        Case("gnadenlos", 5, 4, lambda store: pair_evidence(store, "gnadenlos", DEFAULT_CONFIDENCE),
             lambda: KeptEvidence("gnadenlos", "", read_places, lambda: PlacesCollector(alpha))),
        Case("leduc", 3, 2, lambda store: score_pair_evidence(store, "leduc", chips, DEFAULT_CONFIDENCE),
             lambda: KeptEvidence("leduc", "", score_reader("leduc"), lambda: ScoreCollector(chips, alpha))),
    ]


def fill(store: Store, case: Case, matches: int, seed: int) -> None:
    """Play the ladder on until the store holds `matches` matches of the game
    (each run seeded anew: a run's match ids follow from its seed)."""
    stored = len(store.matches(case.game))
    config = LadderConfig(game=case.game, sizes=(case.seats,), matches=matches - stored, seed=seed * 100_003 + stored)
    Ladder(store, InlinePool(SimulatedRunner()), config).run()


def register(store: Store, case: Case) -> None:
    with store.transaction() as conn:
        for i in range(case.bots):
            store.add_bot(conn, name=f"bot-{i}", version="1", content_hash=f"hash-{i}", kind="submitted",
                          command=["simulated"], folder=f"bots/bot-{i}", games=[case.game])


def timed(look: Callable[[], object]) -> float:
    start = time.perf_counter()
    look()
    return time.perf_counter() - start


def measure(case: Case, repeats: int, seed: int) -> list[str]:
    """One row per size: the whole store's look, the kept look after a set, and their ratio."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="evidence-bench-") as folder:
        with Store(Path(folder) / "ladder.sqlite") as store:
            register(store, case)
            for size in SIZES:
                fill(store, case, size, seed)
                whole = statistics.median(timed(lambda: case.whole(store)) for _ in range(repeats))
                kept_looks = []
                for r in range(repeats):
                    kept = case.kept()
                    kept.current(store)
                    fill(store, case, len(store.matches(case.game)) + case.seats, seed)  # one more set
                    kept_looks.append(timed(lambda: kept.current(store)))
                kept_look = statistics.median(kept_looks)
                rows.append(f"| {case.game} | {size:,} | {whole * 1000:,.1f} | {kept_look * 1000:,.2f} | "
                            f"{whole / kept_look:,.0f}× |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-record", action="store_true", help="print without writing docs/benchmarks.md")
    args = parser.parse_args()
    rows = [row for case in cases() for row in measure(case, args.repeats, args.seed)]
    body = f"""{machine_summary()}; `python -m bench evidence` (bench/evidence_bench.py).

What a look at the pairs' evidence costs (`--until-stable` and `--versus`
look after every match), in a store filled by a ladder of simulated
matches: Gnadenlos! by places (5 bots at 4 seats), Leduc by chips (3 bots
heads-up, 100-hand summaries with each hand's chips and luck). "Whole
store" reads every finished set, as each look did before the evidence was
kept; "kept" is a look of ladder.rating.set_feed.KeptEvidence after one
more duplicate set was stored. Medians of {args.repeats} looks.

| game | matches stored | whole store, ms | kept, ms | whole / kept |
|---|---|---|---|---|
{chr(10).join(rows)}
"""
    print(body)
    if not args.no_record:
        write_section(SECTION, body)


if __name__ == "__main__":
    main()
