"""Where the harness finds games: one declaration per game, one registry.

A game is one package (docs/engine.md, "Adding a game"). Besides its rules
engine it brings everything the harness needs from it: its protocol codec,
its drawing, its end-of-match summary, its `referee simulate` report, and
what the built-in bots need to play it. The package declares where each of
these lives in a `GamePlugin`, and names that declaration in the
`bot_referee.games` entry point group of its distribution's metadata (the
Python ecosystem's convention for plugins, as pytest and flake8 use), so
the harness finds a game installed from any distribution.

The declaration holds import paths, not objects: each layer imports only
the part it uses, when it uses it (the referee never loads a renderer to
play a match, a bot never loads the protocol's codec module of a game it
does not play), and the rules engines still import nothing of the layers
above them. The typed accessors are in the layers: `load_game` and
`load_strategy` here, `codec_for` in referee.protocol.codec, `renderer_for`
in referee.render.view, `drawing_for` in referee.web.drawing,
`summariser_for` in referee.simulation,
`public_summary` in referee.match; `match_game` here gives the rules a
match is played by where the game declares a match format of its own.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from referee.games.rule_sets import RuleSet

if TYPE_CHECKING:
    from referee.games.base import Game, Observation
    from referee.games.strategy import Strategy

ENTRY_POINT_GROUP = "bot_referee.games"


@dataclass(frozen=True)
class GamePlugin:
    """Everything the harness needs from one game, by where it lives.

    Each part is "module:attribute" relative to `package` (a module alone
    for the codec, whose functions are read by name); the defaults are the
    layout of docs/engine.md, so a game that follows it declares only its
    name and package. A game without a renderer, viewer drawing, summary or
    summariser says None, and the harness uses its game-neutral default.
    """

    name: str
    """The game's name (`Game.name`): what records, the protocol's oneof
    field and the command line call it."""
    package: str
    """The game's package, e.g. "referee.games.saboteur"."""
    engine: str = "game:GAME"
    """The `Game` instance."""
    codec: str = "codec"
    """The module with encode_/decode_ functions for observations, actions
    and events (referee.protocol.codec.GameCodec)."""
    renderer: str | None = "render:Renderer"
    """The `GameRenderer` subclass that draws its table and events."""
    viewer: str | None = "viewer:Drawing"
    """The `GameDrawing` subclass that draws its table as HTML in the browser
    viewer (`referee view`, referee.web.drawing); its events are written
    there by the renderer."""
    summary: str | None = "summary:public_summary"
    """Public end-of-match figures for a record's footer, from the JSON of a
    final observation."""
    summariser: str | None = "summary:SUMMARISER"
    """What `referee simulate` reports beyond the game-neutral figures."""
    strategy: str = "strategy:STRATEGY"
    """What the built-in heuristic and MCTS bots need (referee.games.strategy)."""
    variants: str | None = "variants:VARIANT_OPTIONS"
    """The game's variant options (its `Game.variant_options`: each option
    and its values, the default first), in a module that does not load the
    engine: a bot declares the variant tags it plays in its handshake, at
    start-up, where every module imported is time before its first
    decision. None: the game has no options."""

    match_format: str | None = None
    """What one match of the game is, where it is more than one play of its
    rules: a `MatchFormat` (a Leduc match is many hands, ranked by chips).
    None: a match is one play of the engine's game."""

    def load(self, part: str) -> Any:
        """Import one part (a field name above) and return it (None for a
        part the game does not have)."""
        target: str | None = getattr(self, part)
        if target is None:
            return None
        module_name, _, attribute = target.partition(":")
        module = importlib.import_module(f"{self.package}.{module_name}")
        return getattr(module, attribute) if attribute else module


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A game package's module `__getattr__` (PEP 562): each name of
    `exports` (name: module) is imported from that module of the package
    when first used. So a package can declare its `PLUGIN` without
    importing its engine: finding the installed games loads no rules, and a
    bot that plays from the legal actions alone starts without them."""

    def exported(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return exported


_lock = threading.Lock()
_plugins: dict[str, GamePlugin] | None = None


def plugins() -> dict[str, GamePlugin]:
    """Every installed game's declaration, by name (read once)."""
    global _plugins
    with _lock:
        if _plugins is None:
            found: dict[str, GamePlugin] = {}
            for point in entry_points(group=ENTRY_POINT_GROUP):
                plugin = point.load()
                if not isinstance(plugin, GamePlugin) or plugin.name != point.name:
                    raise TypeError(f"entry point {point.name} = {point.value} is not the GamePlugin "
                                    f"of a game called {point.name!r}")
                found[plugin.name] = plugin
            if not found:
                raise RuntimeError(f"no game is installed (entry point group {ENTRY_POINT_GROUP!r} is empty): "
                                   f"install the project (`make venv`, or `pip install -e .`)")
            _plugins = found
        return _plugins


