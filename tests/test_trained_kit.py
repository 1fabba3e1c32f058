"""The trained-agent starter kit, run as its README says (issue 27, part 4).

A copy of examples/trained/ is trained for a few iterations with its own
`train.py`, then checked (`referee check`), submitted (`referee submit`),
put on a heads-up Leduc ladder with the built-in bots (`referee ladder`)
and played (`referee play`): the bot is the SDK's policy server in the
referee's jail, reading the policy file the training wrote. Slow: the
training alone takes several seconds.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from referee.cli.main import cli

pytest.importorskip("pyspiel", reason="OpenSpiel (the open_spiel package of the dev extra) is not installed")
pytestmark = pytest.mark.slow

KIT = Path(__file__).resolve().parent.parent / "examples" / "trained"


def referee(*args: str) -> Result:
    result = CliRunner().invoke(cli, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result


def test_the_kit_trains_passes_check_submits_and_lands_on_the_ladder(tmp_path: Path) -> None:
    kit = tmp_path / "trained"
    shutil.copytree(KIT, kit, ignore=shutil.ignore_patterns("policy.json", "__pycache__"))
    for folder in (tmp_path, kit):
        folder.chmod(0o755)
    trained = subprocess.run([sys.executable, str(kit / "train.py"), "--iterations", "2"],
                             capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ""})
    assert trained.returncode == 0, trained.stderr
    assert "936 information states" in trained.stdout
    exploitability = float(re.search(r"exploitability .*: ([0-9.]+)", trained.stdout).group(1))  # type: ignore[union-attr]
    assert 0.0 < exploitability < 2.37  # better than uniform play (2.37) already

    assert "the bot would pass submission" in referee("check", str(kit)).output
    db = str(tmp_path / "ladder.sqlite")
    assert "registered cfr-leduc" in referee("submit", str(kit), "--db", db).output
    ladder = referee("ladder", "--game", "leduc", "--players", "2", "--matches", "16", "--move-time", "300ms", "--hands", "10",
                     "--workers", "1", "--db", db).output
    standings = [line for line in ladder.splitlines() if re.match(r"\s+\d+\s+\S", line)]
    assert any("cfr-leduc" in line for line in standings) and len(standings) >= 4

    played = referee("play", "--game", "leduc", "--bot", f"{kit}/", "--bot", "random", "--seed", "8", "--json").output
    result = json.loads(played[played.index("{"):])
    assert result["forfeits"] == {} and result["strikes"] == [0, 0]
    assert result["seats"][0]["name"] == "cfr-leduc" and result["seats"][0]["version"] == "1"
