"""The console's two threads: the main thread reads lines (so Ctrl-C while typing cancels
the line at once, and readline edits it), and the service runs on an event loop in a
thread of its own, where the computer thinks and plays while a line is being typed.

What the service says while a line is being typed (the computer's move) is printed above
the prompt: the half-typed line is cleared, the text printed, and the prompt and what was
typed so far written again below it."""

from __future__ import annotations

import asyncio
import signal
import sys
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TextIO, TypeVar

T = TypeVar("T")


class ServiceLoop:
    """An event loop in a thread of its own; the main thread hands it coroutines.

    The loop's thread, and every thread it starts (storage, drawing, the computer's pool),
    blocks SIGINT, so a Ctrl-C is always delivered to the main thread. Delivered to another
    thread, it would leave the main thread's line reader waiting for the next key with the
    half-typed line still there."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name="console-service",
                                        daemon=True)
        start_without_sigint(self._thread)

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        """Run ``work`` on the loop and wait for it to end. A Ctrl-C meanwhile does not cut
        it off: a command is short (tens of milliseconds), and one cancelled inside a
        storage call could leave the database's connection inside its transaction, failing
        every command after it."""
        future = asyncio.run_coroutine_threadsafe(work, self.loop)
        while True:
            try:
                return future.result()
            except KeyboardInterrupt:
                continue

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join()
        self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        self.loop.close()

    def __enter__(self) -> ServiceLoop:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_without_sigint(thread: threading.Thread) -> None:
    """Start ``thread`` with SIGINT blocked (a thread is born with its parent's signal
    mask), so that a Ctrl-C always reaches the main thread's line reader."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: Ctrl-C goes to the main thread
        thread.start()
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        thread.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


class Terminal:
    """Prints for both threads, one text at a time, and reads lines in the main thread."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout
        self._lock = threading.Lock()
        self._prompt: str | None = None  # shown, while a line is being typed

    def print(self, text: str) -> None:
        with self._lock:
            if self._prompt is None or not self.stream.isatty():
                print(text, file=self.stream, flush=True)
                return
            typed = _typed_so_far()
            # "\r\033[K": back to the start of the prompt's line and clear it
            self.stream.write(f"\r\033[K{text}\n{self._prompt}{typed}")
            self.stream.flush()

    def read(self, lines: Callable[[str], str], prompt: str) -> str:
        """One line from ``lines`` (`input`), shown after ``prompt``."""
        with self._lock:
            self._prompt = prompt
        try:
            return lines(prompt)
        finally:
            with self._lock:
                self._prompt = None


def _typed_so_far() -> str:
    try:
        import readline
    except ImportError:  # no line editing: what was typed stays on the screen above
        return ""
    return readline.get_line_buffer()
