"""Hostile bot: spins for ever and ignores every signal it can (SIGTERM,
SIGINT, SIGHUP, SIGXCPU); only SIGKILL ends it."""

import signal

for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGXCPU):
    signal.signal(sig, signal.SIG_IGN)
print("spinning", flush=True)
while True:
    pass
