"""Names and titles as people write them (issue 29, point 4): `play`,
`replay` and `view` name each seat by the label the referee gave its bot
(a ladder's `mcts-0.05`, `mcts-0.2`) rather than its handshake name, which
two versions of one bot share (`mcts[0]`, `mcts[1]`); a ladder label's
@VERSION is shown where two seats share a name; titles use the game's
title ("Leduc poker", "Gnadenlos!"), not its id."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ladder.intake.roster import register_builtins
from ladder.reporting.progress import ProgressLines
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import Store
from ladder_support import FakeRunner, add_bots
from referee.web.page import DATA_ID


def referee(*args: str) -> subprocess.CompletedProcess[str]:
    """The command line as a user runs it, its output piped."""
    return subprocess.run([sys.executable, "-m", "referee.cli.main", *args], capture_output=True, text=True,
                          timeout=180)


def seat_names(text: str) -> set[str]:
    """Every NAME[SEAT] shown."""
    return set(re.findall(r"([\w.:@-]+)\[(\d)\]", text))


@pytest.mark.slow
def test_two_versions_of_one_bot_look_different_in_play_replay_and_view(tmp_path: Path) -> None:
    db = tmp_path / "data" / "ladder.sqlite"
    with Store(db) as store:
        register_builtins(store, "leduc")  # mcts-0.05 and mcts-0.2 both say "mcts" in their handshakes
    record = tmp_path / "m.jsonl"
    played = referee("play", "--game", "leduc", "--bot", "mcts-0.05", "--bot", "mcts-0.2", "--bot", "random",
                     "--seed", "4", "--db", str(db), "--record", str(record))
    assert played.returncode == 0, played.stderr
    header = json.loads(record.read_text().splitlines()[0])
    assert [seat["name"] for seat in header["seats"]] == ["mcts", "mcts", "random"]
    assert header["seats"][0]["label"].startswith("mcts-0.05@")  # the ladder's label, with the version
    expected = {("mcts-0.05", "0"), ("mcts-0.2", "1"), ("random", "2")}
    assert seat_names(played.stdout) == expected
    assert played.stdout.startswith("Leduc poker match ")

    replayed = referee("replay", str(record))
    assert replayed.returncode == 0 and seat_names(replayed.stdout) == expected
    assert replayed.stdout.startswith("Leduc poker match ")

    page = tmp_path / "m.html"
    viewed = referee("view", str(record), "--out", str(page))
    assert viewed.returncode == 0, viewed.stderr
    html = page.read_text()
    assert "<title>Leduc poker match " in html and "<h1>Leduc poker match " in html
    data = json.loads(html.split(f'id="{DATA_ID}">', 1)[1].split("</script>", 1)[0])
    assert [seat["name"] for seat in data["seats"]] == ["mcts-0.05", "mcts-0.2", "random"]


@pytest.mark.slow
def test_two_versions_of_one_name_show_their_versions(tmp_path: Path) -> None:
    db = tmp_path / "data" / "ladder.sqlite"
    with Store(db) as store, store.transaction() as conn:
        for version in ("old", "new"):  # two versions of "rnd", each the built-in random bot
            store.add_bot(conn, name="rnd", version=version, content_hash=f"hash-{version}", kind="builtin",
                          command=["random"], folder=None, games=["gnadenlos"])
    played = referee("play", "--bot", "rnd@old", "--bot", "rnd@new", "--bot", "random", "--seed", "2",
                     "--db", str(db))
    assert played.returncode == 0, played.stderr
    assert seat_names(played.stdout) == {("rnd@old", "0"), ("rnd@new", "1"), ("random", "2")}
    assert played.stdout.startswith("Gnadenlos! match ")


@pytest.mark.slow
def test_play_names_a_built_in_by_its_spec() -> None:
    played = referee("play", "--game", "leduc", "--bot", "mcts:50ms", "--bot", "mcts:0.1", "--seed", "1")
    assert played.returncode == 0, played.stderr
    assert seat_names(played.stdout) == {("mcts:50ms", "0"), ("mcts:0.1", "1")}


def test_a_ladder_log_names_two_versions_of_one_bot_with_their_versions(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """`referee ladder`'s line per match in a log (ladder/reporting/progress.py): a
    --versus run seats both versions of one bot at every table."""
    with Store(tmp_path / "data" / "ladder.sqlite") as store:
        [old] = add_bots(store, ["mine"])
        with store.transaction() as conn:
            new = store.add_bot(conn, name="mine", version="2", content_hash="hash-mine-2", kind="submitted",
                                command=["fake"], folder="bots/mine2", games=["gnadenlos"])
        add_bots(store, ["other"])
        lines = ProgressLines(store, 3)
        Ladder(store, InlinePool(FakeRunner()), LadderConfig(matches=3, sizes=(3,), seed=1, versus=(new, old)),
               on_update=lines.update).run()
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3
    assert all(re.search(r"\d mine@2\b", line) and re.search(r"\d mine@1\b", line) and " other" in line
               for line in out), out
