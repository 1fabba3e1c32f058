"""Submitting a bot to the ladder: check it, copy it in, register it.

A submission is an executable file (a binary or a script with a shebang
line), or a folder with a `bot.toml` manifest:

    name = "greedy"                 # optional if --name is given
    command = "python bot.py"       # run from the folder; python = the ladder's interpreter
    games = ["gnadenlos"]
    version = "1.2"                 # optional
    description = "Takes the biggest pile"   # optional
    variants = ["gnadenlos:auction=single"]  # optional: the variants it plays beyond the base rules

The bot is copied into a staging folder inside the store (made readable
by the bot's own sandboxed user, who gets this folder bound in read-only:
the store itself is closed to bots) within `Limits` of bytes, files and
depth and without following links (ladder/intake/copying.py), its manifest read
from the copy, content-hashed, started from there,
asked the handshake and made to play one short match of each of its games
(the manifest's; a file's handshake names them) against two built-in random
bots: a bot is registered only for games it has shown it can play. The
variants it is registered for (the manifest's `variants` and `--variant`,
else every variant its handshake declares) must each be declared in its
handshake and are played too, in as few validation matches as cover every
option value (referee.games.rule_sets); a bot is seated only in rule sets
made of them. Only if
all of that passes is the staging folder moved into place and the bot
inserted, in one transaction: a failed (or interrupted) submission leaves
the store exactly as it was. An identical resubmission (same name, same
content hash) is recognised and not registered again; a changed one
becomes a new version.
Identical content under another name is a bot of its own (said, not
refused: two copies of one baseline show how far luck alone spreads
ratings).

Every failure is a `SubmissionError` whose message is one line: what is
wrong and how to fix it.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import tomllib
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from botsdk.contract import TimeControl
from ladder.intake.copying import IntakeError, Limits, content_hash, copy_in
from ladder.intake.roster import DEFAULT_ROSTER, PYTHON_NAMES, folder_command, split_command
from ladder.store.database import Store
from referee.builtins import resolve_bot_command
from referee.files import private_folders
from referee.games import game_names, load_game
from referee.games.rule_sets import option_tags
from referee.log_tail import last_lines
from referee.match import RefereeError, run_match
from referee.process import BotProcess
from referee.protocol.client import BotFault
from referee.records import FOOTER
from referee.untrusted import MESSAGE_LIMIT, safe_line

MANIFEST = "bot.toml"
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
MANIFEST_KEYS = {"name": str, "command": str, "games": list, "version": str, "description": str, "variants": list}
VALIDATION_SEED = 20240601
"""The deal of the validation match (fixed, so a failure can be reproduced)."""


class SubmissionError(Exception):
    """A submission was refused; the message says why and how to fix it.
    `log` is the bot's log when the bot itself failed (its last lines are
    its author's first clue)."""

    def __init__(self, message: str, log: Path | None = None) -> None:
        super().__init__(message)
        self.log = log


def refusal(exc: Exception, log: Path | None) -> str:
    """A refused submission's message, and when the bot itself failed, the
    last lines of its `log` (escaped: the bot's own words): what `referee submit`
    prints and the ladder service answers."""
    message = safe_line(exc, MESSAGE_LIMIT)
    lines = last_lines(log) if log is not None else []
    if lines:
        message += "\nits last lines of output:\n" + "\n".join(f"  {line}" for line in lines)
    return message


@dataclass(frozen=True)
class Manifest:
    name: str | None
    command: tuple[str, ...]
    games: tuple[str, ...]
    version: str | None
    description: str
    variants: tuple[str, ...] = ()


@dataclass(frozen=True)
class Submitted:
    bot_id: int
    name: str
    version: str
    content_hash: str
    new: bool
    """False when an identical bot was already registered under this name."""
    games: tuple[str, ...]
    """The games it is registered for."""
    twins: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    """The variants it is registered for (GAME:OPTION=VALUE)."""
    """Labels of bots registered under other names with identical content:
    allowed (two copies of a baseline show the ladder's noise), but said."""


