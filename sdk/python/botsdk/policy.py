"""Serve a trained policy as a bot: a callable, an OpenSpiel policy or a tabular policy file.

    from botsdk.policy import PolicyBot, serve_policy

    def act(tensor, mask):                       # the SDK's tensor and legal mask (botsdk.encoding)
        return max(range(len(mask)), key=lambda i: (mask[i], tensor[i % len(tensor)]))

    serve_policy(PolicyBot.from_callable(act, game="leduc", name="mine"))

or from the command line, for a tabular policy file:

    python -m botsdk.policy serve --game leduc --table policy.json [--name NAME] [--greedy] [--seed S]

Each decision the bot encodes the referee's observation message with
`botsdk.encoding` — the code the training environments (`envs`) ran, so
the policy sees the numbers it was trained on — asks the policy, and
answers with the legal action message of the chosen index. Three kinds of
policy:

- **a callable** `policy(tensor, mask)`: `tensor` the information-state
  tensor (`array("f")`), `mask` the legal mask (`array("b")`, one byte per
  index of the game's action index). It returns an action index, or
  probabilities: a sequence over every index, or a mapping index ->
  probability.
- **an OpenSpiel policy** (`open_spiel.python.policy.Policy`, e.g. a
  `TabularPolicy`): its `action_probabilities(state, player)` is asked on
  a stand-in state that offers what policies read of a state — the
  information-state and observation strings and tensors, the legal
  actions and mask, the player — all computed from the message. Nothing
  of OpenSpiel is imported here.
- **a tabular policy**: a mapping information-state string -> {index:
  probability}, or a file in the format below (`read_table`,
  `write_table`); `table_from_openspiel` converts a `TabularPolicy`.

Probabilities are restricted to the legal actions and renormalised; if
they give the legal actions nothing (or a table lacks the state), the bot
plays uniformly among them, and counts it (`PolicyBot.fallbacks`). An
index that is not legal is an error (the match stream ends: a crash).
Actions are drawn from the probabilities with the bot's own generator
(`seed`), or the most probable is played (`greedy`, ties to the lowest
index).

**Tabular policy file** (JSON, UTF-8):

    {"format": "bot-referee/tabular-policy", "version": 1, "game": "leduc",
     "states": {"<information-state string>": {"<action index>": probability, ...}, ...}}

keyed by `Encoding.information_state_string` (for Leduc poker OpenSpiel's
own `leduc_poker` strings, so a policy computed on OpenSpiel's game serves
as it is), each state's probabilities over action indices.

Plain Python: nothing here needs numpy or OpenSpiel, so a bot made of this
module and a policy file runs in the referee's jail.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import random
import sys
import tempfile
from array import array
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from google.protobuf.message import Message

from botsdk.bot import Bot, DecisionContext, MatchInfo, MatchResult
from botsdk.encoding import ENCODINGS, Encoding, encoding_for
from botsdk.server import serve

log = logging.getLogger(__name__)

FORMAT = "bot-referee/tabular-policy"
VERSION = 1

Answer = int | Sequence[float] | Mapping[int, float]
"""What a policy says: an action index, or probabilities (over every index, or index -> probability)."""
Chooser = Callable[[Encoding, Message, Sequence[Message], int], Answer]
"""(encoding, observation, legal actions, seat) -> answer: a policy of any kind, made uniform."""
Table = Mapping[str, Mapping[int, float]]


class PolicyBot(Bot):
    """A bot that plays a policy (the module's docstring). Build it with a `from_*` constructor."""

    def __init__(self, chooser: Chooser, game: str, *, name: str = "policy", version: str = "1",
                 greedy: bool = False, seed: int | None = None, variants: Sequence[str] = ()) -> None:
        if game not in ENCODINGS:
            raise ValueError(f"no encoding for game {game!r}; games: {', '.join(sorted(ENCODINGS))}")
        self.chooser = chooser
        self.name = name
        self.version = version
        self.games = (game,)
        self.variants = tuple(variants)
        self.greedy = greedy
        self.rng = random.Random(seed)
        self.fallbacks = 0
        """Decisions where the policy gave the legal actions no probability (played uniformly)."""
        self._encodings: dict[int, Encoding] = {}
        self._fallbacks_before = 0

    @classmethod
    def from_callable(cls, policy: Callable[[array[float], array[int]], Answer], game: str,
                      **options: Any) -> "PolicyBot":
        """A callable on (information-state tensor, legal mask)."""
        def choose(encoding: Encoding, observation: Message, legal: Sequence[Message], seat: int) -> Answer:
            return policy(encoding.information_state_tensor(observation), encoding.legal_mask(legal))
        return cls(choose, game, **options)

    @classmethod
    def from_table(cls, table: Table | str | os.PathLike[str], game: str, **options: Any) -> "PolicyBot":
        """A tabular policy: a mapping, or the path of a policy file of `game`."""
        states = read_table(table, game) if isinstance(table, (str, os.PathLike)) else table

        def choose(encoding: Encoding, observation: Message, legal: Sequence[Message], seat: int) -> Answer:
            return states.get(encoding.information_state_string(observation), {})
        return cls(choose, game, **options)

    @classmethod
    def from_openspiel(cls, policy: Any, game: str, **options: Any) -> "PolicyBot":
        """An OpenSpiel policy (anything with `action_probabilities(state, player_id)`)."""
        def choose(encoding: Encoding, observation: Message, legal: Sequence[Message], seat: int) -> Answer:
            return dict(policy.action_probabilities(SeatState(encoding, observation, legal, seat), seat))
        return cls(choose, game, **options)

    def on_match_start(self, match: MatchInfo, observation: Message) -> None:
        self._fallbacks_before = self.fallbacks

    def on_match_end(self, result: MatchResult) -> None:
        missed = self.fallbacks - self._fallbacks_before
        if missed:
            log.warning("%d decisions of the match were not covered by the policy and were played uniformly "
                        "(a table trained for another table size, or states it never reached)", missed)

    def decide(self, observation: Message, legal_actions: Sequence[Message], context: DecisionContext) -> Message:
        seats = context.match.num_seats
        encoding = self._encodings.get(seats)
        if encoding is None:
            encoding = self._encodings[seats] = encoding_for(self.games[0], seats)
        answer = self.chooser(encoding, observation, legal_actions, context.match.seat)
        return encoding.action_for(self.pick(answer, encoding.legal_indices(legal_actions)), legal_actions)

    def pick(self, answer: Answer, legal: Sequence[int]) -> int:
        """The index to play: the policy's index, or one drawn from (or the
        best of) its probabilities over the legal indices."""
        if isinstance(answer, bool):
            raise TypeError("the policy answered a bool; answer an action index or probabilities")
        if isinstance(answer, int):
            if answer not in legal:
                raise ValueError(f"the policy chose action index {answer}, which is not legal now; legal: {sorted(legal)}")
            return answer
        if isinstance(answer, Mapping):
            weights = [_probability(answer.get(index, 0.0)) for index in legal]
        else:
            weights = [_probability(answer[index]) if index < len(answer) else 0.0 for index in legal]
        if sum(weights) <= 0.0:
            self.fallbacks += 1
            weights = [1.0] * len(legal)
        if self.greedy:
            return legal[max(range(len(legal)), key=lambda i: (weights[i], -legal[i]))]
        return self.rng.choices(legal, weights)[0]


def _probability(value: Any) -> float:
    number = float(value)
    if not math.isfinite(number) or number < 0.0:
        raise ValueError(f"a probability must be a finite number of at least 0, not {value!r}")
    return number


class SeatState:
    """What an OpenSpiel policy reads of a state, computed from one seat's
    decision: its view's strings and tensors, its legal actions and mask.
    The seat is the current player; asking another player's view raises."""

    def __init__(self, encoding: Encoding, observation: Message, legal: Sequence[Message], seat: int) -> None:
        self.encoding = encoding
        self.observation = observation
        self.seat = seat
        self._legal = sorted(encoding.legal_indices(legal))

    def _check(self, player: int | None) -> None:
        if player is not None and player != self.seat:
            raise ValueError(f"this decision is seat {self.seat}'s; seat {player}'s view is not known here")

    def current_player(self) -> int:
        return self.seat

    def num_players(self) -> int:
        return self.encoding.num_seats

    def is_terminal(self) -> bool:
        return False

    def is_chance_node(self) -> bool:
        return False

    def is_simultaneous_node(self) -> bool:
        return False

    def legal_actions(self, player: int | None = None) -> list[int]:
        self._check(player)
        return list(self._legal)

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        self._check(player)
        mask = [0] * self.encoding.num_actions
        for index in self._legal:
            mask[index] = 1
        return mask

    def information_state_string(self, player: int | None = None) -> str:
        self._check(player)
        return self.encoding.information_state_string(self.observation)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        self._check(player)
        return list(self.encoding.information_state_tensor(self.observation))

    def observation_string(self, player: int | None = None) -> str:
        self._check(player)
        return self.encoding.observation_string(self.observation)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        self._check(player)
        return list(self.encoding.observation_tensor(self.observation))


# ------------------------------------------------------------ policy files


def table_from_openspiel(policy: Any) -> dict[str, dict[int, float]]:
    """The states of an OpenSpiel `TabularPolicy` (its `state_lookup`,
    `action_probability_array` and `legal_actions_mask`), legal actions only."""
    states: dict[str, dict[int, float]] = {}
    for key, row in policy.state_lookup.items():
        probabilities = policy.action_probability_array[row]
        legal = policy.legal_actions_mask[row]
        states[str(key)] = {action: float(p) for action, p in enumerate(probabilities) if legal[action]}
    return states


def write_table(path: str | os.PathLike[str], game: str, states: Table) -> None:
    """Write a tabular policy file, all or nothing (a temporary file renamed
    into place), readable by all: a bot in the referee's jail runs under a
    user of its own (docs/protocol.md, "Where a bot runs")."""
    encoding = encoding_for(game, 2)  # the action index is the same at every table size
    body = {"format": FORMAT, "version": VERSION, "game": game,
            "states": {key: {str(_index(a, encoding, key)): _probability(p) for a, p in sorted(probs.items())}
                       for key, probs in sorted(states.items())}}
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(body, out, separators=(",", ":"))
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise


def read_table(path: str | os.PathLike[str], game: str | None = None) -> dict[str, dict[int, float]]:
    """Read a tabular policy file. Raises ValueError naming what is wrong and how to fix it."""
    try:
        with open(path, encoding="utf-8") as handle:
            body = json.load(handle)
    except OSError as exc:
        raise ValueError(f"cannot read the policy file {path}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"the policy file {path} is not JSON ({exc}); write it with botsdk.policy.write_table") from None
    if not isinstance(body, dict) or body.get("format") != FORMAT or body.get("version") != VERSION:
        raise ValueError(f"{path} is not a tabular policy file: its \"format\" must be {FORMAT!r} and "
                         f"\"version\" {VERSION} (botsdk.policy, \"Tabular policy file\")")
    if game is not None and body.get("game") != game:
        raise ValueError(f"{path} is a policy for {body.get('game')!r}, not {game!r}")
    if body.get("game") not in ENCODINGS or not isinstance(body.get("states"), dict):
        raise ValueError(f"{path} needs \"game\" (one of {', '.join(sorted(ENCODINGS))}) and \"states\", an object")
    encoding = encoding_for(body["game"], 2)
    states: dict[str, dict[int, float]] = {}
    for key, probabilities in body["states"].items():
        if not isinstance(probabilities, dict):
            raise ValueError(f"{path}: the state {key[:80]!r} must map action indices to probabilities")
        try:
            states[key] = {_index(a, encoding, key): _probability(p) for a, p in probabilities.items()}
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{path}: the state {key[:80]!r}: {exc}") from None
    return states


def _index(action: Any, encoding: Encoding, key: str) -> int:
    index = int(action)
    if not 0 <= index < encoding.num_actions:
        raise ValueError(f"action index {action} is not 0 to {encoding.num_actions - 1}")
    return index


# ------------------------------------------------------------ command line


def serve_policy(bot: PolicyBot, argv: Sequence[str] | None = None) -> None:
    """Serve the bot on the referee's socket (`botsdk.serve`: `--socket`, `--log-level`)."""
    serve(bot, argv)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m botsdk.policy",
                                     description="Serve a tabular policy file as a bot.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve_cmd = commands.add_parser("serve", help="serve a tabular policy file on the referee's socket")
    serve_cmd.add_argument("--game", required=True, choices=sorted(ENCODINGS))
    serve_cmd.add_argument("--table", required=True, help="the tabular policy file (JSON)")
    serve_cmd.add_argument("--name", default="tabular-policy", help="the bot's name in its handshake")
    serve_cmd.add_argument("--version", default="1", help="the bot's version in its handshake")
    serve_cmd.add_argument("--greedy", action="store_true", help="play the most probable action")
    serve_cmd.add_argument("--seed", type=int, default=None, help="seed of the bot's own generator")
    args, rest = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    try:
        bot = PolicyBot.from_table(args.table, args.game, name=args.name, version=args.version,
                                   greedy=args.greedy, seed=args.seed)
    except ValueError as exc:
        parser.exit(2, f"python -m botsdk.policy: {exc}\n")
    serve_policy(bot, rest)


if __name__ == "__main__":
    main()
