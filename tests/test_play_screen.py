"""`referee play` on a terminal: one screen that updates in place.

Run in a real terminal (tmux, as a person would), a 10-player Saboteur
match leaves a short history: the screen was redrawn in place, then the
result printed below it. Piped, the same match stays line-oriented, and
the maze, which a log cannot redraw, is printed as each round begins and
ends (issue 29: 4,385 lines for a 7-player match before, 538 now).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # matches watched in a real terminal (tmux)

MATCH = ["play", "--game", "saboteur", "--seed", "5", "--move-time", "1s", *(["--bot", "random"] * 10)]
TITLE = "Saboteur — round"


def test_on_a_terminal_the_match_is_one_screen_redrawn_in_place(tmp_path: Path) -> None:
    if shutil.which("tmux") is None:
        pytest.fail("tmux is needed: apt-get install -y tmux (`make test-packages` does it)", pytrace=False)
    session = f"referee-play-{uuid.uuid4().hex[:8]}"
    done = tmp_path / "done"
    command = " ".join([sys.executable, "-m", "referee.cli.main", *MATCH]) + f"; touch {done}; sleep 60"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "140", "-y", "60", command], check=True)
    try:
        deadline = time.monotonic() + 240
        while not done.exists() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert done.exists(), "the match did not finish in four minutes"
        history = subprocess.run(["tmux", "capture-pane", "-p", "-t", session, "-S", "-", "-E", "-"],
                                 capture_output=True, text=True, check=True).stdout.splitlines()
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)
    tail = "\n".join(history[-25:])  # what the terminal showed last, should the match have gone wrong
    assert any("Result: rounds_played" in line for line in history), f"the match did not end:\n{tail}"
    # the screen's one panel is the last maze drawn: a turn's ("Saboteur — round …") or, when the match
    # ends on a round's last turn, the round's end ("the maze at the end of round 3")
    panels = [line for line in history if line.startswith("╭─")]
    assert len(panels) == 1, f"one table, redrawn in place:\n{tail}"
    assert TITLE in panels[0] or "the maze at the end of round" in panels[0], panels[0]
    assert len(history) < 200, f"{len(history)} lines: the terminal was flooded"


@pytest.mark.parametrize("players", [4, 10])
def test_piped_the_match_stays_line_oriented_and_draws_the_maze_per_round(players: int) -> None:
    out = subprocess.run([sys.executable, "-m", "referee.cli.main", *MATCH[:7], *(["--bot", "random"] * players)],
                         capture_output=True, text=True,
                         timeout=120).stdout
    lines = out.splitlines()
    rounds = sum("— round" in line and " begins: " in line for line in lines)
    assert rounds == 3 and "Result: rounds_played" in out  # Saboteur's three rounds (S-7.1), played to the end
    assert out.count(TITLE) == rounds  # the maze as each round begins ...
    assert out.count("the maze at the end of round") == rounds  # ... and as it ends, and at no other time
    assert len(lines) < 800, f"{len(lines)} lines"
    assert all("╭─" not in line or TITLE in line or "the maze at the end" in line for line in lines)


def test_step_needs_a_terminal() -> None:
    result = subprocess.run([sys.executable, "-m", "referee.cli.main", *MATCH, "--step"], capture_output=True,
                            text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 2 and "--step waits for a key: it needs a terminal" in result.stderr
