"""The supervisor between the referee and one jailed bot.

Run as `python -I -S supervisor.py` with its configuration (a marshalled
dict) on stdin, kept off the command line. Standard library only (it starts
in about 25 ms). The referee starts it in a new session; it then:

1. becomes a child subreaper and watches the referee through a pidfd: if
   the referee dies for any reason, even SIGKILL, the bot dies with it;
2. forks a child that enters the bot's control group (`cgroups.py`) and
   execs nsjail (`jail.py`), which builds the jail and starts the bot in it;
   everything the bot ever starts is born in that group;
3. watches the referee's commands on the control pipe ("T" = SIGTERM the
   bot, "R" = a new match: restart the wall clock and the CPU budget, "K" or
   end of file = kill everything), the wall clock, and the CPU time of the
   whole tree (the group's counter, every CPU_POLL seconds);
4. kills the tree (nsjail and the bot's PID namespace, the group, and every
   process of the bot's uid at once), reaps, removes the group and the
   sandbox folder (never following what the bot left there, `removal.py`),
   and reports how the bot ended (`messages.py`).

Why a supervisor of our own around nsjail: the budgets are per match (a
warm bot lives through many), and nsjail's time limits are fixed at start.
"""

from __future__ import annotations

import ctypes
import marshal
import os
import select
import signal
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the standard-library siblings below

import cgroups  # noqa: E402
import jail_log  # noqa: E402
import messages  # noqa: E402
import proctable  # noqa: E402
import removal  # noqa: E402

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36

CPU_POLL = 1.0
"""Seconds between looks at the tree's CPU time; a bot may overrun its
budget by up to this much."""

START_POLL = 0.001
"""Seconds between looks for the bot's exec while it starts."""

_libc = ctypes.CDLL(None, use_errno=True)


def prctl(option: int, value: int) -> None:
    if _libc.prctl(option, value, 0, 0, 0) != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"prctl: {os.strerror(code)}")


