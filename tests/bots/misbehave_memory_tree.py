"""Misbehaving bot: at its first decision it fills memory a MiB at a time,
touching every page, until the kernel's OOM killer ends it for passing its
tree's memory limit (its control group's) before its own address-space
limit stops an allocation."""

from bots.sdk import Bot, serve

hoard = []


class MemoryTree(Bot):
    name = "memory-tree"

    def decide(self, observation, legal_actions, context):
        while True:
            hoard.append(bytearray(1 << 20))


if __name__ == "__main__":
    serve(MemoryTree())
