"""Helpers for the ladder tests: a fake match runner and bot registration.

The fake runner stands in for the referee so the scheduler, ratings and
store can be tested quickly and deterministically; the end-to-end tests use
real bot processes instead.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ladder.store.database import Store
from ladder.store.tasks import MatchTask, NotRated, PlayedMatch


def add_bots(store: Store, names: Sequence[str], game: str = "gnadenlos") -> list[int]:
    """Register fake bots (never started: the fake runner plays them)."""
    ids = []
    with store.transaction() as conn:
        for name in names:
            ids.append(store.add_bot(conn, name=name, version="1", content_hash=f"hash-{name}", kind="submitted",
                                     command=["fake"], folder=f"bots/{name}", games=[game]))
    return ids


@dataclass
class FakeRunner:
    """Ranks the seats by a fixed strength per bot id plus luck drawn from
    the set (its id, which the matchmaking's seed fixes; the deal seed
    comes from the ladder's secret seed chain, so it differs every run):
    the same set gives each bot the same luck whatever its seat, as a
    duplicate deal should."""

    strength: dict[int, float] = field(default_factory=dict)
    luck: float = 1.0
    failures: dict[str, list[str]] = field(default_factory=dict)
    """match id -> failure kinds to raise on its first attempts."""
    forfeit: set[int] = field(default_factory=set)
    strike: dict[int, list[str]] = field(default_factory=dict)
    """bot id -> the reasons of the strikes it gets in each of its matches
    (written into the record's footer, as the referee does)."""
    played: list[MatchTask] = field(default_factory=list)
    closed: bool = False

    def play(self, task: MatchTask) -> PlayedMatch:
        self.played.append(task)
        pending = self.failures.get(task.match_id)
        if pending:
            raise NotRated(pending.pop(0), "injected by the test")
        rng = random.Random(task.set_id)
        draws = {b: rng.random() for b in sorted(task.bot_ids)}
        score = [self.strength.get(b, 0.0) + self.luck * draws[b] for b in task.bot_ids]
        order = sorted(range(len(score)), key=lambda s: -score[s])
        ranks = [0] * len(score)
        for place, seat in enumerate(order):
            ranks[seat] = place
        forfeits = tuple("crashed" if b in self.forfeit else None for b in task.bot_ids)
        return PlayedMatch(
            match_id=task.match_id, game=task.game, set_id=task.set_id, rotation=task.rotation, seed=task.seed,
            variant=task.variant, bot_ids=task.bot_ids, ranks=tuple(ranks), forfeits=forfeits,
            strikes=tuple(len(self.strike.get(b, [])) for b in task.bot_ids), end_reason="goal", decisions=10,
            seconds=0.01, record=self._record(task) if self.strike else None,
        )

    def _record(self, task: MatchTask) -> bytes:
        """A record whose footer lists the strikes (all a test reads of it)."""
        strikes = [[{"reason": r, "detail": "injected", "decision": 1} for r in self.strike.get(b, [])]
                   for b in task.bot_ids]
        return (json.dumps({"type": "header", "match_id": task.match_id}) + "\n"
                + json.dumps({"type": "footer", "strikes": strikes}) + "\n").encode()

    def close(self) -> None:
        self.closed = True


def open_store(tmp_path: Path) -> Store:
    return Store(tmp_path / "data" / "ladder.sqlite")


RANDOM_BOT_SOURCE = """\
import json
import random
import shutil
import sys

from bots.sdk import Bot, serve

print("choice bot starting", file=sys.stderr, flush=True)


class ChoiceBot(Bot):
    name = "choice"
    version = "1"

    def decide(self, observation, legal_actions, context):
        return random.choice(legal_actions)


if __name__ == "__main__":
    serve(ChoiceBot())
"""


def random_bot_folder(path: Path, games: Sequence[str] = ("gnadenlos",)) -> Path:
    """A submittable folder: a random bot and its bot.toml listing `games`
    (the folder's name is written into the bot, so copies differ)."""
    path.mkdir(parents=True)
    (path / "bot.py").write_text(f"#!{sys.executable}\n# {path.name}\n{RANDOM_BOT_SOURCE}")
    (path / "bot.py").chmod(0o755)
    (path / "bot.toml").write_text(f'command = "./bot.py"\ngames = {json.dumps(list(games))}\n')
    return path


def declaring_bot(path: Path, variants: tuple[str, ...], in_manifest: bool = True) -> Path:
    """A random bot whose handshake declares `variants`, listed in its bot.toml too unless not `in_manifest`."""
    folder = random_bot_folder(path)
    source = RANDOM_BOT_SOURCE.replace('    version = "1"\n', f'    version = "1"\n    variants = {variants!r}\n')
    (folder / "bot.py").write_text(f"#!{(folder / 'bot.py').read_text().splitlines()[0][2:]}\n# {path.name}\n{source}")
    if in_manifest:
        with (folder / "bot.toml").open("a") as manifest:
            manifest.write(f"variants = {json.dumps(list(variants))}\n")
    return folder


def install_bot(store: Store, folder: Path, name: str) -> int:
    """Register a bot folder as `referee submit` stores it (copied in,
    readable by the bot's own uid), but without the validation match that
    tests/test_ladder_submit.py covers: a 10-player table's roster in a
    fraction of the time."""
    from ladder.intake.submission import content_hash, read_manifest

    manifest = read_manifest(folder)
    digest = content_hash(folder)
    relative = Path("bots") / name / digest[:16]
    stored = store.root / relative
    shutil.copytree(folder, stored)
    for path in [stored, *stored.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o444 | (0o111 if path.is_dir() else 0))
    with store.transaction() as conn:
        return store.add_bot(conn, name=name, version="v1", content_hash=digest, kind="submitted",
                             command=manifest.command, folder=str(relative), games=manifest.games,
                             variants=manifest.variants)



@dataclass
class ChipRunner(FakeRunner):
    """Heads-up matches of hands scored in chips, as a Leduc match's summary
    holds them (`scores`, `hands`, and with `per_hand` each hand's
    `deal_scores` and `deal_luck`). In hand h the deal's luck gives seat 0
    between `least_luck` and `most_luck` chips on its side of the set's
    sign (the same in every rotation: duplicate); the bots' betting adds
    luck of its own, `unshared` chips (sd) a hand that differs between the
    rotations (what the public card is worth after different bets), which
    the referee measures with the deal's as the hand's luck; the seats
    trade edge(seat 0) - edge(seat 1) chips a hand besides, with `noise`.
    With least_luck above the edges, seat 0's holder wins the places of
    every match: each bot wins one rotation of each set, and only the chips
    tell the bots apart."""

    edge: dict[int, float] = field(default_factory=dict)
    least_luck: float = 4.0
    most_luck: float = 6.0
    noise: float = 2.0
    """Chips (sd) a hand of noise, independent per hand and match."""
    unshared: float = 0.0
    overstate: float = 1.0
    """Multiplies the chips the summary reports: above the rules' bound it
    stands for a record that no longer fits them."""
    per_hand: bool = True
    """Report each hand's chips (else only the match's, as records before L-7.5)."""
    luck_told: bool = True
    """Report each hand's luck with its chips."""

    def play(self, task: MatchTask) -> PlayedMatch:
        self.played.append(task)
        hands = task.match_format["hands"]
        deal = random.Random(task.set_id)
        sign = deal.choice((-1, 1))
        shared = [sign * deal.uniform(self.least_luck, self.most_luck) for _ in range(hands)]
        first, second = task.bot_ids
        rng = random.Random(task.match_id)
        luck = [s + rng.gauss(0.0, self.unshared) for s in shared]
        edge = self.edge.get(first, 0.0) - self.edge.get(second, 0.0)
        # a seat wins or loses at most 13 chips a hand, and its chips less luck stay within the 31.11 of a
        # difference (referee.games.leduc.luck.CORRECTED_SWING): the fake's tails are cut at the rules' bounds
        chips = [max(-13.0, min(13.0, lucky + edge + rng.gauss(0.0, self.noise))) for lucky in luck]
        luck = [max(c - 15.5, min(c + 15.5, lucky)) for c, lucky in zip(chips, luck)]
        chips = [self.overstate * c for c in chips]
        total = sum(chips)
        ranks = (0, 1) if total > 0 else (1, 0)
        summary: dict[str, object] = {"hands": hands, "scores": [total, -total]}
        if self.per_hand:
            summary["deal_scores"] = [[c, -c] for c in chips]
            if self.luck_told:
                summary["deal_luck"] = [[lucky, -lucky] for lucky in luck]
        return PlayedMatch(
            match_id=task.match_id, game=task.game, set_id=task.set_id, rotation=task.rotation, seed=task.seed,
            variant=task.variant, bot_ids=task.bot_ids, ranks=ranks, forfeits=(None, None), strikes=(0, 0),
            end_reason="hands_played", decisions=4 * hands, seconds=0.01, record=None, summary=summary,
        )
