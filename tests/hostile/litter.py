"""Hostile bot: leaves in its working folder what crashed the old cleanup
(containment issue, property 1): a link to a folder outside the sandbox, a
link to /, a link to itself, 3,000 nested folders, folders and files of
mode 000. Then plays on.

Usage: litter.py OUTSIDE_FOLDER [--socket PATH]
"""

import os

from _as_bot import run

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


run(act, "litter")
