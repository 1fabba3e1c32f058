"""Helpers for the tests of a person's seat page (referee/web/seat_server.py).

- `PageClient` talks to a seat page over HTTP as the page's own script does
  (same Host and Origin), and keeps every body it received.
- `play_page` plays a seat through its page to the end of the match, each
  decision a seeded random choice, as a careless person would.
- `assert_nothing_hidden` checks everything a page received against the
  match's record: nothing the seat did not know is in it — not the seed
  nor its salt, no card the seat never saw (Gnadenlos!'s adventurers,
  Leduc's cards: their names are distinctive strings), and in each of
  Saboteur's tables no other seat's role or hand, and no face-down goal
  the seat did not look at (S-8).
"""

from __future__ import annotations

import http.client
import json
import random
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from referee.games.gnadenlos.cards import ADVENTURERS
from referee.games.leduc.cards import card_name
from referee.records import MatchRecord
from referee.replay import steps


@dataclass
class PageClient:
    """One seat page's address; every body it got is kept in `received`."""

    url: str
    received: list[str] = field(default_factory=list)

    @property
    def origin(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None, timeout: float = 30) -> tuple[int, dict[str, str], str]:
        parts = urlsplit(self.url)
        connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout)
        try:
            sent = {"Host": parts.netloc, **(headers or {})}
            connection.request(method, parts.path + path, body=body, headers=sent)
            response = connection.getresponse()
            text = response.read().decode("utf-8")
            return response.status, dict(response.getheaders()), text
        finally:
            connection.close()

    def get(self, path: str = "", **headers: str) -> tuple[int, str]:
        status, _, text = self.request("GET", path, headers=headers)
        if status == 200:
            self.received.append(text)
        return status, text

    def poll(self, after: int) -> dict[str, Any]:
        status, text = self.get(f"poll?after={after}", **{"Sec-Fetch-Site": "same-origin"})
        assert status == 200, text
        reply: dict[str, Any] = json.loads(text)
        return reply

    def answer(self, request: int, choice: int, *, origin: str | None = None) -> int:
        body = json.dumps({"request": request, "choice": choice}).encode()
        status, _, _ = self.request("POST", "answer", body, {
            "Origin": self.origin if origin is None else origin, "Content-Type": "application/json"})
        return status


def play_page(client: PageClient, seed: int, *, deadline: float = 120.0) -> list[dict[str, Any]]:
    """Play the page's seat to the end, each decision a random legal choice;
    then open its viewer. Every message, in order."""
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = []
    until = time.monotonic() + deadline
    client.get("")
    viewer = False
    while not viewer:
        assert time.monotonic() < until, "the match did not end in time"
        reply = client.poll(len(messages))
        messages += reply["messages"]
        for message in reply["messages"]:
            if message["type"] == "viewer":
                viewer = True
        open_request = reply["open"]
        if open_request is not None:
            ask = next(m for m in reversed(messages) if m["type"] == "ask")
            assert ask["request"] == open_request["request"]
            options = [o for group in ask["menu"]["groups"] for o in group["options"]]
            assert client.answer(ask["request"], rng.choice(options)["i"]) == 200
    status, _ = client.get("view")
    assert status == 200
    return messages


# ------------------------------------------------------------ nothing hidden


def hidden_strings(record: MatchRecord, seat: int) -> set[str]:
    """Strings that name something seat `seat` never knew in this match: the
    seed, its salt, and the names of cards it never saw (each game's)."""
    hidden = {str(record.header["seed"]), record.footer["seed_salt"] if record.footer else ""} - {""}
    game = record.header["game"]
    if game == "gnadenlos":
        hidden |= _unseen_adventurers(record, seat)
    elif game == "leduc":
        hidden |= _unseen_leduc_cards(record, seat)
    return hidden


