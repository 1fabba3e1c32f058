"""`referee check PATH`: would this bot pass submission, and if not, why?

What fastchess's `--compliance` is for chess engines: a bot author runs it
before `referee submit`. It takes what submit takes (an executable file or
a folder with a bot.toml), copies it within the same limits and reads its
manifest as submit does (ladder/intake/submission.py), starts the copy in the
sandbox exactly as the ladder does (the copy's folder exposed, nothing
else of the author's), and checks in turn:

- the start: health (both service names the protocol asks for), the
  handshake, its bounds and its protocol version, within the start-up time;
- the games: each one bot.toml lists must be in the handshake;
- play: seeded real matches of each game (referee/probe.py), the bot in
  one seat, the built-in heuristic in the others, played by the same match
  loop, failure policy, `MatchStart` and `MatchEnd` as the ladder's: every
  answer legal, well formed and in time (a strike is a failure here, though
  a submission is refused only for a forfeit: a bot that draws strikes
  loses matches);
- answer times as percentiles against the move time (the ladder's, 2 s, by
  default), and the first answer, which a cold start makes slow;
- the sizes of the messages it was sent and of its answers;
- what the jail refused it (referee/refusals.py), and whether it ends on
  SIGTERM.

Each finding says what is wrong and how to fix it; `CheckReport.passed`
holds only when nothing is an error, so a check that passes means the bot
would pass submission.
"""

from __future__ import annotations

import shutil
import signal
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import grpc
from botsdk.contract import GRACE, TimeControl
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ladder.intake.copying import Limits
from ladder.intake.roster import folder_command
from ladder.intake.submission import (
    SubmissionError,
    check_name,
    covering_variants,
    handshake_games,
    handshake_variants,
    stage,
    wanted_games,
)
from referee.durations import format_duration
from referee.log_tail import last_lines
from referee.probe import GameProbe, percentile, probe_game
from referee.process import BotProcess
from referee.protocol.faults import BotExitedAtStart, BotFault, ProtocolMismatch
from referee.refusals import BotPlace, refusals
from referee.untrusted import MESSAGE_LIMIT, safe_line

ERROR = "error"
WARNING = "warning"
OK = "ok"

DECISIONS = 60
"""Decisions the bot is asked at least, per game (and a match at the
smallest and at the largest table)."""
SEED = 20240601
"""The matches' seed unless one is given: the same check plays the same deals."""
SLOW_SHARE = 0.5
"""An answer slower than this share of the move time leaves little margin
on a loaded ladder machine: a warning."""
SLOW_START_SHARE = 0.5
"""A start that takes more than this share of the start-up timeout: a warning."""
HEALTH_TIMEOUT = 2.0
GRPC_RECEIVE_LIMIT = 4 << 20
"""gRPC's default receive limit: a bot that keeps it refuses larger messages."""

FIXES = {
    "timeout": "answer within Decide.deadline_ms (move time, told in MatchStart.time_control): stop thinking "
               "with a margin, and do slow preparation before serving or in warm_up()",
    "illegal": "answer with one of the Decide's legal_actions, copied field for field (docs/protocol.md, A match)",
    "malformed": "answer each Decide with one BotMessage{decision}: its request_id and one of its legal_actions",
    "crashed": "the bot's process ended or closed its stream: its last lines of output below say why",
}


@dataclass(frozen=True)
class Finding:
    check: str
    severity: str
    message: str
    fix: str = ""


@dataclass
class GameSummary:
    """What one game's matches showed (times in seconds, sizes in bytes)."""

    game: str
    matches: int
    table_sizes: list[int]
    variants: list[str]
    """The rule sets played besides the base rules (their options, OPTION=VALUE,...)."""
    decisions: int
    faults: dict[str, int]
    times: dict[str, float]
    largest: dict[str, int]


