"""Per-game summarisers of `referee simulate` (see `referee.simulation.Summariser`).

One module per game, each exposing `SUMMARISER`; `referee.simulation.SUMMARISERS`
maps the game's name to it and imports it on first use.
"""
