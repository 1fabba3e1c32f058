"""Messages between the referee and a bot's supervisor on the status pipe.

Each is a 4-byte length and then marshal data (marshal, not json:
importing json costs the supervisor a third of its start-up time, and both
ends run the same interpreter). Standard library only.

The supervisor sends {"event": "started", "pid": N}, or {"event": "error",
"errno": E, "message": M} when the bot could not be started, then
{"event": "exited", ...} with returncode (negative: killed by that signal),
reason, cpu_seconds and max_rss_bytes.
"""

from __future__ import annotations

import marshal


def frame(message: dict[str, object]) -> bytes:
    """One message, ready to write."""
    data = marshal.dumps(message)
    return len(data).to_bytes(4, "little") + data


def unframe(buffer: bytes) -> tuple[list[dict[str, object]], bytes]:
    """The complete messages at the start of `buffer`, and the rest."""
    messages = []
    while len(buffer) >= 4:
        size = int.from_bytes(buffer[:4], "little")
        if len(buffer) < 4 + size:
            break
        messages.append(marshal.loads(buffer[4 : 4 + size]))
        buffer = buffer[4 + size :]
    return messages, buffer
