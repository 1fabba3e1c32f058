"""A tournament made and its sets planned: the schedule committed, then dealt.

`create` builds the schedule (ladder.tournament.schedule), starts the seed
chain that deals it (one element per table, ladder.deals.seedchain), and
stores the schedule with its commitment (ladder.tournament.commitment)
before any set is planned: from then on the schedule and the chain are
the source of truth. `plan_pending` plans every committed table not yet
planned, one duplicate set per store transaction; it is idempotent (a set
any of whose matches the store has seen, planned, played or failed, is
never planned again), so a run killed between committing and planning
plans the rest on its next start, and no set is played twice.
"""

from __future__ import annotations

from collections.abc import Sequence

from ladder.deals.seedchain import SeedChain, new_chain
from ladder.scheduling.matchmaking import rotations
from ladder.store.database import BotRow, Store
from ladder.store.rule_set_names import rule_set_of
from ladder.store.tasks import BotSpec, MatchTask
from ladder.tournament import schedule as sched
from ladder.tournament.commitment import Tournament, new_tournament


def create(store: Store, game: str, variant: dict[str, str], fmt: str, bots: Sequence[BotRow], seats: int, *,
           cycles: int = 1, rounds: int | None = None, champion: int | None = None) -> Tournament:
    """Make, commit and store a tournament of `bots` (in seeding order) at
    tables of `seats`. Raises ScheduleError for a roster or format that
    cannot be scheduled."""
    ids = [b.bot_id for b in bots]
    sched.check_roster(ids, seats, fmt, champion)
    document: dict[str, object] = {
        "format": fmt, "game": game, "variant": dict(variant), "rule_set": rule_set_of(game, variant),
        "seats": seats, "champion": champion,
        "bots": [{"id": b.bot_id, "label": b.label, "content_hash": b.content_hash} for b in bots],
        "duplicate": "each table is one deal, played in every cyclic seat rotation",
    }
    if fmt == "swiss":
        count = rounds or sched.swiss_rounds(len(ids), seats)
        sets = count * (len(ids) // seats)
        document |= {"rounds": count, "pairing_rule": sched.SWISS_RULE, "design": "paired round by round"}
    else:
        one_cycle, design = sched.fixed_rounds(ids, seats, fmt, champion)
        tables = [[c * len(one_cycle) + r + 1, list(t)]
                  for c in range(cycles) for r, round_ in enumerate(one_cycle) for t in round_]
        sets = len(tables)
        document |= {"cycles": cycles, "rounds": cycles * len(one_cycle), "design": design, "tables": tables}
    chain = new_chain(sets)
    chain_id = store.start_chain(game, chain.head, chain.length, chain.secret)
    document["deals"] = {"chain": chain_id, "commitment": chain.head.hex(), "sets": sets}
    tournament = new_tournament(document)
    if fmt == "swiss":  # round 1 by the seeding: nobody has met, nobody has points
        tables_1, out = sched.swiss_round(ids, {}, {}, seats)
        tournament.commit_round(list(tables_1), out)
    tournament.save(store)
    return tournament


def bot_spec(store: Store, bot: BotRow) -> BotSpec:
    """`bot` as a worker anywhere can start it (as the ladder's runs do)."""
    folder = str(store.root / bot.folder) if bot.folder is not None else None
    return BotSpec(bot.bot_id, bot.label, bot.kind, bot.command, bot.content_hash, folder)


def plan_pending(store: Store, tournament: Tournament) -> int:
    """Plan every committed table the store has not seen; returns how many sets."""
    seen = ({m["match_id"] for m in store.matches(tournament.game, tournament.rule_set)}
            | {p["match_id"] for p in store.planned(tournament.game, tournament.rule_set)}
            | {f["match_id"] for f in store.failures()})
    chain = _chain(store, tournament)
    bots = {b.bot_id: b for b in store.bots()}
    planned = 0
    for index, (_, table) in enumerate(tournament.tables(), 1):
        ids = tournament.match_ids(index, len(table))
        if seen.intersection(ids):
            continue
        specs = {b: bot_spec(store, bots[b]) for b in table}
        seed = chain.seed(index)
        tasks = [MatchTask(match_id, tournament.game, tournament.set_id(index), r, seed, tournament.variant,
                           tuple(specs[b] for b in seating))
                 for r, (match_id, seating) in enumerate(zip(ids, rotations(table)))]
        store.plan(tasks, deal=(tournament.chain_id, index))
        planned += 1
    return planned


def _chain(store: Store, tournament: Tournament) -> SeedChain:
    row = next(r for r in store.seed_chains(tournament.game) if r["id"] == tournament.chain_id)
    return SeedChain(bytes.fromhex(row["secret"]), int(row["length"]))
