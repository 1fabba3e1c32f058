"""A store open for long (the ladder service's run loop) keeps seeing what
other connections commit while short-lived ones come and go beside it, in
its own process (each API call, each live page request) and in others
(`referee table`, `referee submit`). SQLite's locks are POSIX locks, which a
process loses on a file when it closes any descriptor of that file; had the
store's opening touched the database file that way, the next connection to
close elsewhere would have deleted the write-ahead log still in use, and the
long-lived connection would have gone on reading a stale copy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ladder.store.database import Store
from ladder_support import add_bots

OTHER_PROCESS = "import sys; from ladder.store.database import Store; Store(sys.argv[1], create=False).close()"


def test_a_long_lived_store_sees_what_is_committed_while_others_open_and_close(tmp_path: Path) -> None:
    db = tmp_path / "data" / "ladder.sqlite"
    with Store(db) as held:  # the run loop's connection
        add_bots(held, ["alpha"])
        with Store(db, create=False) as call:  # an API call in the same process
            assert [b.name for b in call.bots()] == ["alpha"]
        subprocess.run([sys.executable, "-c", OTHER_PROCESS, str(db)], check=True, timeout=60)  # `referee table`
        with Store(db, create=False) as submit:
            add_bots(submit, ["bravo"])
        assert [b.name for b in held.bots()] == ["alpha", "bravo"]
