"""Rating and evidence: what the results say about the bots.

Above the store and the deals; knows nothing of how bots come in, where
matches run or what is scheduled next:

- `ratings`: TrueSkill for free-for-all matches with ties and forfeits;
- `evidence`: pairwise evidence from shared duplicate sets, with a stated
  error rate;
- `sprt`: the sequential test of "is NEW better than OLD?" (`--versus`);
- `stopping`: when every adjacent pair of the standings is settled;
- `standings`: the standings, head-to-head and seats of a game's ladder,
  computed from the store (`referee table --json`).
"""
