"""Hostile bot: its words are made to take over the operator's terminal.

Usage: hostile_text.py NAME [--socket PATH]. Its handshake name is NAME; its
version is rich markup that closes a tag never opened; its first decide
writes terminal escapes (clear screen, window title, bell, a right-to-left
override) and markup to its stdout and stderr (its log), then raises an
exception whose message is the same, which the SDK sends to the referee as
the detail of its crash.
"""

import sys

from bots.sdk import Bot, serve

HOSTILE = "\x1b[2J\x1b]0;pwned\x07[/bold]\u202e\x9b31m"


class HostileText(Bot):
    name = "hostile"
    version = "[/oops]"

    def decide(self, observation, legal_actions, context):
        print(f"stdout {HOSTILE}", flush=True)
        print(f"stderr {HOSTILE}", file=sys.stderr, flush=True)
        raise ValueError(HOSTILE)


if __name__ == "__main__":
    HostileText.name = sys.argv[1]
    serve(HostileText(), sys.argv[2:])
