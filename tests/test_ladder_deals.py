"""A ladder's deals (docs/records.md, "A ladder's deals"): committed by a seed
chain before the first match, revealed set by set as sets finish, checked
by `referee ladder-audit`.

The chain is re-derived here from the page's words with hashlib alone, not
with ladder.deals.seedchain: an auditor's own program."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Commitment, Ladder, LadderConfig
from ladder.store.database import Store
from ladder_support import FakeRunner, add_bots, open_store
from referee.cli.main import cli


def down(element: bytes, steps: int) -> bytes:
    for _ in range(steps):
        element = hashlib.sha256(b"referee-ladder-chain-v1:" + element).digest()
    return element


def deal_seed(element: bytes) -> int:
    return int.from_bytes(hashlib.sha256(b"referee-ladder-deal-v1:" + element).digest()[:8], "big") >> 2


def audit(db: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["ladder-audit", "--db", str(db), *args])
    return result.exit_code, result.output


def run_ladder(store: Store, runner: FakeRunner, published: list[tuple[Commitment, int, int]],
               **config: object) -> None:
    """A ladder run; `published` gets each commitment with the matches stored
    and played when it was published."""
    def on_commit(commitment: Commitment) -> None:
        published.append((commitment, store.match_count(), len(runner.played)))

    Ladder(store, InlinePool(runner), LadderConfig(**config), on_commit=on_commit).run()  # type: ignore[arg-type]


def set_seeds(store: Store) -> dict[str, int]:
    return {m["set_id"]: m["seed"] for m in store.matches("gnadenlos")}


def test_the_commitment_comes_before_any_match_and_the_ladder_seed_gives_every_deal(tmp_path: Path) -> None:
    published: list[tuple[Commitment, int, int]] = []
    with open_store(tmp_path) as store:
        add_bots(store, ["a", "b", "c", "d"])
        runner = FakeRunner()
        run_ladder(store, runner, published, matches=14, sizes=(3, 4), seed=1)
        by_set = {m["set_id"]: m for m in store.matches("gnadenlos")}
        order = [t.set_id for t in runner.played if t.rotation == 0]  # sets in the order they were dealt
    (commitment, stored, played), = published
    assert (stored, played) == (0, 0)  # published before the first match was played or stored

    code, output = audit(store.path, "--json")
    assert code == 0, output
    found = json.loads(output)
    chain, = found["chains"]
    assert chain["commitment"] == commitment.head and chain["ended_at"] is not None
    ladder_seed = bytes.fromhex(chain["ladder_seed"])
    assert down(ladder_seed, chain["length"]).hex() == commitment.head
    for index, set_id in enumerate(order, start=1):  # the i-th set is dealt from x_i
        assert by_set[set_id]["seed"] == deal_seed(down(ladder_seed, chain["length"] - index))
    assert len(found["matches"]) == 14 and found["unrevealed_matches"] == 0
    code, output = audit(store.path)
    assert code == 0 and "verified: 14 matches revealed and checked, 0 still secret" in output


def test_a_tampered_deal_or_ladder_seed_fails_the_audit(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        add_bots(store, ["a", "b", "c"])
        run_ladder(store, FakeRunner(), [], matches=6, sizes=(3,), seed=2)
        victim = store.matches("gnadenlos")[4]["match_id"]
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE matches SET seed = seed + 1 WHERE match_id = ?", (victim,))
    code, output = audit(store.path)
    assert code == 1 and f"problem: {victim}: dealt seed" in output and "not verified" in output

    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE matches SET seed = seed - 1 WHERE match_id = ?", (victim,))
        conn.execute("UPDATE seed_chains SET secret = ?", ("00" * 32,))
    code, output = audit(store.path)
    assert code == 1 and "the revealed element does not hash to the commitment" in output


def test_a_finished_set_is_revealed_without_the_sets_after_it(tmp_path: Path) -> None:
    """Budget 5 at 4 seats: set 1 is played, set 2 stops after one match.
    The reveal then gives set 1's deal, and nothing that gives set 2's; a
    second run finishes set 2 and the chain reveals its ladder seed."""
    with open_store(tmp_path) as store:
        add_bots(store, ["a", "b", "c", "d"])
        runner = FakeRunner()
        run_ladder(store, runner, [], matches=5, sizes=(4,), seed=3)
        first, second = [t.set_id for t in runner.played if t.rotation == 0]
        seeds = set_seeds(store)
        assert len(store.planned("gnadenlos")) == 3

        code, output = audit(store.path, "--json")
        assert code == 0, output
        found = json.loads(output)
        chain, = found["chains"]
        assert chain["revealed_index"] == 1 and chain["ladder_seed"] is None
        element = bytes.fromhex(chain["revealed"])
        assert down(element, 1).hex() == chain["commitment"]
        assert deal_seed(element) == seeds[first]
        assert {m["set_id"] for m in found["matches"]} == {first} and found["unrevealed_matches"] == 1
        table = CliRunner().invoke(cli, ["table", "--json", "--db", str(store.path)]).output
        assert json.loads(table)["deals"] == found["chains"]  # what the table and the service publish
        for shown in (output, table):
            assert str(seeds[second]) not in shown  # set 2's deal is nowhere in what is revealed
        assert "sets 1-1 finished" in audit(store.path)[1]

        run_ladder(store, FakeRunner(), [], matches=3, sizes=(4,), seed=4)  # plays set 2's last 3 rotations
        assert store.planned("gnadenlos") == []
    code, output = audit(store.path, "--json")
    assert code == 0, output
    old_chain = json.loads(output)["chains"][0]
    ladder_seed = bytes.fromhex(old_chain["ladder_seed"])
    assert deal_seed(down(ladder_seed, old_chain["length"] - 2)) == seeds[second]
    assert len(json.loads(output)["matches"]) == 8


def test_a_set_planned_before_the_run_is_dealt_from_the_runs_one_chain(tmp_path: Path) -> None:
    published: list[tuple[Commitment, int, int]] = []
    with open_store(tmp_path) as store:
        add_bots(store, ["a", "b", "c"])
        runner = FakeRunner()
        ladder = Ladder(store, InlinePool(runner), LadderConfig(matches=6, sizes=(3,), seed=5),
                        on_commit=lambda c: published.append((c, store.match_count(), len(runner.played))))
        ladder.plan_next()
        ladder.run()
        assert len(published) == 1 and published[0][1:] == (0, 0)
        assert len(store.seed_chains("gnadenlos")) == 1
    assert audit(store.path)[0] == 0


def test_a_dealt_set_without_matches_is_listed_not_skipped_unseen(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        add_bots(store, ["a", "b", "c"])
        runner = FakeRunner()
        run_ladder(store, runner, [], matches=9, sizes=(3,), seed=6)
        second = [t.set_id for t in runner.played if t.rotation == 0][1]
    with sqlite3.connect(store.path) as conn:  # as if every match of set 2 had failed and been abandoned
        conn.execute("DELETE FROM match_seats WHERE match_id IN (SELECT match_id FROM matches WHERE set_id = ?)",
                     (second,))
        conn.execute("DELETE FROM rating_history WHERE match_id IN (SELECT match_id FROM matches WHERE set_id = ?)",
                     (second,))
        conn.execute("DELETE FROM matches WHERE set_id = ?", (second,))
    code, output = audit(store.path)
    assert code == 0 and "sets dealt but never played (their matches failed and were abandoned): chain 1 set 2" in output
