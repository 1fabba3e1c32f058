"""docs/protocol.md, "Writing a bot in Python without the SDK" (issue 29):
the page's three blocks, run as a stranger would run them. Its shell block
generates the protocol's modules with grpcio-tools' protoc into a fresh
bot folder, its Python block is that folder's bot.py and its TOML block
its bot.toml; `referee check` then starts the bot in the jail as the
ladder would and plays it through every game it lists.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from referee.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
SECTION = "## Writing a bot in Python without the SDK"


def blocks() -> dict[str, str]:
    """The section's first code block of each language, by language."""
    page = (ROOT / "docs" / "protocol.md").read_text()
    section = page.split(SECTION + "\n", 1)[1].split("\n## ", 1)[0]
    found: dict[str, str] = {}
    for language, body in re.findall(r"^```(\w+)\n(.*?)^```$", section, re.M | re.S):
        found.setdefault(language, body)
    assert set(found) == {"sh", "python", "toml"}, sorted(found)
    return found


def test_the_pages_bot_without_the_sdk_is_built_and_passes_check(tmp_path: Path) -> None:
    """From a stand-in for the repository's root (its proto/ and the
    referee's virtualenv linked in), the shell block's commands as written;
    then the two files; then `referee check`, which must pass cleanly."""
    code = blocks()
    root = tmp_path / "checkout"
    root.mkdir()
    (root / "proto").symlink_to(ROOT / "proto")
    (root / ".venv").symlink_to(Path(sys.prefix))  # the virtualenv running these tests: .venv/bin/python
    for line in code["sh"].replace("\\\n", " ").splitlines():
        done = subprocess.run(shlex.split(line), cwd=root, capture_output=True, text=True)
        assert done.returncode == 0, f"{line}\n{done.stdout}{done.stderr}"
    bot = root / "mybot"
    generated = sorted(str(path.relative_to(bot)) for path in bot.rglob("*.py"))
    assert "tournament/v1/tournament_pb2_grpc.py" in generated and "leduc/v1/leduc_pb2.py" in generated
    (bot / "bot.py").write_text(code["python"])
    (bot / "bot.toml").write_text(code["toml"])
    result = CliRunner().invoke(cli, ["check", str(bot), "--decisions", "20", "--json",
                                      "--log-dir", str(tmp_path / "logs")])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["passed"] and report["bot"]["name"] == "plain-random"
    assert [game["game"] for game in report["games"]] == ["gnadenlos", "saboteur", "leduc"]
    assert all(game["decisions"] >= 20 and game["faults"] == {} for game in report["games"])
    assert not [f for f in report["findings"] if f["severity"] != "ok"]  # no warning: health, SIGTERM, times
