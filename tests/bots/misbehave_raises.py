"""Misbehaving bot: its decide raises at the third decision (a bug in a bot's own code)."""

from bots.sdk import Bot, serve


class Raises(Bot):
    name = "raises"

    def __init__(self) -> None:
        self.decisions = 0

    def decide(self, observation, legal_actions, context):
        self.decisions += 1
        if self.decisions == 3:
            raise ZeroDivisionError("the bot divided by zero")
        return legal_actions[0]


if __name__ == "__main__":
    serve(Raises())
