"""Bounds on what a bot says about itself in its handshake (docs/protocol.md).

A bot's name goes into every seat's `MatchStart`; name and version go into
match records, logs and the ladder's store; the games decide where a ladder
seats it. Unbounded, a bot could make another seat's `MatchStart` larger than
that seat's gRPC receive limit (the honest bot would fail and forfeit for the
attacker's choice) or put terminal escapes and line breaks into an
operator's screen. So the referee refuses, at start-up, a handshake whose
fields break these bounds: the bot that sent it forfeits, and only it.

With these bounds a seat name is at most 64 characters of at most 4 UTF-8
bytes, so ten seat names add at most about 2.6 KB to a `MatchStart`
(tests/test_hostile_input.py measures the whole message). The bounds
themselves are part of the contract both sides import (`botsdk.contract`).
"""

from __future__ import annotations

from collections.abc import Sequence

from botsdk.contract import GAME_ID, MAX_GAMES, MAX_NAME_CHARS, MAX_VARIANTS, MAX_VERSION_CHARS, VARIANT_TAG

from referee.protocol.faults import BotStartFailed

_PREVIEW_CHARS = 24
"""How much of a refused value its refusal quotes: enough to recognise it,
never the megabyte an attacker sent back into a record."""
_NAME_FIX = f"give the bot a name of 1 to {MAX_NAME_CHARS} printable characters (HandshakeResponse.name)"


def check_handshake(name: str, version: str, games: Sequence[str], variants: Sequence[str] = ()) -> None:
    """Raise BotStartFailed, naming the field, its limit and the fix, when a
    handshake field breaks its bound."""
    if not name.strip():
        raise BotStartFailed(f"the handshake's name {_preview(name)} is empty or blank; {_NAME_FIX}")
    _check_text("name", name, MAX_NAME_CHARS, _NAME_FIX)
    _check_text("version", version, MAX_VERSION_CHARS,
                f"give a version of at most {MAX_VERSION_CHARS} printable characters "
                "(HandshakeResponse.version)")
    _check_games(games)
    _check_variants(variants)


def _check_text(field: str, value: str, limit: int, fix: str) -> None:
    """A text field: at most `limit` characters, every one printable (no
    control, format or separator character: those rewrite what a terminal
    or a table shows around them)."""
    if len(value) > limit:
        raise BotStartFailed(f"the handshake's {field} {_preview(value)} is {len(value)} characters long, "
                             f"more than the limit of {limit}; {fix}")
    bad = next((i for i, char in enumerate(value) if not char.isprintable()), None)
    if bad is not None:
        raise BotStartFailed(f"the handshake's {field} {_preview(value)} holds a character that is not printable "
                             f"(U+{ord(value[bad]):04X} at position {bad}); {fix}")


def _check_games(games: Sequence[str]) -> None:
    """At most MAX_GAMES entries, each a game identifier."""
    fix = "list only the games the bot plays, by their identifiers (HandshakeResponse.games)"
    if len(games) > MAX_GAMES:
        raise BotStartFailed(f"the handshake lists {len(games)} games, more than the limit of {MAX_GAMES}; {fix}")
    for index, game in enumerate(games):
        if not GAME_ID.fullmatch(game):
            raise BotStartFailed(
                f"the handshake's games[{index}] {_preview(game)} is not a game identifier (a lowercase letter, "
                "then at most 31 lowercase letters, digits or '_', like 'saboteur'); " + fix)


def _check_variants(variants: Sequence[str]) -> None:
    """At most MAX_VARIANTS entries, each a GAME:OPTION=VALUE tag."""
    fix = ("list one GAME:OPTION=VALUE per variant option value the bot plays, e.g. 'gnadenlos:auction=single' "
           "(HandshakeResponse.variants)")
    if len(variants) > MAX_VARIANTS:
        raise BotStartFailed(f"the handshake lists {len(variants)} variants, more than the limit of {MAX_VARIANTS}; "
                             + fix)
    for index, tag in enumerate(variants):
        if not VARIANT_TAG.fullmatch(tag):
            raise BotStartFailed(f"the handshake's variants[{index}] {_preview(tag)} is not a variant tag; {fix}")


def _preview(value: str) -> str:
    """The start of `value`, quoted with every unprintable character escaped
    (Python's repr), and '…' if it goes on: safe to log, record and print."""
    shown = repr(value[:_PREVIEW_CHARS])
    return shown + "…" if len(value) > _PREVIEW_CHARS else shown