class Supervisor:
    def __init__(self, cfg: dict[str, Any]) -> None:
        self.cfg = cfg
        self.status_fd: int = cfg["status_fd"]
        self.control_fd: int = cfg["control_fd"]
        self.uid: int | None = cfg.get("uid")
        group = cfg.get("group")
        self.group = cgroups.TreeGroup(group[0], tuple(group[1]), tuple(group[2])) if group else None
        self.jailer = 0
        """nsjail's pid (our only child)."""
        self.bot = 0
        """The bot's pid (nsjail's child, PID 1 of its namespace)."""
        self.jailer_status: int | None = None
        self.jail_log = b""
        self.term_requested = False
        self.signalled = False

    def report(self, **event: object) -> None:
        try:
            os.write(self.status_fd, messages.frame(event))
        except OSError:
            pass  # the referee is gone; nobody to tell

    def run(self) -> None:
        referee = os.getppid()
        prctl(PR_SET_CHILD_SUBREAPER, 1)
        watch = _pidfd(referee)
        if os.getppid() != referee:
            return  # the referee died before we watched it
        wake_r, wake_w = os.pipe()
        os.set_blocking(wake_w, False)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(sig, self._on_signal)
        log_r, log_w = os.pipe()
        os.set_blocking(log_r, False)
        self.jailer = os.fork()
        if self.jailer == 0:
            self._become_jailer(log_w, referee=os.getppid())
        os.close(log_w)
        failure = self.await_exec(log_r)
        if failure is not None:
            self.kill_everything()
            self.cleanup()
            self.report(event="error", **failure)
            return
        self.report(event="started", pid=self.bot)
        reason = self.watch(referee, watch, wake_r, log_r)
        self.kill_everything()
        self._drain_log(log_r)
        fields = self.exit_fields()  # before cleanup: the group's counters go with it
        self.cleanup()
        self.report(event="exited", pid=self.bot, reason=reason, **fields)

    def _become_jailer(self, log_w: int, referee: int) -> None:
        """In the forked child: enter the bot's group and exec nsjail."""
        try:
            signal.set_wakeup_fd(-1)
            for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
                signal.signal(sig, signal.SIG_DFL)
            if self.group is not None:
                self.group.attach()
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != referee:
                os._exit(1)
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
            os.dup2(log_w, jail_log.LOG_FD)
            os.closerange(jail_log.LOG_FD + 1, 1 << 16)
            argv = self.cfg["jail_argv"]
            os.execve(argv[0], argv, {})
        except BaseException as exc:  # never return into the supervisor's code
            os.write(2, f"sandbox: cannot start the jail: {exc}\n".encode())
        os._exit(127)

    def await_exec(self, log_r: int) -> dict[str, object] | None:
        """Wait until the bot's program runs in the jail (or already ran and
        ended); None then, else what went wrong (errno and message)."""
        deadline = time.monotonic() + self.cfg["start_timeout"]
        binary = os.path.realpath(self.cfg["jail_argv"][0])
        while time.monotonic() < deadline:
            self._drain_log(log_r)
            if self.bot == 0:
                found = proctable.children(self.jailer)
                self.bot = found[0] if found else 0
            if self.bot and _executable(self.bot) not in (binary, None):
                return None
            if self.reap_jailer():
                return self._start_failure(log_r)
            time.sleep(START_POLL)
        return {"errno": 0, "message": "the bot's program did not start within the start-up timeout"}

    def _start_failure(self, log_r: int) -> dict[str, object] | None:
        """nsjail ended before we saw the bot run: why (None if the bot ran
        and ended by itself, too fast to be seen)."""
        self._drain_log(log_r)
        text = self.jail_log.decode(errors="replace")
        report = jail_log.read_report(text)
        if report.exec_errno is not None:
            return {"errno": report.exec_errno, "message": report.exec_message}
        problem = jail_log.failed_setup(text)
        if report.returncode is not None and problem is None:
            return None
        return {"errno": 0, "message": f"the jail could not be built: {problem or 'nsjail ended at once'}"}

    def _on_signal(self, *_: object) -> None:
        self.signalled = True

    def cpu_used(self) -> float:
        """CPU seconds of the whole tree."""
        if self.group is not None:
            return float(self.group.cpu_seconds())
        import resource

        orphans = resource.getrusage(resource.RUSAGE_CHILDREN)
        return float(proctable.tree_cpu_seconds(os.getpid())) + orphans.ru_utime + orphans.ru_stime

    def watch(self, referee: int, watch: int | None, wake_r: int, log_r: int) -> str:
        wall = self.cfg.get("wall_seconds")
        cpu = self.cfg.get("cpu_seconds")
        deadline = None if wall is None else time.monotonic() + wall
        cpu_base = 0.0
        while True:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            if watch is None or cpu is not None:
                poll = CPU_POLL if cpu is not None else 0.2
                timeout = poll if timeout is None else min(timeout, poll)
            waits = [self.control_fd, wake_r, log_r] + ([watch] if watch is not None else [])
            try:
                ready = select.select(waits, [], [], timeout)[0]
            except InterruptedError:
                ready = []
            if wake_r in ready:
                _drain(wake_r)
            if log_r in ready:
                self._drain_log(log_r)
            if self.reap_jailer():
                return "killed" if self.term_requested else "exit"
            if self.signalled:
                return "killed"
            if self.control_fd in ready:
                data = os.read(self.control_fd, 64)
                if not data or b"K" in data:
                    return "killed"
                if b"T" in data:
                    self.term_requested = True
                    _signal(self.jailer, signal.SIGTERM)  # nsjail forwards it to the bot
                if b"R" in data:  # a warm bot's next match: fresh budgets
                    deadline = None if wall is None else time.monotonic() + wall
                    cpu_base = self.cpu_used() if cpu is not None else 0.0
            if (watch is not None and watch in ready) or (watch is None and os.getppid() != referee):
                return "referee_gone"
            if deadline is not None and time.monotonic() >= deadline:
                return "wall_limit"
            if cpu is not None and self.cpu_used() - cpu_base >= cpu:
                return "cpu_limit"

    def reap_jailer(self) -> bool:
        """Reap nsjail (and any orphan adopted meanwhile); True once nsjail ended."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return True
            if pid == 0:
                return self.jailer_status is not None
            if pid == self.jailer:
                self.jailer_status = status

    def kill_everything(self) -> None:
        """SIGKILL the whole tree and reap until no child is left. nsjail's
        death kills the bot (its parent-death signal), the bot's death
        empties its PID namespace, and the group and the uid catch anything
        that slipped past while it happened."""
        me = os.getpid()
        while True:
            if self.jailer_status is None:  # once reaped, its pid may be reused
                _signal(self.jailer, signal.SIGKILL)
            if self.group is not None:
                self.group.kill()
            if self.uid is not None:
                _kill_uid(self.uid)
            for pid in proctable.descendants(me):
                _signal(pid, signal.SIGKILL)
            self.reap_jailer()
            if not proctable.children(me):
                return
            time.sleep(0.002)

    def cleanup(self) -> None:
        """Remove the group, then the folder: a group without its folder is
        known to be stale (see `sweep`)."""
        if self.group is not None:
            try:
                self.group.remove()
            except OSError:
                pass  # the sweep of a later sandbox retries
        removal.remove_tree(self.cfg["box_dir"])

    def exit_fields(self) -> dict[str, object]:
        import resource

        report = jail_log.read_report(self.jail_log.decode(errors="replace"))
        returncode = report.returncode
        if returncode is None:
            returncode = -signal.SIGKILL  # nsjail died before it could say: we killed it
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        peak = self.group.memory_peak() if self.group is not None else 0
        return {
            "returncode": returncode,
            "cpu_seconds": self.group.cpu_seconds() if self.group is not None else usage.ru_utime + usage.ru_stime,
            "max_rss_bytes": peak or usage.ru_maxrss * 1024,
            "oom_kills": (self.group.oom_kills() or 0) if self.group is not None else 0,  # the group goes with cleanup()
        }

    def _drain_log(self, log_r: int) -> None:
        while True:
            try:
                chunk = os.read(log_r, 65536)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            if not chunk:
                return
            self.jail_log = (self.jail_log + chunk)[-65536:]  # nsjail says little; keep it bounded anyway


def _executable(pid: int) -> str | None:
    try:
        return os.path.realpath(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return None


def _signal(pid: int, sig: int) -> None:
    if pid <= 0:
        return
    try:
        os.kill(pid, sig)
    except OSError:
        pass


def _kill_uid(uid: int) -> None:
    """SIGKILL every process of `uid` at once, from a helper running as it:
    kill(-1) runs under the kernel's task-list lock, so a fork bomb cannot
    slip a new child past it."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
        os._exit(0)
    while True:
        try:
            os.waitpid(pid, 0)
            return
        except InterruptedError:
            continue
        except ChildProcessError:
            return


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None  # old kernel: fall back to polling getppid()


def _drain(fd: int) -> None:
    try:
        os.read(fd, 4096)
    except OSError:
        pass


def main() -> int:
    cfg = marshal.loads(sys.stdin.buffer.read())
    Supervisor(cfg).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
