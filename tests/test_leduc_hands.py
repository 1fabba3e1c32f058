"""A Leduc poker match of many hands (rules/leduc.md, L-7): the rules
through the engine API, a match of real bot processes through `referee
play`, and its record replayed and verified byte for byte."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from botsdk.pb.leduc.v1 import leduc_pb2 as pb
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import Store
from ladder.store.tasks import MatchTask, PlayedMatch
from ladder_support import FakeRunner, add_bots
from referee.cli.main import cli
from referee.games import load_game
from referee.games.base import Event
from referee.games.leduc.codec import decode_event, encode_event
from referee.games.leduc.hands import HAND_STARTED, HANDS_PLAYED, LeducHands, LeducHandsState, hand_seed
from referee.games.leduc.state import LeducState
from referee.games.plugin import default_match_format, match_game
from referee.match import public_summary

REFEREE = [str(Path(sys.executable).parent / "referee")]
"""The installed command, as a user runs it."""


def _play_out(state: LeducHandsState, seed: int) -> list[Event]:
    rng = random.Random(seed)
    events: list[Event] = []
    while not state.is_terminal():
        seat = next(iter(state.to_act()))
        events += state.apply({seat: rng.choice(state.legal_actions(seat))})
    return events


def test_a_match_without_a_format_is_the_engine_itself_openspiels_hand() -> None:
    """L-7: the match format leaves a hand alone: without one, a match is the engine's game (whose
    OpenSpiel parity tests/test_leduc_openspiel.py checks); the ladder plays 100 hands."""
    assert match_game("leduc") is load_game("leduc")
    assert match_game("leduc", {"hands": 1}).match_format() == {"hands": 1}
    assert default_match_format("leduc") == {"hands": 100}
    assert default_match_format("gnadenlos") == {}
    with pytest.raises(ValueError, match="no match parameter"):
        match_game("gnadenlos", {"hands": 3})
    with pytest.raises(ValueError, match="whole number from 1"):
        match_game("leduc", {"hands": 0})


@pytest.mark.parametrize("seats", [2, 3])
def test_each_hand_is_dealt_afresh_and_the_chips_add_up(seats: int) -> None:
    """L-7.1 to L-7.4: each hand opens with an event for everyone (its number, the hands, the chips
    so far), its deck from the stream hand-h; the outcome ranks and carries the summed chips."""
    game = match_game("leduc", {"hands": 6})
    state, setup = game.new_state_with_events(seats, 11)
    assert isinstance(state, LeducHandsState)
    assert setup[0] == Event(HAND_STARTED, {"hand": 1, "hands": 6, "chips": [0.0] * seats},
                             frozenset(range(seats)))
    assert state.hand.hands == LeducState.deal(seats, hand_seed(11, 1)).hands
    events = setup + _play_out(state, 5)
    starts = [e for e in events if e.kind == HAND_STARTED]
    pots = [e for e in events if e.kind == "pot_won"]
    assert [e.data["hand"] for e in starts] == [1, 2, 3, 4, 5, 6] and len(pots) == 6
    running = [0.0] * seats
    for start, pot in zip(starts, pots):
        assert start.data["chips"] == running  # the chips before the hand, all public (L-7.4)
        assert start.visible_to == frozenset(range(seats))
        running = [a + b for a, b in zip(running, pot.data["returns"])]
    outcome = state.outcome()
    assert outcome.reason == HANDS_PLAYED and list(outcome.scores) == running
    assert abs(sum(outcome.scores)) < 1e-9  # chips only change hands (L-5.5)
    best = max(running)
    assert [r == 0 for r in outcome.ranks] == [c == best for c in running]
    summary = public_summary(game, state)
    assert summary["hands"] == 6 and summary["scores"] == running
    assert summary["deal_scores"] == [pot.data["returns"] for pot in pots]  # each hand's chips (L-7.5)
    assert len(summary["deal_luck"]) == 6 and all(abs(sum(luck)) < 1e-9 for luck in summary["deal_luck"])


def test_a_hands_deals_are_the_seeds_whoever_plays_them() -> None:
    """L-7.2: the decks depend on the seed alone, not on the betting: the duplicate set's
    rotations play the same cards."""
    decks = []
    for bets in (1, 2):
        state = LeducHands(4).new_state(2, 99)
        assert isinstance(state, LeducHandsState)
        dealt = []
        rng = random.Random(bets)
        while not state.is_terminal():
            if state.hand.hands not in dealt:
                dealt.append(state.hand.hands)
            seat = next(iter(state.to_act()))
            state.apply({seat: rng.choice(state.legal_actions(seat))})
        decks.append(dealt)
    assert decks[0] == decks[1] and len(decks[0]) >= 3


def test_a_match_in_play_round_trips_through_json_and_pickle() -> None:
    state = LeducHands(3).new_state(2, 4)
    assert isinstance(state, LeducHandsState)
    rng = random.Random(0)
    for _ in range(5):
        seat = next(iter(state.to_act()))
        state.apply({seat: rng.choice(state.legal_actions(seat))})
    for twin in (LeducHands(3).state_from_json(json.loads(json.dumps(state.to_json()))),
                 pickle.loads(pickle.dumps(state)), state.clone()):
        assert twin.to_json() == state.to_json()
        assert [twin.observe(s) for s in range(2)] == [state.observe(s) for s in range(2)]


def test_a_seat_hears_a_new_hand_over_the_protocol_and_no_card_with_it() -> None:
    """L-7.4 through leduc.v1: the event travels whole, and the next hand's cards are each
    dealt to their holder alone (L-6), the hand_started event carrying none."""
    game = LeducHands(2)
    state, setup = game.new_state_with_events(2, 8)
    events = setup + _play_out(state, 1)  # type: ignore[arg-type]
    for event in events:
        if event.kind == HAND_STARTED:
            message = encode_event(event)
            assert message.WhichOneof("kind") == HAND_STARTED
            assert set(event.data) == {"hand", "hands", "chips"}
            for seat in event.visible_to:
                back = decode_event(pb.Event.FromString(message.SerializeToString()), seat)
                assert back.data == event.data
        if event.kind == "card_dealt" and "card" in event.data:
            assert event.visible_to == frozenset((event.data["seat"],))


def test_referee_play_plays_a_match_of_hands_and_its_record_verifies(tmp_path: Path) -> None:
    """Real bot processes through the CLI: ranked by chips, the record's header names the
    hands, `referee replay --verify` replays it exactly, and a changed score is caught."""
    record = tmp_path / "m.jsonl"
    out = subprocess.run([*REFEREE, "play", "--game", "leduc", "--bot", "random", "--bot", "heuristic",
                          "--hands", "12", "--seed", "3", "--record", str(record), "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["end_reason"] == HANDS_PLAYED and result["hands"] == 12
    scores = result["scores"]
    assert len(scores) == 2 and abs(sum(scores)) < 1e-9
    assert result["ranks"] == [0 if s == max(scores) else 1 for s in scores]
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["match_format"] == {"hands": 12}
    summary = lines[-1]["summary"]
    assert lines[-1]["scores"] == scores and summary["hands"] == 12 and summary["scores"] == scores
    assert [sum(chips) for chips in zip(*summary["deal_scores"])] == scores and len(summary["deal_luck"]) == 12
    verified = subprocess.run([*REFEREE, "replay", str(record), "--verify"], capture_output=True, text=True,
                              timeout=120)
    assert verified.returncode == 0 and "verified" in verified.stdout, verified.stdout + verified.stderr
    lines[-1]["scores"] = [s + 1 for s in scores]
    lines[-1]["summary"]["scores"] = lines[-1]["scores"]
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(json.dumps(line) + "\n" for line in lines))
    refused = subprocess.run([*REFEREE, "replay", str(forged), "--verify"], capture_output=True, text=True,
                             timeout=120)
    assert refused.returncode != 0 and "scores" in refused.stdout + refused.stderr
    lines[-1]["scores"] = lines[-1]["summary"]["scores"] = scores
    for key, changed in (("deal_luck", [[0.0, 0.0]] * 12), (None, None)):
        footer = dict(lines[-1], summary={k: v for k, v in summary.items() if k not in ("deal_scores", "deal_luck")})
        if key is not None:
            footer["summary"][key] = changed  # a forged luck is caught
        written = tmp_path / f"{key}.jsonl"
        written.write_text("".join(json.dumps(line) + "\n" for line in [*lines[:-1], footer]))
        checked = subprocess.run([*REFEREE, "replay", str(written), "--verify"], capture_output=True, text=True,
                                 timeout=120)
        # a record written before the per-hand figures (L-7.5) still verifies: it states fewer of them
        assert (checked.returncode == 0) == (key is None), checked.stdout + checked.stderr


def test_referee_play_refuses_hands_for_a_game_without_them() -> None:
    out = subprocess.run([*REFEREE, "play", "--game", "gnadenlos", "--bot", "random", "--bot", "random",
                          "--bot", "random", "--hands", "3"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "no match parameter hands" in out.stderr


def test_a_ladder_plays_the_games_own_match_format(tmp_path: Path) -> None:
    """The scheduler gives each Leduc match the plugin's 100 hands, or the configured count;
    another game's matches have no format."""
    for game, configured, expected in (("leduc", {}, {"hands": 100}), ("leduc", {"hands": 7}, {"hands": 7}),
                                       ("gnadenlos", {}, {})):
        with Store(tmp_path / game / str(len(configured)) / "ladder.sqlite") as store:
            add_bots(store, ["a", "b", "c"], game=game)
            runner = FakeRunner()
            sizes = (2,) if game == "leduc" else (3,)
            Ladder(store, InlinePool(runner), LadderConfig(game=game, matches=4, sizes=sizes, seed=1,
                                                           match_format=configured)).run()
            assert runner.played and all(task.match_format == expected for task in runner.played)


