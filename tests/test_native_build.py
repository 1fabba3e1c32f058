"""The compiled engines play exactly as their Python sources (issue 30).

The package's build compiles the engines, the strategies and the MCTS
search with mypyc and the chance arithmetic in C (setup.py); the sources
run where nothing was built, where BOT_REFEREE_PURE=1 asks for them, and
whenever a source changed after the build (referee/games/native.py). Both
paths must play the same: here seeded matches of every game (who acts,
legal actions, observations, events, outcome, final state), determinizations,
MCTS decisions at fixed iterations and a `simulate` report are digested in
this process and in a fresh one on the sources, and compared.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from referee.games import load_game, native
from referee.simulation import simulate

ROOT = Path(__file__).resolve().parent.parent
TABLES: tuple[tuple[str, int, dict[str, str]], ...] = (("gnadenlos", 3, {}), ("gnadenlos", 4, {"auction": "single", "setup": "advanced"}),
          ("saboteur", 5, {}), ("saboteur", 10, {}), ("leduc", 3, {}))


def _text(obj: object) -> bytes:
    return json.dumps(obj, sort_keys=True).encode("utf-8")


def match_digests() -> dict[str, str]:
    """Per table, a digest of two seeded random matches played through `apply`."""
    digests = {}
    for name, seats, variant in TABLES:
        game = load_game(name)
        digest = hashlib.sha256()
        for seed in (5, 6):
            rng = random.Random(seed)
            state = load_game(game.name, variant).new_state(seats, seed)
            while not state.is_terminal():
                acting = sorted(state.to_act())
                legal = {seat: state.legal_actions(seat) for seat in acting}
                digest.update(_text([acting, [[str(a) for a in legal[seat]] for seat in acting]]))
                observer = rng.randrange(seats)
                observation = state.observe(observer)
                digest.update(_text(observation.to_json()))
                world = game.determinize(observation, random.Random(rng.getrandbits(32)))
                digest.update(_text(world.to_json()))
                decision = {seat: rng.choice(legal[seat]) for seat in acting}
                digest.update(_text([event.to_json() for event in state.apply(decision)]))
            outcome = state.outcome()
            digest.update(_text([outcome.reason, list(outcome.ranks), outcome.detail, state.to_json()]))
        digests[f"{name}@{seats}"] = digest.hexdigest()
    return digests


def search_decisions() -> list[str]:
    """The MCTS bot's choices at a fixed number of iterations, for every game."""
    from bots.mcts import MctsBot
    from bots.sdk import DecisionContext, MatchInfo, TimeControl

    chosen = []
    for name, seats, variant in TABLES:
        state = load_game(name, variant).new_state(seats, 21)
        rng = random.Random(21)
        for _ in range(12):
            if state.is_terminal():
                break
            seat = min(state.to_act())
            info = MatchInfo("native", name, variant, seat, seats, ("bot",) * seats, TimeControl(60.0))
            bot = MctsBot(iterations=25, seed=4)
            action = bot.decide(state.observe(seat), state.legal_actions(seat), DecisionContext(info, 1, 1e12))
            chosen.append(str(action))
            state.apply({s: action if s == seat else rng.choice(state.legal_actions(s)) for s in state.to_act()})
    return chosen


def simulate_reports() -> list[str]:
    reports = []
    for name, seats, variant in TABLES:
        report = simulate(load_game(name, variant), seats, 12, 40).to_json()
        reports.append(json.dumps({k: v for k, v in report.items() if k not in ("seconds", "games_per_second")},
                                  sort_keys=True))
    return reports


def everything() -> dict[str, object]:
    return {"matches": match_digests(), "search": search_decisions(), "simulate": simulate_reports(),
            "code": native.describe()}


def _from_the_sources() -> dict[str, object]:
    code = "import json, sys; sys.path.insert(0, 'tests'); import test_native_build as t; print(json.dumps(t.everything()))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, native.PURE_ENV: "1"},
                          capture_output=True, text=True, check=True, timeout=600)
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_compiled_engines_play_as_their_sources() -> None:
    if not native.compiled():
        pytest.skip(f"no compiled build in use ({native.describe()}): only the sources run here")
    import referee.games.gnadenlos.state as compiled_state

    assert not compiled_state.__file__.endswith(".py"), "native.compiled() but the engine came from its source"
    here = everything()
    there = _from_the_sources()
    assert there["code"] == f"Python sources ({native.PURE_ENV}=1)"
    assert here["matches"] == there["matches"]
    assert here["search"] == there["search"] and len(here["search"]) > 8 * len(TABLES)  # type: ignore[arg-type]
    assert here["simulate"] == there["simulate"]


def test_an_edited_source_is_seen_as_stale(tmp_path: Path) -> None:
    """native.stale: what a build compiled is judged by size and digest, so a
    source edited after the build (same size or not) sends the package to
    its sources instead of the stale extension module."""
    source = tmp_path / "engine.py"
    source.write_text("x = 1\n")
    entry = [str(source), source.stat().st_size, source.stat().st_mtime_ns,
             hashlib.sha256(source.read_bytes()).hexdigest()]
    assert native.stale({"m": entry}) == []
    os.utime(source, ns=(0, 0))  # touched (a checkout): same bytes, still fresh
    assert native.stale({"m": entry}) == []
    source.write_text("x = 2\n")  # same size, other bytes
    assert native.stale({"m": entry}) == [str(source)]
    source.write_text("x = 10\n")
    assert native.stale({"m": entry}) == [str(source)]
    source.unlink()
    assert native.stale({"m": entry}) == [str(source)]


def test_the_sources_are_chosen_on_request() -> None:
    code = ("import json; from referee.games import native; import referee.games.gnadenlos.state as s, "
            "referee.games.chance as c; print(json.dumps([native.compiled(), s.__file__, c.HELPER is None]))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, native.PURE_ENV: "1"},
                          capture_output=True, text=True, check=True, timeout=120)
    compiled, path, no_helper = json.loads(done.stdout.strip().splitlines()[-1])
    assert compiled is False and path.endswith("state.py") and no_helper is True


@pytest.mark.parametrize(("name", "seats", "variant"), TABLES)
def test_engine_values_survive_pickling(name: str, seats: int, variant: dict[str, str]) -> None:
    """States, observations, actions, events and outcomes travel between
    processes (a pool of environments, a cluster's tasks) and copy, compiled
    or not: a compiled frozen dataclass needs its own way to pickle."""
    game = load_game(name)
    state, events = load_game(game.name, variant).new_state_with_events(seats, 3)
    rng = random.Random(3)
    checked = 0
    while not state.is_terminal():
        seat = min(state.to_act())
        for value in (state.observe(seat), *state.legal_actions(seat), *events):
            assert pickle.loads(pickle.dumps(value)) == value
            assert copy.deepcopy(value) == value
            checked += 1
        twin = pickle.loads(pickle.dumps(state))
        assert twin.to_json() == state.to_json() and twin.to_act() == state.to_act()
        events = state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
    outcome = state.outcome()
    assert pickle.loads(pickle.dumps(outcome)) == outcome
    assert checked > 20