def _ints(value: Any) -> Iterable[int]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _ints(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _ints(item)


def _unseen_adventurers(record: MatchRecord, seat: int) -> set[str]:
    known: set[int] = set()
    for step in steps(record):
        obs = step.observations[seat].to_json()
        for hand in obs["adv_hands"]:
            known.update(hand["known"])
        for key in ("adv_private", "adv_deck_known", "adv_discard"):
            known.update(obs[key])
        known.update(card for unit in obs["units"] for card in unit)
        for event in step.events_for(seat):
            for key in ("card", "cards", "commitments"):
                if key in event.data:
                    known.update(_ints(event.data[key]))
    seen_names = {ADVENTURERS[card].name for card in known}
    return {a.name for card, a in enumerate(ADVENTURERS) if card not in known and a.name not in seen_names}


def _unseen_leduc_cards(record: MatchRecord, seat: int) -> set[str]:
    players = record.num_seats
    known: set[int] = set()
    for step in steps(record):
        obs = step.observations[seat].to_json()
        known.update(card for card in (obs["card"], obs["public_card"]) if card is not None)
    return {card_name(card, players) for card in range(2 * (players + 1)) if card not in known}


def assert_nothing_hidden(texts: Iterable[str], record: MatchRecord, seat: int) -> int:
    """Everything a seat's page received (`texts`: its HTML, scripts,
    every poll's reply, its viewer) holds nothing the seat did not know.
    Returns how many hidden strings were looked for (more than the seed and
    salt for Gnadenlos! and Leduc: the check checked something)."""
    hidden = hidden_strings(record, seat)
    for text in texts:
        for secret in hidden:
            assert secret not in text, f"seat {seat}'s page received {secret!r}, which the seat never knew"
        assert "record only" not in text and "deck_shuffled" not in text
    if record.header["game"] == "saboteur":
        _saboteur_tables(texts, record, seat)
    return len(hidden)


ROW = re.compile(r'<tr class="sb-seat[^"]*" data-seat="(\d+)">(.*?)</tr>', re.S)
GOAL = re.compile(r'<g data-goal="(-?\d+),(-?\d+)" data-goal-card="([^"]+)" class="goal (up|down)')


def _saboteur_tables(texts: Iterable[str], record: MatchRecord, seat: int) -> None:
    """In every table the seat's page was sent: no other seat's role while
    a round is played, no other seat's hand, no face-down goal's card the
    seat did not look at with a map (S-5.4, S-8)."""
    looked = _looked_at(record, seat)
    tables = 0
    fragments: list[str] = []  # every fragment sent, by its number (SeatView.shared)
    for text in texts:
        for message in _messages(text):
            parts = [fragments[part] if isinstance(part, int) else part
                     for key in ("table", "interlude") for part in message.get(key, [])]
            fragments += [part for key in ("table", "interlude") for part in message.get(key, [])
                          if isinstance(part, str)]
            if message.get("type") not in ("ask", "start"):
                continue
            html = "".join(parts)
            tables += 1
            round_number = int(re.search(r"round <b>(\d+)</b>", html).group(1))  # type: ignore[union-attr]
            for row_seat, row in ROW.findall(html):
                if int(row_seat) != seat:
                    assert 'data-role="unknown"' in row, f"seat {row_seat}'s role shown to seat {seat}"
                    assert "data-hand-card" not in row, f"seat {row_seat}'s hand shown to seat {seat}"
            for x, y, card, side in GOAL.findall(html):
                if side == "down" and card != "unknown":
                    assert (round_number, int(x), int(y)) in looked, f"goal ({x}, {y}) shown to seat {seat}"
    assert tables, "no table was checked"


def _looked_at(record: MatchRecord, seat: int) -> set[tuple[int, int, int]]:
    looked: set[tuple[int, int, int]] = set()
    round_number = 0
    for step in steps(record):
        for event in step.events_for(seat):
            if event.kind == "round_started":
                round_number = event.data["round"]
            elif event.kind == "map_used" and event.data["seat"] == seat:
                looked.add((round_number, event.data["x"], event.data["y"]))
    return looked


def _messages(text: str) -> list[dict[str, Any]]:
    """The messages of a poll's reply (none for any other text)."""
    if not text.startswith('{"next":'):
        return []
    messages: list[dict[str, Any]] = json.loads(text)["messages"]
    return messages
