"""Fixtures for every test: no test asks the real DNS (a sender's DKIM key, a domain's DMARC
policy); every name is unknown unless a test gives it records through ``fake_dns``."""

from __future__ import annotations

import threading

import pytest

from bot import i18n
from bot.email_gateway import authenticity


class FakeDns:
    """The DNS as the tests define it: TXT records by name; other names do not exist; the
    names in ``down`` (or every name, with ``"*"``) time out."""

    def __init__(self) -> None:
        self.records: dict[str, list[bytes]] = {}
        self.down: set[str] = set()
        self.asked: list[str] = []
        self.threads: set[str] = set()  # the threads that asked

    def __call__(self, name: str, timeout: float) -> list[bytes]:
        name = name.lower().rstrip(".")
        self.asked.append(name)
        self.threads.add(threading.current_thread().name)
        if name in self.down or "*" in self.down:
            raise authenticity.DnsTrouble(f"{name}: Timeout")
        return list(self.records.get(name, []))

    def add(self, name: str, record: str | bytes) -> None:
        self.records.setdefault(name.lower(), []).append(
            record.encode() if isinstance(record, str) else record)


@pytest.fixture(autouse=True)
def fake_dns(monkeypatch: pytest.MonkeyPatch) -> FakeDns:
    dns = FakeDns()
    monkeypatch.setattr(authenticity, "resolve_txt", dns)
    return dns


@pytest.fixture
def offered(monkeypatch: pytest.MonkeyPatch):
    """Vietnamese offered to readers (as it is: the tests that need it say so)."""
    monkeypatch.setattr(i18n, "OFFERED", frozenset({"vi"}))
    i18n.shipped.cache_clear()
    yield
    i18n.shipped.cache_clear()


@pytest.fixture
def not_offered(monkeypatch: pytest.MonkeyPatch):
    """No language but English offered: how a language still being translated (as
    Vietnamese was, and the next one will be) is refused."""
    monkeypatch.setattr(i18n, "OFFERED", frozenset())
    i18n.shipped.cache_clear()
    yield
    i18n.shipped.cache_clear()
