"""The ladder service's audit log: who submitted and retired what, and what came of it.

One JSON object a line in `audit.jsonl` beside the store (0600: the
operator's, like the tokens), appended and flushed to disk before the call
answers, so a line exists for every submission and retirement the service
answered, accepted or refused:

    {"at": "2026-...Z", "action": "submit", "submitter": "alice", "client": "host:10.0.0.7",
     "name": "greedy", "version": "v2", "outcome": "registered", "detail": ""}

`submitter` is the token's holder (null: no token, the operator's
machine); `outcome` is `registered`, `identical`, `retired` or `refused`
(then `detail` is the refusal's first line). Every text is escaped and
cut (referee/untrusted.py): a submitter cannot forge lines or fill the
disk with one long name. Calls refused by rate limits are not logged (a
flood would fill it); the operator's log counts them.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from ladder.store.database import now_iso
from referee.files import PRIVATE_FILE
from referee.untrusted import safe_line

AUDIT_LOG = "audit.jsonl"
FIELD_LIMIT = 200
"""Characters kept of each text field."""


class AuditLog:
    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / AUDIT_LOG
        self._lock = threading.Lock()

    def record(self, action: str, *, submitter: str | None, client: str, name: str, version: str = "",
               outcome: str, detail: str = "") -> None:
        entry = {"at": now_iso(), "action": action, "submitter": submitter, "client": client,
                 "name": safe_line(name, FIELD_LIMIT), "version": safe_line(version, FIELD_LIMIT),
                 "outcome": outcome, "detail": safe_line(detail.splitlines()[0] if detail else "", FIELD_LIMIT)}
        line = (json.dumps(entry) + "\n").encode()
        with self._lock:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
            try:
                os.write(fd, line)
                os.fsync(fd)
            finally:
                os.close(fd)