def read_manifest(folder: Path, shown: Path | None = None) -> Manifest:
    """Parse and check `folder/bot.toml`; messages name it as in `shown`
    (the folder submitted, when `folder` is its copy). Raises SubmissionError."""
    shown = shown or folder
    path = shown / MANIFEST
    if not (folder / MANIFEST).is_file():
        raise SubmissionError(f"{shown} has no {MANIFEST}; add one with name, command and games (see docs/ladder.md)")
    try:
        data = tomllib.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SubmissionError(f"{path} is not valid TOML ({exc}); fix its syntax") from None
    unknown = sorted(set(data) - set(MANIFEST_KEYS))
    if unknown:
        raise SubmissionError(
            f"{path}: unknown key {unknown[0]!r}; allowed keys are {', '.join(sorted(MANIFEST_KEYS))}"
        )
    for key, kind in MANIFEST_KEYS.items():
        if key in data and not isinstance(data[key], kind):
            raise SubmissionError(f"{path}: {key} must be a {'list of strings' if kind is list else 'string'}")
    for key in ("command", "games"):
        if key not in data:
            raise SubmissionError(f"{path} has no {key!r}; add e.g. "
                                  + ('command = "python bot.py"' if key == "command" else 'games = ["gnadenlos"]'))
    if not all(isinstance(g, str) for g in data["games"]) or not data["games"]:
        raise SubmissionError(f"{path}: games must be a non-empty list of game names, e.g. [\"gnadenlos\"]")
    known = game_names()
    for game in data["games"]:
        if game not in known:
            raise SubmissionError(f"{path} lists game {game!r}, not {' or '.join(known)}; "
                                  "list only the games the referee runs")
    try:
        command = tuple(split_command(data["command"]))
    except ValueError as exc:
        raise SubmissionError(f"{path}: command cannot be split into words ({exc}); check its quotes") from None
    if not command:
        raise SubmissionError(f"{path}: command is empty; say how to start the bot, e.g. \"python bot.py\"")
    variants = tuple(data.get("variants", ()))
    try:
        check_tags(variants, tuple(data["games"]))
    except SubmissionError as exc:
        raise SubmissionError(f"{path}: variants: {exc}") from None
    return Manifest(data.get("name"), command, tuple(data["games"]), data.get("version"),
                    data.get("description", ""), variants)


def check_tags(tags: Sequence[object], games: Sequence[str]) -> None:
    """Each tag is GAME:OPTION=VALUE of one of `games` (all games when
    empty), an option value that game has. Raises SubmissionError listing
    what is allowed."""
    for tag in tags:
        game, sep, option = str(tag).partition(":")
        if not isinstance(tag, str) or not sep or "=" not in option or game not in (games or game_names()):
            raise SubmissionError(f"{tag!r} is not GAME:OPTION=VALUE of the bot's games "
                                  f"({', '.join(games or game_names())}), e.g. 'gnadenlos:auction=single'")
        rules = load_game(game)
        key, _, value = option.partition("=")
        if value not in rules.variant_options.get(key, ())[1:]:
            raise SubmissionError(f"{tag!r} is not a variant of {game}; its variants are "
                                  f"{', '.join(option_tags(game, rules.variant_options)) or 'none'}")


def covering_variants(game: str, tags: Sequence[str]) -> list[dict[str, str]]:
    """As few variants of `game` as play each of its `tags` at least once:
    the validation matches of a submission. Raises SubmissionError for
    tags that cannot be played together as declared (an option without the
    one it needs, e.g. auction_order=best without auction=single)."""
    values: dict[str, list[str]] = {}
    for tag in tags:
        tag_game, _, option = tag.partition(":")
        if tag_game == game:
            key, _, value = option.partition("=")
            values.setdefault(key, []).append(value)
    variants = [{key: vs[min(i, len(vs) - 1)] for key, vs in values.items()}
                for i in range(max((len(vs) for vs in values.values()), default=0))]
    rules = load_game(game)
    for variant in variants:
        try:
            rules.make_rule_set(variant)
        except ValueError as exc:
            raise SubmissionError(f"the variants declared for {game} cannot be played as they are: {exc}") from None
    return variants


def _check_paths(command: Sequence[str], folder: Path, where: str) -> None:
    """Every path the command names lies inside the bot's folder (its links
    were checked as it was copied, ladder/intake/copying.py). A bot's folder is
    exposed to its sandbox, so a command reaching elsewhere
    (`../other-bot/bot`, the store's database) would let one submission run
    what is not its own."""
    root = Path(os.path.realpath(folder))
    for word in command:
        if "/" not in word:
            continue
        if Path(word).is_absolute():
            raise SubmissionError(f"{where}: {word} is an absolute path; name files of the bot's folder "
                                  "relative to it (e.g. ./bot) and programs on PATH by name")
        if not Path(os.path.realpath(folder / word)).is_relative_to(root):
            raise SubmissionError(f"{where}: {word} leads out of the bot's folder; a bot may use only its own files")


