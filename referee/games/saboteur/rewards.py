"""Round rewards (S-6.3, S-6.4, S-6.6): who receives which nugget cards.

Pure functions over seat lists and nugget values, so the [chosen] readings of
the rules are easy to test on their own.
"""

from __future__ import annotations

from collections.abc import Sequence


def gold_takers(reacher: int, diggers: Sequence[bool], eligible: Sequence[bool]) -> list[int]:
    """S-6.3/S-6.6: the gold-diggers who take cards, in taking order.

    Play order from the seat that reached the gold; a saboteur reacher is
    skipped, so the first gold-digger after them starts [chosen]. A seat is a
    taker if it is a gold-digger and `eligible` (the variant
    sabotaged_diggers_lose_share makes a digger with a broken tool ineligible).
    """
    n = len(diggers)
    order = [(reacher + i) % n for i in range(n)]
    return [seat for seat in order if diggers[seat] and eligible[seat]]


def share_out(values: Sequence[int], takers: Sequence[int]) -> list[tuple[int, int]]:
    """S-6.3: deal drawn cards (by index into `values`) round the takers, each
    taking the most valuable card left [chosen]. Returns (taker, index) pairs."""
    if not takers:
        return []
    order = sorted(range(len(values)), key=lambda i: -values[i])
    return [(takers[turn % len(takers)], index) for turn, index in enumerate(order)]


def saboteur_payout(available: Sequence[int], amount: int) -> tuple[int, ...]:
    """S-6.4 [chosen]: the nugget values one saboteur receives from the supply.

    The fewest cards whose values sum exactly to `amount`, preferring the
    combination with the most valuable card (4 is paid 3+1, not 2+2); if no
    exact sum is available, the largest smaller sum, chosen the same way.
    Returns the values, most valuable first.
    """
    counts = {value: available.count(value) for value in (1, 2, 3)}
    for target in range(amount, 0, -1):
        best: tuple[int, ...] | None = None
        for threes in range(min(counts[3], target // 3) + 1):
            for twos in range(min(counts[2], (target - 3 * threes) // 2) + 1):
                ones = target - 3 * threes - 2 * twos
                if ones > counts[1]:
                    continue
                combo = (3,) * threes + (2,) * twos + (1,) * ones
                if best is None or (len(combo), [-v for v in combo]) < (len(best), [-v for v in best]):
                    best = combo
        if best is not None:
            return best
    return ()
