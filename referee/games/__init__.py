"""Rules engines. Pure and deterministic; they import nothing else of `referee`.

`load_game(name)` finds a game by name; `referee.games.base` holds the
game-neutral interface every engine implements (documented in docs/engine.md).
"""

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
    game_names,
    load_game,
)

_BUILTIN_GAMES = ("referee.games.gnadenlos", "referee.games.saboteur")


def _load_builtin_games() -> None:
    """Import the built-in game packages once; each registers itself."""
    import importlib

    for module in _BUILTIN_GAMES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


__all__ = [
    "Action",
    "Event",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "Observation",
    "Outcome",
    "Seat",
    "State",
    "game_names",
    "load_game",
]
