"""The repository stands alone (issue 15): every relative link in README.md
and docs/ leads to a file of the repository (and to a heading there, when
it names one), every page a doc names in code quotes (`docs/ladder.md`)
exists, and every rule id the docs cite is a rule of docs/rules/.

Markdown is read with markdown-it-py (the CommonMark parser rich is built
on), so links in code blocks are not links and reference-style links are;
headings become anchors the way GitHub makes them.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
RULES = ROOT / "docs" / "rules"
RULE_DEFINED = re.compile(r"^(?:#+|-)\s+([A-Z]-\d+(?:\.\d+)?)\s", re.MULTILINE)
RULE_PAGES = {match[0]: page.name for page in sorted(RULES.glob("*.md"))
              for match in RULE_DEFINED.findall(page.read_text(encoding="utf-8"))}
"""Each game's rule-id letter and its rules page (G gnadenlos.md, S saboteur.md, ...)."""
RULE_ID = re.compile(rf"(?<![\w-])([{''.join(RULE_PAGES)}]-\d+(?:\.\d+)?)(?![\w.]*\d)")
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)

_parser = MarkdownIt("commonmark")


def tokens(page: Path) -> list[Token]:
    return _parser.parse(page.read_text(encoding="utf-8"))


def inline_text(token: Token) -> str:
    """The text a reader sees of an inline token (code without its backticks)."""
    return "".join(child.content for child in token.children or [] if child.type in ("text", "code_inline"))


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, only letters, marks,
    digits, '_', '-' and spaces kept, spaces made '-'."""
    kept = "".join(char for char in heading.lower()
                   if unicodedata.category(char)[0] in "LMN" or char in "_- ")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor of `page`'s headings (a repeated one gets -1, -2, ...)."""
    found: set[str] = set()
    stream = tokens(page)
    for i, token in enumerate(stream):
        if token.type != "heading_open":
            continue
        base = slug(inline_text(stream[i + 1]))
        name, n = base, 0
        while name in found:
            n += 1
            name = f"{base}-{n}"
        found.add(name)
    return found


def links(page: Path) -> list[tuple[int, str]]:
    """(line, target) of every link and image of `page`."""
    found = []
    for token in tokens(page):
        for child in token.children or []:
            target = child.attrs.get("href") if child.type == "link_open" else (
                child.attrs.get("src") if child.type == "image" else None)
            if isinstance(target, str):
                found.append(((token.map or [0])[0] + 1, target))
    return found


def code_spans(page: Path) -> list[tuple[int, str]]:
    """(line, text) of every inline code span of `page`."""
    return [((token.map or [0])[0] + 1, child.content) for token in tokens(page)
            for child in token.children or [] if child.type == "code_inline"]


def where(page: Path, line: int) -> str:
    return f"{page.relative_to(ROOT)}:{line}"


def broken_link(page: Path, target: str) -> str | None:
    """Why `target` (a link on `page`) leads nowhere, or None if it is fine."""
    if SCHEME.match(target) or target.startswith("//"):
        return None  # another site: not this test's business
    path, _, anchor = target.partition("#")
    file = (page.parent / unquote(path)).resolve() if path else page
    if not file.is_relative_to(ROOT):
        return "leads out of the repository"
    if not file.exists():
        return "no such file"
    if anchor and file.suffix == ".md" and anchor not in anchors(file):
        return f"no heading #{anchor} in {file.relative_to(ROOT)}"
    return None


def inside_repository(path: Path) -> bool:
    """`path` exists and lies in the repository."""
    return path.exists() and path.resolve().is_relative_to(ROOT)


def rule_ids() -> set[str]:
    """Every rule id the rules pages define (a section or one rule)."""
    return {match for page in RULES.glob("*.md") for match in RULE_DEFINED.findall(page.read_text())}


def test_the_rules_and_the_design_are_in_the_repository() -> None:
    for name in ("rules/gnadenlos.md", "rules/saboteur.md", "rules/README.md", "design.md"):
        assert (ROOT / "docs" / name).is_file(), name
    ids = rule_ids()
    assert {"G-5.4", "G-11", "S-3.1", "S-9"} <= ids and len(ids) > 80


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_resolves_inside_the_repository(page: Path) -> None:
    problems = [f"{where(page, line)}: {target}: {why}" for line, target in links(page)
                if (why := broken_link(page, target)) is not None]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_page_named_in_code_quotes_exists(page: Path) -> None:
    """`docs/ladder.md` or `rules/saboteur.md` in a sentence: the reader
    looks for it next to the page or from the repository's root."""
    problems = [f"{where(page, line)}: `{text}`" for line, text in code_spans(page)
                if text.endswith(".md") and not any(char in text for char in " <*")  # no placeholder
                and not any(inside_repository(base / text) for base in (page.parent, ROOT))]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_rule_id_cited_is_a_rule(page: Path) -> None:
    ids = rule_ids()
    text = page.read_text(encoding="utf-8")
    problems = [f"{where(page, text.count(chr(10), 0, match.start()) + 1)}: {match.group(1)}"
                for match in RULE_ID.finditer(text) if match.group(1) not in ids]
    assert not problems, "rule ids that no rules page defines:\n" + "\n".join(problems)


@pytest.mark.parametrize("page", [p for p in PAGES if p.parent != RULES], ids=lambda page: str(page.relative_to(ROOT)))
def test_a_page_citing_rule_ids_links_their_rules_page(page: Path) -> None:
    """A reader meeting "G-5.4" finds the page it is on: every page that
    cites a game's rule ids links that game's rules page."""
    cited = {match.group(1)[0] for match in RULE_ID.finditer(page.read_text(encoding="utf-8"))}
    linked = {(page.parent / target.partition("#")[0]).resolve() for _, target in links(page)}
    missing = [name for letter, name in RULE_PAGES.items()
               if letter in cited and (RULES / name).resolve() not in linked]
    assert not missing, f"{page.relative_to(ROOT)} cites rule ids but links no {', '.join(missing)}"


def test_the_checker_finds_what_is_broken(tmp_path: Path) -> None:
    """The checks above can fail: a missing file, a link out of the
    repository and a missing heading are each reported."""
    page = ROOT / "docs" / "protocol.md"
    assert broken_link(page, "nowhere.md") == "no such file"
    assert broken_link(page, "../../outside.md") == "leads out of the repository"
    assert broken_link(page, "ladder.md#no-such-heading") == "no heading #no-such-heading in docs/ladder.md"
    assert broken_link(page, "#a-match-one-play-stream") is None
    assert broken_link(page, "https://example.org/x.md") is None
    assert slug("Actions (`gnadenlos.v1.Action`, a oneof)") == "actions-gnadenlosv1action-a-oneof"
    assert slug("Start-up: socket, health, handshake") == "start-up-socket-health-handshake"
