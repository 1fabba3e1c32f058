"""A bot's rating as the store keeps it: TrueSkill's belief mu ± sigma.

The value lives with the store, which saves and reads it, so that the
store needs nothing of the rating code (ladder.rating.ratings computes new
skills from old ones; ladder.rating.standings reads them back).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: 99.7% sure the true skill is at least this."""
        return self.mu - 3 * self.sigma