@dataclass
class CheckReport:
    path: str
    move_time: float
    bot: dict[str, Any] | None = None
    games: list[GameSummary] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    log: str | None = None
    log_tail: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not any(f.severity == ERROR for f in self.findings)

    def add(self, check: str, severity: str, message: str, fix: str = "") -> None:
        self.findings.append(Finding(check, severity, message, fix))

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "passed": self.passed, "move_time": self.move_time, "bot": self.bot,
                "games": [asdict(g) for g in self.games], "findings": [asdict(f) for f in self.findings],
                "log": self.log, "log_tail": self.log_tail}


@dataclass(frozen=True)
class CheckOptions:
    games: Sequence[str] = ()
    variants: Sequence[str] = ()
    """Variants to check besides its bot.toml's, GAME:OPTION=VALUE (submit's --variant)."""
    move_time: float = 2.0
    startup_timeout: float = 10.0
    decisions: int = DECISIONS
    seed: int = SEED
    log_dir: Path | None = None
    """Where the bot's log is kept (default: a temporary folder, kept only if the check fails)."""
    limits: Limits = Limits()


def check(path: Path, options: CheckOptions) -> CheckReport:
    """Check the bot at `path` (see the module doc). Never raises for what
    the bot does; the report says it."""
    report = CheckReport(str(path), options.move_time)
    work = Path(tempfile.mkdtemp(prefix="referee-check-"))
    logs = options.log_dir or Path(tempfile.mkdtemp(prefix="referee-check-log-"))
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / "bot.log"
    place = BotPlace(work / "bot", path if path.is_dir() else path.parent)
    try:
        _check(path, place, log, options, report)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if not report.passed and log.exists() and log.stat().st_size:
            report.log, report.log_tail = str(log), [place.unstaged(line) for line in last_lines(log)]
        elif options.log_dir is None:
            shutil.rmtree(logs, ignore_errors=True)
    return report


def _check(path: Path, place: BotPlace, log: Path, options: CheckOptions, report: CheckReport) -> None:
    staged = place.folder
    try:
        manifest = stage(path, staged, options.limits)
        if manifest.name is not None:
            check_name(manifest.name)
        wanted = wanted_games(options.games, manifest)
    except SubmissionError as exc:  # it may quote the submission: escaped
        report.add("submission", ERROR, safe_line(exc, MESSAGE_LIMIT))
        return
    if manifest.name is None:
        report.add("submission", OK, "a single file: give it a name when you submit it (--name NAME)")
    label = manifest.name or path.name

    def start() -> BotProcess:
        return BotProcess.start(folder_command(manifest.command, staged), label=label,
                                startup_timeout=options.startup_timeout, log_path=log, expose=[staged])

    started = time.monotonic()
    try:
        bot = start()
    except BotFault as fault:
        _start_failed(place.unstaged(fault.detail), options, fault, report)
        _refused(fault.detail, log, place, report)
        return
    try:
        _started(bot, time.monotonic() - started, options, report)
        declared = tuple(dict.fromkeys([*manifest.variants, *options.variants])) or None  # as submit has it
        bot = _play(bot, start, wanted, declared, options, report)
    finally:
        running = bot.alive  # a bot killed for a forfeit says nothing of how it ends on SIGTERM
        bot.close()
        if running:
            _shutdown(bot, report)
        _refused(None, log, place, report)


def _start_failed(detail: str, options: CheckOptions, fault: BotFault, report: CheckReport) -> None:
    detail = safe_line(detail, MESSAGE_LIMIT)
    if isinstance(fault, ProtocolMismatch):
        report.add("protocol_version", ERROR, detail, (
            "answer the handshake with protocol_version 1, the referee's (botsdk.contract.PROTOCOL_VERSION): "
            "build the bot against this repository's proto/ and SDK"))
    elif isinstance(fault, BotExitedAtStart):
        report.add("start", ERROR, f"the bot did not start: {detail}", (
            "its process ended before it listened: its last lines of output below say why (a file or a "
            "module it did not find, an exception at start-up)"))
    else:
        report.add("start", ERROR, f"the bot did not start (start-up timeout "
                   f"{format_duration(options.startup_timeout)}): {detail}", (
                       "listen on --socket PATH (or $REFEREE_BOT_SOCKET), serve health and tournament.v1.Bot, "
                       "answer the handshake (docs/protocol.md, Start-up); its last lines of output below say "
                       "more"))


