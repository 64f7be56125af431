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

# the largest file read: a record the service accepts (bot.service.boundary.MAX_RECORD,
# 1,000,000 characters, nearly always one byte each) fits; a larger file cannot be one
MAX_FILE = 1024 * 1024
MAX_FILE_WORDS = "1 MiB"
# no open waits (a named pipe), none makes a terminal ours; bytes as they are (Windows)
_FLAGS = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


class FileRefused(Exception):
    """Why a file was not read or written: a sentence for the player."""


def file_error(action: str, path: str, err: OSError) -> str:
    """"cannot write /x/y.txt: no such folder", in words a player knows."""
    reason = {errno.ENOENT: "no such folder" if action == "write" else "no such file",
              errno.EISDIR: "it is a folder", errno.ENOTDIR: "a part of the path is a file",
              errno.EACCES: "permission denied", errno.EPERM: "permission denied",
              errno.ENOSPC: "the disk is full", errno.EROFS: "the disk is read-only",
              errno.ENXIO: "nothing is reading it", errno.ELOOP: "too many links",
              errno.ENAMETOOLONG: "the name is too long"}.get(
        err.errno or 0, (err.strerror or str(err)).lower())
    return f"cannot {action} {path}: {reason}"


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is, in a player's words (None: a file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "it is a folder"
    if stat.S_ISFIFO(mode):
        return "it is a named pipe, not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a file"
    if stat.S_ISSOCK(mode):
        return "it is a socket, not a file"
    return "it is not a regular file"


def _check(action: str, path: str, status: os.stat_result, limit: int | None) -> None:
    kind = _kind(status.st_mode)
    if kind:
        raise FileRefused(f"I cannot {action} {path}: {kind}.")
    if limit is not None and status.st_size > limit:
        raise _too_large(path)


def _too_large(path: str) -> FileRefused:
    return FileRefused(f"I cannot read {path}: that file is larger than {MAX_FILE_WORDS}, "
                       f"far larger than a game record.")


def read_text(path: str, limit: int = MAX_FILE) -> str:
    """The text of the regular file at ``path``, UTF-8, at most ``limit`` bytes; else
    `FileRefused`. Nothing that is not a regular file is read (nor, but for a named pipe
    or a device, opened)."""
    try:
        _check("read", path, os.stat(path), limit)
        fd = os.open(path, os.O_RDONLY | _FLAGS)
    except OSError as err:
        raise FileRefused(f"I {file_error('read', path, err)}.") from None
    try:
        _check("read", path, os.fstat(fd), limit)  # what was opened, if it was swapped
        data = _read_at_most(fd, limit + 1)
    except OSError as err:
        raise FileRefused(f"I {file_error('read', path, err)}.") from None
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew since it was looked at, or its size was not told
        raise _too_large(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileRefused(f"I cannot read {path}: it is not a text file.") from None


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
        raise FileRefused(f"I {file_error('write', path, err)}.") from None
    try:
        _check("write", path, os.fstat(fd), None)
        os.ftruncate(fd, 0)
        data = text.encode("utf-8")
        while data:
            data = data[os.write(fd, data):]
    except OSError as err:
        raise FileRefused(f"I {file_error('write', path, err)}.") from None
    finally:
        os.close(fd)
