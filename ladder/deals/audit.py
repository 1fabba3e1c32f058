"""A ladder's deals revealed and checked against the seed chains it committed to.

What may be revealed, and when (ladder.deals.seedchain for the chain itself):
a chain element x_k reveals the deals of sets 1 .. k, so the ladder reveals
the largest k whose sets are **all finished** (none of their matches is
still planned: a set half played, or one a worker is playing now, keeps its
deal and every later one secret). A chain whose ladder has ended with
nothing left to play reveals its ladder seed, x_L, whole. This is safe to
show anyone at any moment, which is why `referee table --json` and the
ladder service carry it (`chain_summaries`).

`audit` then checks what the store says against those reveals: each
revealed element hashes to its chain's commitment, each stored match of a
revealed set was dealt the seed its chain element gives, no element dealt
two sets, and each match's record commits to that seed with its salt
(docs/records.md, "A ladder's deals").
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from botsdk import fairness
from ladder.deals import seedchain
from ladder.store.database import Store


@dataclass(frozen=True)
class ChainReveal:
    """One seed chain and what of it may be shown now."""

    chain_id: int
    game: str
    head: str
    """Hex: the commitment published when the chain's ladder started."""
    length: int
    started_at: str
    ended_at: str | None
    sets_dealt: int
    revealed_index: int
    """k: the deals of sets 1 .. k are revealed (0: none yet)."""
    revealed: str | None
    """Hex x_k (at k = length: the ladder seed); None when k = 0."""

    @property
    def complete(self) -> bool:
        """The ladder seed itself is revealed."""
        return self.revealed_index == self.length

    def to_json(self) -> dict[str, Any]:
        return {"chain": self.chain_id, "game": self.game, "commitment": self.head, "length": self.length,
                "started_at": self.started_at, "ended_at": self.ended_at, "sets_dealt": self.sets_dealt,
                "revealed_index": self.revealed_index, "revealed": self.revealed,
                "ladder_seed": self.revealed if self.complete else None}


def reveal_point(row: dict[str, Any]) -> int:
    """The largest k with every set 1 .. k of the chain `row` finished
    (the whole length once the chain ended with nothing planned)."""
    dealt = int(row["next_index"]) - 1
    if row["first_planned"] is not None:
        return int(row["first_planned"]) - 1
    return int(row["length"]) if row["ended_at"] is not None else dealt


def chain_reveals(store: Store, game: str) -> list[ChainReveal]:
    """Every seed chain of `game` with what may be revealed of it now."""
    reveals = []
    for row in store.seed_chains(game):
        k = reveal_point(row)
        revealed = None
        if k > 0:  # x_k lies length - k links below the ladder seed
            revealed = seedchain.walk(bytes.fromhex(row["secret"]), int(row["length"]) - k).hex()
        reveals.append(ChainReveal(row["id"], row["game"], row["head"], row["length"], row["started_at"],
                                   row["ended_at"], int(row["next_index"]) - 1, k, revealed))
    return reveals


def chain_summaries(store: Store, game: str) -> list[dict[str, Any]]:
    """The chains as JSON for the standings (`referee table --json`, the
    service): commitments and reveals, never an unrevealed element."""
    return [r.to_json() for r in chain_reveals(store, game)]


@dataclass
class RevealedMatch:
    match_id: str
    set_id: str
    rotation: int
    chain: int
    index: int
    seed: int
    seed_commitment: str | None
    seed_salt: str | None


@dataclass
class DealAudit:
    """What `audit` found: the chains, the matches whose deals are revealed
    (and checked), those still secret, those from before seed chains, and
    every problem, each a sentence."""

    chains: list[ChainReveal] = field(default_factory=list)
    revealed: list[RevealedMatch] = field(default_factory=list)
    secret: int = 0
    unchained: int = 0
    unplayed: list[tuple[int, int]] = field(default_factory=list)
    """(chain, index) of revealed sets dealt but with no stored match (every
    match of the set abandoned after failures): shown, so that no element
    is skipped unseen."""
    problems: list[str] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {"verified": self.verified, "problems": self.problems,
                "chains": [c.to_json() for c in self.chains],
                "matches": [vars(m) for m in self.revealed],
                "unrevealed_matches": self.secret, "matches_before_seed_chains": self.unchained,
                "unplayed_sets": [{"chain": c, "index": i} for c, i in self.unplayed]}


