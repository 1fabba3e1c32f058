"""A bot's oversized input can only hurt itself (containment issue, property 5).

Every seat's handshake name goes into every seat's MatchStart. Unbounded,
five bots with 1 MB names made a 5 MB MatchStart: the honest bots' gRPC
refused it at its default 4 MiB receive limit and they forfeited as
"crashed", while the attackers, who had raised their own limit, played on.
Here the hostile bot (tests/bots/hostile_input.py, real processes) sits
at a table of honest random bots: it is refused at start-up with a clear
reason, and the honest bots play every decision of the match themselves.
The same holds for what a bot sends as its answers, which the referee
writes into the match record when it strikes them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from referee.games import load_game
from referee.match import MatchResult, run_match
from referee.process import BotProcess, start_bots
from referee.protocol import codec as wire
from botsdk.contract import MAX_GAMES, MAX_NAME_CHARS, MAX_VERSION_CHARS, TimeControl
from referee.protocol.handshake import check_handshake
from referee.records import MatchRecord, read_record
from referee.replay import verify

HOSTILE = Path(__file__).parent / "bots" / "hostile_input.py"
RANDOM = [sys.executable, "-m", "bots.random", "--seed", "1"]
TIME = TimeControl(move_time=0.5, grace=0.1)
GRPC_DEFAULT_RECEIVE_LIMIT = 4 * 1024 * 1024
"""What an honest bot's gRPC server accepts unless its author raised it."""
DETAIL_LIMIT = 400
"""A refusal's detail quotes the offending value cut short: the record and
the log never carry the megabyte back."""


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[BotProcess]]:
    """Two warm random bots with gRPC's default receive limit."""
    bots = start_bots([RANDOM, RANDOM], ["honest-1", "honest-2"], log_dir=tmp_path_factory.mktemp("logs"))
    yield bots
    for bot in bots:
        bot.close()


@pytest.fixture
def attackers() -> Iterator[Callable[..., list[BotProcess]]]:
    """Start `count` hostile bots as `start_bots` does (a refused one becomes
    a placeholder that forfeits); close them after the test."""
    started: list[BotProcess] = []

    def start(mode: str, count: int = 1) -> list[BotProcess]:
        bots = start_bots([[sys.executable, str(HOSTILE), mode]] * count,
                          [f"{mode}-{i}" for i in range(count)], startup_timeout=10.0)
        started.extend(bots)
        return bots

    yield start
    for bot in started:
        bot.close()


def play(game: str, bots: list[BotProcess], tmp_path: Path) -> tuple[MatchResult, MatchRecord]:
    path = tmp_path / f"{game}.jsonl"
    result = run_match(game, bots, seed=5, time_control=TIME, record_path=path)
    record = read_record(path)
    verify(record)  # finished, and replays to the same result
    return result, record


def assert_honest_unaffected(result: MatchResult, record: MatchRecord, honest_seats: set[int]) -> None:
    """The honest seats decided every time themselves, without a strike or forfeit."""
    assert all(result.seats[s].strikes == 0 and result.seats[s].forfeit is None for s in honest_seats)
    theirs = [line for d in record.decisions for line in d["seats"] if line["seat"] in honest_seats]
    assert theirs and all(line["by"] == "bot" and "strike" not in line for line in theirs)


def assert_refused(bot: BotProcess, field: str, *words: str) -> str:
    """The bot did not start; the reason names the field, is short and printable."""
    assert bot.fault is not None and bot.fault.reason == "startup", bot
    detail = bot.fault.detail
    assert f"HandshakeResponse.{field.split('[')[0]}" in detail and field in detail
    assert len(detail) < DETAIL_LIMIT and detail.isprintable()
    for word in words:
        assert word in detail
    return detail


MODE_FIELDS = {
    "huge-name": ("name", f"limit of {MAX_NAME_CHARS}", "1000000 characters"),
    "control-name": ("name", "not printable", "U+001B"),
    "bidi-name": ("name", "not printable", "U+202E"),
    "blank-name": ("name", "printable"),
    "huge-version": ("version", f"limit of {MAX_VERSION_CHARS}", "100000 characters"),
    "many-games": ("games", f"limit of {MAX_GAMES}", "10000 games"),
    "bad-game": ("games[1]", "identifier"),
}


def test_a_bot_with_a_1mb_name_is_refused_and_the_others_play_on(attackers: Callable[..., list[BotProcess]],
                                                                  honest: list[BotProcess], tmp_path: Path) -> None:
    (attacker,) = attackers("huge-name")
    detail = assert_refused(attacker, *MODE_FIELDS["huge-name"])
    assert "'xxxxxxxx" in detail  # the start of the value, quoted, not the megabyte
    result, record = play("gnadenlos", [attacker, *honest], tmp_path)
    assert result.seats[0].forfeit == "startup" and result.ranks[0] == 2
    (forfeit,) = record.forfeits
    assert forfeit["decision"] == 0 and forfeit["detail"] == detail
    assert_honest_unaffected(result, record, {1, 2})


