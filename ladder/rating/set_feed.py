"""A ladder's finished duplicate sets, each read from the store once.

The pairwise evidence (ladder.rating.evidence by places,
ladder.rating.score_evidence by a score, ladder.rating.control_variate with
the reference's correction) takes the finished sets one by one, in the order
they finished (the sequence number of a set's last match), and only whole
ones: a set whose rotations are still planned waits, so that its score never
changes once counted. Each kind of evidence reads its own facts of a match
(the places, the chips, the deal): its `Reader`.

`--until-stable` and `--versus` look at the evidence after every match.
Rebuilt from every stored result, each look took time in proportion to the
store (0.41 s at 8,000 matches of a Gnadenlos! ladder, 1.24 s at 8,000 Leduc
matches, whose summaries hold every hand: docs/benchmarks.md, "Evidence as
the store grows"), so a run of n matches spent time in proportion to n
squared on it. A `SetFeed` remembers the highest
sequence number it has read and holds the matches of the sets that are not
yet whole: a look reads only the matches stored since and hands out the
sets that have finished, and `KeptEvidence` adds them to the evidence it
keeps. A feed hands the sets out in the order a reading of the whole store
gives, so the evidence is the same either way (tests/test_ladder_set_feed.py
checks it after every match of a ladder); where the store could give
another order (a set whose last rotations were dropped, finishing before
one already handed out), the feed says so and the evidence is built anew.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from ladder.rating.evidence import Evidence
from ladder.store.database import Store

Item = TypeVar("Item")
Item_contra = TypeVar("Item_contra", contravariant=True)


@dataclass(frozen=True)
class StoredMatch(Generic[Item]):
    """One stored match as a kind of evidence reads it."""

    set_id: str
    seq: int
    """The match's sequence number in the store (rating order)."""
    item: Item | None
    """What the evidence reads of it; None when the match cannot be read
    that way (a Leduc match stored before its chips were): its set is then
    left out whole."""


Reader = Callable[[Store, str, str, int], list[StoredMatch[Item]]]
"""(store, game, rule set, after): the matches of the rule set stored after
sequence number `after`, in sequence order. A reader that reads a match's
facts and its seats in two queries reads the matches first. A run holds
the store alone (Store.run_lock), but should a match be stored between the
two queries (with its seats, in one transaction), it is then left for the
next look; read the other way round, it would be a match without seats,
and its set would be handed out so for good."""


class SetFeed(Generic[Item]):
    """The finished sets of one rule set of a game, each handed out once."""

    def __init__(self, game: str, rule_set: str, read: Reader[Item]) -> None:
        self.game, self.rule_set, self.read = game, rule_set, read
        self.read_after = 0
        """The highest sequence number read."""
        self.waiting: dict[str, list[StoredMatch[Item]]] = {}
        """The matches read of each set not yet handed out."""
        self.handed: set[str] = set()
        self.last = 0
        """The sequence number the last set handed out finished with."""

    def take(self, store: Store) -> list[list[Item]] | None:
        """The sets finished since the last take, in the order they finished,
        each as its matches' items in sequence order (a set with a match the
        reader cannot read is left out); None when a reading of the whole
        store would order the sets otherwise than they were handed out
        (start a new feed). A new feed never says None."""
        pending = {p["set_id"] for p in store.planned(self.game, self.rule_set)}
        # Read after the plans: a set not planned then is whole in what follows.
        for match in self.read(store, self.game, self.rule_set, self.read_after):
            if match.set_id in self.handed:
                return None
            self.waiting.setdefault(match.set_id, []).append(match)
            self.read_after = max(self.read_after, match.seq)
        finished = sorted((s for s in self.waiting if s not in pending), key=lambda s: self.waiting[s][-1].seq)
        if finished and self.waiting[finished[0]][-1].seq < self.last:
            return None
        sets = []
        for set_id in finished:
            matches = self.waiting.pop(set_id)
            self.handed.add(set_id)
            self.last = matches[-1].seq
            items = [m.item for m in matches if m.item is not None]
            if len(items) == len(matches):
                sets.append(items)
        return sets


def whole_store(store: Store, game: str, rule_set: str, read: Reader[Item]) -> list[list[Item]]:
    """Every finished set of the rule set, read at once (for one look: a table, a report)."""
    sets = SetFeed(game, rule_set, read).take(store)
    assert sets is not None, "a new feed hands out every finished set"
    return sets


class Collector(Protocol[Item_contra]):
    """A kind of evidence being built, fed set by set in the order they finished."""

    def add_set(self, matches: Sequence[Item_contra]) -> None: ...

    def evidence(self) -> Mapping[tuple[int, int], Evidence]:
        """Every pair's evidence, keyed (smaller id, larger id), seen from the smaller id."""
        ...


class KeptEvidence(Generic[Item]):
    """One kind of evidence of one rule set of a game, kept up to date by a
    feed: each look adds only the sets finished since the one before."""

    def __init__(self, game: str, rule_set: str, read: Reader[Item], start: Callable[[], Collector[Item]]) -> None:
        self.game, self.rule_set, self.read, self.start = game, rule_set, read, start
        self.feed = SetFeed(game, rule_set, read)
        self.collector = start()

    def current(self, store: Store) -> Mapping[tuple[int, int], Evidence]:
        """The evidence of every finished set in the store now."""
        sets = self.feed.take(store)
        if sets is None:  # the store's order is not the one handed out: build anew
            self.feed, self.collector = SetFeed(self.game, self.rule_set, self.read), self.start()
            sets = self.feed.take(store)
            assert sets is not None, "a new feed hands out every finished set"
        for matches in sets:
            self.collector.add_set(matches)
        return self.collector.evidence()