def _record_commitment(path: str | None) -> tuple[int | None, str | None, str | None]:
    """(seed, commitment, salt) of a record's header and footer (Nones where
    the record or the key is missing)."""
    if path is None:
        return None, None, None
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        header, footer = json.loads(lines[0]), json.loads(lines[-1])
    except (OSError, ValueError, IndexError):
        return None, None, None
    seed = header.get("seed")
    return (seed if isinstance(seed, int) else None, header.get("seed_commitment"),
            footer.get("seed_salt") if footer.get("type") == "footer" else None)


def _check_record(match: dict[str, Any], found: RevealedMatch, problems: list[str]) -> None:
    """The match's record must show the chain's seed and commit to it."""
    seed, committed, salt = _record_commitment(match["record_path"])
    found.seed_commitment, found.seed_salt = committed, salt
    if match["record_path"] is None or seed is None:
        return  # no record kept: the store's seed is all there is to check
    if seed != found.seed:
        problems.append(f"{match['match_id']}: its record was dealt seed {seed}, not the chain's {found.seed}")
    elif committed and salt:
        try:
            fair = fairness.verify(bytes.fromhex(committed), seed, bytes.fromhex(salt))
        except ValueError:
            fair = False
        if not fair:
            problems.append(f"{match['match_id']}: its record's seed and salt do not hash to the commitment "
                            "its bots were sent")


def audit(store: Store, game: str) -> DealAudit:
    """Reveal what may be revealed of `game`'s chains and check every
    stored match against it (see the module doc)."""
    result = DealAudit(chains=chain_reveals(store, game))
    elements: dict[int, list[bytes]] = {}
    for chain in result.chains:
        if chain.revealed is None:
            continue
        top = bytes.fromhex(chain.revealed)
        if not seedchain.verify_element(bytes.fromhex(chain.head), chain.revealed_index, top):
            result.problems.append(f"chain {chain.chain_id}: the revealed element does not hash to the "
                                   f"commitment {chain.head} published when the chain started")
            continue
        down = [top]  # x_k, x_(k-1), ..., x_0: once per chain, not once per match
        for _ in range(chain.revealed_index):
            down.append(seedchain.step(down[-1]))
        elements[chain.chain_id] = down[::-1]
    sets_of: dict[tuple[int, int], set[str]] = defaultdict(set)
    chained = store.chained_matches(game)
    for match in chained:
        chain_id, index = match["chain_id"], match["chain_index"]
        sets_of[(chain_id, index)].add(match["set_id"])
        known = elements.get(chain_id)
        if known is None or index >= len(known):
            result.secret += 1
            continue
        expected = seedchain.set_seed(known[index])
        found = RevealedMatch(match["match_id"], match["set_id"], match["rotation"], chain_id, index, expected,
                              None, None)
        if match["seed"] != expected:
            result.problems.append(f"{match['match_id']}: dealt seed {match['seed']}, but set {index} of chain "
                                   f"{chain_id} has seed {expected}")
        _check_record(match, found, result.problems)
        result.revealed.append(found)
    for chain in result.chains:
        if chain.chain_id in elements:
            dealt = min(chain.revealed_index, chain.sets_dealt)
            result.unplayed += [(chain.chain_id, i) for i in range(1, dealt + 1) if (chain.chain_id, i) not in sets_of]
    for (chain_id, index), sets in sorted(sets_of.items()):
        if len(sets) > 1:
            result.problems.append(f"chain {chain_id}: element {index} dealt {len(sets)} sets "
                                   f"({', '.join(sorted(sets))}); each element deals one")
    result.unchained = store.match_count(game) - len(chained)
    return result
