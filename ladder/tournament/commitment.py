"""A tournament's schedule as a published commitment, and its check.

Before its first match a tournament publishes one hash, the **schedule
commitment**: SHA-256 of `"referee-tournament-v1:"` followed by the
schedule document as canonical JSON (sorted keys, no spaces). The document
names the format, game and rule set, seats per table, the bots (id, label,
content hash: the code that will play), every table of every round in
order (its deal is the seed chain element of the same number), the seat
rotations played, and the seed chain's own commitment (ladder.deals.seedchain),
so the deals are bound by the same hash. A Swiss tournament cannot know its
later rounds: its document holds the pairing rule instead (schedule.SWISS_RULE),
and each round is committed before it is played by a **round commitment**,
SHA-256 of `"referee-tournament-round-v1:"`, the previous commitment (the
schedule's for round 1) and the round's tables as canonical JSON: a chain,
so no earlier round can be changed afterwards either.

The document and its commitments are kept in the store's `meta` table
(key `tournament`). `verify` recomputes every hash from the stored
documents, compares them with the stored commitments and with the one the
organiser published (when given), and checks each planned and stored match
against the schedule: its table, its seat rotation, its chain element and
its deal seed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from ladder.deals import seedchain
from ladder.scheduling.matchmaking import rotations
from ladder.store.database import Store

META_KEY = "tournament"
SCHEDULE_PREFIX = b"referee-tournament-v1:"
ROUND_PREFIX = b"referee-tournament-round-v1:"
KIND = "bot-referee-tournament-v1"


def canonical(document: Any) -> bytes:
    """The one byte string a document hashes as."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def schedule_hash(schedule: dict[str, Any]) -> str:
    return hashlib.sha256(SCHEDULE_PREFIX + canonical(schedule)).hexdigest()


def round_hash(previous: str, tables: Any) -> str:
    return hashlib.sha256(ROUND_PREFIX + previous.encode() + b":" + canonical(tables)).hexdigest()


@dataclass
class Tournament:
    """What the store keeps of a tournament: the schedule document, its
    commitment, and (Swiss) each committed round with its own."""

    schedule: dict[str, Any]
    commitment: str
    rounds: list[dict[str, Any]] = field(default_factory=list)
    """Swiss: {"round", "tables", "out", "commitment"} per committed round."""

    @property
    def swiss(self) -> bool:
        return bool(self.schedule["format"] == "swiss")

    @property
    def game(self) -> str:
        return str(self.schedule["game"])

    @property
    def variant(self) -> dict[str, str]:
        return dict(self.schedule["variant"])

    @property
    def rule_set(self) -> str:
        return str(self.schedule["rule_set"])

    @property
    def chain_id(self) -> int:
        return int(self.schedule["deals"]["chain"])

    @property
    def prefix(self) -> str:
        """The start of its set ids: the commitment's first 10 hex digits."""
        return f"t{self.commitment[:10]}"

    def tables(self) -> list[tuple[int, tuple[int, ...]]]:
        """(round, seating) of every table committed so far, in deal order
        (the n-th is dealt from chain element n)."""
        if not self.swiss:
            return [(r, tuple(t)) for r, t in self.schedule["tables"]]
        return [(entry["round"], tuple(t)) for entry in self.rounds for t in entry["tables"]]

    def set_id(self, index: int) -> str:
        return f"{self.prefix}-{index:04d}"

    def match_ids(self, index: int, seats: int) -> list[str]:
        return [f"{self.game}-{self.set_id(index)}-{r}" for r in range(seats)]

    def commit_round(self, tables: list[tuple[int, ...]], out: tuple[int, ...]) -> str:
        """Add the next Swiss round, committed after the last; returns its commitment."""
        previous = self.rounds[-1]["commitment"] if self.rounds else self.commitment
        number = len(self.rounds) + 1
        body = {"round": number, "tables": [list(t) for t in tables], "out": list(out)}
        entry = {**body, "commitment": round_hash(previous, body)}
        self.rounds.append(entry)
        return str(entry["commitment"])

    def to_json(self) -> str:
        return json.dumps({"schedule": self.schedule, "commitment": self.commitment, "rounds": self.rounds})

    def save(self, store: Store) -> None:
        store.set_meta(META_KEY, self.to_json())


