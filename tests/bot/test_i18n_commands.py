"""The commands shared by the console and e-mail, and the console itself, in Vietnamese:
the answers and help texts a player reads after `language vi`, a Commander Chess game at a
console whose system speaks Vietnamese (``LANG=vi_VN.UTF-8``), and a pseudo-language run
that finds any text of these parts bypassing the catalogue (Vietnamese offered, as it is,
through the `offered` fixture)."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path

import pytest

from bot import i18n
from bot.config import Settings
from bot.console.console import Console
from bot.console.files import FileRefused, read_text
from bot.service import GameService
from bot.textboard import caption
from bot.tournament_commands import TournamentCommands
from engine import get_variant

COMMANDER_START = """\
12  .  .  .  .  .  .  c  .  .  .  .
11  .  n  .  .  f  h  .  h  f  .  .
10  .  .  .  a  .  .  s  .  .  a  .
 9  .  .  n  .  g  t  .  t  g  .  .
 8  .  .  i  e  .  .  m  .  .  e  i
 7  .  .  .  .  .  .  .  .  .  .  .
 6  .  .  .  .  .  .  .  .  .  .  .
 5  .  .  I  E  .  .  M  .  .  E  I
 4  .  .  N  .  G  T  .  T  G  .  .
 3  .  .  .  A  .  .  S  .  .  A  .
 2  .  N  .  .  F  H  .  H  F  .  .
 1  .  .  .  .  .  .  C  .  .  .  .
    a  b  c  d  e  f  g  h  i  j  k"""
# the last lines of `help` in Vietnamese: the console's own words, placeholders worded
CONSOLE_WORDS_VI = [
    "  as TÊN       Đổi người đang gõ (hai người chơi chung một bàn phím).",
    "  import TỆP vs TÊN",
    "               Chơi tiếp một ván từ tệp biên bản.",
    "  export [#N] TỆP",
    "               Ghi thêm biên bản ra một tệp.",
    "  quit         Thoát khỏi bàn điều khiển."]
YOUR_TURN = "Đến lượt bạn. Bạn còn 3 ngày (đến 12:00 UTC 5/3/2026)."
AFTER_TF5 = COMMANDER_START.replace(
    " 5  .  .  I  E  .  .  M", " 5  .  .  I  E  .  T* M").replace(
    " 4  .  .  N  .  G  T  .", " 4  .  .  N  .  G  .* .")
AFTER_TF8 = COMMANDER_START.replace(
    " 9  .  .  n  .  g  t  .", " 9  .  .  n  .  g  .* .").replace(
    " 8  .  .  i  e  .  .  m", " 8  .  .  i  e  .  t* m").replace(
    " 5  .  .  I  E  .  .  M", " 5  .  .  I  E  .  T  M").replace(
    " 4  .  .  N  .  G  T  .", " 4  .  .  N  .  G  .  .")
TANK_ON_F5 = """\
12  .  .  .  .  .  .  c  .  .  .  .
11  .  n  .  .  f  h  .  h  f  .  .
10  .  .  .  a  .  .  s  .  .  a  .
 9  .  .  n  .  g  .  .  t  g  .  .
 8  .  .  i  e  .  t  m  .  .  e  i
 7  .  .  .  .  .  .* .  .  .  .  .
 6  .  .  .  .  .  .* .  .  .  .  .
 5  .  .  I  E  .* T  M* .  .  E  I
 4  .  .  N  .  G  .* .  T  G  .  .
 3  .  .  .  A  .  .* S  .  .  A  .
 2  .  N  .  .  F  H  .  H  F  .  .
 1  .  .  .  .  .  .  C  .  .  .  .
    a  b  c  d  e  f  g  h  i  j  k"""
STARTED = ("Ván #1 đã bắt đầu: An (Đỏ) đấu với Binh (Xanh), Cờ Tư Lệnh, "
           "3 ngày mỗi nước. An (Đỏ) đi trước.")


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pseudo-language offered to readers, as a language of its own."""
    monkeypatch.setattr(i18n, "shipped", lambda: (i18n.SOURCE, i18n.PSEUDO))


