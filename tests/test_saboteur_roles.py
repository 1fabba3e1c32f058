"""Saboteur by role: what a bot learns of the roles during a match (only
its own until the round's end, S-2.1, S-6.2, S-8), and the ladder's figures
per role, read after the match from the roles each round's end revealed
(ladder.rating.game_figures), on a real ladder run in a temporary store."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from botsdk.bot import DecisionContext, MatchInfo
from ladder.rating.game_figures import RoleRecord, rests_on
from ladder.store.database import Store
from ladder_support import install_bot, random_bot_folder
from referee.cli.main import cli
from referee.games import Action, Event, Observation, Outcome
from referee.games.saboteur.codec import decode_observation, encode_observation
from referee.match import play_match
from referee.seats.in_process import InProcessSeat

ROLE_NAMES = ("gold_digger", "saboteur")


class Spy:
    """A bot that keeps everything the referee tells it, in order."""

    name = "spy"
    version = "1"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seen: list[tuple[str, Any]] = []

    def on_match_start(self, match: MatchInfo, observation: Observation) -> None:
        self.seen.append(("observation", observation))

    def decide(self, observation: Observation, legal_actions: tuple[Action, ...], context: DecisionContext) -> Action:
        self.seen.append(("observation", observation))
        return self.rng.choice(legal_actions)

    def on_events(self, events: Sequence[Event]) -> None:
        self.seen.extend(("event", event) for event in events)

    def on_match_end(self, outcome: Outcome) -> None:
        pass


def _roles_named(data: Any) -> list[Any]:
    """Every value under a "role"/"roles" key anywhere in an event's data."""
    found: list[Any] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("role", "roles"):
                found.append(value)
            found += _roles_named(value)
    elif isinstance(data, list):
        for value in data:
            found += _roles_named(value)
    return found


@pytest.mark.parametrize("seats", [3, 5, 7])
def test_no_seat_hears_another_seats_role_before_the_rounds_end(seats: int) -> None:
    """Hostile: every observation (through the wire's bytes) and every event a seat is told during
    whole matches shows it its own role only, until the round_ended event reveals them all (S-6.2)."""
    checked = revealed = 0
    for seed in range(3):
        spies = [Spy(seed * 10 + s) for s in range(seats)]
        play_match("saboteur", [InProcessSeat(spy, strict=True) for spy in spies], seed=seed)
        for seat, spy in enumerate(spies):
            ended = 0  # rounds revealed so far
            for kind, item in spy.seen:
                if kind == "event":
                    if item.kind == "round_ended":
                        ended += 1
                        revealed += 1
                        continue
                    named = _roles_named(item.data)
                    if named:  # the seat's own role, dealt to it alone
                        assert item.kind == "role_dealt" and item.data["seat"] == seat, item
                        checked += 1
                    continue
                wire = decode_observation(encode_observation(item))
                assert wire == item
                in_play = wire.round > ended and not wire.over
                others = [role for s, role in enumerate(wire.roles) if s != seat]
                if in_play:
                    assert others == [None] * (seats - 1), (seed, seat, wire.round, wire.roles)
                    assert wire.role in ROLE_NAMES
                    checked += 1
                assert len(wire.results) == ended  # only finished rounds' roles, in the results
    assert checked and revealed == 3 * 3 * seats  # three rounds a match, each revealed to every seat


def _record(rounds: int, won: int, mu: float) -> RoleRecord:
    return RoleRecord("x", rounds, won, mu, 1.0)


def test_a_rank_rests_on_one_role_when_the_other_role_ranks_it_below_the_next() -> None:
    records = {
        1: {"gold_digger": _record(9, 6, 30.0), "saboteur": _record(3, 0, 20.0)},
        2: {"gold_digger": _record(9, 3, 25.0), "saboteur": _record(3, 2, 27.0)},
        3: {"gold_digger": _record(9, 1, 20.0), "saboteur": _record(3, 1, 26.0)},
    }
    # 1 is above 2 only as a gold-digger; 2 is above 3 in both roles
    assert rests_on([1, 2, 3], records) == {1: "gold_digger"}


@pytest.mark.slow
def test_a_real_saboteur_ladder_reports_each_bots_rounds_per_role(tmp_path: Path) -> None:
    """Three real bot processes, one duplicate set of 3-player tables: each bot's rounds as
    gold-digger and as saboteur add up to its rounds, agree with the roles the stored records'
    round ends revealed, and show in `referee table` and its JSON with a team rating per role."""
    db_path = tmp_path / "data" / "ladder.sqlite"
    with Store(db_path) as store:
        for name in ("b0", "b1", "b2"):
            install_bot(store, random_bot_folder(tmp_path / "src" / name, ("saboteur",)), name)
    runner = CliRunner()
    ran = runner.invoke(cli, ["ladder", "--game", "saboteur", "--no-builtins", "--players", "3", "--matches", "3",
                              "--workers", "1", "--move-time", "1", "--seed", "4", "--db", str(db_path)])
    assert ran.exit_code == 0, ran.output
    table = json.loads(runner.invoke(cli, ["table", "--game", "saboteur", "--json", "--db", str(db_path)]).output)
    by_bot = {entry["bot"]: entry for entry in table["roles"]}
    assert set(by_bot) == {"b0", "b1", "b2"}

    expected: Counter[tuple[str, str]] = Counter()
    wins: Counter[tuple[str, str]] = Counter()
    with Store(db_path) as store:
        names = {bot.bot_id: bot.name for bot in store.bots()}
        seated = {(r.match_id, r.seat): names[r.bot_id] for r in store.seat_rows("saboteur")}
        matches = store.matches("saboteur")
        for match in matches:
            footer = json.loads(Path(match["record_path"]).read_text().splitlines()[-1])
            for result in footer["summary"]["rounds"]:
                team = "gold_digger" if result["winners"] == "gold_diggers" else "saboteur"
                for seat, role in enumerate(result["roles"]):
                    expected[(seated[(match["match_id"], seat)], role)] += 1
                    wins[(seated[(match["match_id"], seat)], role)] += role == team
    assert len(matches) == 3
    for name, entry in by_bot.items():
        assert entry["gold_digger"]["rounds"] + entry["saboteur"]["rounds"] == 3 * 3
        for role in ROLE_NAMES:
            assert entry[role]["rounds"] == expected[(name, role)]
            assert entry[role]["won"] == wins[(name, role)]
            assert entry[role]["team_sigma"] <= 25 / 3
    shown = runner.invoke(cli, ["table", "--game", "saboteur", "--db", str(db_path)], env={"COLUMNS": "200"}).output
    assert "by role" in shown and "gold-digger" in shown and "rests on" in shown and "b0" in shown
