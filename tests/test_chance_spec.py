"""docs/chance.md is precise enough to re-implement: an implementation written
from that page alone (below: SplitMix64, stream seeds, draws, below(n), the
shuffle, and each game's order of draws) recomputes every chance outcome of
recorded matches of every game from the record's seed.

Nothing here imports the project's chance code (referee.games.base's
streams, the engines' shuffles): the engines only play the matches, and the
referee records one match of each game with random bot processes. The
checks compare the recomputed outcomes with the record's events: every
shuffle's order, every card dealt, drawn or revealed, every die roll, the
start player, the nugget supply and the gold-diggers' draws.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.games import load_game
from referee.match import run_match
from referee.process import start_bots
from referee.records import read_record

PAGE = Path(__file__).resolve().parent.parent / "docs" / "chance.md"
MASK = (1 << 64) - 1
Events = list[dict[str, Any]]


# ----------------------------------------------- the page, re-implemented


def splitmix64(x: int) -> int:
    z = (x + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def derive_seed(seed: int, name: str) -> int:
    h = seed % (1 << 64)
    for b in name.encode("utf-8"):
        h = splitmix64(h ^ b)
    return h


class Stream:
    def __init__(self, seed: int, name: str) -> None:
        self.s = derive_seed(seed, name)
        self.c = 0

    def next64(self) -> int:
        self.c += 1
        return splitmix64(self.s ^ splitmix64(self.c))

    def below(self, n: int) -> int:
        return (self.next64() * n) >> 64

    def shuffle(self, a: list[Any]) -> None:
        for i in range(len(a) - 1, 0, -1):
            j = self.below(i + 1)
            a[i], a[j] = a[j], a[i]


def test_the_page_s_test_vectors() -> None:
    """The vectors printed on the page, recomputed."""
    block = re.search(r"<!-- vectors -->\s*```\n(.*?)```", PAGE.read_text(), re.DOTALL)
    assert block, "docs/chance.md lost its test vectors"
    lines = dict(line.split(" = ", 1) if " = " in line else line.split(": ", 1)
                 for line in block.group(1).strip().splitlines())
    assert int(lines["splitmix64(0)"], 16) == splitmix64(0)
    assert int(lines["splitmix64(1)"], 16) == splitmix64(1)
    assert int(lines['derive_seed(42, "die")'], 16) == derive_seed(42, "die")
    assert int(lines['derive_seed(-1, "events")']) == derive_seed(-1, "events")
    die = Stream(42, "die")
    assert [int(v, 16) for v in lines['stream "die" of seed 42, next64'].split()] == [die.next64() for _ in range(3)]
    die = Stream(42, "die")
    assert [int(v) for v in lines['stream "die" of seed 42, below(6) + 1'].split()] == [
        die.below(6) + 1 for _ in range(10)]
    deck = list(range(29))
    Stream(42, "adventurers").shuffle(deck)
    assert lines['stream "adventurers" of seed 42, shuffle(0..28)'].split() == [str(c) for c in deck]
    events = [0, 1, 2, 3, 3, 4, 4]
    Stream(42, "events").shuffle(events)
    assert lines['stream "events" of seed 42, shuffle(0 1 2 3 3 4 4)'].split() == [str(c) for c in events]
    assert int(lines['stream "start" of seed 42, below(3)']) == Stream(42, "start").below(3)


def visible(events: Events, kind: str, key: str) -> Iterator[dict[str, Any]]:
    """The data of the events of `kind` that carry `key` (the part with the secret)."""
    return (e["data"] for e in events if e["kind"] == kind and key in e["data"])


def check_gnadenlos(seed: int, seats: int, variant: dict[str, str], events: Events) -> Counter[str]:
    """docs/chance.md, Gnadenlos!: every chance outcome of one match."""
    checked: Counter[str] = Counter()
    adventurers, event_stream, die = Stream(seed, "adventurers"), Stream(seed, "events"), Stream(seed, "die")
    deck = list(range(29))
    adventurers.shuffle(deck)
    shuffles = {"adventurers": [deck[:]], "events": []}
    event_deck = [0, 1, 2, 3, 3, 4, 4]
    event_stream.shuffle(event_deck)
    shuffles["events"].append(event_deck[:])
    discard: list[int] = []

    def draw() -> int:
        nonlocal deck, discard
        if not deck:
            deck, discard = sorted(discard), []
            adventurers.shuffle(deck)
            shuffles["adventurers"].append(deck[:])
            checked["adventurer reshuffles"] += 1
        return deck.pop()

    for event in events:
        kind, data = event["kind"], event["data"]
        if kind == "start_player":
            assert data["seat"] == Stream(seed, "start").below(seats)
            checked["start player"] += 1
        elif kind == "market_dealt" and "ious" in data:
            ious = [[s, v] for s in range(seats) for v in (1, 2)]
            Stream(seed, "market").shuffle(ious)
            assert data["ious"] == ious
            checked["market deals"] += 1
        elif kind in ("adventurers_drawn", "adventurers_revealed") and "cards" in data:
            assert data["cards"] == [draw() for _ in data["cards"]]
            checked["adventurers"] += len(data["cards"])
        elif kind == "adventurer_discarded":
            discard.append(data["card"])
        elif kind == "event_revealed":
            if not event_deck:
                event_deck = [0, 1, 2, 3, 3, 4, 4]
                event_stream.shuffle(event_deck)
                shuffles["events"].append(event_deck[:])
            assert data["event"] == event_deck.pop()
            checked["event cards"] += 1
        elif kind == "die_rolled":
            assert data["face"] == die.below(6) + 1
            checked["die rolls"] += 1
    for name, orders in shuffles.items():
        recorded = [d["order"] for d in visible(events, "deck_shuffled", "order") if d["deck"] == name]
        assert recorded == orders, name
        checked[f"{name} shuffles"] += len(orders)
    return checked


ROLES = {3: (3, 1), 4: (4, 1), 5: (4, 2), 6: (5, 2), 7: (5, 3), 8: (6, 3), 9: (7, 3), 10: (7, 4)}
HAND = {3: 6, 4: 6, 5: 6, 6: 5, 7: 5, 8: 4, 9: 4, 10: 4}
SABOTEUR_DECK = (
    ["nesw"] * 5 + ["nes"] * 5 + ["new"] * 5 + ["ns"] * 4 + ["ew"] * 3 + ["ne"] * 5 + ["nw"] * 4
    + ["dead_nesw", "dead_nes", "dead_new", "dead_ns", "dead_ew", "dead_ne", "dead_nw", "dead_n", "dead_e"]
    + ["break_pick"] * 3 + ["break_lantern"] * 3 + ["break_cart"] * 3
    + ["repair_pick"] * 2 + ["repair_lantern"] * 2 + ["repair_cart"] * 2
    + ["repair_pick_lantern", "repair_pick_cart", "repair_lantern_cart"] + ["rockfall"] * 3 + ["map"] * 6
)
"""docs/chance.md, Saboteur: the deck's starting list (and S-1's tables above)."""


def check_saboteur(seed: int, seats: int, events: Events) -> Counter[str]:
    """docs/chance.md, Saboteur: every chance outcome of one match."""
    checked: Counter[str] = Counter()
    assert len(SABOTEUR_DECK) == 67
    start = Stream(seed, "start").below(seats)
    nuggets, roles, goals, deck_stream = (Stream(seed, name) for name in ("nuggets", "roles", "goals", "deck"))
    held: list[int] = []
    supply: list[int] = []
    deck: list[str] = []
    for event in events:
        kind, data = event["kind"], event["data"]
        if kind == "round_started":
            if data["round"] == 1:
                assert data["first_player"] == start
                checked["first player"] += 1
            supply = sorted((Counter({1: 16, 2: 8, 3: 4}) - Counter(held)).elements())
            nuggets.shuffle(supply)
            dwarfs = ["gold_digger"] * ROLES[seats][0] + ["saboteur"] * ROLES[seats][1]
            roles.shuffle(dwarfs)
            layout = ["gold", "stone_ne", "stone_nw"]
            goals.shuffle(layout)
            deck = list(SABOTEUR_DECK)
            deck_stream.shuffle(deck)
            expected = {"supply_shuffled": {"values": supply[::-1]},
                        "roles_dealt": {"roles": dwarfs[:seats], "set_aside": dwarfs[seats]},
                        "goals_placed": {"goals": layout}, "deck_shuffled": {"order": deck[::-1]}}
        elif kind in ("supply_shuffled", "roles_dealt", "goals_placed", "deck_shuffled"):
            assert data == expected.pop(kind), kind
            checked[kind] += 1
        elif kind == "hand_dealt" and "cards" in data:
            assert data["count"] == HAND[seats] and data["cards"] == [deck.pop() for _ in data["cards"]]
            checked["cards dealt"] += len(data["cards"])
        elif kind == "card_drawn" and "card" in data:
            assert data["card"] == deck.pop()
            checked["cards drawn"] += 1
        elif kind == "nuggets_drawn":
            assert len(data["values"]) == min(seats, 9, len(supply))
            assert data["values"] == [supply.pop() for _ in data["values"]]
            checked["nugget draws"] += 1
        elif kind == "nuggets_received" and "values" in data:
            held += data["values"]
    return checked


def check_leduc(seed: int, seats: int, events: Events) -> Counter[str]:
    """docs/chance.md, Leduc poker: the one shuffle and every card dealt from it."""
    checked: Counter[str] = Counter()
    deck = list(range(2 * seats + 2))
    Stream(seed, "deck").shuffle(deck)
    for event in events:
        kind, data = event["kind"], event["data"]
        if kind == "deck_shuffled":
            assert data["order"] == deck
            checked["shuffles"] += 1
        elif kind == "card_dealt" and "card" in data:
            assert data["card"] == deck.pop()
            checked["cards dealt"] += 1
        elif kind == "public_card_dealt":
            assert data["card"] == deck.pop()
            checked["public cards"] += 1
    return checked


def check(game: str, seed: int, seats: int, variant: dict[str, str], events: Events) -> Counter[str]:
    if game == "gnadenlos":
        return check_gnadenlos(seed, seats, variant, events)
    if game == "saboteur":
        return check_saboteur(seed, seats, events)
    assert game == "leduc", f"docs/chance.md does not cover {game}: add its section and checker"
    return check_leduc(seed, seats, events)


# ------------------------------------------------------ recorded matches


def played(game: str, seats: int, seed: int, variant: dict[str, str] | None = None) -> Events:
    """The events of a random match played in-process, as a record holds them (JSON)."""
    state, events = load_game(game, variant).new_state_with_events(seats, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        events += state.apply({s: rng.choice(state.legal_actions(s)) for s in sorted(state.to_act())})
    return [json.loads(json.dumps(e.to_json())) for e in events]


SEEDS = [0, 7, 2**64 + 7, -1, 2**63 + 12345, 987654321]
MATCHES = (
    [("gnadenlos", seats, seed, variant) for seats in (3, 4) for seed in SEEDS
     for variant in ({"setup": "standard"}, {"setup": "advanced", "gunfight_opt_out": "on"})]
    + [("saboteur", seats, seed, {}) for seats in range(3, 11) for seed in SEEDS[:3]]
    + [("leduc", seats, seed, {}) for seats in (2, 3, 5, 10) for seed in SEEDS]
    + [("gnadenlos", 4, 5, {"setup": "standard"}), ("gnadenlos", 3, 176, {"setup": "standard"})]
)
"""Every game at several table sizes and seeds (large, negative and equal
modulo 2^64 among them); the last two are random matches long enough to
reshuffle the adventurer discards (G-6.1), which most random matches never do."""


def test_every_chance_outcome_of_matches_of_every_game_is_recomputed_from_the_seed() -> None:
    totals: dict[str, Counter[str]] = {}
    for game, seats, seed, variant in MATCHES:
        totals.setdefault(game, Counter()).update(check(game, seed, seats, variant, played(game, seats, seed, variant)))
    # Every kind of outcome came up, the rare ones included.
    assert {"start player", "market deals", "adventurers", "event cards", "die rolls", "adventurer reshuffles",
            "adventurers shuffles", "events shuffles"} <= set(totals["gnadenlos"])
    assert totals["gnadenlos"]["events shuffles"] > len(MATCHES) // 3
    assert {"first player", "supply_shuffled", "roles_dealt", "goals_placed", "deck_shuffled", "cards dealt",
            "cards drawn"} <= set(totals["saboteur"])
    assert totals["saboteur"]["supply_shuffled"] == 3 * 8 * 3  # one per round (S-2.5)
    assert {"shuffles", "cards dealt", "public cards"} <= set(totals["leduc"])


def test_the_gold_diggers_draws_are_recomputed_too() -> None:
    """Random play hardly reaches the gold: a table that digs straight for it
    shows the supply's draws (S-6.3) after saboteur payouts in earlier rounds."""
    from referee.games.saboteur.actions import PlacePath

    def dig(state: Any, seat: int, rng: random.Random) -> Any:
        """Round 1 at random (the saboteurs are paid), then through cards nearest a face-down goal."""
        actions = state.legal_actions(seat)
        view = state.observe(seat)
        goals = [(g.x, g.y) for g in view.goals if not g.revealed]
        places = [a for a in actions if isinstance(a, PlacePath) and not a.card.startswith("dead")]
        if view.round == 1 or not places or not goals:
            return rng.choice(actions)
        return min(places, key=lambda a: min(abs(a.x - x) + abs(a.y - y) for x, y in goals))

    draws = 0
    for seed in range(4):
        state, events = load_game("saboteur").new_state_with_events(5, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            (seat,) = state.to_act()
            events += state.apply({seat: dig(state, seat, rng)})
        draws += check_saboteur(seed, 5, [json.loads(json.dumps(e.to_json())) for e in events])["nugget draws"]
    assert draws >= 2


@pytest.mark.parametrize(("game", "seats"), [("gnadenlos", 3), ("saboteur", 4), ("leduc", 3)])
def test_a_match_recorded_by_the_referee_is_recomputed_from_its_seed(
    game: str, seats: int, tmp_path: Path
) -> None:
    """A real record: random bot processes, the referee, the record file."""
    bots = start_bots([[sys.executable, "-m", "bots.random", "--seed", str(i)] for i in range(seats)],
                      [f"r{i}" for i in range(seats)])
    try:
        run_match(game, bots, seed=2**62 + 99, record_path=tmp_path / "m.jsonl")
    finally:
        for bot in bots:
            bot.close()
    record = read_record(tmp_path / "m.jsonl")
    events = record.setup["events"] + [e for line in record.decisions for e in line["events"]]
    checked = check(game, record.header["seed"], record.num_seats, record.header["variant"], events)
    assert sum(checked.values()) > seats
