"""The ladder: bots submitted, matches scheduled and played on Dask, TrueSkill
ratings, a store, a service and its reports (docs/ladder.md).

Its rooms, each a package that imports only the rooms listed before it
(docs/architecture.md, "The ladder's rooms"; pyproject.toml's import
contracts keep it so):

- `store`: the persistent store and the values it keeps;
- `deals`: the seed chain a ladder commits to, and its audit;
- `rating`: TrueSkill, pairwise evidence, the SPRT, stopping, the standings;
- `intake`: a bot copied in within limits, checked, registered;
- `running`: matches played on workers, with warm bots;
- `scheduling`: the run loop: what is played next, each result rated;
- `reporting`: tables, live views, progress lines, the report page;
- `service`: what the ladder serves over the network: the gRPC API and the
  live page;
- `cli`: the `referee` commands of the ladder, declared to the referee's
  command line through an entry point.

The ladder plays a match only through the referee's public API
(`referee.match.run_match`); the referee never imports the ladder.
"""
