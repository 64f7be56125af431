"""``commandpost catalogue``: the template of every message of the code.

It lists each message that the code gives to `bot.i18n._` or `bot.i18n._n` (and the engine's
phrases, `engine.phrases.said`), with where it
is, in ``bot/locales/commandpost.pot``; translators start each language's ``.po`` files
from it. ``--check`` writes nothing and says whether the template is stale.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import engine

from .. import i18n
from ..i18n import _
from . import say

# the packages whose messages are listed: the bot's, and the engine's phrases
PACKAGES = ((Path(__file__).resolve().parents[1], i18n.KEYWORDS),
            (Path(engine.__file__).resolve().parent, i18n.PHRASES))


def main(argv: list[str]) -> int:
    """Write the template of every message (bot/locales/commandpost.pot).

    commandpost catalogue
    commandpost catalogue --check
    """
    parser = argparse.ArgumentParser(prog="commandpost catalogue", description=main.__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the template is stale")
    args = parser.parse_args(argv)
    if not args.check:
        count = i18n.write_template(PACKAGES)
        say(_("wrote {path} ({count} messages)", path=str(i18n.TEMPLATE), count=count))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        fresh = Path(folder) / "commandpost.pot"
        i18n.write_template(PACKAGES, fresh)
        now = i18n.TEMPLATE.read_bytes() if i18n.TEMPLATE.is_file() else b""
        if fresh.read_bytes() == now:
            say(_("{path} is up to date", path=str(i18n.TEMPLATE)))
            return 0
    say(_("stale: {path}; write it with `commandpost catalogue`", path=str(i18n.TEMPLATE)))
    return 1
