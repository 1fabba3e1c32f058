"""Rules engines. Pure and deterministic; they import nothing else of `referee`.

Each game is one package (`gnadenlos/`, `saboteur/`) that declares what the
harness needs from it in a `GamePlugin`, found through the
`bot_referee.games` entry points (`referee.games.plugin`). `load_game(name)`
finds a game by name (`load_game(name, options)`: configured with a rule set,
referee.games.rule_sets); `referee.games.base` holds the game-neutral interface
every engine implements (documented in docs/engine.md).

The engines run compiled when the package's build compiled them, else from
their sources; `native.select()` decides before any engine module loads.
"""

from referee.games import native

native.select()  # before the first engine module

from referee.games.base import (
    Action,
    Event,
    Game,
    IllegalActionError,
    InvalidActionError,
    Observation,
    Outcome,
    Seat,
    State,
)
from referee.games.plugin import GamePlugin, game_names, load_game
from referee.games.rule_sets import RuleSet

__all__ = [
    "Action",
    "Event",
    "Game",
    "GamePlugin",
    "IllegalActionError",
    "InvalidActionError",
    "Observation",
    "Outcome",
    "RuleSet",
    "Seat",
    "State",
    "game_names",
    "load_game",
]