@dataclasses.dataclass
class ChipsRunner(FakeRunner):
    """The fake runner's heads-up places, with the chips the referee would write for them: the
    winner +chips, the loser -chips, over 10 hands."""

    chips: float = 12.0

    def play(self, task: MatchTask) -> PlayedMatch:
        played = super().play(task)
        scores = [self.chips if rank == 0 else -self.chips for rank in played.ranks]
        return dataclasses.replace(played, summary={"hands": 10, "scores": scores})


def test_the_table_shows_chips_per_100_hands_by_bot_and_by_pair(tmp_path: Path) -> None:
    """Chips per 100 hands over each bot's duplicate sets, and per pair; heads-up, a pair's
    figures are each other's negatives, and the strongest bot wins chips from every other."""
    db = tmp_path / "ladder.sqlite"
    with Store(db) as store:
        ids = add_bots(store, ["weak", "middle", "strong"], game="leduc")
        runner = ChipsRunner(strength=dict(zip(ids, [0.0, 1.0, 2.0])), luck=0.5)
        Ladder(store, InlinePool(runner), LadderConfig(game="leduc", matches=24, sizes=(2,), seed=1)).run()
    runner_cli = CliRunner()
    table = json.loads(runner_cli.invoke(cli, ["table", "--game", "leduc", "--json", "--db", str(db)]).output)
    rates = {entry["bot"]: entry for entry in table["scores"]}
    assert sum(entry["deals"] for entry in rates.values()) == 2 * 24 * 10
    pairs = {(entry["bot"], entry["opponent"]): entry["rate"] for entry in table["score_pairs"]}
    assert len(pairs) == 6
    for (bot, opponent), rate in pairs.items():
        assert rate == pytest.approx(-pairs[(opponent, bot)])
    assert pairs[("strong", "weak")] > 0 and pairs[("strong", "middle")] > 0
    assert [row["bot"] for row in table["standings"]][0] == "strong"
    strong = rates["strong"]
    assert strong["low"] <= strong["rate"] <= strong["high"] and strong["sets"] > 1
    shown = runner_cli.invoke(cli, ["table", "--game", "leduc", "--h2h", "--db", str(db)],
                              env={"COLUMNS": "200"}).output
    assert "chips per 100 hands" in shown and f"{strong['rate']:+.1f}" in shown
    assert f"{pairs[('strong', 'weak')]:+.1f}" in shown
