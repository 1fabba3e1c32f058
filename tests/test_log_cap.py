"""A bot's log is capped per bot, not per process (the containment issue,
property 10): a bot that exits after every match is restarted by the
ladder each time, and its log must not grow by a cap's worth per process.
The log of a bot version is one file, rotated to `<file>.1` when it would
pass the cap, so at most about twice the cap is kept and the newest output
is always in the current file (`referee logs` shows it)."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import psutil
import pytest
from click.testing import CliRunner

from botsdk.contract import TimeControl
from ladder.intake.roster import command_line
from ladder.running.botfiles import StoreFiles
from ladder.running.runner import RealRunner
from ladder.store.database import Store
from ladder.store.tasks import BotSpec, MatchTask
from ladder_support import install_bot
from referee.cli.main import cli
from referee.sandbox import Limits, SandboxPolicy, spawn
from referee.sandbox.logpipe import TRUNCATED, rotated_path

CHATTY = Path(__file__).parent / "hostile" / "chatty_per_match.py"
MATCHES = 6
SAID = 700 * 1024
"""What the chatty bot writes per match."""


def chatty_folder(path: Path) -> Path:
    path.mkdir()
    shutil.copy(CHATTY, path / "bot.py")
    (path / "bot.toml").write_text('command = "python bot.py"\ngames = ["gnadenlos"]\n')
    return path


SETTLE = 0.3
"""Seconds for the referee to hear that an exited bot is gone (its sandbox's
supervisor reports it): before that the runner would take it for warm, and
the match would merely count as its crash, with no new output."""


def gone(script: str, timeout: float = 30.0) -> bool:
    """Wait until no process runs `script` (the bot exits after its match)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(script in " ".join(p.info["cmdline"] or ()) for p in psutil.process_iter(["cmdline"])):
            time.sleep(SETTLE)
            return True
        time.sleep(0.02)
    return False


@pytest.mark.slow
def test_a_bot_restarted_every_match_keeps_at_most_two_caps_of_log(tmp_path: Path) -> None:
    with Store(tmp_path / "data" / "ladder.sqlite") as store:
        chatty_id = install_bot(store, chatty_folder(tmp_path / "chatty"), "chatty")
        (chatty,) = store.bot_versions("chatty")
        command = tuple(command_line(chatty, store))
        script = command[-1]
        specs = (BotSpec(chatty_id, chatty.label, chatty.kind, chatty.command, chatty.content_hash,
                         str(Path(script).parent)),
                 BotSpec(901, "random-a@1", "builtin", ("random",), "random-a"),
                 BotSpec(902, "random-b@1", "builtin", ("random",), "random-b"))
        runner = RealRunner(TimeControl(move_time=1.0), StoreFiles(), store.logs_dir)
        try:
            for number in range(MATCHES):
                runner.play(MatchTask(f"m{number}", "gnadenlos", "s", 0, number, {}, specs))
                assert gone(script)  # the next match starts it afresh
        finally:
            runner.close()
        logs = sorted(store.logs_dir.glob(f"{chatty.label}*"))
        total = sum(path.stat().st_size for path in logs)
    cap = Limits().log_bytes
    assert MATCHES * SAID > 2 * cap  # without the cap per bot, this much would be kept
    assert total <= 2 * (cap + len(TRUNCATED.format(cap=cap))), [(p.name, p.stat().st_size) for p in logs]
    assert [path.name for path in logs] == [f"{chatty.label}.log", f"{chatty.label}.log.1"]
    assert f"match m{MATCHES - 1} said its piece" in logs[0].read_text()  # the newest output is kept

    shown = CliRunner().invoke(cli, ["logs", "chatty", "--lines", "3", "--db", str(tmp_path / "data" / "ladder.sqlite")])
    assert shown.exit_code == 0, shown.output
    assert f"match m{MATCHES - 1} said its piece" in shown.output
    assert f"{chatty.label}.log.1" in shown.output  # it says an older part exists


def test_processes_sharing_a_log_at_once_keep_it_within_two_caps(tmp_path: Path) -> None:
    """The same bot run by several ladder workers at once writes one log,
    which still never passes the cap (but for each process's truncation
    marker), and only one older part is kept."""
    cap = 100_000
    log = tmp_path / "bot.log"
    policy = SandboxPolicy(limits=Limits(log_bytes=cap))
    write = "import sys\nfor i in range(300): sys.stdout.write(str(i).rjust(999) + '\\n'); sys.stdout.flush()"
    for _ in range(3):
        processes = [spawn([sys.executable, "-c", write], log_path=log, policy=policy) for _ in range(4)]
        for process in processes:
            process.wait(60)
            process.kill_tree()
        marker = len(TRUNCATED.format(cap=cap))
        assert log.stat().st_size <= cap + 4 * marker
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot.log", "bot.log.1"]
    assert log.stat().st_size + rotated_path(log).stat().st_size <= 2 * (cap + 4 * marker)
