"""How a submitter's token travels with a call of `ladder.v1.Ladder`: the
gRPC metadata `authorization: Bearer TOKEN`, as HTTP sends a bearer token.

Both sides need it and nothing else of each other: the client sends it
(ladder/service/client.py, only where ladder/service/addresses.py allows),
the service reads it (ladder/service/servicer.py, api.py).
"""

from __future__ import annotations

AUTH_HEADER = "authorization"
BEARER = "Bearer "
