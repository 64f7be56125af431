"""The `commandpost` command: the main job and the tools around it."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from . import console

    return console.main(argv if argv is not None else sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