def new_tournament(schedule: dict[str, Any]) -> Tournament:
    """A tournament committed to `schedule` (its "kind" is set here)."""
    document = {**schedule, "kind": KIND}
    return Tournament(document, schedule_hash(document))


def load(store: Store) -> Tournament | None:
    """The store's tournament, or None when it holds none."""
    text = store.meta(META_KEY)
    if text is None:
        return None
    found = json.loads(text)
    return Tournament(found["schedule"], found["commitment"], found.get("rounds", []))


@dataclass
class Verification:
    """What `verify` found: nothing in `problems` means it all checked out."""

    commitment: str
    checked_matches: int = 0
    checked_rounds: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(store: Store, tournament: Tournament, published: str | None = None) -> Verification:
    """Check the stored schedule against its commitments (and `published`,
    the commitment as announced) and every match against the schedule."""
    found = Verification(tournament.commitment)
    recomputed = schedule_hash(tournament.schedule)
    if recomputed != tournament.commitment:
        found.problems.append(f"the stored schedule hashes to {recomputed}, not to its commitment "
                              f"{tournament.commitment}: it was changed after it was committed")
    if published is not None and published.lower() != tournament.commitment:
        found.problems.append(f"the store's commitment {tournament.commitment} is not the published {published}")
    previous = tournament.commitment
    for entry in tournament.rounds:
        body = {key: entry[key] for key in ("round", "tables", "out")}
        if round_hash(previous, body) != entry["commitment"]:
            found.problems.append(f"round {entry['round']}'s pairings do not hash to its commitment: changed after "
                                  "it was committed")
        previous = entry["commitment"]
        found.checked_rounds += 1
    _check_deals(store, tournament, found)
    return found


def _check_deals(store: Store, tournament: Tournament, found: Verification) -> None:
    """Each planned and stored match sits as its scheduled table's rotation
    and was dealt by its chain element."""
    chains = {row["id"]: row for row in store.seed_chains(tournament.game)}
    chain = chains.get(tournament.chain_id)
    deals = tournament.schedule["deals"]
    if chain is None or chain["head"] != deals["commitment"]:
        found.problems.append(f"seed chain {tournament.chain_id} is not the one the schedule commits to")
        return
    secret = bytes.fromhex(chain["secret"])
    if seedchain.walk(secret, int(chain["length"])).hex() != deals["commitment"]:
        found.problems.append(f"seed chain {tournament.chain_id}'s secret does not hash to its commitment")
        return
    elements = seedchain.SeedChain(secret, int(chain["length"]))
    expected: dict[str, tuple[tuple[int, ...], int, int]] = {}
    for index, (_, table) in enumerate(tournament.tables(), 1):
        for match_id, seating in zip(tournament.match_ids(index, len(table)), rotations(table)):
            expected[match_id] = (seating, index, elements.seed(index))
    seats: dict[str, list[int]] = {}
    for row in store.seat_rows(tournament.game, tournament.rule_set):
        seats.setdefault(row.match_id, []).append(row.bot_id)
    played = [(m["match_id"], tuple(seats.get(m["match_id"], [])), m["seed"], m["chain_index"])
              for m in store.matches(tournament.game, tournament.rule_set)]
    planned = [(p["match_id"], p["bot_ids"], p["seed"], None)
               for p in store.planned(tournament.game, tournament.rule_set)]
    for match_id, bots, seed, index in played + planned:
        found.checked_matches += 1
        if match_id not in expected:
            found.problems.append(f"match {match_id} is in no table of the schedule")
            continue
        seating, want_index, want_seed = expected[match_id]
        if bots != seating:
            found.problems.append(f"match {match_id} seats bots {list(bots)}, the schedule {list(seating)}")
        if seed != want_seed or (index is not None and index != want_index):
            found.problems.append(f"match {match_id} was not dealt by chain element {want_index}")
