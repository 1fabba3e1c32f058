"""Leduc poker through every layer above the engine, by the command line:
`referee play` with the random, heuristic and MCTS bots as real processes,
its record through `referee replay --verify` and `--seat K`, `referee
simulate --game leduc`, and Leduc's own ladder (issue 12, part 4).

A seat's replay must never show another seat's private card, not even
after a showdown (L-2.2, L-5.4); the whole record shows every card dealt.
"""

from __future__ import annotations

import json
import random
import statistics
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from referee.cli.main import cli
from referee.games import Event, load_game
from referee.games.base import derive_seed
from referee.games.leduc.cards import card_name

BOTS = ("random", "heuristic", "mcts", "random")
WIDE = {"COLUMNS": "200"}


def referee(*args: str) -> Result:
    result = CliRunner().invoke(cli, list(args), env=WIDE)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, list[dict[str, Any]]]:
    record = tmp_path_factory.mktemp("leduc") / "match.jsonl"
    bots = [arg for bot in BOTS for arg in ("--bot", bot)]
    out = referee("play", "--game", "leduc", *bots, "--seed", "21", "--move-time", "2s",
                  "--record", str(record)).output
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    return out, record, lines


def dealt(lines: list[dict[str, Any]]) -> dict[int, str]:
    """Each seat's private card, by name, from the record's secret deal events."""
    return {e["data"]["seat"]: card_name(e["data"]["card"], len(BOTS))
            for e in lines[1]["events"] if e["kind"] == "card_dealt" and "card" in e["data"]}


def test_the_bots_play_a_match_as_processes_and_it_is_shown(played: tuple[str, Path, list[dict[str, Any]]]) -> None:
    out, _, lines = played
    footer = lines[-1]
    assert footer["type"] == "footer" and footer["end_reason"] in ("showdown", "folds")
    assert footer["forfeits"] == [] and footer["strikes"] == [[]] * len(BOTS)
    assert [s["name"] for s in lines[0]["seats"]] == list(BOTS)
    decisions = [line for line in lines if line["type"] == "decision"]
    assert {seat["by"] for d in decisions for seat in d["seats"]} == {"bot"}
    summary = footer["summary"]  # L-5.5: the chips won, which sum to zero
    assert len(summary["returns"]) == len(BOTS) and sum(summary["returns"]) == 0
    assert "public view" in out and "Leduc poker" in out and "Chips won" in out
    assert not set(dealt(lines).values()) & set(out.split()), "a spectator saw a private card"


def test_the_record_replays_and_verifies(played: tuple[str, Path, list[dict[str, Any]]]) -> None:
    _, record, lines = played
    out = referee("replay", str(record), "--verify").output
    assert "verified" in out and "record only: deck shuffled" in out
    for seat, card in dealt(lines).items():  # the whole record shows every card dealt
        assert f"[{seat}] is dealt {card}" in out


def test_a_record_with_other_chips_does_not_verify(played: tuple[str, Path, list[dict[str, Any]]],
                                                   tmp_path: Path) -> None:
    """The footer's returns must be the engine's (L-5.5), like its ranking."""
    _, _, lines = played
    footer = dict(lines[-1], summary=dict(lines[-1]["summary"]))
    footer["summary"]["returns"] = [value + 1 for value in footer["summary"]["returns"]]
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(json.dumps(line) + "\n" for line in [*lines[:-1], footer]))
    result = CliRunner().invoke(cli, ["replay", str(tampered), "--verify", "-q"], env=WIDE)
    assert result.exit_code == 1 and "end figures" in result.output


@pytest.mark.parametrize("seat", range(len(BOTS)))
def test_a_seat_view_shows_only_its_own_card(played: tuple[str, Path, list[dict[str, Any]]], seat: int) -> None:
    """L-2.2, L-5.4, L-6.1: seat K's replay names its own card and the
    public card, never another seat's, at the showdown neither."""
    _, record, lines = played
    out = referee("replay", str(record), "--seat", str(seat)).output
    cards = dealt(lines)
    assert f"[{seat}] is dealt {cards[seat]}" in out
    words = set(out.split())
    assert cards[seat] in words and not {card for s, card in cards.items() if s != seat} & words
    assert "record only" not in out


