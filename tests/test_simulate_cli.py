"""`referee simulate` and the game-neutral simulation behind it.

Checks the report's JSON contract (issue 2), its invariants (end reasons of
G-9.1 and the safety valve G-9.5 as fractions; seat win shares with shared
wins split, G-9.4), reproducibility from the seed, one-line errors for bad
input, and that the loop needs nothing Gnadenlos-specific.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.games import Action, Event, Game, Observation, Outcome, State, load_game
from referee.games.base import ranks_from_keys
from referee.simulation import MatchFailed, play_random_match, simulate, summariser_for, win_shares

REQUIRED_KEYS = {
    "games", "players", "games_per_second", "turns_mean", "turns_stdev", "end_reasons",
    "seat_win_share", "winner_field_mean", "winner_nuggets_mean",
}
TIMING_KEYS = {"seconds", "games_per_second"}


def run_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in TIMING_KEYS}


def test_json_report_has_the_agreed_keys_and_consistent_figures() -> None:
    report = run_json("--game", "gnadenlos", "--players", "4", "--games", "25", "--seed", "7")
    assert REQUIRED_KEYS <= set(report)
    assert report["games"] == 25 and report["players"] == 4
    assert report["games_per_second"] > 0
    # G-9.1 ends A, B, C and the G-9.5 safety valve, each as a fraction.
    assert set(report["end_reasons"]) == {"vultures", "undertaker", "goal", "safety_valve"}
    assert sum(report["end_reasons"].values()) == pytest.approx(1.0)
    assert all(0.0 <= share <= 1.0 for share in report["end_reasons"].values())
    # G-9.4: one share per seat; shared wins are split, so the shares sum to one.
    assert len(report["seat_win_share"]) == 4
    assert sum(report["seat_win_share"]) == pytest.approx(1.0)
    assert report["turns_mean"] >= 1 and report["turns_stdev"] >= 0
    assert len(report["turn_order_win_share_mean"]) == 4
    assert sum(report["turn_order_win_share_mean"]) == pytest.approx(1.0)
    assert 1 <= report["winner_field_mean"] <= 35
    assert report["winner_nuggets_mean"] >= 0


@pytest.mark.parametrize("setup", ["standard", "advanced"])
def test_turn_order_win_share_counts_from_the_drawn_start_player(setup: str) -> None:
    """G-2.5: position 0 of the turn order is the seat the setup drew to start."""
    game: Any = load_game("gnadenlos")
    for seed in range(8):
        _, events = load_game(game.name, {"setup": setup}).new_state_with_events(4, seed)
        (start,) = [e.data["seat"] for e in events if e.kind == "start_player"]
        report = simulate(load_game("gnadenlos", {"setup": setup}), 4, games=1, seed=seed)
        by_seat = report.seat_win_share
        assert report.fact_means["turn_order_win_share"] == tuple(by_seat[(start + k) % 4] for k in range(4))


def test_turns_are_the_turns_begun_including_the_last() -> None:
    """A match ending in a turn (G-9.1) counts that turn: one per turn_started event."""
    game = load_game("gnadenlos")
    count_turns = summariser_for(load_game("gnadenlos")).turns
    assert count_turns is not None
    for seed in range(5):
        state, events = game.new_state_with_events(4, seed)  # type: ignore[attr-defined]
        rng = random.Random(seed)
        while not state.is_terminal():
            events += state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
        assert count_turns(state) == sum(1 for e in events if e.kind == "turn_started")


def test_a_safety_valve_end_counts_the_completed_turns() -> None:
    """G-9.5: a whole quiet round ends the match after its last turn completed."""
    stalled = {  # seat 2 holds every hand card, nobody has nuggets: turn 5 passes quietly
        "seats": 3, "turn": 5, "active": 2, "quiet": 2, "nuggets": [0, 0, 0], "todo": ["turn"],
        "adventurers": {"hands": [[], [], [1, 2, 3]]},
    }
    state = load_game("gnadenlos").state_from_json(stalled)
    assert state.outcome().reason == "safety_valve"
    count_turns = summariser_for(load_game("gnadenlos")).turns
    assert count_turns is not None and count_turns(state) == 6


def test_same_seed_same_report_and_another_seed_another() -> None:
    first = run_json("--games", "15", "--seed", "3")
    again = run_json("--games", "15", "--seed", "3")
    other = run_json("--games", "15", "--seed", "4")
    assert without_timing(first) == without_timing(again)
    assert without_timing(first) != without_timing(other)


def test_match_i_is_played_from_seed_plus_i() -> None:
    game = load_game("gnadenlos")
    report = simulate(game, 4, games=3, seed=10)
    alone = play_random_match(game, 4, seed=12)
    assert report.turns[2] == alone.turns
    assert report.decisions[2] == alone.decisions


def test_variants_and_three_players() -> None:
    # G-2.6 advanced setup and the G-5.10 gunfight_opt_out variant.
    report = run_json("--players", "3", "--games", "10", "--setup", "advanced", "--variant", "gunfight_opt_out")
    assert report["players"] == 3
    assert report["variant"] == {"setup": "advanced", "gunfight_opt_out": "on", "auction": "standard"}  # every option
    assert len(report["seat_win_share"]) == 3
    assert sum(report["seat_win_share"]) == pytest.approx(1.0)


def test_table_output_is_readable() -> None:
    result = CliRunner().invoke(cli, ["simulate", "--games", "10", "--seed", "1"])
    assert result.exit_code == 0, result.output
    for heading in ("matches/s", "Match length", "How matches ended", "Win share per seat", "winner's final field"):
        assert heading in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--players", "5"], "3 to 4 seats, not 5"),
        (["--players", "2"], "3 to 4 seats, not 2"),
        (["--variant", "no_such_rule"], "no variant option 'no_such_rule'"),
        (["--setup", "expert"], "variant setup must be one of"),
        (["--games", "0"], "0 is not in the range"),
    ],
)
def test_bad_input_gives_one_clear_usage_error(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["simulate", *args])
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and message in errors[0]


def test_win_shares_split_a_shared_win() -> None:
    assert win_shares((0, 0, 2, 3)) == (0.5, 0.5, 0.0, 0.0)
    assert win_shares((1, 0, 2)) == (0.0, 1.0, 0.0)


def test_installed_entry_point_runs_the_simulation() -> None:
    referee = Path(sys.executable).with_name("referee")
    command = [str(referee)] if referee.exists() else [sys.executable, "-m", "referee.cli.main"]
    done = subprocess.run(
        [*command, "simulate", "--players", "4", "--games", "5", "--seed", "1", "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["games"] == 5 and len(report["seat_win_share"]) == 4


# --- the loop is game-neutral: a toy game with a simultaneous decision -------


@dataclass(frozen=True)
class Step(Action):
    size: int

    def to_json(self) -> Any:
        return {"type": "step", "size": self.size}


@dataclass(frozen=True)
class Positions(Observation):
    seat: int
    positions: tuple[int, ...]

    def to_json(self) -> Any:
        return {"seat": self.seat, "positions": list(self.positions)}


class RaceState(State):
    """Every round all seats step 1 or 2 at once; the match ends after 3 rounds."""

    def __init__(self, seats: int, broken: bool = False) -> None:
        self.positions = [0] * seats
        self.rounds = 0
        self.broken = broken

    @property
    def num_seats(self) -> int:
        return len(self.positions)

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.is_terminal() else frozenset(range(self.num_seats))

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        return (Step(1), Step(2)) if seat in self.to_act() else ()

    def _apply(self, actions: Mapping[int, Action], record: bool) -> list[Event]:
        if self.broken and self.rounds == 2:
            raise RuntimeError("the toy engine broke")
        for seat, action in actions.items():
            assert isinstance(action, Step)
            self.positions[seat] += action.size
        self.rounds += 1
        return []

    def observe(self, seat: int) -> Observation:
        return Positions(seat, tuple(self.positions))

    def is_terminal(self) -> bool:
        return self.rounds == 3

    def outcome(self) -> Outcome:
        return Outcome("rounds_done", ranks_from_keys(self.positions))

    def clone(self) -> "RaceState":
        new = RaceState(self.num_seats, self.broken)
        new.positions, new.rounds = self.positions[:], self.rounds
        return new

    def to_json(self) -> Any:
        return {"positions": self.positions, "rounds": self.rounds}


class Race(Game):
    name: ClassVar[str] = "toy-race"
    title: ClassVar[str] = "Toy race"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 3
    rules_version: ClassVar[str] = "toy-1"
    variant_options: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    observation_type = Positions

    def _new_state(self, seats: int, seed: int, events: list[Event] | None) -> State:
        return RaceState(seats, broken=seed == 1013)

    def state_from_json(self, obj: Any) -> State:
        raise NotImplementedError

    def action_from_json(self, obj: Any) -> Action:
        return Step(int(obj["size"]))

    def parse_action(self, text: str) -> Action:
        return Step(int(text))

    def _observation_from_json(self, obj: Any) -> Observation:
        return Positions(obj["seat"], tuple(obj["positions"]))

    def _determinize(self, observation: Any, rng: random.Random) -> State:
        raise NotImplementedError


def test_a_game_without_summariser_gets_the_neutral_report() -> None:
    report = simulate(Race(), 3, games=20, seed=0)
    assert report.turns == (9,) * 20  # no summariser: three rounds of three decisions
    assert report.end_reasons == {"rounds_done": 1.0}
    assert sum(report.seat_win_share) == pytest.approx(1.0)
    assert report.fact_means == {}
    with pytest.raises(ValueError, match="2 to 3 seats"):
        simulate(Race(), 4, games=1, seed=0)


def test_an_engine_failure_names_the_match_to_replay() -> None:
    with pytest.raises(MatchFailed, match="toy-race match with seed 1013 .*RuntimeError: the toy engine broke") as failed:
        simulate(Race(), 2, games=10, seed=1010)
    assert failed.value.seed == 1013
