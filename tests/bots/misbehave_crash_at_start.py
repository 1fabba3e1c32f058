"""Misbehaving bot: exits with code 3 before it listens or answers the handshake."""

import sys

sys.exit(3)