SCRIPT_SUFFIXES = frozenset({".py", ".js", ".mjs", ".cjs", ".jar", ".rb", ".pl", ".sh", ".lua", ".php", ".r"})
"""A command word with one of these endings names a file of the bot's
folder (the script an interpreter runs), as does one starting with ./"""


def _check_program(command: Sequence[str], folder: Path, where: str) -> None:
    """The first word of the command must be something that can run, and
    the files it names must be in the bot's folder: the jail runs the
    command in an empty working folder, so a missing script would otherwise
    surface as the jail's path of a file that is not there."""
    _check_paths(command, folder, where)
    program = command[0]
    local = folder / program
    if program in PYTHON_NAMES:
        pass
    elif not Path(program).is_absolute() and local.exists():
        if not local.is_file() or not os.access(local, os.X_OK):
            raise SubmissionError(f"{where}: {program} is not executable; run chmod +x {program}")
    elif program.startswith("./"):
        raise SubmissionError(f"{where}: the command's program {program} does not exist in the bot's folder; "
                              f"build it there first, or correct `command` in {MANIFEST}")
    elif shutil.which(program) is None:
        raise SubmissionError(f"{where}: program {program!r} not found in the bot's folder or on PATH")
    for word in command[1:]:
        if _names_a_file(word) and not (folder / word).exists():
            raise SubmissionError(f"{where}: the command names {word}, which does not exist in the bot's folder; "
                                  f"add {word} to the folder (the command's files are relative to it), "
                                  f"or correct `command` in {MANIFEST}")


def _names_a_file(word: str) -> bool:
    """Whether a command word is a file of the bot's folder: a script by its
    ending or a ./ path; options, inline code and globs are not."""
    if word.startswith("-") or any(char in word for char in " =*?["):
        return False
    return word.startswith("./") or Path(word).suffix.lower() in SCRIPT_SUFFIXES


def stage(path: Path, staging: Path, limits: Limits) -> Manifest:
    """Copy the submission into the new folder `staging` within `limits`,
    then read and check its manifest from the copy (which nobody can change
    any more). The caller removes `staging`, whatever happens."""
    if not path.exists():
        raise SubmissionError(f"{path} does not exist; give the path of your bot's executable or of a folder with {MANIFEST}")
    if not path.is_dir() and not os.access(path, os.X_OK):
        raise SubmissionError(f"{path} is not executable; run chmod +x {path} (and give it a #! line), "
                              f"or submit a folder with a {MANIFEST}")
    private_folders(staging.parent)
    try:
        copy_in(path, staging, limits)
    except IntakeError as exc:
        raise SubmissionError(f"{path}: {exc}") from None
    if not path.is_dir():
        return Manifest(None, (path.name,), (), None, "")
    manifest = read_manifest(staging, shown=path)
    _check_program(manifest.command, staging, str(path / MANIFEST))
    return manifest


def check_name(name: str) -> None:
    """A bot's ladder name is short, plain and not a built-in's. Raises SubmissionError."""
    if not NAME_PATTERN.match(name):
        raise SubmissionError(f"name {name!r} must be 1-40 letters, digits, '.', '_' or '-', starting with a letter or digit")
    if name in {n for n, _ in DEFAULT_ROSTER}:
        raise SubmissionError(f"{name!r} is the name of a built-in bot; choose another --name")


def _version(requested: str | None, existing: Sequence[str]) -> str:
    if requested is None:
        number = len(existing) + 1
        while f"v{number}" in existing:
            number += 1
        return f"v{number}"
    if not NAME_PATTERN.match(requested):
        raise SubmissionError(f"version {requested!r} must be 1-40 letters, digits, '.', '_' or '-'")
    return requested


