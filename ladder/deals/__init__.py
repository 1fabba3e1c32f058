"""Deals: the seeds a ladder commits to before its first match, and their audit.

Above the store, below the rating (the standings say how much of each
chain is revealed):

- `seedchain`: the reverse hash chain of a ladder's deal seeds;
- `audit`: the deals revealed as far as is safe, checked against the
  chains (`referee ladder-audit`, docs/records.md, "A ladder's deals").
"""