def test_five_huge_names_cannot_make_the_honest_bots_forfeit(attackers: Callable[..., list[BotProcess]],
                                                             honest: list[BotProcess], tmp_path: Path) -> None:
    """The attack as reported: five 1 MB names at a Saboteur table would make
    every seat's MatchStart 5 MB, over the honest bots' 4 MiB limit."""
    five = attackers("huge-name", 5)
    result, record = play("saboteur", [honest[0], *five, honest[1]], tmp_path)
    assert [s.forfeit for s in result.seats] == [None] + ["startup"] * 5 + [None]
    assert_honest_unaffected(result, record, {0, 6})


@pytest.mark.parametrize("mode", ["control-name", "bidi-name", "blank-name"])
def test_a_name_that_is_not_printable_text_is_refused(mode: str, attackers: Callable[..., list[BotProcess]],
                                                      honest: list[BotProcess], tmp_path: Path) -> None:
    (attacker,) = attackers(mode)
    assert_refused(attacker, *MODE_FIELDS[mode])
    result, record = play("gnadenlos", [*honest[:1], attacker, *honest[1:]], tmp_path)
    assert result.seats[1].forfeit == "startup"
    assert record.header["seats"][1]["name"] == f"{mode}-0"  # the referee's label, never the bot's text
    assert_honest_unaffected(result, record, {0, 2})


@pytest.mark.parametrize("mode", ["huge-version", "many-games", "bad-game"])
def test_every_handshake_field_is_bounded(mode: str, attackers: Callable[..., list[BotProcess]]) -> None:
    (attacker,) = attackers(mode)
    assert_refused(attacker, *MODE_FIELDS[mode])


def test_a_huge_illegal_answer_is_struck_and_quoted_short(attackers: Callable[..., list[BotProcess]],
                                                          honest: list[BotProcess], tmp_path: Path) -> None:
    """A 0.4 MB bid is struck like any illegal answer; the record quotes its
    start, not the 0.8 MB of its text, three times over."""
    (attacker,) = attackers("huge-bid")
    result, record = play("gnadenlos", [attacker, *honest], tmp_path)
    details = [line["strike"]["detail"] for d in record.decisions for line in d["seats"] if "strike" in line]
    assert result.seats[0].forfeit == "strike_limit" and len(details) == 3
    assert all(d.startswith("bid 1:2 1:2") and len(d) < DETAIL_LIMIT for d in details)
    assert (tmp_path / "gnadenlos.jsonl").stat().st_size < 200_000
    assert_honest_unaffected(result, record, {1, 2})


def test_a_crash_status_with_terminal_escapes_is_recorded_printable(
        attackers: Callable[..., list[BotProcess]], honest: list[BotProcess], tmp_path: Path) -> None:
    """The status a bot ends its stream with is its own text: the record
    keeps it cut short and with every unprintable character escaped."""
    (attacker,) = attackers("escape-abort")
    result, record = play("gnadenlos", [attacker, *honest], tmp_path)
    (forfeit,) = record.forfeits
    assert result.seats[0].forfeit == "crashed"
    assert "\\x1b[2J" in forfeit["detail"] and forfeit["detail"].isprintable()
    assert len(forfeit["detail"]) < DETAIL_LIMIT
    assert_honest_unaffected(result, record, {1, 2})


def largest_name(seat: int) -> str:
    """A name as large in bytes as the handshake bounds allow: every
    character takes four bytes in UTF-8."""
    name = chr(0x1D400 + seat) * MAX_NAME_CHARS  # MATHEMATICAL BOLD letters: printable
    check_handshake(name, chr(0x1D400) * MAX_VERSION_CHARS, ["saboteur"] * MAX_GAMES)  # allowed
    return name


@pytest.mark.parametrize("game, seats", [("gnadenlos", 4), ("saboteur", 10)])
def test_the_largest_match_start_stays_far_below_the_receive_limit(game: str, seats: int) -> None:
    """Whatever the bots said in their handshakes, no seat's MatchStart
    comes near an honest bot's receive limit: names are the only bot-chosen
    text in it, and they are bounded."""
    rules = load_game(game)
    state = rules.new_state(seats, 1)
    for seat in range(seats):
        start = wire.match_start_message(
            wire.codec_for(game), match_id="m" * 64, game=game, variant=rules.rule_set.options, seat=seat,
            num_seats=seats, seat_names=[largest_name(s) for s in range(seats)],
            time_control=TIME.to_message(), observation=state.observe(seat))
        assert len(start.SerializeToString()) < GRPC_DEFAULT_RECEIVE_LIMIT // 256  # 16 KiB
