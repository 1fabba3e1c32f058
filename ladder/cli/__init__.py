"""The command line: the ladder's `referee` commands, composing the rooms below.

The highest room: nothing of the ladder imports it. `commands` declares
the commands to the referee's command line (the `bot_referee.commands`
entry point); each command's module imports at its top what it needs, and
is imported only when its command runs:

- `submit`: `referee submit`, `retire`;
- `check`: `referee check`;
- `bots`: `referee bots`, `logs`;
- `run`: `referee ladder` (and its live page, --web);
- `table`: `referee table`;
- `report`: `referee report`;
- `audit`: `referee ladder-audit`;
- `serve`: `referee serve`;
- `tokens`: `referee token add/list/revoke`;
- `records`: `referee records`;
- what they share: `options` (--db, --game, --config, ...), `config_file`
  (--config FILE), `remote` (--server), `pool` (the Dask pool of `ladder`
  and `serve`).
"""
