"""A raw botsdk bot that writes down what an evaluation match tells it: its
seat, its card and the evaluation at the start, every observation and
event it receives (as one-line text), and at the end the revealed seed and
whether the deal checks as fair and as committed. Plays the first legal
action, so its own answers lead everywhere the script goes."""

import sys

from google.protobuf import text_format

from botsdk import Bot, serve


def line(message):  # type: ignore[no-untyped-def]
    return text_format.MessageToString(message, as_one_line=True)


class EvaluationSpy(Bot):
    name = "evaluation-spy"
    games = ("leduc",)

    def on_match_start(self, match, observation):  # type: ignore[no-untyped-def]
        self.match = match
        evaluation = match.evaluation
        told = "none" if evaluation is None else f"{evaluation.purpose} {list(evaluation.chosen_seats)}"
        print(f"start seat {match.seat} card {observation.card} evaluation {told} names {list(match.seat_names)}",
              flush=True)
        print(f"seen {line(observation)}", flush=True)

    def on_events(self, events):  # type: ignore[no-untyped-def]
        for event in events:
            print(f"seen {line(event)}", flush=True)

    def decide(self, observation, legal_actions, context):  # type: ignore[no-untyped-def]
        print(f"seen {line(observation)}", flush=True)
        return legal_actions[0]

    def on_match_end(self, result):  # type: ignore[no-untyped-def]
        print(f"end seed {result.seed} fair {result.deal_is_fair(self.match)} "
              f"committed {result.deal_was_committed(self.match)}", flush=True)


if __name__ == "__main__":
    serve(EvaluationSpy(), sys.argv[1:])
