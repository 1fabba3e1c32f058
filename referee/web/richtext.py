"""Rich text as HTML: the terminal's words and colours in the browser.

The viewer shows events and decisions in the same words as `referee replay`
(each game's `GameRenderer` writes them as rich `Text`); this turns such a
text into HTML spans, every character escaped, with the colours of `THEME`,
a palette for a light page. Seat colours come from the same palette, so a
seat is the same colour in the log and on the table.
"""

from __future__ import annotations

import html
from functools import lru_cache

from rich.console import Console
from rich.style import Style
from rich.terminal_theme import TerminalTheme
from rich.text import Text

THEME = TerminalTheme(
    (255, 255, 255), (34, 34, 34),
    [(34, 34, 34), (192, 57, 43), (30, 132, 73), (183, 149, 11), (46, 111, 187), (142, 68, 173), (19, 141, 144),
     (93, 109, 126)],
    [(127, 140, 141), (231, 76, 60), (40, 180, 99), (212, 172, 13), (52, 152, 219), (165, 105, 189),
     (72, 201, 176), (44, 62, 80)],
)
"""ANSI colours as the pages draw them: readable on white ("white" text is a dark grey)."""

_CONSOLE = Console(width=10_000, color_system="truecolor", force_terminal=True, legacy_windows=False)


@lru_cache(maxsize=256)
def _css(style: Style) -> str:
    return style.get_html_style(THEME)


def text_html(text: Text) -> str:
    """`text` as HTML: escaped, one span per styled run, newlines as <br>."""
    parts = []
    for segment in text.render(_CONSOLE, end=""):
        if segment.control:
            continue
        content = html.escape(segment.text).replace("\n", "<br>")
        css = _css(segment.style) if segment.style else ""
        parts.append(f'<span style="{css}">{content}</span>' if css else content)
    return "".join(parts)


def style_colour(style: str) -> str:
    """The CSS colour (#rrggbb) of a rich style's foreground in `THEME`."""
    colour = Style.parse(style).color
    if colour is None:
        raise ValueError(f"style {style!r} has no colour")
    return colour.get_truecolor(THEME).hex


def text_runs(text: Text) -> list[list[str]]:
    """`text` as [characters, css] runs, for a page that writes each run as
    a text node (never as HTML): what the seat page does with event lines."""
    runs: list[list[str]] = []
    for segment in text.render(_CONSOLE, end=""):
        if segment.control or not segment.text:
            continue
        css = _css(segment.style) if segment.style else ""
        if runs and runs[-1][1] == css:
            runs[-1][0] += segment.text
        else:
            runs.append([segment.text, css])
    return runs
