"""The public wire layer of the bot protocol (docs/protocol.md).

- `referee.protocol.pb` — code generated from proto/ (`make proto`; `generate`)
- `referee.protocol.codec` — engine values <-> the tournament.v1 envelope, per game
  (each game's own messages are encoded by the `codec` module of its package)
- `referee.protocol.client` — the referee's side: BotClient, the BotFault tree
  (`faults`), TimeControl, PROTOCOL_VERSION, GRACE

Bots may import this package and `referee.games`, nothing else of `referee`.
"""
