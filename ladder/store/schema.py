"""The ladder database schema and its ordered migrations.

The schema version lives in a `schema_version` table; each migration is a
function that moves the schema from version n-1 to n and runs inside the same
transaction that bumps the version, so a database is always at exactly one
known version. Add a migration by appending a function to `MIGRATIONS`; never
edit one that has shipped.

Every table that holds results or ratings has a `game` column, so Saboteur
ratings live beside Gnadenlos! ones without a schema change, and a
`rule_set` column (since version 4), so each variant's ratings live apart.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from ladder.store.rule_set_names import rule_set_of
from ladder.store.strikes import strike_reasons

APPLICATION_ID = "bot-referee-ladder"
"""Written into `meta`; tells our database apart from any other SQLite file."""


def _execute_all(conn: sqlite3.Connection, script: str) -> None:
    """Run each statement of `script` in the caller's transaction.

    Not `executescript`: that commits first, and a migration must land
    together with its version bump or not at all.
    """
    for statement in script.split(";\n"):
        if statement.strip():
            conn.execute(statement)


def _v1_initial(conn: sqlite3.Connection) -> None:
    _execute_all(
        conn,
        """
        CREATE TABLE meta (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        CREATE TABLE bots (
            id           INTEGER PRIMARY KEY,
            name         TEXT NOT NULL,
            version      TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            kind         TEXT NOT NULL CHECK (kind IN ('builtin', 'submitted')),
            command      TEXT NOT NULL,          -- JSON list of tokens
            folder       TEXT,                   -- relative to the store root; NULL for built-ins
            games        TEXT NOT NULL,          -- JSON list of game names
            description  TEXT NOT NULL DEFAULT '',
            active       INTEGER NOT NULL DEFAULT 1,
            created_at   TEXT NOT NULL,
            UNIQUE (name, version)
        );
        CREATE TABLE ratings (
            game   TEXT NOT NULL,
            bot_id INTEGER NOT NULL REFERENCES bots (id),
            mu     REAL NOT NULL,
            sigma  REAL NOT NULL,
            PRIMARY KEY (game, bot_id)
        );
        CREATE TABLE matches (
            seq         INTEGER PRIMARY KEY AUTOINCREMENT,  -- rating order
            match_id    TEXT NOT NULL UNIQUE,               -- exactly-once key
            game        TEXT NOT NULL,
            set_id      TEXT NOT NULL,
            rotation    INTEGER NOT NULL,
            seed        INTEGER NOT NULL,
            variant     TEXT NOT NULL,
            num_seats   INTEGER NOT NULL,
            end_reason  TEXT NOT NULL,
            decisions   INTEGER NOT NULL,
            seconds     REAL NOT NULL,
            record_path TEXT,
            summary     TEXT NOT NULL,
            finished_at TEXT NOT NULL
        );
        CREATE TABLE match_seats (
            match_id TEXT NOT NULL REFERENCES matches (match_id),
            seat     INTEGER NOT NULL,
            bot_id   INTEGER NOT NULL REFERENCES bots (id),
            rank     INTEGER NOT NULL,   -- the referee's ranking
            place    INTEGER NOT NULL,   -- the rated ranking (forfeits last)
            forfeit  TEXT,               -- the bot's own fault, if any
            strikes  INTEGER NOT NULL,
            PRIMARY KEY (match_id, seat)
        );
        CREATE INDEX match_seats_bot ON match_seats (bot_id);
        CREATE TABLE rating_history (
            match_id     TEXT NOT NULL REFERENCES matches (match_id),
            game         TEXT NOT NULL,
            bot_id       INTEGER NOT NULL REFERENCES bots (id),
            mu_before    REAL NOT NULL,
            sigma_before REAL NOT NULL,
            mu_after     REAL NOT NULL,
            sigma_after  REAL NOT NULL,
            PRIMARY KEY (match_id, bot_id)
        );
        CREATE TABLE planned (
            match_id   TEXT PRIMARY KEY,
            game       TEXT NOT NULL,
            set_id     TEXT NOT NULL,
            rotation   INTEGER NOT NULL,
            seed       INTEGER NOT NULL,
            variant    TEXT NOT NULL,
            bot_ids    TEXT NOT NULL,      -- JSON list, seat order
            attempts   INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL
        );
        CREATE TABLE failures (
            id       INTEGER PRIMARY KEY,
            match_id TEXT NOT NULL,
            attempt  INTEGER NOT NULL,
            kind     TEXT NOT NULL,       -- referee_error | worker_crash | resources
            detail   TEXT NOT NULL,
            at       TEXT NOT NULL
        );
        """
    )
    conn.execute("INSERT INTO meta (key, value) VALUES ('application_id', ?)", (APPLICATION_ID,))


def _v2_strike_reasons(conn: sqlite3.Connection) -> None:
    """Strikes by reason per seat (JSON {reason: count}), filled for the
    matches already stored from their records' footers where the record is
    still there (a missing one leaves the reasons unknown: `strikes` still
    counts them)."""
    conn.execute("ALTER TABLE match_seats ADD COLUMN strike_reasons TEXT NOT NULL DEFAULT '{}'")
    database = Path(conn.execute("PRAGMA database_list").fetchone()[2] or ".")
    rows = conn.execute(
        "SELECT m.match_id, m.record_path, m.num_seats FROM matches m"
        " WHERE m.record_path IS NOT NULL AND EXISTS"
        " (SELECT 1 FROM match_seats s WHERE s.match_id = m.match_id AND s.strikes > 0)"
    ).fetchall()
    for match_id, record_path, seats in rows:
        try:
            record = (database.parent / record_path).read_bytes()
        except OSError:
            continue
        for seat, reasons in enumerate(strike_reasons(record, seats)):
            conn.execute("UPDATE match_seats SET strike_reasons = ? WHERE match_id = ? AND seat = ?",
                         (json.dumps(reasons, sort_keys=True), match_id, seat))


def _v3_seed_chains(conn: sqlite3.Connection) -> None:
    """A ladder's deal seeds come from a hash chain committed when the ladder
    starts (ladder.deals.seedchain): the chains, and which chain element dealt
    each planned and stored set. Matches stored before have no chain (NULL):
    only their own per-match commitments vouch for their deals."""
    _execute_all(
        conn,
        """
        CREATE TABLE seed_chains (
            id         INTEGER PRIMARY KEY,
            game       TEXT NOT NULL,
            head       TEXT NOT NULL,        -- hex: the commitment, published at the start
            length     INTEGER NOT NULL,     -- sets the chain can deal
            secret     TEXT NOT NULL,        -- hex: the ladder seed, revealed only when the chain is done
            next_index INTEGER NOT NULL DEFAULT 1,
            started_at TEXT NOT NULL,
            ended_at   TEXT                  -- NULL while its ladder runs
        );
        ALTER TABLE planned ADD COLUMN chain_id INTEGER REFERENCES seed_chains (id);
        ALTER TABLE planned ADD COLUMN chain_index INTEGER;
        ALTER TABLE matches ADD COLUMN chain_id INTEGER REFERENCES seed_chains (id);
        ALTER TABLE matches ADD COLUMN chain_index INTEGER
        """,
    )


def _v4_rule_sets(conn: sqlite3.Connection) -> None:
    """Ratings per rule set (issue 20): a bot's rating under a variant is not
    its rating under the base rules. Matches, planned matches and rating
    history say their rule set (referee.games.rule_sets: the non-default
    options, '' for the base rules), ratings are keyed by it, and each bot
    keeps the variants it declared (JSON list of GAME:OPTION=VALUE; none
    for a bot registered before: base rules only). Stored matches are
    filed under their variant's rule set; if any was not the base rules,
    the ratings are recomputed per rule set at the next run (the rating
    model key is cleared)."""
    _execute_all(
        conn,
        """
        ALTER TABLE bots ADD COLUMN variants TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE matches ADD COLUMN rule_set TEXT NOT NULL DEFAULT '';
        ALTER TABLE planned ADD COLUMN rule_set TEXT NOT NULL DEFAULT '';
        ALTER TABLE rating_history ADD COLUMN rule_set TEXT NOT NULL DEFAULT '';
        CREATE TABLE ratings_by_rule_set (
            game     TEXT NOT NULL,
            rule_set TEXT NOT NULL DEFAULT '',
            bot_id   INTEGER NOT NULL REFERENCES bots (id),
            mu       REAL NOT NULL,
            sigma    REAL NOT NULL,
            PRIMARY KEY (game, rule_set, bot_id)
        );
        INSERT INTO ratings_by_rule_set (game, rule_set, bot_id, mu, sigma) SELECT game, '', bot_id, mu, sigma FROM ratings;
        DROP TABLE ratings;
        ALTER TABLE ratings_by_rule_set RENAME TO ratings
        """,
    )
    varied = False
    for table in ("matches", "planned"):
        for match_id, game, variant in conn.execute(f"SELECT match_id, game, variant FROM {table}").fetchall():
            name = rule_set_of(game, json.loads(variant))
            if name:
                varied = True
                conn.execute(f"UPDATE {table} SET rule_set = ? WHERE match_id = ?", (name, match_id))
    conn.execute("UPDATE rating_history SET rule_set ="
                 " (SELECT m.rule_set FROM matches m WHERE m.match_id = rating_history.match_id)")
    if varied:
        conn.execute("DELETE FROM meta WHERE key = 'rating_model'")


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [
    _v1_initial, _v2_strike_reasons, _v3_seed_chains, _v4_rule_sets,
]
"""MIGRATIONS[n-1] moves the schema from version n-1 to version n."""

LATEST_VERSION = len(MIGRATIONS)
