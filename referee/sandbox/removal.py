"""Removing a folder a bot has written, whatever it put there.

A bot controls its working folder completely: links to folders outside it
(or to `/`), thousands of nested folders, folders it made unreadable, link
loops. An earlier cleanup followed a link into `chmod` (which raised on it)
and recursed into 1,500 nested folders (RecursionError), crashing the
supervisor and every later run's sweep. This one never follows a link (a
link is removed as a link), never recurses (an explicit stack, so depth is
bounded only by the disk), opens each folder relative to its parent's
descriptor with O_NOFOLLOW (so a folder swapped for a link cannot redirect
it), and gives every folder it must enter mode 0700 first.

Standard library only: the supervisor imports it too.
"""

from __future__ import annotations

import os
import stat

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def remove_tree(path: str) -> None:
    """Remove `path` (a folder, a file or a link) and everything below it.
    Raises nothing for what is already gone; an entry that cannot be
    removed (another user's, on a read-only mount) is left in place."""
    parent, name = os.path.split(os.path.abspath(path))
    try:
        parent_fd = os.open(parent, _DIR_FLAGS)
    except OSError:
        return
    try:
        _remove_entry(parent_fd, name)
    finally:
        os.close(parent_fd)


def _remove_entry(parent_fd: int, name: str) -> None:
    """Remove `name` in the folder `parent_fd` without recursion: a stack of
    open folders, each emptied before it is removed from its parent."""
    if not _is_folder(parent_fd, name):
        _unlink(parent_fd, name)
        return
    root_fd = _enter(parent_fd, name)
    if root_fd is None:
        return
    # (folder, its parent, its name, subfolders that could not be entered)
    stack: list[tuple[int, int, str, set[str]]] = [(root_fd, parent_fd, name, set())]
    while stack:
        folder_fd, up_fd, folder_name, stuck = stack[-1]
        child = _next_subfolder(folder_fd, stuck)
        if child is not None:
            child_fd = _enter(folder_fd, child)
            if child_fd is not None:
                stack.append((child_fd, folder_fd, child, set()))
            else:
                stuck.add(child)
            continue
        stack.pop()
        os.close(folder_fd)
        _rmdir(up_fd, folder_name)


def _next_subfolder(folder_fd: int, stuck: set[str]) -> str | None:
    """Unlink every non-folder entry of `folder_fd`; return a subfolder
    still to empty (None when only removed or `stuck` ones are left)."""
    try:
        names = os.listdir(folder_fd)
    except OSError:
        return None
    pending = None
    for name in names:
        if _is_folder(folder_fd, name):
            if pending is None and name not in stuck:
                pending = name
        else:
            _unlink(folder_fd, name)
    return pending


def _enter(parent_fd: int, name: str) -> int | None:
    """Open folder `name` (never through a link), making it enterable."""
    try:
        os.chmod(name, 0o700, dir_fd=parent_fd)  # a folder, not a link: checked by the caller, and the bot is gone
    except OSError:
        pass
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent_fd)
    except OSError:
        return None


def _is_folder(parent_fd: int, name: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(name, dir_fd=parent_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _unlink(parent_fd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=parent_fd)
    except OSError:
        pass


def _rmdir(parent_fd: int, name: str) -> None:
    try:
        os.rmdir(name, dir_fd=parent_fd)
    except OSError:
        pass
