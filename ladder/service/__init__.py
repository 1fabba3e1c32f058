"""The ladder as a service (`referee serve`): the ladder runs continuously
and answers the gRPC API `ladder.v1.Ladder` (proto/ladder/v1/ladder.proto).

- `server`: the process: the store's one owner, the run loop, the gRPC server, stopping;
- `servicer`: the API on gRPC: which calls take which threads, live streams, quotas applied;
- `api`: what the calls answer (submit, retire, bots, standings, records, logs), refusals;
- `quotas`: rate limits and stream caps per client;
- `audit`: the log of who submitted and retired what;
- `events`: finished matches and standings fanned out to live streams;
- `addresses`: which addresses are this machine's own;
- `client`: the other side, for `referee submit/bots/table/logs/records/report --server`;
- `cli`: the `referee serve`, `referee token` and `referee records` commands.
"""
