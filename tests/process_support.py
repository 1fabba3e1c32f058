"""Starting a process the way a terminal starts its foreground job."""

from __future__ import annotations

import signal


def with_default_sigint() -> None:
    """A Popen `preexec_fn`: SIGINT at its default in the child. A test run
    started in the background (a non-interactive shell's `cmd &`) has SIGINT
    ignored, a child inherits that, and Python then raises no
    KeyboardInterrupt: the child would never see the Ctrl-C a test sends as a
    terminal would."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
