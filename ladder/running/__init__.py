"""Running: matches played on workers, with warm bots, wherever they run.

Above the store and the intake (a worker starts a bot from its archive);
knows nothing of what is scheduled next or how results are rated:

- `dispatch`: all the run loop knows of where matches run (`Pool`), and
  the in-process pool the tests use;
- `cluster`: every match a Dask task, on an embedded or a remote cluster;
- `runner`: one match played through the referee's public API, with the
  bots kept warm between matches;
- `botfiles`: a bot's files fetched once per worker by their content hash;
- `botlogs`: the bots' output shipped back from the workers with each
  result.
"""
