"""The interval the ladder's pages and the tournament's table put on a share.

The 95 % Wilson score interval of a proportion: it stays inside 0..1 and is
honest for small counts, unlike the normal approximation. For a mean of
values in 0..1 (a duplicate set's score) it is conservative: such a value's
variance is at most p(1 - p) for mean p, the variance the interval assumes.
"""

from __future__ import annotations

import math

Z95 = 1.959964
"""The standard normal quantile of a two-sided 95 % interval."""


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) without data."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
