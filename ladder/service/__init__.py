"""The ladder as a service (`referee serve`): the ladder runs continuously
and answers the gRPC API `ladder.v1.Ladder` (proto/ladder/v1/ladder.proto).

- `server`: the process: the store's one owner, the run loop, the gRPC server;
- `api`: the API's calls (submit, retire, bots, standings, records, logs);
- `events`: finished matches and standings fanned out to live streams;
- `client`: the other side, for `referee submit/bots/table/logs --server`;
- `cli`: the `referee serve` and `referee token` commands.
"""
