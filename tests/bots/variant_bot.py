"""A raw-protobuf bot (botsdk) that plays the first legal action and
declares in its handshake exactly the variants given on its command line
(`variant_bot.py gnadenlos:gunfight_opt_out=on ...`; none: the base rules)."""

import sys

from botsdk import Bot, serve


class VariantBot(Bot):
    name = "variant-bot"

    def __init__(self, variants):
        self.variants = tuple(variants)

    def decide(self, observation, legal_actions, context):
        return legal_actions[0]


if __name__ == "__main__":
    tags = [word for word in sys.argv[1:] if ":" in word and "=" in word and not word.startswith(("-", "/"))]
    serve(VariantBot(tags), [word for word in sys.argv[1:] if word not in tags])
