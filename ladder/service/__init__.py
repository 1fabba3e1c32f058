"""Service: what the ladder serves over the network.

The ladder as a service (`referee serve`): the ladder runs continuously and
answers the gRPC API `ladder.v1.Ladder` (proto/ladder/v1/ladder.proto);
and the live page, the report served over HTTP as matches finish (beside
`referee serve`, `referee ladder` or `referee report`). The highest room
below the command line, which it never imports:

- `server`: the process: the store's one owner, the run loop, the gRPC server, stopping;
- `servicer`: the API on gRPC: which calls take which threads, live streams, quotas applied;
- `api`: what the calls answer (submit, retire, bots, standings, records, logs), refusals;
- `access`: submitters' tokens, and which bots are whose;
- `quotas`: rate limits and stream caps per client;
- `audit`: the log of who submitted and retired what;
- `events`: finished matches fanned out to live streams (the API's and the live page's);
- `live`: the live page over HTTP, with server-sent events;
- `addresses`: which addresses are this machine's own;
- `bearer`: how a submitter's token travels with a call;
- `client`: the other side, for `referee submit/bots/table/logs/records/report --server`.
"""