def validate(command: list[str], label: str, games: Sequence[str] | None, *, folder: Path,
             startup_timeout: float, move_time: float,
             variants: Sequence[str] | None = None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Start the bot from `folder` (exposed to its sandbox), check its
    handshake names each of `games` and each of `variants`, and make it
    play one match of each game against two built-in random bots, and the
    matches that cover its variants. `games` None means every game the
    handshake names that the referee runs; `variants` None every variant
    of those games the handshake names. Returns the games and the variants
    validated. Raises SubmissionError."""
    logs = Path(tempfile.mkdtemp(prefix="referee-submit-"))
    log_path = logs / f"{label}.log"
    started = []
    try:
        try:
            bot = BotProcess.start(command, label=label, startup_timeout=startup_timeout, log_path=log_path,
                                   expose=[folder])
        except BotFault as exc:
            where = "" if str(log_path) in exc.detail else f"; its output is in {log_path}"  # named once
            raise SubmissionError(
                f"{label} did not start and answer the handshake within {startup_timeout:g}s "
                f"({exc.reason}: {exc.detail}){where}", log=log_path
            ) from None
        started.append(bot)
        games = handshake_games(label, bot.info.games, games)
        variants = handshake_variants(label, bot.info.variants, games, variants)
        for i in range(2):
            started.append(BotProcess.start(resolve_bot_command("random"), label=f"random-{i}"))
        plays: list[tuple[str, dict[str, str]]] = [(game, {}) for game in games]
        plays += [(game, variant) for game in games for variant in covering_variants(game, variants)]
        for game, variant in plays:
            forfeits: list[dict[str, object]] = []  # the footer's forfeit lines carry each one's detail
            named = ",".join(f"{k}={v}" for k, v in variant.items())
            try:
                result = run_match(load_game(game, variant), started, seed=VALIDATION_SEED,
                                   time_control=TimeControl(move_time=move_time), match_id=f"validate-{label}-{game}" + (f"-{named}" if named else ""),
                                   on_event=lambda entry: forfeits.extend(entry["forfeits"] if entry["type"] == FOOTER else []))
            except RefereeError as exc:
                raise SubmissionError(
                    f"the referee failed while validating {label} (not your bot's fault: {exc}); try again"
                ) from None
            seat = result.seats[0]
            if seat.forfeit is not None:
                detail = next((f": {f['detail']}" for f in forfeits if f.get("seat") == 0), "")
                raise SubmissionError(
                    f"{label} forfeited its validation match of {game}{f' ({named})' if named else ''} "
                    f"({seat.forfeit}{detail}); "
                    f"its output is in {log_path}",
                    log=log_path,
                )
    finally:
        for process in started:
            process.close()
    shutil.rmtree(logs, ignore_errors=True)
    return games, variants


def handshake_variants(label: str, announced: Sequence[str], games: Sequence[str],
                       wanted: Sequence[str] | None) -> tuple[str, ...]:
    """The variants to validate: `wanted`, each of which the bot must
    announce, or (None) every announced variant of `games`. Raises SubmissionError."""
    if wanted is None:
        return tuple(tag for tag in announced if tag.partition(":")[0] in games)
    check_tags(wanted, games)
    for tag in wanted:
        if tag not in announced:
            raise SubmissionError(f"{label}'s handshake declares variants {list(announced)}, not {tag}: the referee "
                                  "seats a bot only in the variants it declares; add it to the bot's variants "
                                  "(botsdk.Bot.variants) or leave it out")
    return tuple(dict.fromkeys(wanted))


def handshake_games(label: str, announced: Sequence[str], wanted: Sequence[str] | None) -> tuple[str, ...]:
    """The games to validate: `wanted`, each of which the bot must announce,
    or (None) every announced game the referee runs. Raises SubmissionError."""
    if wanted is None:
        known = game_names()
        games = tuple(g for g in announced if g in known)
        if not games:
            raise SubmissionError(
                f"{label} says it plays {list(announced)}, none of them a game the referee runs "
                f"({', '.join(known)}); list one in its handshake"
            )
        return games
    for game in wanted:
        if game not in announced:
            raise SubmissionError(f"{label} says it plays {list(announced)}, not {game}; list {game} in its handshake")
    return tuple(wanted)


Claim = Callable[[str, bool], None]
"""The ladder service's say over a name: called with the name and whether
a bot of it is registered, inside the transaction that registers the bot
(the last step before it commits); raising refuses the submission and
nothing of it is kept."""


def submit(
    store: Store, path: Path, *, name: str | None, version: str | None, games: Sequence[str] = (),
    startup_timeout: float = 10.0, move_time: float = 1.0, limits: Limits = Limits(),
    variants: Sequence[str] = (), claim: Claim | None = None, staging_root: Path | None = None,
) -> Submitted:
    """Check, copy and register a bot (see the module doc) for `games`
    (default: its bot.toml's, or for a file every game its handshake
    names) and variants (GAME:OPTION=VALUE: `variants` and its bot.toml's;
    when neither names any, every variant its handshake declares).
    `claim` (see `Claim`) lets the service refuse the name at the moment
    it would be registered; `staging_root` is where the copy is staged (in
    the store's folder; default `bots/.incoming`; the service stages in its
    upload's folder, which its next start removes after a kill). Raises
    SubmissionError, or what `claim` raises."""
    staging = (staging_root or store.bots_dir / ".incoming") / uuid.uuid4().hex
    try:
        manifest = stage(Path(path), staging, limits)
        name = name or manifest.name
        if name is None:
            raise SubmissionError("the bot needs a name: pass --name NAME")
        check_name(name)
        wanted = wanted_games(games, manifest)
        digest = content_hash(staging)
        existing = store.bot_versions(name)
        for bot in existing:
            if bot.content_hash == digest:
                return Submitted(bot.bot_id, name, bot.version, digest, new=False, games=bot.games,
                                 variants=bot.variants)
        version = _version(version or manifest.version, [b.version for b in existing])
        if version in {b.version for b in existing}:
            raise SubmissionError(f"{name} already has a different version {version}; pass another --version")
        label = f"{name}@{version}"
        declared = tuple(dict.fromkeys([*manifest.variants, *variants])) or None
        validated, played = validate(folder_command(manifest.command, staging), label, wanted, folder=staging,
                                     startup_timeout=startup_timeout, move_time=move_time, variants=declared)
        twins = tuple(b.label for b in store.bots() if b.content_hash == digest)
        return _register(store, staging, name, version, digest, manifest, validated, twins, played, claim)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if staging_root is None and staging.parent.exists() and not any(staging.parent.iterdir()):
            staging.parent.rmdir()  # .incoming; bots/ is the store's


def wanted_games(games: Sequence[str], manifest: Manifest) -> tuple[str, ...] | None:
    """The games asked for (`--game`), each listed in the manifest and run
    by the referee; else the manifest's; None for a file without `--game`
    (its handshake will say). Raises SubmissionError."""
    known = game_names()
    for game in games:
        if game not in known:
            raise SubmissionError(f"unknown game {game!r}; the referee runs {', '.join(known)}")
        if manifest.games and game not in manifest.games:
            raise SubmissionError(f"{MANIFEST} lists games {list(manifest.games)}, not {game}; add {game!r} to games")
    return tuple(dict.fromkeys(games)) or manifest.games or None


def _register(
    store: Store, staging: Path, name: str, version: str, digest: str, manifest: Manifest,
    games: Sequence[str], twins: tuple[str, ...], variants: Sequence[str] = (), claim: Claim | None = None,
) -> Submitted:
    """Move the staged bot into place and insert it, together or not at
    all; `claim` last, inside the transaction. The name's versions are read
    again inside it: another submission may have registered one meanwhile."""
    relative = Path("bots") / name / digest[:16]
    final = store.root / relative
    private_folders(final.parent)
    try:
        with store.transaction() as conn:
            existing = store.bot_versions(name)
            same = [b for b in existing if b.content_hash == digest]
            if same:
                return Submitted(same[0].bot_id, name, same[0].version, digest, new=False, games=same[0].games,
                                 variants=same[0].variants)
            if version in {b.version for b in existing}:
                raise SubmissionError(f"{name} {version} was registered by another submission meanwhile; "
                                      "submit again (or pass another --version)")
            bot_id = store.add_bot(
                conn, name=name, version=version, content_hash=digest, kind="submitted",
                command=manifest.command, folder=str(relative), games=games,
                description=manifest.description, variants=variants,
            )
            staging.rename(final)
            if claim is not None:
                claim(name, bool(existing))
    except BaseException:
        if final.exists() and not any(b.content_hash == digest for b in store.bot_versions(name)):
            shutil.rmtree(final, ignore_errors=True)
        if final.parent.exists() and not any(final.parent.iterdir()):
            final.parent.rmdir()
        raise
    return Submitted(bot_id, name, version, digest, new=True, games=tuple(games), twins=twins,
                     variants=tuple(variants))