def test_a_table_outside_two_to_ten_is_refused() -> None:
    result = CliRunner().invoke(cli, ["play", "--game", "leduc", "--bot", "random"])
    assert result.exit_code == 2 and "2 to 10 seats" in result.output


# ------------------------------------------------------------------ simulate


def simulate(*args: str) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(referee("simulate", "--game", "leduc", *args, "--json").stdout)
    return report


def match_events(players: int, seed: int) -> list[Event]:
    """Every event of match `seed` played as the simulator plays it (its documented decision stream)."""
    state, events = load_game("leduc").new_state_with_events(players, seed)
    rng = random.Random(derive_seed(seed, "simulate-decisions"))
    while not state.is_terminal():
        events += state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in sorted(state.to_act())})
    return events


@pytest.mark.parametrize("players", [2, 6, 10])
def test_the_simulate_report_counts_what_the_matches_did(players: int) -> None:
    """The Leduc figures of `referee simulate` (summary.py) equal an independent
    count from the public events of the same matches: how they ended (L-5.1,
    L-5.2), the chips won per seat (L-5.5), the pot, the raises, round 2
    reached, split pots (L-5.3)."""
    games = 60
    report = simulate("--players", str(players), "--games", str(games), "--seed", "40")
    matches = [match_events(players, 40 + i) for i in range(games)]
    ends = [next(e.data for e in events if e.kind == "pot_won") for events in matches]
    assert report["end_reasons"]["showdown"] == pytest.approx(sum(e["reason"] == "showdown" for e in ends) / games)
    assert report["returns_mean"] == pytest.approx([statistics.fmean(e["returns"][s] for e in ends)
                                                    for s in range(players)])
    assert sum(report["returns_mean"]) == pytest.approx(0, abs=1e-9)
    assert report["pot_mean"] == pytest.approx(statistics.fmean(e["pot"] for e in ends))
    assert report["raises_mean"] == pytest.approx(statistics.fmean(
        sum(e.kind == "raised" for e in events) for events in matches))
    assert report["round_2_mean"] == pytest.approx(statistics.fmean(
        any(e.kind == "public_card_dealt" for e in events) for events in matches))
    assert report["split_pot_mean"] == pytest.approx(statistics.fmean(len(e["winners"]) > 1 for e in ends))


def test_the_heuristic_wins_chips_from_random_players() -> None:
    """The built-in heuristic (hand strength and pot odds) against a random
    player, heads-up: measured +0.89 chips a match over 3,000 (standard
    error 0.07); here 1,000 matches must show more than 0.4."""
    report = simulate("--players", "2", "--games", "1000", "--policy", "heuristic,random", "--seed", "7")
    assert report["policies"] == ["heuristic", "random"]
    assert report["returns_mean"][0] > 0.4


# ------------------------------------------------------------------ ladder


@pytest.mark.slow
def test_leduc_has_its_own_ladder_from_two_seats(tmp_path: Path) -> None:
    """`referee ladder --game leduc --players 2-4` plays the built-in bots
    (processes) at tables of 2 to 4, rates them on Leduc's own table."""
    db = str(tmp_path / "data" / "ladder.sqlite")
    out = referee("ladder", "--game", "leduc", "--players", "2-4", "--matches", "9", "--move-time", "1s", "--hands", "5",
                  "--seed", "3", "--db", db).output
    assert "played 9 matches" in out and "0 failures" in out
    table = json.loads(referee("table", "--game", "leduc", "--json", "--db", db).output)
    assert table["game"] == "leduc" and table["matches"] == 9
    assert {row["bot"] for row in table["standings"]} == {"random", "heuristic", "mcts-0.05", "mcts-0.2"}
    # a ladder match is a match of hands (rules L-7), its chips per 100 hands in the table
    assert {entry["bot"] for entry in table["scores"]} == {"random", "heuristic", "mcts-0.05", "mcts-0.2"}
    assert sum(entry["deals"] for entry in table["scores"]) == 5 * sum(row["matches"] for row in table["standings"])
