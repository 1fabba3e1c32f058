"""Text from bots and submissions, made safe to show on a terminal.

Much of what the referee and the ladder show was chosen by a bot or its
author: handshake names and versions, crash and forfeit details, a bot's own
output (its log), bot.toml fields, file names quoted in a refusal, and match
records, which hold all of these. Shown raw, such text drives the
operator's terminal: ESC and CSI sequences move the cursor, clear the
screen or set the window title, a bidi override reorders what follows it on
the line, a lone surrogate cannot even be encoded. Handed to rich as markup,
`[/bold]` raises MarkupError and crashes the command.

So every such string is shown through this module:

- `safe_line`: one line. Every character that is not printable (C0 and C1
  controls, DEL, newline and tab too, bidi embeddings, overrides and
  isolates, line and paragraph separators, surrogates, other format
  characters) is written as its visible Python escape (`\\x1b`, `\\u202e`),
  and the result is cut to `LINE_LIMIT` characters.
- `safe_block`: the same for text of several lines (a log, a traceback):
  newlines and tabs are kept, nothing is cut.
- `safe_text`: `safe_line` as a `rich.text.Text`, which rich never parses
  as markup: the way to put bot text into a table cell or a styled line.
- `SafeFormatter`: a logging formatter doing `safe_block` to each record,
  since log messages quote bot text too (`configure_logging`).

The module sits in the referee, so that the ladder above may use it as well.
"""

from __future__ import annotations

import logging

from rich.text import Text

LINE_LIMIT = 300
"""The most characters `safe_line` returns: a name or a detail is never a
page (a bot chooses its length)."""
MESSAGE_LIMIT = 1000
"""A longer cut for an error line quoting bot text: it also holds paths and
how to fix the error."""

_KEPT_IN_BLOCKS = frozenset("\n\t")
LOG_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"


def _escaped(text: str, kept: frozenset[str]) -> str:
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() or char in kept else repr(char)[1:-1] for char in text)


def safe_line(text: object, limit: int = LINE_LIMIT) -> str:
    """`text` as one printable line, at most `limit` characters ('…' where cut)."""
    line = _escaped(str(text), frozenset())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def safe_block(text: object) -> str:
    """`text` with its lines and tabs kept and every other unprintable
    character escaped."""
    return _escaped(str(text), _KEPT_IN_BLOCKS)


def safe_text(text: object, style: str = "") -> Text:
    """`safe_line(text)` as rich text in `style`: never read as markup."""
    return Text(safe_line(text), style=style)


class SafeFormatter(logging.Formatter):
    """Formats log records as usual, then escapes what a terminal would obey."""

    def format(self, record: logging.LogRecord) -> str:
        return safe_block(super().format(record))


def configure_logging(level: int) -> None:
    """Log to stderr at `level`, every line through `SafeFormatter`."""
    handler = logging.StreamHandler()
    handler.setFormatter(SafeFormatter(LOG_FORMAT))
    logging.basicConfig(level=level, handlers=[handler])
