"""Who may submit to the ladder service: tokens, and which bots are whose.

The operator issues a token per submitter (`referee token add NAME`); it
is shown once and only its SHA-256 is kept, so a copy of the data folder
gives no one a working token. A bot name belongs to the submitter whose
token first registered a bot under it: only that token may replace it (a
new version), retire it or read its logs. Bots registered on the
operator's own machine (`referee submit` without --server, or the service
on a local socket without a token) belong to no token, and no token may
take them over. One token holds at most `max_names` names.

Kept in `access.sqlite` beside the ladder's database, not in it: the
store's schema stays the ladder's (ratings, matches). A name is claimed
only inside the store's transaction that registers the bot
(ladder.intake.submission's `claim` step, the last before it commits): a refused
submission claims nothing, and checking a name (`check`) writes nothing,
so a refused call leaves this file as it was. The two databases commit one
after the other, so a service killed between the two commits leaves a
claim without a bot; `release_unregistered` removes those at the next start.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import sqlite3
import threading
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from ladder.store.database import connect_read_only, now_iso, read_only_reason
from referee.files import PRIVATE_FILE, private_folders

ACCESS_DB = "access.sqlite"
TOKEN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")
TOKEN_PREFIX = "rft_"
"""Tokens start with this, so a leaked one is recognisable in a log or a repository."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tokens (
    name       TEXT PRIMARY KEY,
    digest     TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS owners (
    bot_name   TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    claimed_at TEXT NOT NULL
)
"""


DEFAULT_MAX_NAMES = 20
"""Bot names one token may hold (`referee serve --max-names-per-token`)."""


class AccessError(Exception):
    """A refused token or a bot that is not the caller's; the message says
    what is wrong and how to fix it."""


class NameQuotaError(AccessError):
    """A token already holds as many bot names as the service allows."""


@dataclass(frozen=True)
class Token:
    name: str
    created_at: str


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Access:
    """The tokens and bot owners of one data folder."""

    def __init__(self, data_dir: Path, *, max_names: int = DEFAULT_MAX_NAMES) -> None:
        """The tokens of `data_dir`; a data folder that cannot be written
        (read-only media) is only read: adding or revoking a token is then
        an AccessError."""
        self.max_names = max_names
        self.path = data_dir / ACCESS_DB
        self._lock = threading.RLock()
        """One connection serves every thread of the service: a transaction is one thread's at a time."""
        self.read_only = read_only_reason(self.path)
        if self.read_only is not None and self.path.exists():
            self._conn = connect_read_only(self.path, self.read_only)
            return
        if self.read_only is not None:  # no token was ever issued here
            self._conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        else:
            private_folders(data_dir)
            os.close(os.open(self.path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE))
            self._conn = sqlite3.connect(self.path, timeout=10.0, isolation_level=None, check_same_thread=False)
            self._conn.execute("PRAGMA journal_mode = WAL")
        for statement in _SCHEMA.split(";"):
            self._conn.execute(statement)

    def _writable(self) -> None:
        """Raise AccessError when the tokens cannot be changed here."""
        if self.read_only is not None:
            raise AccessError(f"the data folder {self.path.parent} is read-only ({self.read_only}): its tokens "
                              "can be listed, not changed; run this on a writable copy of the folder")

    def close(self) -> None:
        self._conn.close()

    # -- tokens ---------------------------------------------------------------

    def add_token(self, name: str) -> str:
        """Issue a token for the submitter `name`; returns it (shown once).
        Raises AccessError for a bad or taken name."""
        if not TOKEN_NAME.match(name):
            raise AccessError(f"token name {name!r} must be 1-64 letters, digits, '.', '_', '@' or '-'")
        self._writable()
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        try:
            self._conn.execute("INSERT INTO tokens (name, digest, created_at) VALUES (?, ?, ?)",
                               (name, _digest(token), now_iso()))
        except sqlite3.IntegrityError:
            raise AccessError(f"a token named {name!r} exists; revoke it first (`referee token revoke {name}`) "
                              "or choose another name") from None
        return token

    def revoke(self, name: str) -> bool:
        """Revoke the token `name` (its bots stay, and stay its name's).
        Raises AccessError when the data folder is read-only."""
        self._writable()
        return self._conn.execute("DELETE FROM tokens WHERE name = ?", (name,)).rowcount > 0

    def tokens(self) -> list[Token]:
        return [Token(n, c) for n, c in self._conn.execute("SELECT name, created_at FROM tokens ORDER BY name")]

    def holder(self, token: str) -> str:
        """The submitter name of `token`. Raises AccessError."""
        with self._lock:
            row = self._conn.execute("SELECT name FROM tokens WHERE digest = ?", (_digest(token),)).fetchone()
        if row is None:
            raise AccessError("the token is not valid (mistyped, or revoked); ask the ladder's operator for one "
                              "(`referee token add NAME`)")
        return str(row[0])

    # -- owners ---------------------------------------------------------------

    def owner(self, bot_name: str) -> str | None:
        with self._lock:
            row = self._conn.execute("SELECT owner FROM owners WHERE bot_name = ?", (bot_name,)).fetchone()
        return None if row is None else str(row[0])

    def names_of(self, submitter: str) -> int:
        """How many bot names `submitter` holds."""
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM owners WHERE owner = ?", (submitter,)).fetchone()[0])

    def check(self, bot_name: str, submitter: str | None, *, registered: bool) -> None:
        """Whether `submitter` (None: the operator's machine) may register,
        replace or retire `bot_name`; `registered` says whether the store
        has a bot of that name. Writes nothing. Raises AccessError when the
        name is someone else's, NameQuotaError when it would be one name
        too many for the token."""
        with self._lock:
            owner = self.owner(bot_name)
            held = self.names_of(submitter) if submitter is not None else 0
        if owner is None and not registered:
            if submitter is not None and held >= self.max_names:
                raise NameQuotaError(
                    f"your token holds {self.max_names} bot names, the most this ladder allows one submitter: "
                    "submit new versions under one of your names (`referee bots` lists them), or ask the "
                    "operator to raise --max-names-per-token")
            return
        if owner == submitter:
            return
        whose = f"submitter {owner!r}" if owner is not None else "the ladder's operator"
        raise AccessError(f"the bot {bot_name!r} belongs to {whose}; a token may replace or retire only its own "
                          "bots: choose another name")

    def claim(self, bot_name: str, submitter: str | None, *, registered: bool) -> bool:
        """`check`, then make a name nobody holds `submitter`'s: called inside
        the store's transaction that registers the bot (see the module doc).
        True when this claimed the name (the caller's to `release` if that
        transaction then fails). Raises AccessError or NameQuotaError."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")  # one claim at a time: the check and the insert are one step
            try:
                self.check(bot_name, submitter, registered=registered)
                claimed = submitter is not None and self.owner(bot_name) is None
                if claimed:
                    self._conn.execute("INSERT INTO owners (bot_name, owner, claimed_at) VALUES (?, ?, ?)",
                                       (bot_name, submitter, now_iso()))
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
        return claimed

    def release(self, bot_name: str, submitter: str) -> None:
        """Undo a claim whose registration failed after it."""
        with self._lock:
            self._conn.execute("DELETE FROM owners WHERE bot_name = ? AND owner = ?", (bot_name, submitter))

    def release_unregistered(self, registered: Collection[str]) -> list[str]:
        """Remove the claims on names of which no bot is registered (a
        service killed between the claim and the registration); their names."""
        with self._lock:
            stale = [name for name, in self._conn.execute("SELECT bot_name FROM owners") if name not in registered]
            for name in stale:
                self._conn.execute("DELETE FROM owners WHERE bot_name = ?", (name,))
        return stale
