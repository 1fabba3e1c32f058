"""The ladder's persistent store: bots, planned matches, results, ratings.

SQLite by default (one file in a data folder, WAL mode so `referee table`
can read while a ladder writes). All SQL of the ladder lives in this module
and `ladder.store.schema`, so another SQL database can take its place later.

Durability rules:
- one transaction per finished match: the match, its seats, the rating
  updates and their history land together or not at all, and the planned
  row is removed in the same transaction;
- the match id is a unique key, so a match is rated exactly once even if a
  crashed ladder plays it again after a restart.

Files next to the database: `records/` (one JSON Lines record per match, for
`referee replay`), `bots/` (the submitted bots, one folder per version),
`logs/` (the bots' output) and `ladder.sqlite.lock`, held by the one ladder
running on the store (`Store.run_lock`). Bots run under uids of their own
and must read none of it (docs/security.md): the data folder it creates and these folders
are mode 0700 and the database 0600; a bot's own folder is bound into its
sandbox read-only when it plays.
"""

from __future__ import annotations

import datetime as dt
import errno
import fcntl
import json
import os
import sqlite3
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ladder.store.rule_set_names import rule_set_of
from ladder.store.schema import APPLICATION_ID, LATEST_VERSION, MIGRATIONS
from ladder.store.skill import Skill
from ladder.store.strikes import strike_reasons
from ladder.store.tasks import FAILURE_KINDS, MatchTask, PlayedMatch
from referee.files import PRIVATE_FILE, PRIVATE_FOLDER, private_folders, write_atomically

DATA_ENV = "REFEREE_DATA"
DB_NAME = "ladder.sqlite"


class StoreError(Exception):
    """The database cannot be used (not SQLite, not ours, too new, locked).

    The message is one line that says what is wrong and what to do."""


def default_db_path() -> Path:
    """`$REFEREE_DATA/ladder.sqlite`, else `./data/ladder.sqlite`."""
    return Path(os.environ.get(DATA_ENV) or "data") / DB_NAME


