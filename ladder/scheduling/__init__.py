"""Scheduling: the ladder run, which decides what is played next and rates
each result as it comes.

Above running (it hands matches to a `Pool`) and the rating:

- `scheduler`: the run loop (`Ladder`): plan duplicate sets, hand matches
  out, rate and store each result in one transaction, stop when asked or
  settled; `recompute`;
- `matchmaking`: which bots meet next, in which seats, on which deal;
- `validation`: the ladder's statistics run on simulated bots of known
  strength (bench/ladder_validation_bench.py).
"""
