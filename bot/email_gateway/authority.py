"""Authority without a key: asking the sender's address to confirm a command, carrying it
out when a reply to that question comes, linking a second address, and keeping private
games private.

`Authority` is part of `EmailGateway` (which provides the service and the address). A
command that needs a key (`mailcommands.KEYED_WORDS`) but came without one is not refused
outright: the answer, mailed to the sender's address, asks to confirm it, and its reply
address carries a one-time key (``play+ok<N>.<token>@…``, valid `CONFIRM_DAYS` days). A
reply to it that says yes (`says_yes`: ``Yes``, ``Yes, thanks``, ``Ja, bitte``, ``Có ạ``,
greetings and a signature around it) carries the command out as its sender; `no` drops
it; anything else leaves it open. A game command is confirmed for the game and move
number it was asked at, so a confirmation that comes after the game has moved on is
refused as stale, like an old key. Where the issue is silent: a reply to a confirmation
is one command, the one asked about; the linked address is confirmed from that address, and the
player is not asked again (they asked, with their key or a confirmation of their own).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from contextvars import ContextVar
from dataclasses import dataclass, replace
from email.message import EmailMessage

from .. import i18n
from ..commands import Commands, Reply
from ..i18n import Text, _, moment, render
from ..service import GameService
from ..service.boundary import game_number, no_such
from ..service.model import Challenge, Game, Player, place_transport
from ..service.results import Reason, Refusal
from ..service.tokens import CONFIRM_DAYS
from ..service.watching import PRIVATE_TRANSPORTS
from .inbound import ConfirmTag, GameTag, Tag
from .mailcommands import LOOKING_WORDS, MAIL_LANGUAGE, TRANSPORT, LinkRequest, watch_link
from .outbound import compose
from .reading import LINE_CHARS, line_fingerprint

MAX_SHOWN = 200  # of a command quoted back in a confirmation request
MAX_STEPS = 12  # the further lines kept with a confirmed move (the steps of a turn)
NO_WORDS = frozenset({"no", "nope", "nein", "non", "nej", "nee", "không", "cancel", "stop"})
# the words a reply that confirms a request begins with (lower case, without punctuation),
# in the languages our players write; what follows them on their line may only be more of
# them or `POLITE` words: "Yes?", "Okay?? who is this", "Ja, nein!", "Có ai đó đã giả mạo
# thư của tôi" or an auto-reply confirm nothing
YES_WORDS = frozenset({
    "yes", "y", "yeah", "yep", "yup", "ok", "okay", "sure", "confirm", "confirmed",
    "ja", "jawohl", "jo", "oui", "sí", "si", "sim", "da", "tak", "ano", "áno", "igen", "kyllä",
    "evet", "có", "vâng", "ừ", "dạ", "да", "так", "ναι", "はい", "是", "是的", "好", "好的",
    "네", "예", "đồng ý", "xác nhận",
})
# the same, said in a sentence: "I confirm", "Ich bestätige", "Tôi xác nhận"
YES_SAYINGS = frozenset({"i confirm", "ich bestätige", "je confirme", "confirmo",
                         "tôi xác nhận"})
# what may follow a yes on its line: thanks, please, "that was me", "go ahead" (lower case,
# words as `_words` splits them; a reply of other words says something else)
POLITE = frozenset({
    "please", "pls", "thanks", "thank you", "thank you very much", "thanks a lot",
    "many thanks", "thx", "ty", "cheers", "please do", "please do it", "do it", "go ahead",
    "of course", "indeed", "absolutely", "definitely", "certainly", "correct",
    "that's right", "that's correct", "that was me", "it was me", "that's me", "it's me",
    "i did", "i sent it", "i sent that", "i did send it", "i confirm", "all good",
    "bitte", "danke", "danke schön", "dankeschön", "vielen dank", "gerne", "gern", "klar",
    "natürlich", "genau", "das war ich", "ich war das", "ich bestätige", "bestätigt",
    "merci", "merci beaucoup", "s'il vous plaît", "s'il te plaît", "svp", "stp",
    "c'est moi", "c'était moi", "c'est bien moi", "bien sûr", "d'accord", "volontiers",
    "je confirme", "confirmé", "allez-y",
    "por favor", "gracias", "muchas gracias", "fui yo", "claro", "vale", "de acuerdo",
    "confirmo", "obrigado", "obrigada", "fui eu", "grazie", "per favore",
    "bedankt", "dank je", "dank u", "graag", "tack", "dziękuję", "proszę", "kiitos",
    "спасибо", "пожалуйста", "дякую", "ありがとう", "お願いします", "谢谢", "감사합니다",
    "ạ", "nhé", "nha", "nhá", "cảm ơn", "cám ơn", "cảm ơn bạn", "xin cảm ơn", "cảm ơn nhiều",
    "đúng", "đúng rồi", "đúng vậy", "là tôi", "đúng là tôi", "chính là tôi", "tôi đã gửi",
    "tôi xác nhận", "được", "làm đi", "👍", "🙂", "😊",
})
# the greetings a reply may begin with, on the line of its yes too ("Hi, yes please")
GREETINGS = frozenset({
    "hi", "hello", "hey", "dear", "good morning", "hallo", "guten tag", "moin", "servus",
    "bonjour", "salut", "hola", "buenos días", "ciao", "olá", "hej", "chào", "xin chào",
    "chào bạn",
})
# the greetings and sign-offs around a reply (a line of only these is no more than that)
COURTESY = GREETINGS | frozenset({
    "best", "regards", "best regards", "kind regards", "warm regards",
    "best wishes", "all the best", "many thanks and best regards", "and", "und", "et", "y",
    "và", "viele grüße", "liebe grüße", "beste grüße", "mit freundlichen grüßen", "grüße",
    "lg", "vg", "mfg", "cordialement", "bien à vous", "amitiés", "bises", "saludos",
    "un saludo", "atentamente", "trân trọng", "thân", "thân ái", "thân mến",
})
PHRASE_WORDS = 5  # the longest phrase of `POLITE`, `COURTESY` and the yes words, in words
YES_LINE_WORDS = 12  # a longer line is more than a yes (or a greeting)
YES_LINE_CHARS = 200  # and so is a line of more characters (read no further)
# punctuation that only ends or separates words (a hyphen or an apostrophe inside a word,
# as in "allez-y" or "c'est", is part of it)
WORD_BREAKS = str.maketrans(dict.fromkeys(",.!;:()[]\"*…。、，！~", " "))
# words that make a short line more than a greeting or a sign-off: a doubt or a refusal
DOUBT_WORDS = frozenset({
    "no", "not", "nope", "never", "wait", "stop", "who", "what", "why", "nein", "nicht",
    "nie", "wer", "non", "pas", "jamais", "qui", "nunca", "quién", "quien", "không",
    "chưa", "ai", "gì", "don't", "didn't", "n't",
})
FILLER_WORDS = 3  # a greeting, a sign-off or a name takes at most this many words
# the players an opponent's lookup made while a challenge is checked (removed if refused)
NAMED: ContextVar[list[int] | None] = ContextVar("NAMED", default=None)


@dataclass(frozen=True)
class Key:
    """A valid key: what it opens, and the player it was sent to."""

    tag: Tag
    player: Player
    game: Game | None = None
    challenge: Challenge | None = None
    stale: bool = False  # the key of a move number the game has left: it opens nothing

    @property
    def bucket(self) -> str:
        """The rate-limit counter of this key (the same for every move number)."""
        owner = (f"g{self.tag.game_id}" if isinstance(self.tag, GameTag)
                 else f"c{self.tag.challenge_id}")
        return f"key:{owner}.{self.player.id}"


@dataclass(frozen=True)
class Confirming(Reply):
    """The answer that asks to confirm a command: its reply address is ``tag``."""

    tag: ConfirmTag | None = None
    language: str | None = None  # the language asked for (`language X`): worded in it


@dataclass(frozen=True)
class Confirmed:
    """A valid reply to a confirmation request: the command it carries out (or the player
    an address is linked to)."""

    number: int
    line: str = ""
    rest: tuple[str, ...] = ()
    game_id: int | None = None
    ply: int = 0
    link: int | None = None  # the player whose second address the sender becomes
    name: str = ""  # the sender's name as the asking mail gave it


class Authority:
    """Confirmations, linked addresses and private games, for the e-mail gateway."""

    service: GameService
    address: str
    commands: Commands

    def worded(self, text: str, reader: Player | None) -> str:
        """``text`` in the language of ``reader`` (who chose one), else of the mail being
        answered (its Content-Language), else English."""
        return render(text, self.commands.language_of(reader, MAIL_LANGUAGE.get()))

    async def unreachable(self, address: str) -> Refusal | None:
        """Why ``address`` may not be mailed unasked (it said `stop`, its mail bounced, or it
        never wrote and was mailed once already), or None."""
        known = await self.service.mail.mail_address(address)
        if known["stopped_at"] is not None:
            return Refusal(Reason.NO_SUCH_PLAYER, _(
                "{address} has asked never to get mail from this service, so I cannot "
                "challenge them.", address=address))
        if known.get("bounced_at") is not None:
            return Refusal(Reason.NO_SUCH_PLAYER, _(
                "Mail to {address} bounced ({reason}), so I cannot challenge them by mail. It "
                "works again once they write to {ours}.", address=address,
                reason=known["bounce_reason"], ours=self.address))
        if known["wrote_at"] is None and known["invited_at"] is not None:
            return Refusal(Reason.NO_SUCH_PLAYER, _(
                "{address} has never written to this service and was mailed a challenge once "
                "already; I mail an address unasked only once. Ask them to write `help` to "
                "{ours} first.", address=address, ours=self.address))
        return None

    async def player_by_address(self, address: str) -> Player | None:
        """The player whose address (or linked second address) ``address`` is; with a
        linked address, the player as writing from it (answers go where the mail came
        from)."""
        found = await self.service.find_player(TRANSPORT, address)
        if isinstance(found, Player) and found.address == address:
            return found
        linked = await self.service.tokens.linked_player(address)
        player = await self.service.get_player(linked) if linked is not None else None
        return replace(player, address=address) if player is not None else None

    async def ask(self, sender: Player, line: str, rest: Iterable[str] = (),
                  game: Game | None = None) -> Reply:
        """The answer to ``line`` sent without a key: a request to confirm it from the
        sender's address (for a game command, at the game's move number now). A new
        address becomes a player, named as the asking mail said, once it confirms."""
        address = sender.address
        command = {"line": line, "rest": list(rest)[:MAX_STEPS], "name": sender.display_name,
                   "game": game.id if game else None, "ply": game.ply if game else 0}
        made = await self.service.tokens.ask_confirmation(address, command)
        if isinstance(made, Refusal):  # too long to keep: asked to send it shorter
            return Reply(self.worded(_("Your command is too long for me to keep while I ask "
                                       "you to confirm it; please send it shorter."), sender),
                         ok=False)
        number, token, expires = made
        # asked for a language: asked back in it, which the asker reads
        asked = asked_language(line)
        language = asked or self.commands.language_of(sender, MAIL_LANGUAGE.get())
        return Confirming(render(_(
            "Please confirm: a mail from {address} asked me for {command}, but it carries no "
            "key of yours (anyone can write a sender's address), so I have not carried it "
            "out yet. To carry it out, reply `yes` to this mail. If you did not send it, "
            "ignore this mail: nothing changes. This request expires {expires}.",
            address=address, command=_asked(line, game.id if game else None),
            expires=moment(expires)), language), ok=False, tag=ConfirmTag(number, token),
            language=asked)

    async def ask_link(self, player: Player, request: LinkRequest) -> Reply:
        """`link ADDRESS` from ``player``: mail ADDRESS a request to confirm (unless it
        may not be mailed, or is some player's own address)."""
        other = request.address
        known = await self.service.find_player(TRANSPORT, other)
        if isinstance(known, Player) and known.address == other or \
                await self.service.tokens.linked_player(other) is not None:
            return Reply(self.worded(_("{address} is a player's address already, so it "
                                       "cannot be linked to you.", address=other), player),
                         ok=False)
        known = await self.service.mail.mail_address(other)
        if known["stopped_at"] is not None:
            return Reply(self.worded(_("{address} has asked never to get mail from this "
                                       "service, so I cannot ask it to confirm. Write `start` "
                                       "to me from it first.", address=other), player),
                         ok=False)
        if known["wrote_at"] is None and known["invited_at"] is not None:
            return Reply(self.worded(_("{address} has never written to this service and was "
                                       "mailed unasked once already; I mail an address unasked "
                                       "only once. Write `help` to me from it first.",
                                       address=other), player), ok=False)
        made = await self.service.tokens.ask_confirmation(other, {"link": player.id})
        if isinstance(made, Refusal):
            return Reply(self.worded(made.template, player), ok=False)
        number, token, expires = made
        await self.service.mail.mark_address(other, "invited_at")
        # the other address is the player's own: asked in the player's language
        language = self.commands.language_of(player, MAIL_LANGUAGE.get())
        text = render(_(
            "{name} <{address}> asks to use this address ({other}) for their games at "
            "{ours}: mail from it would act as them. To agree, reply `yes` to this mail. If "
            "you did not ask for this, ignore this mail: nothing changes, and I will not mail "
            "you unasked again. This request expires {expires}.", name=player.display_name,
            address=player.address, other=other, ours=self.address,
            expires=moment(expires)), language)
        subject = render(_("Please confirm: link this address"), language)
        await self.service.queue_notification(
            TRANSPORT, "answer", text, player_id=None, place="email:mail",
            lane=f"answer:{other}/", payload={"to": other, "subject": subject,
                                              "confirm": [number, token],
                                              "language": language})
        return Reply(request.text)

    async def confirmed(self, sender: str, tag: ConfirmTag,
                        use: bool = True) -> Confirmed | Reply:
        """What a reply to confirmation request ``tag`` carries out, or why nothing (with
        ``use``, the request is used up; else it stays open)."""
        found = await self.service.tokens.confirm(tag.confirmation_id, tag.token, sender, use)
        refused: Text | None = None
        if not isinstance(found, dict | str) or found == "wrong":
            refused = _("Wrong key: the address you wrote to is not that of a confirmation I "
                        "asked of {address}, so I did not carry out anything.", address=sender)
        elif found == "used":
            refused = _("This confirmation was used already: what it asked about was carried "
                        "out once, and is not again.")
        elif found == "expired":
            refused = _("This confirmation has expired (after {days} days), so I did not "
                        "carry out what it asked about. Send the command again for a new one.",
                        days=format(CONFIRM_DAYS, "g"))
        if refused is not None:
            return Reply(self.worded(refused, await self.player_by_address(sender)), ok=False)
        assert isinstance(found, dict)
        if found.get("link") is not None:
            return Confirmed(tag.confirmation_id, link=int(found["link"]))
        return Confirmed(tag.confirmation_id, str(found["line"]),
                         tuple(str(x) for x in found.get("rest") or ()),
                         found.get("game"), int(found.get("ply") or 0),
                         name=str(found.get("name") or ""))

    async def link(self, sender: str, confirmed: Confirmed) -> Reply:
        """Link ``sender`` to the player who asked (a reply to the link request)."""
        assert confirmed.link is not None
        player = await self.service.get_player(confirmed.link)
        known = await self.player_by_address(sender) if player is not None else None
        if player is None or known is not None:
            return Reply(self.worded(_("{address} is a player's address already, so it cannot "
                                       "be linked.", address=sender), known), ok=False)
        await self.service.tokens.link_address(sender, player.id)
        await self.service.mail.clear_stop(sender)
        # the player's own address hears of it, in case the request was not theirs
        unlink = f"`unlink {sender}`"
        await self.service.queue_notification(
            TRANSPORT, "answer", self.worded(_(
                "{address} is linked to you now: mail from it acts as you in your games here. "
                "If you did not ask for this, send {unlink} from this address.",
                address=sender, unlink=unlink), player),
            player_id=None, place="email:mail", lane=f"answer:{player.address}/",
            payload={"to": player.address,
                     "subject": self.worded(_("An address was linked to you"), player)})
        return Reply(self.worded(_("Linked: mail from {address} now acts as {name}. Your keys "
                                   "still come with each mail: reply to the latest mail of a "
                                   "game to play in it, from either address.", address=sender,
                                   name=player.display_name), player))

    async def hidden(self, player: Player, words: list[str]) -> tuple[list[str], Reply | None]:
        """For looking at or watching a game: the words with a watch link replaced by its
        game's number, or the refusal of a private game the sender may not see (worded as
        for a game that does not exist, so it reveals nothing)."""
        if words[0].lower() not in LOOKING_WORDS | {"watch"}:
            return words, None
        shown: list[str] = [words[0]]
        for word in words[1:]:
            link = watch_link(word)
            if link is not None:
                if await self.service.watching.watched_game(*link) is None:
                    return words, Reply(no_such("game", link[0]), ok=False)
                shown.append(f"#{link[0]}")
                continue
            number = game_number(word)
            if number is not None and not await self.may_see(player, number):
                return words, Reply(no_such("game", number), ok=False)
            shown.append(word)
        return shown, None

    async def may_see(self, player: Player, game_id: int) -> bool:
        """Whether ``player`` may see game ``game_id`` without its watch link: any game
        but a private one; a private one as its player or watcher (one that does not exist
        is refused alike, so the answers tell the two apart by nothing)."""
        game = await self.service.game(game_id)
        if game is None:
            return False
        if place_transport(game.place) not in PRIVATE_TRANSPORTS:
            return True
        if not player.id:
            return False
        return game.side_of(player.id) is not None or any(
            w.id == player.id for w in await self.service.rooms.watchers(game_id))

    def confirm_mail(self, to: str, subject: str, text: str, number: int, token: str, *,
                     in_reply_to: str | None, references: tuple[str, ...],
                     message_id: str | None, language: str) -> EmailMessage:
        """A confirmation request, worded in ``language``: its reply address carries the
        one-time key."""
        return compose(self.address, to, subject, text, tag=ConfirmTag(number, token),
                       in_reply_to=in_reply_to, references=references, message_id=message_id,
                       auto="auto-replied" if in_reply_to else "auto-generated",
                       language=language)

    async def forget_named(self, reply: Reply) -> None:
        """After a refused challenge: remove the players its lookup made."""
        named = NAMED.get()
        if named and not reply.ok:
            for player_id in named:
                await self.service.tokens.forget_unused_player(player_id)


def confirmed_key(player: Player, game: Game, confirmed: Confirmed) -> Key:
    """The key a confirmed game command acts with: of the move number it was asked at."""
    return Key(GameTag(game.id, confirmed.ply, f"ok{confirmed.number}"), player, game,
               stale=game.ply != confirmed.ply)


def asked_language(line: str) -> str | None:
    """The shipped language a `language X` command line asks for, or None."""
    words = line.split(maxsplit=2)
    if len(words) != 2 or words[0].lower() != "language":
        return None
    code = words[1].lower()[:i18n.MAX_TAG]
    return code if code in i18n.shipped() else None


def game_number_in(line: str) -> int | None:
    """The first ``#N`` of a command line."""
    return next((n for n in map(game_number, line.split()) if n is not None), None)


def unclear(confirmed: Confirmed, tag: ConfirmTag) -> Confirming:
    """The answer to a reply to a confirmation request that neither confirms nor declines
    it (``Who are you?``, an auto-responder's ``Thanks for your mail``): nothing is carried
    out, and the request stays open under the same reply address."""
    if confirmed.link is not None:
        text = _("I did not link this address: your reply is not a plain `yes`. To confirm, "
                 "reply with just `yes`; if you did not ask for it, reply `no` or ignore this "
                 "mail: nothing changes.")
    else:
        text = _("I did not carry out {command}: your reply is not a plain `yes`. To confirm, "
                 "reply with just `yes`; if you did not ask for it, reply `no` or ignore this "
                 "mail: nothing changes.",
                 command=_asked(confirmed.line, confirmed.game_id))
    return Confirming(text, ok=False, tag=tag)


def _asked(line: str, game_id: int | None) -> str:
    """A command as a confirmation quotes it back: `line`, with its game when the line
    names none."""
    shown = f"`{_shown(line)}`"
    if game_id is None or game_number_in(line) is not None:
        return shown
    return _("{command} (game #{game})", command=shown, game=game_id)


def says_yes(lines: tuple[str, ...]) -> bool:
    """Whether a reply to a confirmation request confirms it: one of its own lines (above
    any quote or signature) is a yes (`_is_yes`: ``Yes``, ``ok!``, ``Yes, thanks``, ``Ja,
    das war ich``, ``Có ạ``, ``Đồng ý``), and every other is a greeting, a sign-off,
    thanks or a name (`_is_filler`: no question, no word of doubt or refusal). So ``Yes?``, a
    yes with ``Who is this? I never sent that.`` below it, or an auto-reply (``Yes`` or
    ``OK`` above "I am out of the office until Monday.") confirm nothing."""
    found = [k for k, line in enumerate(lines[:20]) if _is_yes(line)]
    if len(found) != 1:
        return False
    return all(_is_filler(line) for k, line in enumerate(lines[:20]) if k != found[0]) \
        and len(lines) <= 20


def doubted(said: tuple[str, ...], ours: Collection[str]) -> bool:
    """Whether a reply says anywhere (below a signature, between quotes; not in the lines
    of ours it quotes) a question or a word of doubt or refusal: then its yes is none."""
    for line in said:
        if line_fingerprint(line) in ours:
            continue
        words = [w.strip("!.,:;\"'*-()").lower() for w in line[:LINE_CHARS].split()]
        if "?" in line or "\uff1f" in line or any(w in DOUBT_WORDS or w.endswith("n't")
                                                   for w in words):
            return True
    return False


def _is_yes(line: str) -> bool:
    """Whether ``line`` is a yes: perhaps a greeting (``Hi,``), then a yes word (or ``I
    confirm``), then only more of them and polite words (``Yes, thanks``, ``Yes please!``,
    ``Ja, bitte.``, ``Có ạ, cảm ơn``, ``Oui, c'est moi``), no question. So ``Yes, I got your
    mail and will reply`` or ``Yeah right, nice try`` are no yes. A few words of a line
    looked at a few times each: time linear in the bounded line."""
    if len(line) > YES_LINE_CHARS or "?" in line or "\uff1f" in line:
        return False
    words = _words(line)
    if len(words) > YES_LINE_WORDS:
        return False
    heads = {end for start in _phrase_ends(words, 0, GREETINGS) | {0}
             for end in _phrase_ends(words, start, YES_WORDS | YES_SAYINGS)}
    return any(_made_of(words, head, POLITE | YES_WORDS) for head in heads)


def _is_filler(line: str) -> bool:
    """Whether ``line`` is a greeting, a sign-off, thanks or a name (``Hi,``, ``Viele
    Grüße``, ``Many thanks and best regards,``, ``Alice``), not something said: at most
    `FILLER_WORDS` words, or only words of courtesy; no question, no word of doubt."""
    if len(line) > YES_LINE_CHARS or "?" in line:
        return False
    words = [w.strip("!.,:;\"'*-()").lower() for w in line.split()]
    if not words or any(w in DOUBT_WORDS or w.endswith("n't") for w in words):
        return False
    return len(words) <= FILLER_WORDS or len(words) <= YES_LINE_WORDS and \
        _made_of(_words(line), 0, COURTESY | POLITE)


def _words(text: str) -> list[str]:
    """The words of ``text``, lower case, without the punctuation around them."""
    words = (w.strip("-'\u2013\u2014") for w in text.translate(WORD_BREAKS).lower().split())
    return [w for w in words if w]


def _phrase_ends(words: list[str], start: int, phrases: frozenset[str]) -> set[int]:
    """Where the phrases of ``phrases`` that begin at word ``start`` end."""
    return {end for end in range(start + 1, min(start + PHRASE_WORDS, len(words)) + 1)
            if " ".join(words[start:end]) in phrases}


def _made_of(words: list[str], start: int, phrases: frozenset[str]) -> bool:
    """Whether ``words`` from ``start`` on are a run of ``phrases`` (each word position is
    reached once, and tries at most `PHRASE_WORDS` phrases: linear time)."""
    reached = {start}
    for k in range(start, len(words)):
        if k in reached:
            reached |= _phrase_ends(words, k, phrases)
    return len(words) in reached


def says_no(lines: tuple[str, ...]) -> bool:
    """Whether a reply to a confirmation request declines it: its first line starts with a
    word of refusal (``No! I did not send this`` declines; the words' punctuation is
    ignored)."""
    words = lines[0][:200].split() if lines else []
    return bool(words) and words[0].strip("!?.,:;\"'*").lower() in NO_WORDS


def _shown(line: str) -> str:
    """A command line as quoted back: a watch link's secret left out, and not too long."""
    words = []
    for word in line.split():
        link = watch_link(word)
        words.append(f"{link[0]}-…" if link else word)
    shown = " ".join(words)
    return shown if len(shown) <= MAX_SHOWN else shown[:MAX_SHOWN] + "…"
