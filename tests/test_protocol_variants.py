"""The variants' decisions over the wire (gnadenlos.v1): a real bot process
receives the observation of a single-card auction (G-6.7) with its new
decisions, `order` and `bid_position`, as legal actions and answers one of
them; and the built-in bots play whole matches under every option as
processes, with no strike."""

from __future__ import annotations

from pathlib import Path

from gnadenlos_support import RED, load
from protocol_support import bot_process
from botsdk.contract import TimeControl
from referee.builtins import resolve_bot_command
from referee.games import load_game
from referee.games.gnadenlos.actions import BidPosition, Order
from referee.games.gnadenlos.state import GnadenlosState
from referee.match import run_match
from referee.process import start_bots
from referee.protocol.client import BotClient
from referee.records import read_record

BEST = {"auction": "single", "auction_order": "best"}
EVERY_OPTION = {"gunfight_opt_out": "soft", "auction": "single", "auction_order": "best", "auction_buy_limit": "many"}
JENNY_CASSIDY, JOHN_DIGGER, JOKE_GREENHORN = 7, 26, 9


def _ask(client: BotClient, state: GnadenlosState, request_id: int) -> object:
    legal = state.legal_actions(RED)
    client.send_decide(request_id=request_id, observation=state.observe(RED), legal_actions=legal, allowance=10.0)
    return client.receive_decision(request_id=request_id, legal_actions=legal, timeout=10.0)


def test_the_heuristic_bot_process_answers_order_and_bid_position_G_6_7() -> None:
    """Jenny Cassidy and John Digger tie at 16 (G-6.7.1): the heuristic puts
    the one it values less first (docs/bots.md), then bids last (G-6.7.2)."""
    state = load("single_auction", variant=BEST, adventurers={
        "hands": [[15], [16], [17], [20]], "deck": [JENNY_CASSIDY, JOHN_DIGGER, JOKE_GREENHORN]})
    with bot_process(resolve_bot_command("heuristic")) as bot:
        bot.client.start_match(match_id="m1", game="gnadenlos", variant=BEST, seat=RED, num_seats=4,
                               seat_names=["a", "b", "c", "d"], time_control=TimeControl(move_time=1.0),
                               observation=state.observe(RED))
        assert _ask(bot.client, state, 1) == Order(JENNY_CASSIDY)
        state.apply({RED: Order(JENNY_CASSIDY)})
        assert state.legal_actions(RED) == (BidPosition(True), BidPosition(False))
        assert _ask(bot.client, state, 2) == BidPosition(False)


def test_the_built_in_bots_play_every_option_as_processes(tmp_path: Path) -> None:
    commands = [resolve_bot_command("heuristic"), resolve_bot_command("mcts") + ["--iterations", "5", "--seed", "1"],
                resolve_bot_command("random")]
    bots = start_bots(commands, ["heuristic", "mcts", "random"], log_dir=tmp_path / "logs")
    try:
        path = tmp_path / "match.jsonl"
        result = run_match(load_game("gnadenlos", EVERY_OPTION), bots, seed=5, time_control=TimeControl(move_time=0.5),
                           record_path=path)
    finally:
        for bot in bots:
            bot.close()
    lines = [line for decision in read_record(path).decisions for line in decision["seats"]]
    assert all(line["by"] == "bot" and "strike" not in line for line in lines)
    assert all(seat.forfeit is None for seat in result.seats)
    answered = {line["action"]["type"] for line in lines}
    assert {"bid_position", "bid", "commit"} <= answered
