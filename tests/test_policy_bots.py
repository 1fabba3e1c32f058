"""Policies as bots (issue 27, part 4): `botsdk.policy` serves a callable, an OpenSpiel policy or a tabular policy file.

A callable policy is served as a real bot process in the referee's jail
and plays Gnadenlos!, Saboteur and Leduc poker without a strike; an
OpenSpiel `TabularPolicy` asked through the SDK's stand-in state gives the
probabilities it gives OpenSpiel's own states; the tabular file format is
written all or nothing, readable by the bot's user, and refused with a
message naming the problem when malformed; how an answer becomes an
action; and the SDK's new modules load nothing outside the SDK.
"""

from __future__ import annotations

import json
import random
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from botsdk.encoding import encoding_for
from botsdk.policy import FORMAT, PolicyBot, SeatState, read_table, table_from_openspiel, write_table
from referee.cli.main import cli

BOTS = Path(__file__).parent / "bots"
pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the open_spiel package of the dev extra) is not installed")
import envs.openspiel  # noqa: E402,F401


@pytest.mark.parametrize("game, seats", [("leduc", 3), ("saboteur", 4), ("gnadenlos", 3)])
def test_a_callable_policy_plays_as_a_process_in_the_jail(game: str, seats: int) -> None:
    bot = f"{sys.executable} {BOTS / 'policy_callable_bot.py'} {game}"
    args = ["play", "--game", game, "--bot", bot, *["--bot", "random"] * (seats - 1), "--seed", "5", "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    played = json.loads(result.output[result.output.index("{"):])
    assert played["forfeits"] == {} and played["strikes"] == [0] * seats and played["decisions"] > seats
    assert played["seats"][0]["name"] == f"callable-{game}"


def test_an_openspiel_policy_reads_the_stand_in_state_as_a_real_one() -> None:
    from open_spiel.python import policy as openspiel_policy

    reference = pyspiel.load_game("leduc_poker", {"players": 2})
    tabular = openspiel_policy.TabularPolicy(reference)
    rng = random.Random(2)
    for row in range(len(tabular.action_probability_array)):  # a policy with a distinct row per state
        weights = [rng.random() * legal for legal in tabular.legal_actions_mask[row]]
        tabular.action_probability_array[row] = [w / sum(weights) for w in weights]
    game = pyspiel.load_game("python_leduc", {"players": 2})
    encoding = encoding_for("leduc", 2)
    compared = 0
    for _ in range(100):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
                continue
            seat = state.current_player()
            legal = state.table.legal_messages(seat)
            stand_in = SeatState(encoding, state.message(seat), legal, seat)
            assert tabular.action_probabilities(stand_in, seat) == tabular.action_probabilities(state, seat)
            bot = PolicyBot.from_openspiel(tabular, "leduc", greedy=True)
            chosen = bot.pick(bot.chooser(encoding, state.message(seat), legal, seat), encoding.legal_indices(legal))
            best = max(tabular.action_probabilities(state, seat).items(), key=lambda kv: (kv[1], -kv[0]))[0]
            assert chosen == best
            compared += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert compared > 200
    with pytest.raises(ValueError, match="seat 1's view"):
        SeatState(encoding, state.message(0), [], 0).information_state_string(1)


def test_tabular_policy_files(tmp_path: Path) -> None:
    from open_spiel.python import policy as openspiel_policy

    states = table_from_openspiel(openspiel_policy.TabularPolicy(pyspiel.load_game("leduc_poker", {"players": 2})))
    assert len(states) == 936 and all(abs(sum(p.values()) - 1) < 1e-9 for p in states.values())
    path = tmp_path / "policy.json"
    write_table(path, "leduc", states)
    assert read_table(path, "leduc") == states
    assert stat.S_IMODE(path.stat().st_mode) == 0o644  # the bot's own user reads it in the jail
    assert [p.name for p in tmp_path.iterdir()] == ["policy.json"]  # no temporary file left
    bad = {
        "not json": ("{", "not JSON"),
        "another format": (json.dumps({"format": "x", "version": 1}), "format"),
        "another game": (json.dumps({"format": FORMAT, "version": 1, "game": "saboteur", "states": {}}), "for 'saboteur'"),
        "negative": (json.dumps({"format": FORMAT, "version": 1, "game": "leduc", "states": {"s": {"0": -1}}}), "at least 0"),
        "index": (json.dumps({"format": FORMAT, "version": 1, "game": "leduc", "states": {"s": {"3": 1}}}), "0 to 2"),
    }
    for what, (text, message) in bad.items():
        path.write_text(text)
        with pytest.raises(ValueError, match=message):
            read_table(path, "leduc")
    with pytest.raises(ValueError, match="cannot read"):
        read_table(tmp_path / "missing.json")


def test_how_an_answer_becomes_an_action() -> None:
    bot = PolicyBot(lambda *args: 0, "leduc", seed=1)
    assert bot.pick(2, [1, 2]) == 2
    with pytest.raises(ValueError, match="not legal"):
        bot.pick(0, [1, 2])
    assert bot.pick([0.9, 0.0, 0.1], [1, 2]) == 2  # restricted to the legal actions
    assert bot.pick({1: 0.0, 2: 1.0}, [1, 2]) == 2
    assert bot.fallbacks == 0
    assert {bot.pick({}, [1, 2]) for _ in range(40)} == {1, 2} and bot.fallbacks == 40  # uniform, counted
    greedy = PolicyBot(lambda *args: 0, "leduc", greedy=True)
    assert greedy.pick([0.0, 0.5, 0.5], [1, 2]) == 1  # ties to the lowest index
    with pytest.raises(ValueError, match="finite"):
        bot.pick([float("nan"), 1.0, 0.0], [0, 1])


def test_the_policy_command_line_refuses_a_bad_file(tmp_path: Path) -> None:
    (tmp_path / "p.json").write_text("[]")
    done = subprocess.run([sys.executable, "-m", "botsdk.policy", "serve", "--game", "leduc", "--table",
                           str(tmp_path / "p.json"), "--socket", str(tmp_path / "s")], capture_output=True, text=True)
    assert done.returncode == 2 and "not a tabular policy file" in done.stderr


def test_the_new_sdk_modules_load_nothing_outside_the_sdk() -> None:
    code = ("import sys, botsdk.encoding, botsdk.policy; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'referee', 'bots', 'envs', 'numpy', 'open_spiel', 'pyspiel'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
