"""Each game declares its variant options apart from its engine
(GamePlugin.variants), so a bot declares the variants it plays without
loading rules it does not use: the served random bot starts with no engine."""

from __future__ import annotations

import subprocess
import sys

from bots.sdk import every_variant
from referee.games import game_names, load_game
from referee.games.plugin import plugin
from referee.games.rule_sets import option_tags


def test_every_game_declares_exactly_its_engines_variant_options():
    assert {"gnadenlos", "saboteur", "leduc"} <= set(game_names())  # the games are installed (entry points)
    for name in game_names():
        assert dict(plugin(name).load("variants") or {}) == dict(load_game(name).variant_options), name


def test_every_variant_names_every_tag_of_the_engines():
    names = game_names()
    assert every_variant(names) == tuple(tag for name in names
                                         for tag in option_tags(name, load_game(name).variant_options))


def test_the_served_random_bot_starts_without_loading_any_engine():
    """Finding the installed games and declaring every variant load no rules
    (each game package imports its engine's names only when they are used)."""
    code = ("import sys, bots.random.__main__\n"
            "from bots.random.bot import ProtocolRandomBot\n"
            "assert ProtocolRandomBot.variants and ProtocolRandomBot.games\n"
            "print(' '.join(m for m in sys.modules if m.startswith('referee.games.') and m.count('.') == 3))\n")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert loaded and all(module.endswith(".variants") for module in loaded), loaded