def _started(bot: BotProcess, seconds: float, options: CheckOptions, report: CheckReport) -> None:
    info = bot.info
    report.bot = {"name": safe_line(info.name), "version": safe_line(info.version),
                  "protocol_version": info.protocol_version, "games": [safe_line(game) for game in info.games],
                  "variants": [safe_line(tag) for tag in info.variants],
                  "start_seconds": round(seconds, 3)}
    report.add("start", OK, f"answered health and the handshake in {_seconds(seconds)} "
               f"(start-up timeout {format_duration(options.startup_timeout)})")
    if seconds > SLOW_START_SHARE * options.startup_timeout:
        report.add("start", WARNING, f"the start took {_seconds(seconds)}, more than half the start-up timeout",
                   "on a loaded ladder machine it may take longer: serve first, load what is slow in warm_up()")
    report.add("handshake", OK, f"{safe_line(info.name)} {safe_line(info.version)}, protocol version "
               f"{info.protocol_version}, plays {safe_line(', '.join(info.games))}"
               + (f", variants {safe_line(', '.join(info.variants))}" if info.variants else ""))
    if not _serving(bot.client.socket_path, ""):
        report.add("health", WARNING, "the health service does not report SERVING for the service name \"\"",
                   "set both \"\" and tournament.v1.Bot to SERVING (docs/protocol.md, Overview)")


def _serving(socket_path: str, service: str) -> bool:
    """Whether the bot's health service says `service` is SERVING."""
    with grpc.insecure_channel(f"unix:{socket_path}") as channel:
        try:
            answer = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=HEALTH_TIMEOUT)
        except grpc.RpcError:
            return False
    return bool(answer.status == health_pb2.HealthCheckResponse.SERVING)


def _play(bot: BotProcess, start: Callable[[], BotProcess], wanted: Sequence[str] | None,
          declared: Sequence[str] | None, options: CheckOptions, report: CheckReport) -> BotProcess:
    """Each game, under the base rules and every variant submit would
    validate (bot.toml's and --variant's, else every one the handshake
    declares). A forfeit kills the bot, as in the ladder: the next game is
    played by a fresh start of it. Returns the bot as it is at the end."""
    try:
        games = handshake_games(bot.label, bot.info.games, wanted)
    except SubmissionError as exc:
        report.add("games", ERROR, safe_line(exc, MESSAGE_LIMIT))
        return bot
    try:
        variants = handshake_variants(bot.label, bot.info.variants, games, declared)
        rule_sets = {game: [{}, *covering_variants(game, variants)] for game in games}
    except SubmissionError as exc:
        report.add("variants", ERROR, safe_line(exc, MESSAGE_LIMIT))
        return bot
    time_control = TimeControl(move_time=options.move_time, grace=GRACE)
    for game in games:
        if not bot.alive:
            gone = bot.exit_description()
            bot.close()
            try:
                bot = start()
            except BotFault as fault:
                report.add(game, ERROR, f"not played: the bot's process is gone ({gone}) and did not start "
                           f"again: {safe_line(fault.detail, MESSAGE_LIMIT)}", FIXES["crashed"])
                continue
        probe = probe_game(bot, game, decisions=options.decisions, time_control=time_control, seed=options.seed,
                           variants=rule_sets[game])
        report.games.append(_summary(probe))
        _judge(probe, options.move_time, report)
    return bot


def _summary(probe: GameProbe) -> GameSummary:
    seconds = [asked.seconds for asked in probe.asked]
    times = {"p50": percentile(seconds, 0.5), "p90": percentile(seconds, 0.9), "p99": percentile(seconds, 0.99),
             "max": max(seconds, default=0.0), "first": seconds[0] if seconds else 0.0}
    largest = {**probe.largest, "answer": max((a.answer_bytes for a in probe.asked), default=0)}
    return GameSummary(probe.game, probe.matches, sorted({a.seats for a in probe.asked}),
                       sorted({a.variant for a in probe.asked if a.variant}), len(probe.asked),
                       dict(Counter(a.fault for a in probe.asked if a.fault)),
                       {key: round(value, 6) for key, value in times.items()}, largest)


