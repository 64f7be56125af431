"""The message catalogue (`bot.i18n`): a message is written once in English with named
values, and worded later in its reader's language, also after a trip through the
database; plural forms by each language's rule; a language is offered only when its
catalogue is complete; the pseudo-language finds text that bypasses the catalogue."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot import i18n
from bot.cli import catalogue as catalogue_cli
from bot.commands import Commands
from bot.i18n import Text, _, _n

VI_PO = r'''
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=1; plural=0;\n"

msgid "Game #{number} started: {players}."
msgstr "Ván #{number} đã bắt đầu: {players}."

msgid "{name} is to move."
msgstr "Đến lượt {name}."

msgid "one move"
msgid_plural "{n} moves"
msgstr[0] "{n} nước đi"

msgid "Broken {nothing}"
msgstr "Hỏng {nothing} {missing}"
'''
TEMPLATE = r'''
msgid "Game #{number} started: {players}."
msgstr ""

msgid "{name} is to move."
msgstr ""

msgid "one move"
msgid_plural "{n} moves"
msgstr[0] ""
msgstr[1] ""

msgid "Broken {nothing}"
msgstr ""
'''


@pytest.fixture
def locales(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A catalogue folder with a Vietnamese catalogue of the four messages above."""
    (tmp_path / "vi").mkdir()
    (tmp_path / "vi" / "game.po").write_text(VI_PO, encoding="utf-8")
    (tmp_path / "commandpost.pot").write_text(TEMPLATE, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    monkeypatch.setattr(i18n, "TEMPLATE", tmp_path / "commandpost.pot")
    for cached in (i18n.catalogue, i18n.template, i18n.shipped):
        cached.cache_clear()
    yield tmp_path
    for cached in (i18n.catalogue, i18n.template, i18n.shipped):
        cached.cache_clear()


def test_a_message_is_its_english_words_and_keeps_its_id_and_values():
    started = _("Game #{number} started: {players}.", number=3, players="alice vs bob")
    assert started == "Game #3 started: alice vs bob."
    assert isinstance(started, str) and isinstance(started, Text)
    assert (started.msgid, started.values) == ("Game #{number} started: {players}.",
                                               {"number": 3, "players": "alice vs bob"})


def test_a_message_is_worded_in_its_readers_language_with_its_values_as_they_are(locales):
    started = _("Game #{number} started: {players}.", number=3, players="alice vs bob")
    assert started.render("vi") == "Ván #3 đã bắt đầu: alice vs bob."
    assert started.render("en") == "Game #3 started: alice vs bob."
    assert started.render("fr") == "Game #3 started: alice vs bob."  # no catalogue: English


def test_a_message_inside_a_message_is_worded_in_the_same_language(locales):
    line = _("Game #{number} started: {players}.", number=3,
             players=_("{name} is to move.", name="bob"))
    assert line == "Game #3 started: bob is to move.."
    assert line.render("vi") == "Ván #3 đã bắt đầu: Đến lượt bob.."


def test_plural_forms_follow_each_languages_rule(locales):
    assert [_n("one move", "{n} moves", n) for n in (0, 1, 2)] == [
        "0 moves", "one move", "2 moves"]
    assert [_n("one move", "{n} moves", n).render("vi") for n in (0, 1, 2)] == [
        "0 nước đi", "1 nước đi", "2 nước đi"]


def test_a_translation_naming_a_value_the_message_lacks_leaves_it_as_written(locales):
    assert _("Broken {nothing}", nothing="x").render("vi") == "Hỏng x {missing}"


def test_a_name_is_quoted_only_where_a_transport_asks_and_survives_json():
    """A `Name` at any depth of a message is quoted by the ``literal`` the wording is
    given (Discord's markdown escaping), no other value is; without one, and after a trip
    through the database, the words are as before."""
    def literal(name: str) -> str:
        return name.replace("*", "\\*")

    line = _("{name} plays {move}: {news}", name=i18n.Name("*star*"), move="a*b",
             news=_("{who} is to move.", who=i18n.Name("*x*")))
    assert line == "*star* plays a*b: *x* is to move."
    assert line.render("en", literal) == "\\*star\\* plays a*b: \\*x\\* is to move."
    assert i18n.render(i18n.Name("*n*"), "en", literal) == "\\*n\\*"
    again = i18n.from_json(json.loads(json.dumps(line.to_json())))
    assert again.to_json()["values"]["name"] == {"name": "*star*"}
    assert again.render("en", literal) == line.render("en", literal)


def test_a_message_survives_a_trip_through_json_and_is_worded_after_it(locales):
    line = _("Game #{number} started: {players}.", number=3,
             players=_("{name} is to move.", name="bob"))
    again = i18n.from_json(json.loads(json.dumps(line.to_json())))
    assert again == line and again.render("vi") == line.render("vi")
    counted = i18n.from_json(json.loads(json.dumps(_n("one move", "{n} moves", 4).to_json())))
    assert (counted, counted.render("vi")) == ("4 moves", "4 nước đi")


def test_a_plain_string_is_worded_as_it_is():
    assert i18n.render("b2-a3/D", "vi") == "b2-a3/D"


def test_only_a_complete_catalogue_is_offered(locales, monkeypatch):
    monkeypatch.setattr(i18n, "OFFERED", frozenset())
    i18n.shipped.cache_clear()
    assert i18n.shipped() == ("en",)  # not offered: complete, but not chosen to be
    monkeypatch.setattr(i18n, "OFFERED", frozenset({"vi"}))
    i18n.shipped.cache_clear()
    assert i18n.shipped() == ("en", "vi")
    assert i18n.missing("vi") == []
    (locales / "commandpost.pot").write_text(TEMPLATE + '\nmsgid "New words"\nmsgstr ""\n',
                                             encoding="utf-8")
    for cached in (i18n.template, i18n.shipped):
        cached.cache_clear()
    assert i18n.missing("vi") == [("New words", None)]
    assert i18n.shipped() == ("en",)
    assert i18n.choose("vi") == "en"


@pytest.mark.parametrize(("wishes", "chosen"), [
    (("vi",), "vi"), (("vi-VN",), "vi"), (("vi_VN.UTF-8",), "vi"), (("VI",), "vi"),
    (("fr-FR, vi;q=0.8, en;q=0.5",), "vi"), (("fr", "vi"), "vi"), ((None, "vi"), "vi"),
    (("de",), "en"), (("",), "en"), ((None,), "en"), (("C.UTF-8",), "en"),
    (("x" * 10_000 + ",vi",), "en"),  # a wish is read to its first 200 characters only
])
def test_a_language_is_chosen_from_what_readers_send(locales, wishes, chosen):
    assert i18n.choose(*wishes, among=("en", "vi")) == chosen


def test_the_pseudo_language_accents_and_lengthens_words_but_not_values_or_code():
    line = _("Play {move} with `move {move}` or {{board #3}}.", move="b2-a3/D")
    pseudo = line.render(i18n.PSEUDO)
    assert pseudo.startswith("[Plàý b2-a3/D wîth `move b2-a3/D` ör {{board #3}}. ")
    assert pseudo.endswith("~]") and len(pseudo) >= 1.4 * len(line)
    assert "b2-a3/D" in pseudo  # notation is never translated


def test_the_template_lists_every_message_of_the_code(capsys):
    """`commandpost catalogue --check`: the template in bot/locales is up to date."""
    assert catalogue_cli.main(["--check"]) == 0, capsys.readouterr().out


def test_a_message_is_still_one_when_pickled_or_copied(locales):
    import copy
    import pickle

    started = _("Game #{number} started: {players}.", number=3, players=_("{name} is to move.",
                                                                          name="bob"))
    for again in (pickle.loads(pickle.dumps(started)), copy.copy(started),
                  copy.deepcopy(started)):
        assert again.render("vi") == "Ván #3 đã bắt đầu: Đến lượt bob.."


def test_sentences_joined_are_each_worded_in_the_readers_language(locales):
    both = i18n.joined([_("{name} is to move.", name="bob"), "b2-a3/D"])
    assert (both, both.render("vi")) == ("bob is to move. b2-a3/D", "Đến lượt bob. b2-a3/D")


def test_the_vietnamese_catalogue_translates_every_message_keeping_its_values():
    """No message of the code is left in English in the Vietnamese catalogue, and each
    translation names exactly the values its message has (a value lost or misspelt would
    show as a brace or be missing)."""
    for cached in (i18n.catalogue, i18n.template):
        cached.cache_clear()
    assert i18n.missing("vi") == []
    fields = i18n._FIELD
    wrong = []
    for (msgid, plural), words in i18n.catalogue("vi").items():
        expected = set(fields.findall(msgid)) | set(fields.findall(plural or ""))
        for form in (words,) if isinstance(words, str) else words:
            if set(fields.findall(form)) - expected or \
                    set(fields.findall(form)) < set(fields.findall(msgid)) - {"n"}:
                wrong.append((msgid, form))
    assert wrong == []


def test_untranslated_finds_the_english_words_outside_every_message() -> None:
    inner = i18n._("{name} played {move}.", name="alice", move="e2-e4")
    outer = i18n.joined([inner, i18n._("Your turn.")])
    worded = outer.render(i18n.PSEUDO)
    assert i18n.untranslated(worded) == []
    assert i18n.untranslated(f"Game #3: {worded} Good luck!") == ["Game", "Good", "luck"]
    assert i18n.untranslated("Good luck, alice: `move e2-e4`", allowed=["alice"]) == [
        "Good", "luck"]


def test_an_engine_phrase_is_worded_like_a_message_of_the_catalogue() -> None:
    from engine.phrases import said, said_n

    reason = said("the {piece} on {square} cannot move", piece=said("Tank"), square="e4")
    assert reason == "the Tank on e4 cannot move"
    message = i18n._("{move} is not a legal move here: {reason}.", move="e4-e5", reason=reason)
    assert message == "e4-e5 is not a legal move here: the Tank on e4 cannot move."
    assert i18n.from_json(message.to_json()) == message
    assert i18n.render(reason, i18n.PSEUDO) == "[thé [Tàñk ~~] öñ e4 çàññöt mövé ~~~~~~~~~~~~~~]"
    assert (said_n("{n} step", "{n} steps", 1), said_n("{n} step", "{n} steps", 2)) == (
        "1 step", "2 steps")


def test_no_message_has_two_different_translations_in_the_vietnamese_files():
    """A language's catalogue is several files merged: a message translated in two of
    them must be translated the same way (else which words a reader meets would depend on
    the order the files are read in)."""
    seen: dict[object, tuple[str, object]] = {}
    clashes = []
    for path in sorted((i18n.LOCALES / "vi").glob("*.po")):
        with path.open("rb") as f:
            for message in read_po(f, locale="vi"):
                if not message.id:
                    continue
                key = message.id if isinstance(message.id, str) else tuple(message.id)
                words = message.string if isinstance(message.string, str) else tuple(
                    message.string)
                if key in seen and seen[key][1] != words:
                    clashes.append((key, seen[key][0], path.name))
                seen.setdefault(key, (path.name, words))
    assert clashes == []


def test_every_dash_of_the_vietnamese_catalogue_is_spaced_as_in_english():
    """`— {variant}`, never `—{variant}`: a subject such as ``Thách đấu #1: lan đấu với
    bob — Cờ Tư Lệnh`` keeps the space its English has on either side of the dash."""
    for path in sorted((Path(i18n.__file__).parent / "locales" / "vi").glob("*.po")):
        with path.open("rb") as f:
            for message in read_po(f):
                strings = message.string if isinstance(message.string, tuple) \
                    else (message.string,)
                for text in strings:
                    for at in (i for i, c in enumerate(text) if c == "—"):
                        assert text[at - 1:at] in ("", " ") and \
                            text[at + 1:at + 2] in ("", " "), (path.name, text)


# in a wording: code, a value, a quotation, a slash command with its options, e-mail
CODE = re.compile(r"`[^`]*`|<[a-z_0-9]+>|'[^']*'|/[a-z]+(?: [a-z]+:[^ ]+)*|e-mail")
COMMAND_WORDS = frozenset(name.removeprefix("cmd_") for name in dir(Commands)
                          if name.startswith("cmd_"))  # a line of examples starts with one
ENGLISH_WORDS = frozenset(
    "the and you your game games move moves with not for this that there their turn "
    "challenge player players send reply mail board clock days hours draw resign".split())


def test_every_message_renders_in_every_shipped_language_with_no_english_left():
    """Each message of the template, given a sample value for each of its placeholders,
    is worded in every shipped language and in the pseudo-language: every placeholder is
    filled, and a Vietnamese wording holds none of the common English words outside its
    code (a translation left in English would)."""
    i18n.template.cache_clear()
    english_left = []
    for msgid, plural in sorted(i18n.template()):
        names = set(i18n._FIELD.findall(msgid)) | set(i18n._FIELD.findall(plural or ""))
        values = {name: f"<{name}>" for name in names}
        for n in (1, 2):
            message = Text(msgid, {**values, "n": n}, plural)
            for language in (*i18n.shipped(), i18n.PSEUDO):
                worded = message.render(language)
                assert not [name for name in names if "{" + name + "}" in worded], (
                    msgid, language)
                if language == "vi":  # its prose: not code, commands, examples or values
                    prose = " ".join(line for line in CODE.sub(" ", worded).splitlines()
                                     if line.split(" ", 1)[0] not in COMMAND_WORDS)
                    english_left += [(msgid, word) for word in re.findall(r"[A-Za-z]+", prose)
                                     if word.lower() in ENGLISH_WORDS]
    assert english_left == []