def plugin(name: str) -> GamePlugin:
    """The declaration of the game called `name`. Raises ValueError if none is installed."""
    try:
        return plugins()[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(sorted(plugins()))}") from None


def game_names() -> list[str]:
    """The names of every installed game."""
    return sorted(plugins())


def load_game(name: str, rule_set: RuleSet | Mapping[str, str] | str | None = None) -> Game:
    """The game called `name`, configured with `rule_set` (as OpenSpiel's
    `load_game(name, params)`): a rule set of that game, its options as a
    mapping (only those given), or their text form ("auction=single", the
    command line's "setup=advanced,gunfight_opt_out"); None or empty: the
    base rules. Raises ValueError if no such game is installed, or it has
    no such rule set (the message lists what it has)."""
    game: Game = plugin(name).load("engine")
    if not rule_set:
        return game
    if isinstance(rule_set, str):
        return game.configure(game.parse_rule_set(rule_set))
    if isinstance(rule_set, RuleSet):
        return game.configure(rule_set)
    return game.configure(game.make_rule_set(rule_set))


def game_of(observation: Observation) -> str:
    """The name of the game `observation` belongs to. Raises ValueError."""
    for name in plugins():
        if isinstance(observation, load_game(name).observation_type):
            return name
    raise ValueError(f"{type(observation).__name__} is no installed game's observation")


@dataclass(frozen=True)
class MatchFormat:
    """A game's own match format (`GamePlugin.match_format`): a match of
    several independent deals of its rules (a poker match of hands),
    ranked by the score they add up to."""

    parameter: str
    """The format's one parameter, as the record's header and the command
    line name it ("hands")."""
    default: int
    """Deals per match unless told otherwise: what a ladder plays."""
    score: str
    """What a match is ranked by, in the tables' words ("chips")."""
    per: int
    """The deals a table's score rate is given per ("chips per 100 hands")."""
    game: Callable[[int], Game]
    """The rules of a match of so many deals: a `Game` whose `match_format()`
    names them."""
    swing: Callable[[int], float]
    """The largest difference two seats' scores can have after one deal, by
    table size (Leduc: 13 chips a seat, rules L-2.1, L-3.5, L-5): the bound
    that lets the ladder judge a pair by its score with always-valid
    evidence (ladder.rating.score_evidence)."""


def match_format_of(name: str) -> MatchFormat | None:
    """The match format the game called `name` declares, or None."""
    declared: MatchFormat | None = plugin(name).load("match_format")
    return declared


def default_match_format(name: str) -> dict[str, int]:
    """The parameters of a ladder's match of the game called `name`: its
    match format's default ({"hands": 100} for Leduc), or {}."""
    declared = match_format_of(name)
    return {} if declared is None else {declared.parameter: declared.default}


def match_game(game: Game | str, parameters: Mapping[str, int] | None = None) -> Game:
    """The rules one match of `game` is played by (a game configured with
    its rule set, or a name: the base rules): the game itself (no
    `parameters`), or, where its plugin declares a match format and
    `parameters` name a count (e.g. {"hands": 100}), its rules dealt that
    many times (`MatchFormat.game`, under the same rule set; one deal, too,
    is then a match of the format, ranked and summed up by its score).
    Raises ValueError for an unknown game, a parameter the game has not or
    a count below 1."""
    engine = load_game(game) if isinstance(game, str) else game
    given = dict(parameters or {})
    if not given:
        return engine
    declared = match_format_of(engine.name)
    if declared is None or set(given) != {declared.parameter}:
        known = f"its match format has {declared.parameter!r}" if declared else "it has no match format"
        raise ValueError(f"{engine.name} has no match parameter {', '.join(sorted(given))}: {known}")
    count = given[declared.parameter]
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"{declared.parameter} must be a whole number from 1, not {count!r}")
    return declared.game(count).configure(engine.rule_set)


def load_strategy(name: str) -> Strategy:
    """What the built-in bots need to play the game called `name`."""
    strategy: Strategy = plugin(name).load("strategy")
    return strategy