def _tighten(path: Path, mode: int) -> None:
    """Give `path` exactly `mode` if it exists, is ours and allows more (a
    store made before its folders were closed)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return
    if info.st_uid == os.geteuid() and info.st_mode & 0o777 != mode:
        path.chmod(mode)


def _check_exists(path: Path) -> None:
    """Raise StoreError unless `path` is an existing file (the database)."""
    if path.is_dir():
        raise StoreError(f"{path} is a folder, not a ladder database; pass --db with the path of "
                         f"its {DB_NAME}")
    if not path.exists():
        raise StoreError(f"no ladder database at {path}; check --db (or ${DATA_ENV}), or make one with "
                         "`referee submit` or `referee ladder`")


READ_ONLY_MEDIA = "on a read-only file system"
NOT_WRITABLE = "not writable by this user"


def read_only_reason(path: Path) -> str | None:
    """Why the store whose database is `path` cannot be written, or None:
    its folder (or the nearest one above it that exists) lies on a
    read-only file system, or this user may not write it or the database."""
    folder = next((f for f in (path.parent, *path.parent.parents) if f.is_dir()), Path("/"))
    if os.statvfs(folder).f_flag & os.ST_RDONLY:
        return READ_ONLY_MEDIA
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return NOT_WRITABLE
    return None


def connect_read_only(path: Path, why: str) -> sqlite3.Connection:
    """An SQLite database that cannot be written (`why`, from
    `read_only_reason`), opened to read. On read-only media nobody can
    change the file, so SQLite is told it is immutable: it then needs no
    lock and no -shm file, which a WAL database needs and could not make
    there; unless a -wal file holds commits not yet in the database (a
    ladder killed before it closed), which an immutable database would not
    read (SQLite reads them when the -shm file is there too)."""
    wal = path.with_name(path.name + "-wal")
    pending = wal.exists() and wal.stat().st_size > 0
    if pending and why == READ_ONLY_MEDIA and not path.with_name(path.name + "-shm").exists():
        raise StoreError(f"{path} has commits in its -wal file that SQLite reads only with its -shm file, which is "
                         "missing and cannot be made on read-only media: copy the folder somewhere writable and "
                         "read it there")
    immutable = "&immutable=1" if why == READ_ONLY_MEDIA and not pending else ""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro{immutable}", uri=True, timeout=10.0,
                           isolation_level=None, check_same_thread=False)


def version_log_path(logs_dir: Path, label: str) -> Path:
    """The log of the bot version `label` (name@version): one file, whichever
    worker process runs the bot, so its size cap holds per bot."""
    return logs_dir / f"{label}.log"


def now_iso() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class BotRow:
    bot_id: int
    name: str
    version: str
    content_hash: str
    kind: str
    command: tuple[str, ...]
    folder: str | None
    games: tuple[str, ...]
    description: str
    active: bool
    created_at: str
    variants: tuple[str, ...] = ()
    """The variants it declared, GAME:OPTION=VALUE (referee.games.rule_sets):
    it is seated only in rule sets made of these."""

    @property
    def label(self) -> str:
        return f"{self.name}@{self.version}"


@dataclass(frozen=True)
class SeatRow:
    """One seat of one stored match (joined with the match's facts)."""

    match_id: str
    seq: int
    num_seats: int
    seat: int
    bot_id: int
    rank: int
    place: int
    forfeit: str | None
    finished_at: str
    set_id: str = ""
    """The duplicate set (one deal, every seat rotation) the match belongs to."""
    strikes: int = 0
    strike_reasons: dict[str, int] = field(default_factory=dict)
    """Strikes by the referee's reason code (ladder.store.strikes)."""


class Store:
    """A ladder database and the folders beside it."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        """Open the store at `path`, creating it (and its folders) if it
        does not exist, unless `create` is False: then a missing database
        is a StoreError, so a read-only command given a mistyped path says
        so instead of showing an empty ladder it has just made, and
        nothing is made or changed on the way in (no folder, no mode), so
        a store on read-only media can be read: it is then opened read-only
        (`read_only` says why). A store that cannot be written is a
        StoreError when `create` is True: that caller writes."""
        self.path = Path(path)
        self.root = self.path.parent
        self.records_dir = self.root / "records"
        self.bots_dir = self.root / "bots"
        self.logs_dir = self.root / "logs"
        if not create:
            _check_exists(self.path)
        self.read_only = read_only_reason(self.path)
        """Why the store cannot be written (None: it can)."""
        if create and self.read_only is not None:
            raise StoreError(self.refusal())
        self._conn = self._connect(create)

    def refusal(self) -> str:
        """The one line a writing command gets on a store it cannot write."""
        return (f"the store {self.root} is read-only ({self.read_only}): this command writes to it; run it on a "
                "writable copy of the folder or pass --db with a writable store (table, bots, logs, report and "
                "ladder-audit read it as it is)")

    # -- opening ---------------------------------------------------------

    def _connect(self, create: bool) -> sqlite3.Connection:
        try:
            if create:
                self._close_to_bots()
        except PermissionError:  # the checks above passed, but a folder inside the store refused us
            self.read_only = NOT_WRITABLE
            raise StoreError(self.refusal()) from None
        try:
            if self.read_only is None:
                conn = sqlite3.connect(self.path, timeout=10.0, isolation_level=None)
                conn.execute("PRAGMA foreign_keys = ON")
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
            else:
                conn = connect_read_only(self.path, self.read_only)
            self._migrate(conn)
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{self.path} is not a ladder database ({exc}); move it away or pass --db with another path"
            ) from None
        return conn

    def _close_to_bots(self) -> None:
        """Make the data folder and every folder above it that this creates,
        the folders in it and the database readable by this user only: bots
        run under uids of their own. SQLite gives the -wal and -shm files
        the database's mode."""
        for folder in (self.records_dir, self.bots_dir, self.logs_dir):
            private_folders(folder)
            _tighten(folder, PRIVATE_FOLDER)
        if not self.path.exists():  # never open and close an existing one: closing any descriptor of
            # the file drops every POSIX lock this process holds on it, the open connections' too, and
            # another process's connection closing next would then delete the WAL they still read
            os.close(os.open(self.path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE))
        for file in (self.path, self.path.with_name(self.path.name + "-wal"),
                     self.path.with_name(self.path.name + "-shm")):
            _tighten(file, PRIVATE_FILE)

    def _migrate(self, conn: sqlite3.Connection) -> None:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and "schema_version" not in tables:
            raise StoreError(
                f"{self.path} is an SQLite database of another program; pass --db with another path"
            )
        if "schema_version" in tables and self._current(conn):
            return  # nothing to migrate: no write lock, so readers never wait for a running ladder
        if self.read_only is not None:
            if "schema_version" in tables:
                self._refuse_newer(conn)
            raise StoreError(f"{self.path} needs an upgrade to this program's schema (version {LATEST_VERSION}), "
                             f"and it is read-only ({self.read_only}): run `referee ladder --recompute` once on a "
                             "writable copy")
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            version = row[0] if row else 0
            self._refuse_newer(conn)
            for number in range(version + 1, LATEST_VERSION + 1):
                MIGRATIONS[number - 1](conn)
            if row is None:
                conn.execute("INSERT INTO schema_version (version) VALUES (?)", (LATEST_VERSION,))
            else:
                conn.execute("UPDATE schema_version SET version = ?", (LATEST_VERSION,))
            app = conn.execute("SELECT value FROM meta WHERE key = 'application_id'").fetchone()
            if app is None or app[0] != APPLICATION_ID:
                raise StoreError(f"{self.path} is not a ladder database; pass --db with another path")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _refuse_newer(self, conn: sqlite3.Connection) -> None:
        """Raise StoreError if the schema is newer than this program knows."""
        row = conn.execute("SELECT version FROM schema_version").fetchone()
        if row is not None and row[0] > LATEST_VERSION:
            raise StoreError(
                f"{self.path} has schema version {row[0]}, newer than this program knows "
                f"({LATEST_VERSION}); upgrade bot-referee"
            )

    def _current(self, conn: sqlite3.Connection) -> bool:
        """The schema is at the latest version and the database is ours."""
        row = conn.execute("SELECT version FROM schema_version").fetchone()
        if row is None or row[0] != LATEST_VERSION:
            return False
        app = conn.execute("SELECT value FROM meta WHERE key = 'application_id'").fetchone()
        if app is None or app[0] != APPLICATION_ID:
            raise StoreError(f"{self.path} is not a ladder database; pass --db with another path")
        return True

    def close(self) -> None:
        self._conn.close()

    @contextmanager
    def run_lock(self, command: str = "referee ladder") -> Iterator[None]:
        """Hold the store's run lock while a ladder (or a tournament, or a
        service: `command`) runs on it: a second run would plan the same
        matches and play every one twice. An flock on
        `ladder.sqlite.lock`, so the kernel releases it when the holder dies,
        however it dies; the file keeps the holder's pid and command for the
        refusal. Raises StoreError if another process holds it."""
        path = self.path.with_name(self.path.name + ".lock")
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                    raise
                pid, _, running = os.pread(fd, 64, 0).decode(errors="replace").strip().partition(" ")
                raise StoreError(
                    f"another `{running or 'referee ladder'}` (pid {pid or 'unknown'}) is running on {self.path}; "
                    "let it finish (or stop it with Ctrl-C) before starting one more, or pass --db with another store"
                ) from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {command}\n".encode(), 0)
            yield
        finally:
            os.close(fd)  # releases the lock

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything inside lands, or nothing does.

        A signal (KeyboardInterrupt) may strike between any two statements:
        before the COMMIT has run (the transaction is rolled back), right
        after BEGIN (the next transaction finds it open, with nothing
        written, and rolls it back first), or after the COMMIT (it landed).
        The shutdown test sends signals at random moments and caught the
        second: "cannot start a transaction within a transaction"."""
        if self._conn.in_transaction:
            self._conn.execute("ROLLBACK")
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
            self._conn.execute("COMMIT")
        except BaseException:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            raise

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads that see the store as of one moment: one read transaction
        (WAL: a run goes on writing, and what it commits meanwhile is not
        seen). A page that reads the matches and then the ratings' history
        otherwise finds the history of a match stored between the two reads
        (the live page of a service failed so). Inside a transaction
        already, that is the moment."""
        if self._conn.in_transaction:
            yield
            return
        self._conn.execute("BEGIN")
        try:
            yield
        finally:
            if self._conn.in_transaction:
                self._conn.execute("COMMIT")

    def meta(self, key: str) -> str | None:
        """A value of the `meta` table (None if unset)."""
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)"
                         " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    def schema_version(self) -> int:
        return int(self._conn.execute("SELECT version FROM schema_version").fetchone()[0])

    # -- bots -------------------------------------------------------------

    def add_bot(
        self,
        conn: sqlite3.Connection,
        *,
        name: str,
        version: str,
        content_hash: str,
        kind: str,
        command: Sequence[str],
        folder: str | None,
        games: Sequence[str],
        description: str = "",
        variants: Sequence[str] = (),
    ) -> int:
        """Insert a bot version (inside the caller's transaction) and make it
        the active version of its name."""
        conn.execute("UPDATE bots SET active = 0 WHERE name = ?", (name,))
        cur = conn.execute(
            "INSERT INTO bots (name, version, content_hash, kind, command, folder, games, description,"
            " active, created_at, variants) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)",
            (name, version, content_hash, kind, json.dumps(list(command)), folder,
             json.dumps(list(games)), description, now_iso(), json.dumps(list(variants))),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def set_games(self, conn: sqlite3.Connection, bot_id: int, games: Sequence[str]) -> None:
        conn.execute("UPDATE bots SET games = ? WHERE id = ?", (json.dumps(list(games)), bot_id))

    def set_variants(self, conn: sqlite3.Connection, bot_id: int, variants: Sequence[str]) -> None:
        conn.execute("UPDATE bots SET variants = ? WHERE id = ?", (json.dumps(list(variants)), bot_id))

    def bots(self, *, active_only: bool = False) -> list[BotRow]:
        sql = "SELECT * FROM bots" + (" WHERE active = 1" if active_only else "") + " ORDER BY name, id"
        return [self._bot_row(r) for r in self._rows(sql)]

    def bot_versions(self, name: str) -> list[BotRow]:
        return [self._bot_row(r) for r in self._rows("SELECT * FROM bots WHERE name = ? ORDER BY id", (name,))]

    def retire(self, name: str) -> BotRow | None:
        """Take the active version of `name` out of the ladder (it keeps its
        ratings and history; a new version becomes active again). Returns
        the version retired, None if `name` has no active one."""
        with self.transaction() as conn:
            row = conn.execute("SELECT id FROM bots WHERE name = ? AND active = 1", (name,)).fetchone()
            if row is None:
                return None
            conn.execute("UPDATE bots SET active = 0 WHERE id = ?", (row[0],))
        return self.bot(row[0])

    def bot(self, bot_id: int) -> BotRow:
        rows = self._rows("SELECT * FROM bots WHERE id = ?", (bot_id,))
        if not rows:
            raise KeyError(bot_id)
        return self._bot_row(rows[0])

    @staticmethod
    def _bot_row(r: sqlite3.Row) -> BotRow:
        return BotRow(
            r["id"], r["name"], r["version"], r["content_hash"], r["kind"],
            tuple(json.loads(r["command"])), r["folder"], tuple(json.loads(r["games"])),
            r["description"], bool(r["active"]), r["created_at"], tuple(json.loads(r["variants"])),
        )

    # -- ratings ------------------------------------------------------------

    def ratings(self, game: str, rule_set: str = "") -> dict[int, Skill]:
        """The ratings of one rule set of `game` ('' the base rules; ladder.store.rule_set_names)."""
        rows = self._rows("SELECT bot_id, mu, sigma FROM ratings WHERE game = ? AND rule_set = ?", (game, rule_set))
        return {r["bot_id"]: Skill(r["mu"], r["sigma"]) for r in rows}

    def replace_ratings(self, game: str, skills: dict[int, Skill], rule_set: str = "") -> None:
        """Overwrite a rule set's ratings (after `--recompute` found them off)."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM ratings WHERE game = ? AND rule_set = ?", (game, rule_set))
            conn.executemany(
                "INSERT INTO ratings (game, rule_set, bot_id, mu, sigma) VALUES (?, ?, ?, ?, ?)",
                [(game, rule_set, b, s.mu, s.sigma) for b, s in skills.items()],
            )

    # -- planned matches ----------------------------------------------------

    def plan(self, tasks: Sequence[MatchTask], deal: tuple[int, int] | None = None) -> None:
        """Store a duplicate set's matches before any of them is played, so a
        restarted ladder finishes the set. `deal` is (seed chain id, index)
        of the chain element that dealt the set; the chain's next index
        moves past it in the same transaction, so no element deals twice."""
        chain_id, index = deal if deal is not None else (None, None)
        with self.transaction() as conn:
            conn.executemany(
                "INSERT INTO planned (match_id, game, set_id, rotation, seed, variant, bot_ids, attempts,"
                " created_at, chain_id, chain_index, rule_set) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)",
                [(t.match_id, t.game, t.set_id, t.rotation, t.seed, json.dumps(t.variant),
                  json.dumps(list(t.bot_ids)), now_iso(), chain_id, index, rule_set_of(t.game, t.variant))
                 for t in tasks],
            )
            if deal is not None:
                conn.execute("UPDATE seed_chains SET next_index = MAX(next_index, ?) WHERE id = ?",
                             (deal[1] + 1, deal[0]))

    # -- seed chains ----------------------------------------------------------

    def start_chain(self, game: str, head: bytes, length: int, secret: bytes) -> int:
        """Store a new seed chain of `game` (ladder.deals.seedchain); returns its id."""
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO seed_chains (game, head, length, secret, started_at) VALUES (?, ?, ?, ?, ?)",
                (game, head.hex(), length, secret.hex(), now_iso()),
            )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def end_chain(self, chain_id: int) -> None:
        """Its ladder has ended: the chain deals no more sets."""
        with self.transaction() as conn:
            conn.execute("UPDATE seed_chains SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
                         (now_iso(), chain_id))

    def seed_chains(self, game: str) -> list[dict[str, Any]]:
        """The seed chains of `game`, oldest first, each with `first_planned`:
        the least index of its sets still planned (None: none is), read in
        the same statement so that a set planned meanwhile is never missed."""
        return [dict(r) for r in self._rows(
            "SELECT c.*, (SELECT MIN(p.chain_index) FROM planned p WHERE p.chain_id = c.id) AS first_planned"
            " FROM seed_chains c WHERE c.game = ? ORDER BY c.id", (game,))]

    def chained_matches(self, game: str) -> list[dict[str, Any]]:
        """The stored matches of `game` that a seed chain dealt: match_id,
        set_id, rotation, seed, chain_id, chain_index, record_path
        (absolute), in rating order."""
        rows = [dict(r) for r in self._rows(
            "SELECT match_id, set_id, rotation, seed, chain_id, chain_index, record_path FROM matches"
            " WHERE game = ? AND chain_id IS NOT NULL ORDER BY seq", (game,))]
        for row in rows:
            if row["record_path"] is not None:
                row["record_path"] = str(self.root / row["record_path"])
        return rows

    def planned(self, game: str, rule_set: str = "") -> list[dict[str, Any]]:
        """Planned, unplayed matches of one rule set of `game`, oldest set first."""
        rows = self._rows(
            "SELECT * FROM planned WHERE game = ? AND rule_set = ? ORDER BY created_at, set_id, rotation",
            (game, rule_set),
        )
        return [
            {"match_id": r["match_id"], "game": r["game"], "set_id": r["set_id"],
             "rotation": r["rotation"], "seed": r["seed"], "variant": json.loads(r["variant"]),
             "bot_ids": tuple(json.loads(r["bot_ids"])), "attempts": r["attempts"]}
            for r in rows
        ]

    def drop_planned(self, set_ids: Collection[str]) -> int:
        """Unplan every match of the duplicate sets `set_ids` (they can
        never be played); returns how many. Their deals may then be
        revealed (ladder.deals.audit), as an abandoned set's are."""
        with self.transaction() as conn:
            return sum(conn.execute("DELETE FROM planned WHERE set_id = ?", (set_id,)).rowcount for set_id in set_ids)

    def record_failure(self, match_id: str, attempt: int, kind: str, detail: str, *, abandon: bool) -> None:
        """Note a match that failed for a reason that is not a bot's; it stays
        planned (to be retried) unless `abandon`. Raises ValueError for a
        kind that is not one of FAILURE_KINDS."""
        if kind not in FAILURE_KINDS:
            raise ValueError(f"unknown failure kind {kind!r}; one of {FAILURE_KINDS}")
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO failures (match_id, attempt, kind, detail, at) VALUES (?, ?, ?, ?, ?)",
                (match_id, attempt, kind, detail, now_iso()),
            )
            if abandon:
                conn.execute("DELETE FROM planned WHERE match_id = ?", (match_id,))
            else:
                conn.execute("UPDATE planned SET attempts = ? WHERE match_id = ?", (attempt, match_id))

    def failures(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self._rows("SELECT * FROM failures ORDER BY id")]

    # -- results --------------------------------------------------------------

    def has_match(self, match_id: str) -> bool:
        return bool(self._rows("SELECT 1 FROM matches WHERE match_id = ?", (match_id,)))

    def record_match(
        self, played: PlayedMatch, places: Sequence[int], before: Sequence[Skill], after: Sequence[Skill]
    ) -> bool:
        """Store a finished match, its seats and its rating updates in one
        transaction, its record (written whole, before the transaction) in
        `records/`. Returns False (and changes nothing) if the match id is
        already stored: exactly-once."""
        if self.has_match(played.match_id):
            return False
        record_path = None
        if played.record is not None:  # a record no row names yet is harmless, a row naming no record is not
            record_path = self.records_dir / f"{played.match_id}.jsonl"
            write_atomically(record_path, played.record.decode("utf-8", errors="replace"))
        with self.transaction() as conn:
            if conn.execute("SELECT 1 FROM matches WHERE match_id = ?", (played.match_id,)).fetchone():
                return False
            deal = conn.execute("SELECT chain_id, chain_index FROM planned WHERE match_id = ?",
                                (played.match_id,)).fetchone() or (None, None)
            rule_set = rule_set_of(played.game, played.variant)
            conn.execute(
                "INSERT INTO matches (match_id, game, set_id, rotation, seed, variant, num_seats, end_reason,"
                " decisions, seconds, record_path, summary, finished_at, chain_id, chain_index, rule_set)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (played.match_id, played.game, played.set_id, played.rotation, played.seed,
                 json.dumps(played.variant), len(played.bot_ids), played.end_reason, played.decisions,
                 played.seconds, self._relative(record_path), json.dumps(played.summary, default=str),
                 now_iso(), *deal, rule_set),
            )
            reasons = strike_reasons(played.record, len(played.bot_ids))
            for seat, bot_id in enumerate(played.bot_ids):
                conn.execute(
                    "INSERT INTO match_seats (match_id, seat, bot_id, rank, place, forfeit, strikes, strike_reasons)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (played.match_id, seat, bot_id, played.ranks[seat], places[seat],
                     played.forfeits[seat], played.strikes[seat], json.dumps(reasons[seat], sort_keys=True)),
                )
                conn.execute(
                    "INSERT INTO rating_history (match_id, game, bot_id, mu_before, sigma_before, mu_after,"
                    " sigma_after, rule_set) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (played.match_id, played.game, bot_id, before[seat].mu, before[seat].sigma,
                     after[seat].mu, after[seat].sigma, rule_set),
                )
                conn.execute(
                    "INSERT INTO ratings (game, rule_set, bot_id, mu, sigma) VALUES (?, ?, ?, ?, ?)"
                    " ON CONFLICT (game, rule_set, bot_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma",
                    (played.game, rule_set, bot_id, after[seat].mu, after[seat].sigma),
                )
            conn.execute("DELETE FROM planned WHERE match_id = ?", (played.match_id,))
        return True

    def games(self) -> list[str]:
        """The games that have rated matches."""
        return [r[0] for r in self._conn.execute("SELECT DISTINCT game FROM matches ORDER BY game")]

    def rule_sets(self, game: str) -> dict[str, int]:
        """The rule sets of `game` that have rated matches, with their match counts."""
        rows = self._conn.execute(
            "SELECT rule_set, COUNT(*) FROM matches WHERE game = ? GROUP BY rule_set ORDER BY rule_set", (game,))
        return {r[0]: int(r[1]) for r in rows}

    def matches_since(self, game: str, seq: int) -> list[dict[str, Any]]:
        """The matches of `game` rated after `seq`, in rating order, each
        with its rule set and its `seats` (bot_id, name, version, rank,
        forfeit) by seat: what a live view shows of a finished match."""
        rows = [dict(r) for r in self._rows(
            "SELECT seq, match_id, game, rule_set, seconds, end_reason FROM matches WHERE game = ? AND seq > ?"
            " ORDER BY seq",
            (game, seq))]
        for row in rows:
            row["seats"] = [dict(r) for r in self._rows(
                "SELECT s.bot_id, b.name, b.version, s.rank, s.forfeit FROM match_seats s JOIN bots b"
                " ON b.id = s.bot_id WHERE s.match_id = ? ORDER BY s.seat", (row["match_id"],))]
        return rows

    def latest_seq(self, game: str) -> int:
        """The rating order number of `game`'s latest match (0: none yet)."""
        row = self._conn.execute("SELECT MAX(seq) FROM matches WHERE game = ?", (game,)).fetchone()
        return int(row[0] or 0)

    def record_of(self, match_id: str) -> Path | None:
        """Where the record of the stored match `match_id` is (None: no such
        match, or it has no record)."""
        rows = self._rows("SELECT record_path FROM matches WHERE match_id = ?", (match_id,))
        if not rows or rows[0]["record_path"] is None:
            return None
        return self.root / str(rows[0]["record_path"])

    def set_unfinished(self, match_id: str) -> bool:
        """Whether a seat rotation of the stored match's duplicate set is
        still planned: its record then shows the deal of a match to come."""
        row = self._conn.execute(
            "SELECT 1 FROM matches m JOIN planned p ON p.set_id = m.set_id WHERE m.match_id = ? LIMIT 1", (match_id,)
        ).fetchone()
        return row is not None

    def match_count(self, game: str | None = None, rule_set: str = "") -> int:
        """Every stored match, or those of one rule set of `game`."""
        if game is None:
            return int(self._conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0])
        return int(self._conn.execute("SELECT COUNT(*) FROM matches WHERE game = ? AND rule_set = ?",
                                      (game, rule_set)).fetchone()[0])

    def matches(self, game: str, rule_set: str = "", *, after: int = 0) -> list[dict[str, Any]]:
        """The stored matches of one rule set of `game` in rating order, those
        stored after sequence number `after` (the evidence's SetFeed reads only
        what is new); `record_path` is absolute (it is stored relative to the
        store, which may move)."""
        rows = [dict(r) for r in self._rows(
            "SELECT * FROM matches WHERE game = ? AND rule_set = ? AND seq > ? ORDER BY seq", (game, rule_set, after))]
        for row in rows:
            if row["record_path"] is not None:
                row["record_path"] = str(self.root / row["record_path"])
        return rows

    def _relative(self, path: Path | None) -> str | None:
        """`path` relative to the store's folder when it lies inside it."""
        if path is None:
            return None
        try:
            return str(path.resolve().relative_to(self.root.resolve()))
        except ValueError:
            return str(path)

    def rated_results(self, game: str, rule_set: str = "") -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """(bot ids by seat, rated places) of every match of one rule set of
        `game`, in the order they were rated: the input of a recompute."""
        results: dict[int, tuple[list[int], list[int]]] = {}
        for r in self._rows(
            "SELECT m.seq, s.bot_id, s.place FROM matches m JOIN match_seats s USING (match_id)"
            " WHERE m.game = ? AND m.rule_set = ? ORDER BY m.seq, s.seat",
            (game, rule_set),
        ):
            ids, places = results.setdefault(r["seq"], ([], []))
            ids.append(r["bot_id"])
            places.append(r["place"])
        return [(tuple(ids), tuple(places)) for ids, places in results.values()]

    def seat_rows(self, game: str, rule_set: str = "", *, after: int = 0) -> list[SeatRow]:
        """Every seat of the stored matches of one rule set of `game` (those
        stored after sequence number `after`), in rating order, seat by seat."""
        rows = self._rows(
            "SELECT m.match_id, m.seq, m.num_seats, m.finished_at, m.set_id, s.seat, s.bot_id, s.rank, s.place,"
            " s.forfeit, s.strikes, s.strike_reasons FROM matches m JOIN match_seats s USING (match_id)"
            " WHERE m.game = ? AND m.rule_set = ? AND m.seq > ? ORDER BY m.seq, s.seat",
            (game, rule_set, after),
        )
        return [
            SeatRow(r["match_id"], r["seq"], r["num_seats"], r["seat"], r["bot_id"], r["rank"],
                    r["place"], r["forfeit"], r["finished_at"], r["set_id"], r["strikes"],
                    json.loads(r["strike_reasons"]))
            for r in rows
        ]

    def rating_history(self, game: str, rule_set: str = "") -> list[dict[str, Any]]:
        rows = self._rows(
            "SELECT h.* FROM rating_history h JOIN matches m USING (match_id) WHERE h.game = ? AND h.rule_set = ?"
            " ORDER BY m.seq, h.bot_id",
            (game, rule_set),
        )
        return [dict(r) for r in rows]

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        cur = self._conn.execute(sql, params)
        cur.row_factory = sqlite3.Row
        return cur.fetchall()
