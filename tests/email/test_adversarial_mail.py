"""Mail built to be slow to read, each at the size limit (`bench/mailparse.py` builds it and
times it): every one goes through real SMTP and gets its exact answer, and none changes
anything stored. (How long they take is the benchmark's business, not a test's.)"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.config import Settings
from bot.email_gateway.inbound import MIME_PARTS, read_mail
from bot.email_gateway.reading import is_move_word, looks_like_move

_SPEC = importlib.util.spec_from_file_location(
    "bench_mailparse", Path(__file__).resolve().parents[2] / "bench" / "mailparse.py")
mailparse = importlib.util.module_from_spec(_SPEC)  # type: ignore[arg-type]
sys.modules["bench_mailparse"] = mailparse
_SPEC.loader.exec_module(mailparse)  # type: ignore[union-attr]

LIMIT = 1_048_576  # COMMANDPOST_EMAIL_MAX_BYTES's default
OURS = "play@games.test"
NO_COMMAND = ("I found no command in your mail. Write one command on the first line, above any "
              "quoted text, for example `help` (all commands), `games` (your games) or "
              "`challenge ADDRESS`.\r\n")
HEADER = ("The header of your mail is {kib} KiB, more than the 64 KiB I read, so I did not "
          "read your mail. Please write a new mail with just your command.\r\n")
HELP = "help"  # the answer to `help` starts with the commands (see below)
MAILS = mailparse.adversarial_mails(LIMIT)


def _header_kib(raw: bytes) -> int:
    return raw.index(b"\r\n\r\n") // 1024


def _parts(raw: bytes) -> int:
    return raw.lower().count(b"\ncontent-type:")


EXPECTED = {
    "move word 33 bytes": NO_COMMAND,
    "move words at the limit": NO_COMMAND,
    "qp line am schrieb": NO_COMMAND,
    "folded subject": HEADER.format(kib=_header_kib(MAILS["folded subject"])),
    "many headers": HEADER.format(kib=_header_kib(MAILS["many headers"])),
    "headers under the limit": HELP,
    "many mime parts": (f"Your mail has {_parts(MAILS['many mime parts'])} parts, more than "
                        f"the {MIME_PARTS} I read, so I did not read it. Please send your "
                        f"command again as plain text.\r\n"),
    "nested mime": HELP,
    "a line of spaces": HELP,
    "a line of >": NO_COMMAND,  # the help below it is past what is read
    "lines of > and attributions": NO_COMMAND,
    "html deep nesting": NO_COMMAND,
    "html hidden and hr": NO_COMMAND,  # the hidden `resign`s are not read
    "html plain paragraphs": NO_COMMAND,
}


@pytest.fixture
def email_settings(email_settings: Settings) -> Settings:
    return replace(email_settings, email_max_bytes=LIMIT)


def test_every_input_of_the_benchmark_has_an_expected_answer():
    assert set(EXPECTED) == set(MAILS)
    assert all(len(raw) > LIMIT - 4096 for name, raw in MAILS.items()
               if name != "move word 33 bytes")
    assert all(len(raw) <= LIMIT for raw in MAILS.values())


async def test_mail_built_to_be_slow_is_answered_and_changes_nothing(mail):
    for k, (name, raw) in enumerate(MAILS.items()):
        stranger = f"m{k}@players.test"
        await mail.post.send(stranger, raw=raw.replace(b"mallory@players.test", stranger.encode()),
                             to=OURS)
        text = mail.text_of(await mail.relay.next_to(stranger))
        if EXPECTED[name] == HELP:
            assert text.startswith("Commands"), name
        else:
            assert text == EXPECTED[name], name
    async with mail.service.db.snapshot() as s:
        assert [tuple(r) for r in await s.all("SELECT COUNT(*) FROM games")] == [(0,)]
        assert [tuple(r) for r in await s.all("SELECT COUNT(*) FROM challenges")] == [(0,)]


@pytest.mark.parametrize("word", ["a1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa%",
                                  "a1" + "a" * 5000 + "%", "a1" + "a" * 63])
def test_the_move_word_that_backtracked_is_no_move(word):
    assert not is_move_word(word) and not looks_like_move(word)


@pytest.mark.parametrize("word", ["Ee5", "c3-d4", "a1-a3/B", "Ha1-a3,", "a16", "Nxe5+",
                                  "e5!!", "Qxde5", "a10b", "c3xd4:e5", "a1=B",
                                  # off every board: the rules say what is wrong
                                  "a7-a55", "a17", "a0", "a01"])
def test_moves_are_still_moves(word):
    assert is_move_word(word)


@pytest.mark.parametrize("word", ["M&f4", "F@e5", "A_b2", "(NF)b6", "I<T>e6", "T>e6,I>e5",
                                  "+T>e6", "(TI)xe5", "Id4>e4"])
def test_commander_chess_moves_are_moves(word):
    assert is_move_word(word) and looks_like_move(f"{word} please")


@pytest.mark.parametrize("word", ["I<3", "(hi)", "a&", "<3", "(a1)" + "&" * 61, "M&f4%",
                                  "a1&" + "a" * 5000])
def test_words_with_commander_marks_that_are_not_moves(word):
    assert not is_move_word(word)


@pytest.mark.parametrize("word", ["p5", "Queen5e4", "a100", "e", "5e", "a1%",
                                  "a1!b2", "a" + "1" * 3, ""])
def test_words_that_are_not_moves(word):
    assert not is_move_word(word)


def test_a_folded_subject_of_a_megabyte_is_refused_from_its_header():
    verdict = read_mail(MAILS["folded subject"], "mallory@players.test", [OURS],
                        our_address=OURS, max_bytes=LIMIT)
    assert verdict.reason == "too-large"
    assert verdict.sender == "mallory@players.test"
