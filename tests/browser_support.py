"""Headless Chromium for the browser tests, driven with selenium.

Debian's `chromium` and `chromium-driver` (/usr/bin/chromium,
/usr/bin/chromedriver), installed by the project's test set-up (Makefile,
`browsers`). The browser starts with a fresh profile and everything that
would reach out on its own turned off; its performance log records every
network request a page makes, so a test can check that a page reached
nothing but its own file (or its own server). A page can be laid out for a
phone's width (`viewport`: Chromium's device emulation). Screenshots are
kept in test-artifacts/ at the repository's top (git-ignored), one folder
per test module, for a person to look at after the run.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
WIDE = 1400
"""px: the window's width, a desktop screen's."""
PHONE = 390
"""px: a phone's screen width (an iPhone 12 to 15's, in CSS pixels)."""
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1400,1000")


def require_chromium() -> None:
    """Fail (not skip: a browser test that does not run is not done) when
    the browser is missing, saying how to install it."""
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        pytest.fail("headless Chromium is needed: apt-get install -y chromium chromium-driver "
                    "(`make test-packages` does it)", pytrace=False)


@contextmanager
def chromium() -> Iterator[Any]:
    """A selenium driver of a headless Chromium with a fresh profile."""
    require_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="referee-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def console_errors(driver: Any) -> list[str]:
    """The console's errors since the last call (CSP violations are errors too)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]


def requested_urls(driver: Any) -> list[str]:
    """Every URL the page asked the network for since the last call."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def viewport(driver: Any, width: int, height: int = 1000) -> None:
    """Lay pages out for a screen `width` x `height` CSS px, as a phone's
    below 600 px wide (the page's viewport meta honoured, scrollbars over
    the page), through Chromium's device emulation; it stays until changed.
    The page gets a resize event, as it would on a real screen."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def screenshot(driver: Any, folder: str, name: str, width: int = WIDE) -> Path:
    """Keep a screenshot of the whole page, laid out `width` px wide, as
    test-artifacts/<folder>/<name>.png (the page stays laid out so)."""
    path = ARTIFACTS / folder / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    viewport(driver, width)
    height = driver.execute_script("return Math.max(document.body.scrollHeight, 800)")
    viewport(driver, width, min(int(height) + 40, 4000))
    driver.save_screenshot(str(path))
    return path


def play_record(folder: Path, game: str, bots: int, seed: int) -> Path:
    """A real match record, as a person makes one: `referee play --record`
    with random bots (a forfeit, should a bot fail to start, still gives a
    whole record: the referee plays that seat)."""
    import subprocess
    import sys

    record = folder / f"{game}-{bots}.jsonl"
    command = [sys.executable, "-m", "referee.cli.main", "play", "--game", game, "--seed", str(seed),
               "--move-time", "2s", "--json", "--record", str(record)]
    for _ in range(bots):
        command += ["--bot", "random"]
    subprocess.run(command, capture_output=True, timeout=120, check=False)
    assert record.exists(), f"referee play wrote no record: {command}"
    return record


def open_page(driver: Any, url: str) -> None:
    """Load `url` afresh (a change of #fragment alone would not reload), with
    the console and network logs emptied first."""
    driver.get("about:blank")
    console_errors(driver)
    requested_urls(driver)
    driver.get(url)
