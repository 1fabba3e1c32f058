"""One HTML page that needs nothing from the network: scripts, styles and
data inline, and a Content-Security-Policy that forbids everything else.

Pages are sent to people (a report to the competitors, a viewer to a bot's
author) and opened from a file, often offline. So nothing is loaded from
anywhere: the policy is `default-src 'none'`, each inline script is allowed
by its SHA-256 hash (so an injected one would not run), styles inline, and
images only as data: URLs. A page served live (`connect_self`) may also open
connections to the server that sent it, and to nothing else.

Data travels in a `<script type="application/json">` block that the page's
own script parses; every `</` and `<!--` in it is written with a JSON
escape, so no string in the data (a bot's name) can close the block.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

DATA_ID = "page-data"
"""The id of the JSON data block (what the page scripts read)."""


def static_text(package: str, name: str) -> str:
    """A text file shipped inside `package` (a script or a stylesheet)."""
    return files(package).joinpath(name).read_text(encoding="utf-8")


def json_for_html(data: Any) -> str:
    """`data` as JSON safe inside a script element: no `</` (which could end
    it) and no `<!--` (which changes how the browser reads what follows),
    each written with a JSON escape (`<\\/`, `<\\u0021--`) that parses back
    to the same string. Cheaper than escaping every `<` of the HTML held."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--")


def script_hash(script: str) -> str:
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def content_policy(scripts: Sequence[str], *, connect_self: bool = False) -> str:
    """The page's Content-Security-Policy: nothing from anywhere, the given
    inline scripts by hash, inline styles, data: images."""
    parts = [
        "default-src 'none'",
        "script-src " + " ".join(script_hash(s) for s in scripts),
        "style-src 'unsafe-inline'",
        "img-src data: blob:",
        "font-src data:",
        "base-uri 'none'",
        "form-action 'none'",
    ]
    if connect_self:
        parts.append("connect-src 'self'")
    return "; ".join(parts)


def html_page(*, title: str, body: str, scripts: Sequence[str], styles: Sequence[str], data: Any = None,
              connect_self: bool = False) -> str:
    """A whole HTML document. `body` is trusted HTML (built by the caller with
    every outside string escaped); `title` is escaped here."""
    if any("</script" in script.lower() for script in scripts):
        raise ValueError("an inline script may not contain '</script': it would end its element early")
    policy = content_policy(scripts, connect_self=connect_self)
    head = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{html.escape(policy)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(title)}</title>",
        *(f"<style>{style}</style>" for style in styles),
        "</head>",
        "<body>",
        body,
    ]
    if data is not None:
        head.append(f'<script type="application/json" id="{DATA_ID}">{json_for_html(data)}</script>')
    head += [f"<script>{script}</script>" for script in scripts]
    head += ["</body>", "</html>", ""]
    return "\n".join(head)
