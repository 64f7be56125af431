"""The files the console reads and writes for a player (`import FILE`, `export FILE`): only
regular files, of a bounded size, and every refusal one sentence a player understands.

A path is typed by whoever sits at the console, so it may name anything: ``/dev/zero``
(endless), a named pipe (whose reader waits for a writer that may never come), a folder.
What it names is looked at (`os.stat`) before it is opened, and again once it is open (it
may have been replaced in between); it is opened without blocking, so no open can wait,
and never more than the limit (and one byte) is read, so no file can fill the memory.
"""

from __future__ import annotations

import errno
import os
import stat

from ..i18n import Text, _, message_id

# the largest file read: a record the service accepts (bot.service.boundary.MAX_RECORD,
# 1,000,000 characters, nearly always one byte each) fits; a larger file cannot be one
MAX_FILE = 1024 * 1024
MAX_FILE_WORDS = "1 MiB"
ACTIONS = {"read": message_id("read"), "write": message_id("write")}  # what was not done
# no open waits (a named pipe), none makes a terminal ours; bytes as they are (Windows)
_FLAGS = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


class FileRefused(Exception):
    """Why a file was not read or written: a sentence for the player (``text``, a message
    worded in their language; ``str()`` gives its English words)."""

    def __init__(self, text: Text) -> None:
        super().__init__(text)
        self.text = text


_REASONS = {errno.EISDIR: message_id("it is a folder"),
            errno.ENOTDIR: message_id("a part of the path is a file"),
            errno.EACCES: message_id("permission denied"),
            errno.EPERM: message_id("permission denied"),
            errno.ENOSPC: message_id("the disk is full"),
            errno.EROFS: message_id("the disk is read-only"),
            errno.ENXIO: message_id("nothing is reading it"),
            errno.ELOOP: message_id("too many links"),
            errno.ENAMETOOLONG: message_id("the name is too long")}


def file_error(action: str, path: str, err: OSError) -> Text:
    """"cannot write /x/y.txt: no such folder", in words a player knows."""
    if err.errno == errno.ENOENT:
        reason: str = _("no such folder") if action == "write" else _("no such file")
    elif (err.errno or 0) in _REASONS:
        reason = Text(_REASONS[err.errno or 0], {})
    else:  # the system's own words for a rarer error
        reason = (err.strerror or str(err)).lower()
    return _("cannot {action} {path}: {reason}", action=Text(ACTIONS[action], {}), path=path,
             reason=reason)


def _kind(mode: int) -> Text | None:
    """What a file that is not a regular file is, in a player's words (None: a file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return _("it is a folder")
    if stat.S_ISFIFO(mode):
        return _("it is a named pipe, not a file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("it is a device, not a file")
    if stat.S_ISSOCK(mode):
        return _("it is a socket, not a file")
    return _("it is not a regular file")


def _check(action: str, path: str, status: os.stat_result, limit: int | None) -> None:
    kind = _kind(status.st_mode)
    if kind:
        raise FileRefused(_("I cannot {action} {path}: {kind}.",
                            action=Text(ACTIONS[action], {}), path=path, kind=kind))
    if limit is not None and status.st_size > limit:
        raise _too_large(path)


def _too_large(path: str) -> FileRefused:
    return FileRefused(_("I cannot read {path}: that file is larger than {limit}, far larger "
                         "than a game record.", path=path, limit=MAX_FILE_WORDS))


def _failed(action: str, path: str, err: OSError) -> FileRefused:
    return FileRefused(_("I {error}.", error=file_error(action, path, err)))


def read_text(path: str, limit: int = MAX_FILE) -> str:
    """The text of the regular file at ``path``, UTF-8, at most ``limit`` bytes; else
    `FileRefused`. Nothing that is not a regular file is read (nor, but for a named pipe
    or a device, opened)."""
    try:
        _check("read", path, os.stat(path), limit)
        fd = os.open(path, os.O_RDONLY | _FLAGS)
    except OSError as err:
        raise _failed("read", path, err) from None
    try:
        _check("read", path, os.fstat(fd), limit)  # what was opened, if it was swapped
        data = _read_at_most(fd, limit + 1)
    except OSError as err:
        raise _failed("read", path, err) from None
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew since it was looked at, or its size was not told
        raise _too_large(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileRefused(_("I cannot read {path}: it is not a text file.", path=path)) \
            from None


def _read_at_most(fd: int, size: int) -> bytes:
    parts: list[bytes] = []
    left = size
    while left > 0:
        part = os.read(fd, min(left, 65536))
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def write_text(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``, a regular file or a new one; else `FileRefused`.
    Opened without blocking: a named pipe nobody reads is refused, not waited on."""
    try:
        try:
            _check("write", path, os.stat(path), None)
        except FileNotFoundError:
            pass  # a new file
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | _FLAGS, 0o666)
    except OSError as err:
        raise _failed("write", path, err) from None
    try:
        _check("write", path, os.fstat(fd), None)
        os.ftruncate(fd, 0)
        data = text.encode("utf-8")
        while data:
            data = data[os.write(fd, data):]
    except OSError as err:
        raise _failed("write", path, err) from None
    finally:
        os.close(fd)