def _judge(probe: GameProbe, move_time: float, report: CheckReport) -> None:
    """The game's findings: each kind of fault once (with its first case),
    a forfeit, answer times and message sizes."""
    summary = report.games[-1]
    for reason, count in summary.faults.items():
        first = next(a for a in probe.asked if a.fault == reason)
        variant = f", variant {first.variant}" if first.variant else ""
        where = f"({first.seats} players{variant}, seat {first.seat}, seed {first.seed}, its decision {first.request_id})"
        report.add(probe.game, ERROR, f"{count} {reason} answer{'s' if count > 1 else ''} of "
                   f"{summary.decisions}; the first {where}: {safe_line(first.detail)}",
                   FIXES.get(reason, FIXES["malformed"]))
    if probe.forfeit is not None:
        report.add(probe.game, ERROR, f"the bot would forfeit the match: {safe_line(probe.forfeit)}",
                   "a forfeited validation match refuses the submission: fix the faults above")
    times = summary.times
    figures = " ".join(f"{key} {_seconds(times[key])}" for key in ("p50", "p90", "p99", "max"))
    clean = not summary.faults
    report.add(probe.game, OK if clean else WARNING,
               f"{summary.matches} match{'es' if summary.matches > 1 else ''} at {', '.join(map(str, summary.table_sizes))} players"
               f"{', also ' + '; '.join(summary.variants) if summary.variants else ''}, "
               f"{summary.decisions} decision{'s' if summary.decisions != 1 else ''}"
               f"{', all legal and in time' if clean else ''}; answer times "
               f"{figures}, the first {_seconds(times['first'])} (move time {format_duration(move_time)})")
    if clean and times["max"] > SLOW_SHARE * move_time:
        report.add(probe.game, WARNING, f"the slowest answer took {_seconds(times['max'])}, more than half the "
                   f"move time {format_duration(move_time)}",
                   "a loaded ladder machine runs slower than yours: leave a margin (read Decide.deadline_ms)")
    largest = summary.largest
    sizes = ", ".join(f"{kind} {_bytes(size)}" for kind, size in largest.items() if size)
    sent = max((size for kind, size in largest.items() if kind != "answer"), default=0)
    report.add("messages", WARNING if sent > GRPC_RECEIVE_LIMIT else OK, f"{probe.game}: the largest {sizes}",
               "raise your gRPC server's max_receive_message_length" if sent > GRPC_RECEIVE_LIMIT else "")


def _shutdown(bot: BotProcess, report: CheckReport) -> None:
    """After SIGTERM a bot should end by itself within the grace it gets."""
    if bot.returncode == -signal.SIGKILL:
        report.add("shutdown", WARNING, "the bot did not end within half a second of SIGTERM; it was killed", (
            "handle SIGTERM: stop serving and exit (in the jail the bot is process 1, which ignores a "
            "signal it has no handler for)"))


def _refused(start_failure: str | None, log: Path, place: BotPlace, report: CheckReport) -> None:
    """What the jail refused: the likely cause (an error) when the bot
    failed, a warning when it carried on."""
    severity = WARNING if report.passed else ERROR
    for refusal in refusals(start_failure, log, place):
        report.add("sandbox", severity, refusal.what, refusal.fix)


def _seconds(seconds: float) -> str:
    milliseconds = seconds * 1000
    if milliseconds < 10:
        return f"{milliseconds:.1f}ms"
    return f"{milliseconds:.0f}ms" if seconds < 1 else f"{seconds:.2f}s"


def _bytes(size: int) -> str:
    return f"{size / 1024:.1f} KiB" if size >= 1024 else f"{size} B"