@pytest.fixture
def vietnamese_system(monkeypatch: pytest.MonkeyPatch) -> None:
    """A system whose user reads Vietnamese: ``LANG=vi_VN.UTF-8``."""
    monkeypatch.setenv("LANG", "vi_VN.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)


class Keyboard:
    """A console of its own (as `commandpost console` starts it), its output kept."""

    def __init__(self, service: GameService, settings: Settings) -> None:
        self.lines: list[str] = []
        self.console = Console(service, settings, out=self.lines.append)

    async def __call__(self, line: str) -> str:
        start = len(self.lines)
        assert await self.console.run_line(line)
        return "\n".join(self.lines[start:])


def test_the_caption_and_sides_are_worded_in_the_readers_language():
    commander = get_variant("commander")
    words = caption(commander, commander.start_position(), (3, 0))
    assert words == "Red to move, move 1. destroyed: Red 3 · Blue 0 pts"
    assert words.render("vi") == "Đến lượt Đỏ, nước thứ 1. Điểm tiêu diệt: Đỏ 3 · Xanh 0"
    clash = get_variant("clash")
    assert caption(clash, clash.start_position()).render("vi") == "Đến lượt Trắng, nước thứ 1."


def test_a_file_refusal_is_a_sentence_in_the_readers_language(tmp_path: Path):
    with pytest.raises(FileRefused) as refused:
        read_text(str(tmp_path))
    assert str(refused.value) == f"I cannot read {tmp_path}: it is a folder."
    assert refused.value.text.render("vi") == f"Tôi không đọc được {tmp_path}: đó là một thư mục."
    with pytest.raises(FileRefused) as refused:
        read_text(str(tmp_path / "none.txt"))
    assert refused.value.text.render("vi") == (
        f"Tôi không đọc được {tmp_path / 'none.txt'}: không có tệp đó.")


@pytest.mark.sqlite_only(reason="console words only")
async def test_the_consoles_own_words_in_the_help_list_name_their_placeholders_in_vietnamese(
        session, offered):
    english = (await session("help")).splitlines()[-4:]
    assert english == [
        "  as NAME      Switch who is typing (two players at one keyboard).",
        "  import FILE vs NAME  Continue a game from a record file.",
        "  export [#N] FILE    Also write the record to a file.",
        "  quit         Leave the console."]
    await session("language vi")
    assert (await session("help")).splitlines()[-6:] == CONSOLE_WORDS_VI


@pytest.mark.sqlite_only(reason="console words only")
async def test_the_example_of_a_challenge_names_its_placeholder_in_vietnamese(session,
                                                                             offered):
    assert await session("games") == "No games in progress. Start one with `challenge NAME`."
    assert await session("moves") == (
        "You have no game in progress. Start one with `challenge NAME`.")
    await session("language vi")
    assert await session("games") == (
        "Không có ván nào đang chơi. Bắt đầu một ván bằng `challenge TÊN`.")
    assert await session("moves") == (
        "Bạn không có ván nào đang chơi. Hãy bắt đầu một ván bằng `challenge TÊN`.")


@pytest.mark.sqlite_only(reason="console words only")
async def test_the_answers_of_the_commands_in_vietnamese(session, offered):
    assert await session("language vi") == "Từ nay ngôn ngữ của bạn là Tiếng Việt (vi)."
    assert await session("help a b") == (
        "Chỉ nêu một từ: `help TỪ`, hoặc `help` để xem danh sách.")
    assert await session("help nothing") == "Không có lệnh 'nothing'; `help` liệt kê các lệnh."
    assert await session("variants") == (
        "Các biến thể:\n"
        "  clash            Đại chiến Chỉ huy (chế độ: standard)\n"
        "  commander        Cờ Tư Lệnh (chế độ: standard, marine, air, land, raid, sea-air)\n"
        "  combined-arms    Cờ vua Lữ đoàn Binh chủng hợp thành (chế độ: standard)\n"
        "  mini-chieftain   mini-Chieftain (chế độ: standard)\n"
        "  micro-chieftain  micro-Chieftain (chế độ: standard)")
    assert await session("games") == (
        "Không có ván nào đang chơi. Bắt đầu một ván bằng `challenge TÊN`.")
    assert await session("challenges") == "Không có lời thách đấu nào đang mở cho bạn."
    assert await session("rules") == (
        "Biến thể nào? Ví dụ `rules clash` (clash, commander, combined-arms, mini-chieftain, "
        "micro-chieftain).")
    assert await session("rules commander xyz") == (
        "Luật Cờ Tư Lệnh không có phần nào về 'xyz'. `rules commander TOPIC` cho xem một phần: "
        "một quân cờ (Tư lệnh, Bộ binh, Xe tăng, Dân quân, Công binh, Pháo binh, Pháo phòng "
        "không, Tên lửa, Không quân, Hải quân, Sở chỉ huy) hoặc một mục (bàn cờ, luật đặc biệt, "
        "kết thúc ván cờ, ghi nước đi, những lựa chọn của dự án).")
    assert (await session("rules commander xe tăng")).splitlines()[-2] == (
        "(Trích từ docs/rules/vi/commander.md, mục “Xe tăng (T)”.)")
    for line, answer in [
            ("challenge",
             "Thách đấu ai? Hãy nêu tên đối thủ (`challenge bob`), hoặc gõ `challenge anyone` "
             "để bất kỳ ai ở đây cũng có thể nhận lời."),
            ("challenge bob clash zzz yyy",
             "Tôi không hiểu 'zzz'. Ví dụ: `challenge bob`; `challenge bob clash white 3d`"),
            ("vacation x", "'x' không phải là một số ngày."),
            ("vacation 0", "Kỳ nghỉ phải kéo dài ít nhất một phần của ngày."),
            ("digest", "Hãy gõ `digest on` hoặc `digest off`."),
            ("digest on", "Bạn sẽ nhận tin tổng hợp hằng ngày về các ván đang chờ bạn đi."),
            ("rating", "Bạn chưa chơi ván Đại chiến Chỉ huy tính điểm nào (bạn bắt đầu ở 1500)."),
            ("leaderboard", "Chưa có ván Đại chiến Chỉ huy tính điểm nào."),
            ("games x", "`games` không nhận 'x'. Ví dụ: `games`; `games here`"),
            ("quit now", "`quit` không nhận gì phía sau: chỉ cần gõ `quit`."),
            ("as computer",
             "'computer' không thể là tên người chơi ở đây: `challenge computer` có nghĩa là "
             "máy. Hãy chọn tên khác."),
            ("export a b", "Hãy nêu một tệp thôi: `export #3 game.txt` (tôi đọc được 2: a, b)."),
            ("import x", "Hãy nêu tệp nào và đấu với ai: `import game.txt vs bob`."),
    ]:
        assert await session(line) == answer


@pytest.mark.sqlite_only(reason="console words only")
async def test_the_answers_about_a_game_in_vietnamese(session, offered):
    await session("challenge bob 3d white")
    await session("as bob")
    await session("accept")
    await session("as Alice")
    assert await session("language vi") == "Từ nay ngôn ngữ của bạn là Tiếng Việt (vi)."
    assert await session("board #1 2") == (
        "Ván #1 chưa có lượt nào được đi: hãy nêu 0 để xem lúc bắt đầu.")
    assert await session("board #1 x") == (
        "'x' không phải là số lượt: `board #1 3.` cho xem bàn cờ sau lượt thứ 3 của bên Trắng, "
        "`board #1 3...` sau lượt của bên Đen, `board #1 0` là lúc bắt đầu.")
    assert await session("moves z9") == (
        "z9 không phải là một điểm trên bàn cờ này (Đại chiến Chỉ huy: cột a-i, hàng 1-9).")
    assert (await session("moves b2")).splitlines()[0] == (
        "F ở b2: 6 nước đi: b2-a3/D b2-a3/H b2-b4/D b2-b4/H b2=D b2=H")
    assert await session("move board") == (
        "'board' là một lệnh, không phải nước đi: hãy bắt đầu dòng bằng nó, ví dụ `board` hoặc "
        "`board #3` (`help board` cho biết thêm).")
    assert (await session("board")).splitlines()[0] == (
        "Ván #1: Alice (Trắng) đấu với bob (Đen), Đại chiến Chỉ huy, 3 ngày mỗi nước. Đến lượt "
        "Alice (đến 12:00 UTC 5/3/2026).")
    for line, answer in [
            ("games",
             "Các ván đang chơi:\n"
             "  #1 Alice đấu với bob (Đại chiến Chỉ huy), đến lượt Alice (đến 12:00 UTC "
             "5/3/2026)"),
            ("note",
             "Bạn chưa có ghi chú nào về ván #1. Ví dụ: `note the left flank is weak`; "
             "`note #3 trade the droid next`"),
            ("forecast",
             "Bạn chưa có nước đi có điều kiện nào trong ván #1. Hãy ghi một nước bằng `if "
             "NƯỚC-CỦA-ĐỐI-THỦ then NƯỚC-ĐÁP-CỦA-BẠN`."),
            ("vacation 30",
             "Bạn xin nghỉ 30 ngày, nhưng năm nay bạn chỉ còn 10 ngày nghỉ; bạn được nghỉ "
             "chừng đó. Bạn được nghỉ đến 12:00 UTC 12/3/2026 (10 ngày). Đồng hồ của bạn đã "
             "tạm dừng (các ván đang đến lượt bạn: #1); khi quay lại, hãy gửi `back`.\n"
             "  [to bob] Alice is on vacation; the clock of game #1 is paused."),
    ]:
        assert await session(line) == answer


@pytest.mark.sqlite_only(reason="console words only")
async def test_the_help_texts_in_vietnamese(session, offered):
    await session("language vi")
    assert await session("help board") == (
        "board: Xem bàn cờ của một ván, lúc này hoặc sau lượt bạn nêu.\n"
        "\n"
        "board\n"
        "board #3\n"
        "board #3 12...\n"
        "\n"
        "Lượt được ghi như trong biên bản ván cờ: `3.` là sau lượt thứ ba của bên đi trước,\n"
        "`3...` là sau lượt của bên đi sau, `3` là sau cả hai bên, `0` là lúc bắt đầu.")
    assert await session("help as") == (
        "as: Đổi người đang gõ (hai người chơi chung một bàn phím).\n\nas bob")
    assert (await session("help export")).endswith(
        "export #3 cotulenh\n  export #3 game.txt   (bàn điều khiển cũng ghi biên bản ra tệp)")
    listing = await session("help")
    lines = listing.splitlines()
    assert lines[0] == ("Các lệnh (`help TỪ` để xem ví dụ); một dòng không phải lệnh được hiểu "
                        "là một nước đi:")
    assert lines[1:4] == [
        "  abort        Hủy một ván (không tính điểm xếp hạng) trước khi cả hai bên đều đã đi.",
        "  accept       Nhận lời thách đấu (lời duy nhất gửi cho bạn, hoặc lời có số đã nêu).",
        "  back         Kết thúc kỳ nghỉ: đồng hồ của bạn chạy lại (đi một nước trong ván nào "
        "đó cũng kết"]
    assert lines[4] == " " * 15 + "thúc kỳ nghỉ)."
    # the console's own words with their placeholders worded as everywhere (`as TÊN`),
    # those longer than the column on a line of their own
    assert lines[-6:] == CONSOLE_WORDS_VI
    assert all(len(line) <= 96 for line in lines)
    for word in session.console.commands.words():  # each command, described in Vietnamese
        handler = getattr(TournamentCommands, f"cmd_{word}")
        assert handler.__doc__ and f"  {word:<12} " in listing
        assert i18n.catalogue("vi").get((inspect.cleandoc(handler.__doc__).split("\n\n")[0],
                                         None)), word


@pytest.mark.sqlite_only(reason="console words only")
async def test_a_commander_chess_game_at_a_vietnamese_console(
        service, settings, offered, vietnamese_system):
    an = Keyboard(service, settings)

    def picture(name: str) -> str:
        return f"Hình: {settings.pictures_dir / name}"

    assert await an("as An") == "Bạn là An."
    assert await an("challenge Binh commander red 3d") == (
        "Đã gửi thách đấu #1 tới Binh: Cờ Tư Lệnh, 3 ngày mỗi nước, An cầm "
        "Đỏ, tính điểm. Lời thách đấu hết hạn vào 12:00 UTC 9/3/2026.\n"
        "  [gửi binh] An thách đấu bạn: Cờ Tư Lệnh, 3 ngày mỗi nước, An cầm "
        "Đỏ, tính điểm. Hãy trả lời bằng `accept #1` hoặc `decline #1`.")
    assert await an("as Binh") == "Bạn là Binh."
    assert await an("accept") == "\n".join([
        f"Đã nhận lời thách đấu #1. {STARTED}",
        COMMANDER_START,
        "Đến lượt Đỏ, nước thứ 1. Điểm tiêu diệt: Đỏ 0 · Xanh 0",
        picture("game-1-0-blue.png"),
        f"  [gửi an] {STARTED}"])
    assert await an("as An") == "Bạn là An. Đến lượt bạn đi trong ván #1."
    assert await an("Tf5") == "\n".join([
        "Đã đi 1. Tf5 trong ván #1. Đến lượt Binh (Xanh).", AFTER_TF5,
        "Đến lượt Xanh, nước thứ 1. Điểm tiêu diệt: Đỏ 0 · Xanh 0", picture("game-1-1-red.png"),
        f"  [gửi binh] An đã đi 1. Tf5 trong ván #1 (Cờ Tư Lệnh). {YOUR_TURN}"])
    assert await an("as Binh") == "Bạn là Binh. Đến lượt bạn đi trong ván #1."
    assert await an("Tf8") == "\n".join([
        "Đã đi 1... Tf8 trong ván #1. Đến lượt An (Đỏ).", AFTER_TF8,
        "Đến lượt Đỏ, nước thứ 2. Điểm tiêu diệt: Đỏ 0 · Xanh 0", picture("game-1-2-blue.png"),
        f"  [gửi an] Binh đã đi 1... Tf8 trong ván #1 (Cờ Tư Lệnh). {YOUR_TURN}"])
    assert await an("as An") == "Bạn là An. Đến lượt bạn đi trong ván #1."
    assert await an("board #1 1.") == "\n".join([
        "Ván #1: An (Đỏ) đấu với Binh (Xanh), Cờ Tư Lệnh, 3 ngày mỗi nước. Đến lượt An (đến "
        "12:00 UTC 5/3/2026).",
        AFTER_TF5,
        "Đến lượt Xanh, nước thứ 1. Điểm tiêu diệt: Đỏ 0 · Xanh 0",
        picture("game-1-1-red.png")])
    assert await an("moves f5") == "\n".join([
        "T ở f5: 6 nước đi: T&g5 Te5 Tf3 Tf6 Tf7 Tff4",
        TANK_ON_F5,
        "Đến lượt Đỏ, nước thứ 2. Điểm tiêu diệt: Đỏ 0 · Xanh 0",
        picture("game-1-2-red-f5-fd4933.png")])
    assert await an("games") == (
        "Các ván đang chơi:\n"
        "  #1 An đấu với Binh (Cờ Tư Lệnh), đến lượt An (đến 12:00 UTC 5/3/2026)")


PLAYERS = ["Alice", "bob", "commander"]  # names, and the variant's word in `rules commander`


@pytest.mark.sqlite_only(reason="console words only")
async def test_no_answer_of_the_console_or_its_commands_bypasses_the_catalogue(
        service, settings, pseudo, monkeypatch, tmp_path):
    monkeypatch.setenv("LANG", "qps")
    keyboard = Keyboard(service, settings)
    said = []
    for line in ["as Alice", "help", "help board", "help as", "help export", "help a b",
                 "help nothing", "variants", "games", "challenges", "rules", "challenge",
                 "challenge bob clash zzz", "vacation x", "vacation 0", "digest", "digest on",
                 "rating", "leaderboard", "challenge bob commander red 3d", "challenges",
                 "as bob", "accept", "as Alice", "moves", "moves f4", "moves z9",
                 "board #1 x", "board #1 2", "move board", "games x", "note", "forecast",
                 "Tf5", "as bob", "Tf8", "as Alice", "board #1 1.", "board", "games",
                 "draw", "takeback", "as bob", "takeback decline", "draw decline",
                 "vacation 30", "back", f"export #1 {tmp_path / 'game.txt'}", "export a b",
                 "export -x", "import x", f"import {tmp_path} vs bob", "quit now",
                 "as computer", "as", "\x1b[A", "resign", "rating commander",
                 "leaderboard commander"]:
        said.append(await keyboard(line))
    text = "\n".join(said)
    # a record exported is data, not words: its tags and its moves are what they are
    record = text[text.index('[Event "'):text.index("\n\n*\n") + 4]
    text = text.replace(record, "")
    words = keyboard.console.commands.words() + ["as", "import", "quit", "NAME", "FILE"]
    assert i18n.untranslated(text, allowed=PLAYERS + words) == []


@pytest.mark.sqlite_only(reason="the host's words only")
def test_the_hosts_outbox_is_listed_in_the_systems_language(
        settings, capsys, offered, vietnamese_system):
    from bot.__main__ import main

    from .test_outbox_cli import _stuck_game

    asyncio.run(_stuck_game(settings))
    db = ["--db", str(settings.db_path)]
    assert main(["outbox", *db, "--failed"]) == 0
    assert capsys.readouterr().out == (
        "#1 console gửi bob challenge, 3 lần thử, thất bại lúc 2026-03-02 16:00 UTC: 550 User "
        "unknown\n")
    assert main(["outbox", "retry", "--failed", *db]) == 0
    assert capsys.readouterr().out == "1 thông báo sẽ được gửi lại ngay.\n"
    assert main(["outbox", "prune", *db]) == 0
    assert capsys.readouterr().out == "Đã xóa 0 thông báo đã gửi cũ hơn 7 ngày.\n"
    assert main(["nonsense"]) == 2
    assert capsys.readouterr().err == (
        "commandpost: không có lệnh 'nonsense'; `commandpost --help` liệt kê các lệnh.\n")


@pytest.mark.sqlite_only(reason="SQLite's own checks")
def test_the_hosts_database_check_speaks_the_systems_language(
        settings, capsys, offered, vietnamese_system):
    from bot.__main__ import main

    from .test_outbox_cli import _stuck_game

    asyncio.run(_stuck_game(settings))
    assert main(["db", "check", "--db", str(settings.db_path)]) == 0
    assert capsys.readouterr().out == (
        "integrity_check: ổn\n"
        "các bảng: đúng như mong đợi\n"
        "đã đi lại 1 ván: tất cả đều nguyên vẹn\n")


@pytest.mark.sqlite_only(reason="console words only")
async def test_a_clock_refused_by_a_message_is_worded_in_the_readers_language(
        session, offered, monkeypatch):
    """The clock's refusals (bot.service.clock) carry their message: the sentence is made
    of its words in the reader's language."""
    import bot.commands

    def refuse(words: list[str], days: int | None) -> None:
        raise ValueError(i18n._("no such file"))  # any message of the catalogue

    monkeypatch.setattr(bot.commands, "parse_time_control", refuse)
    assert await session("challenge bob 3d+1d") == "No such file."
    await session("language vi")
    assert await session("challenge bob 3d+1d") == "Không có tệp đó."
