"""`referee play` with people at the table, through the command line (issue 26).

The terminal seat (`--bot human-tty`) is played in a real terminal — tmux,
80 columns, NO_COLOR set — by reading the screen and typing numbers, as a
person would. The browser seat's command line: its page's address is
printed (and given to the browser, where one can be shown), a person's
decision gets 5 minutes unless --move-time says otherwise, and the match
played through the page's own HTTP interface is recorded as any other.
The browser itself is driven in tests/test_browser_seat.py.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from referee.records import read_record
from referee.replay import verify
from seat_support import PageClient, play_page

REFEREE = [sys.executable, "-m", "referee.cli.main"]
PROMPT = re.compile(r"decision (\d+): type a number \(1-(\d+)\) and Enter")
COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-8]|9[0-7]|4[0-8]|10[0-7])[;m]")
"""An SGR sequence that sets a colour (30-38, 90-97; 40-48, 100-107 behind; 39 and 49 are the defaults)."""


class Tmux:
    """A terminal of `width` columns on a tmux server of its own (its socket in `folder`)."""

    def __init__(self, folder: Path, width: int = 80, height: int = 60) -> None:
        if shutil.which("tmux") is None:
            pytest.fail("tmux is needed: apt-get install -y tmux (`make test-packages` does it)", pytrace=False)
        self.socket = str(folder / f"tmux-{uuid.uuid4().hex[:8]}")
        self.width, self.height = width, height

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", self.socket, *args], capture_output=True, text=True, check=True).stdout

    def start(self, command: str) -> None:
        self.tmux("-f", "/dev/null", "new-session", "-d", "-s", "play", "-x", str(self.width), "-y",
                  str(self.height), "sleep 600")
        self.tmux("set-option", "-g", "history-limit", "100000")
        self.tmux("new-window", "-t", "play", command)

    def screen(self, escapes: bool = False) -> list[str]:
        """Everything the terminal showed, its lines as written (-J joins wrapped ones)."""
        return self.tmux("capture-pane", "-p", "-J", *(["-e"] if escapes else []), "-t", "play", "-S", "-",
                         "-E", "-").splitlines()

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "play", text, "Enter")

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], check=False, capture_output=True)


@pytest.mark.parametrize("game,bots", [("leduc", ["random"]), ("gnadenlos", ["random", "random"])])
def test_a_person_plays_at_the_terminal_by_number(tmp_path: Path, game: str, bots: list[str]) -> None:
    record = tmp_path / "match.jsonl"
    done = tmp_path / "done"
    command = " ".join([*REFEREE, "play", "--game", game, "--seed", "12", "--move-time", "30s", "--record",
                        str(record), "--bot", "human-tty", *(word for bot in bots for word in ("--bot", bot))])
    terminal = Tmux(tmp_path)
    terminal.start(f"cd {Path.cwd()} && NO_COLOR=1 {command}; echo status $? > {done}; sleep 600")
    rng = random.Random(12)
    answered = 0
    try:
        deadline = time.monotonic() + 240
        while not done.exists():
            assert time.monotonic() < deadline, "\n".join(terminal.screen()[-30:])
            prompts = [PROMPT.search(line) for line in terminal.screen()[-120:]]
            last = [found for found in prompts if found][-1:]
            if last and int(last[0].group(1)) > answered:
                answered = int(last[0].group(1))
                terminal.type(str(rng.randint(1, int(last[0].group(2)))))
            time.sleep(0.1)
        screen = terminal.screen()
        coloured = terminal.screen(escapes=True)
    finally:
        terminal.close()
    assert done.read_text().split() == ["status", "0"], "\n".join(screen[-30:])
    assert answered >= 1 and any("the match is over" in line for line in screen)
    # the seat's every line fits (the start-up line on the sandbox is play's own, wrapped by the terminal)
    wide = [line for line in screen if len(line) > 80 and not line.startswith("sandbox: ")]
    assert not wide, f"lines wider than the terminal: {wide[:3]}"
    assert not any(COLOUR.search(line) for line in coloured), "NO_COLOR: no colour is written"
    assert any(line.rstrip().endswith("<- you") for line in screen)
    match = read_record(record)
    assert match.header["seats"][0]["kind"] == "person" and match.header["seats"][0]["label"] == "human-tty"
    mine = [line for entry in match.decisions for line in entry["seats"] if line["seat"] == 0]
    assert len(mine) == answered and all(line["by"] == "bot" for line in mine)
    verify(match)


def test_the_browser_seat_is_printed_opened_and_given_five_minutes(tmp_path: Path) -> None:
    """The page's address goes to the browser (here a stand-in named by
    $BROWSER, as Python's webbrowser finds one) when a display is there."""
    opened = tmp_path / "opened"
    browser = tmp_path / "browser.sh"
    browser.write_text(f"#!/bin/sh\necho \"$1\" >> {opened}\n")
    browser.chmod(0o755)
    record = tmp_path / "match.jsonl"
    env = {"PATH": "/usr/bin:/bin", "DISPLAY": ":0", "BROWSER": str(browser), "HOME": str(tmp_path)}
    play = subprocess.Popen([*REFEREE, "play", "--game", "leduc", "--seed", "8", "--bot", "random", "--bot", "human",
                             "--json", "--record", str(record)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    assert play.stderr is not None
    url = ""
    while not url:
        line = play.stderr.readline()
        assert line, "referee play ended before printing the page's address"
        found = re.search(r"seat 1 is yours: play it at (http://127\.0\.0\.1:\d+/seat/[\w-]+/)$", line.strip())
        url = found.group(1) if found else ""
    messages = play_page(PageClient(url), seed=8)
    out, err = play.communicate(timeout=60)
    assert play.returncode == 0, err
    assert opened.read_text().split() == [url]
    assert json.loads(out)["seats"][1]["name"] == "human"
    match = read_record(record)
    assert match.header["seats"][1]["time_control"]["move_time"] == 300.0  # the person's own clock
    assert match.header["time_control"]["move_time"] == 1.0  # the bot's: a person's minutes are not a bot's
    assert [m["allowance"] for m in messages if m["type"] == "ask"][0] == 300.0
    verify(match)


def test_no_browser_is_opened_without_a_display_or_with_no_open(tmp_path: Path) -> None:
    opened = tmp_path / "opened"
    browser = tmp_path / "browser.sh"
    browser.write_text(f"#!/bin/sh\necho \"$1\" >> {opened}\n")
    browser.chmod(0o755)
    for display, flags in (({}, []), ({"DISPLAY": ":0"}, ["--no-open"])):
        env = {"PATH": "/usr/bin:/bin", "BROWSER": str(browser), "HOME": str(tmp_path), **display}
        play = subprocess.Popen([*REFEREE, "play", "--game", "leduc", "--bot", "human", "--bot", "random",
                                 "--move-time", "1s", *flags], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, env=env)
        assert play.stderr is not None
        line = play.stderr.readline() + play.stderr.readline()
        assert "seat 0 is yours: play it at http://127.0.0.1:" in line
        play.kill()
        play.wait(timeout=30)
    assert not opened.exists()


@pytest.mark.parametrize("args,message", [
    (["--bot", "human-tty", "--bot", "human-tty"], "at most one --bot human-tty"),
    (["--bot", "human-tty", "--bot", "random", "--step"], "--step"),
    (["--bot", "humane", "--bot", "random"], "a person (human, human-tty)"),
])
def test_people_are_seated_or_refused_with_a_reason(args: list[str], message: str) -> None:
    done = subprocess.run([*REFEREE, "play", "--game", "leduc", *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and message in done.stderr, done.stderr
