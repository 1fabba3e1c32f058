"""Training environments on the exact engines: OpenSpiel games and PettingZoo environments.

- `envs.openspiel`: Gnadenlos!, Saboteur and Leduc poker registered as
  OpenSpiel Python games (`python_gnadenlos`, `python_saboteur`,
  `python_leduc`); importing the module registers them.
- `envs.pettingzoo`: an AEC environment per game (`envs.pettingzoo.env("leduc")`).

Both drive the rules engines (`referee.games`) through `envs.table.Table`
and show a seat exactly what the referee would send it: the engine's
`observe(seat)`, encoded into the protocol's observation message by the
game's codec, then into tensors, strings and action indices by the bot
SDK's `botsdk.encoding`, the code a ladder bot runs (docs/training.md).
"""
