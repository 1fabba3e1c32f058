"""The referee's wire layer of the bot protocol (docs/protocol.md).

- `botsdk.contract`, `botsdk.pb` (the bot SDK distribution, sdk/python/) —
  what both sides agree on (PROTOCOL_VERSION, SERVICE, TimeControl, GRACE,
  the handshake's bounds) and the code generated from proto/ (`make proto`;
  `generate`)
- `referee.protocol.codec` — engine values <-> the tournament.v1 envelope, per game
  (each game's own messages are encoded by the `codec` module of its package)
- `referee.protocol.client` — the referee's side: BotClient, the BotFault tree
  (`faults`), the handshake's check (`handshake`)

The built-in bots import `referee.protocol.codec` and `referee.games`
(through `bots.sdk`), nothing else of `referee`; a bot of its own needs only
`botsdk`.
"""
