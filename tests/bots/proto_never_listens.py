"""Protocol test bot: runs but never opens its socket."""

import time

time.sleep(30)
