"""Hostile bot: leaves in its working folder what crashed the old cleanup
(containment issue, property 1): a link to a folder outside the sandbox, a
link to /, a link to itself, 3,000 nested folders, folders and files of
mode 000. It does so as it starts, before it listens (3,000 folders can
take longer than a decision's time on a busy machine), then plays on as a
random bot.

Usage: litter.py OUTSIDE_FOLDER [--socket PATH]
"""

import os

import random
import sys

DEPTH = 3000


def act(args):
    os.symlink(args[0], "outside")
    os.symlink("/", "root")
    os.symlink("loop", "loop")
    os.mkdir("locked")
    with open("locked/secret", "w") as handle:
        handle.write("x")
    os.chmod("locked/secret", 0)
    os.chmod("locked", 0)
    base = os.open(".", os.O_RDONLY)
    for _ in range(DEPTH):  # relative steps: a path of 3,000 parts is too long to name at once
        os.mkdir("d")
        os.chdir("d")
    os.symlink(args[0], "outside-deep")
    os.fchdir(base)
    print("littered", flush=True)


argv = sys.argv[1:]
act(argv[:1])
if "--socket" in argv:
    from bots.sdk import Bot, serve

    class Litter(Bot):
        name = "litter"

        def decide(self, observation, legal_actions, context):  # type: ignore[no-untyped-def]
            return random.choice(legal_actions)

    serve(Litter(), argv[argv.index("--socket"):argv.index("--socket") + 2])
