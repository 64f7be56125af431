"""The project stands alone: no tracked file names a folder outside the repository or an
absolute path of somebody's machine (the rules live in ``docs/rules/``)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# a machine path: one of these roots right after a quote, space, bracket, = or line start,
# so URLs (https://host/home/...) and words (homework/...) are not caught
MACHINE_PATH = re.compile(r"(?:^|(?<=[\s\"'`(=:,\[]))/(?:work|home|root|tmp|Users|mnt)/",
                          re.M)
OUTSIDE = re.compile(r"\.\./+shared")


def tracked_files() -> list[Path]:
    """The repository's tracked files (every file but .git and .venv when git is absent)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout
        return [ROOT / name for name in out.decode().split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "__pycache__"}
        return [p for p in ROOT.rglob("*")
                if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]


def offenders(files: list[Path], root: Path = ROOT) -> list[str]:
    found = []
    for path in files:
        if not path.is_file():
            continue  # deleted in the work tree, not yet in the index
        data = path.read_bytes()
        if b"\0" in data:
            continue  # pictures and other binary files
        text = data.decode("utf-8", errors="replace")
        for k, line in enumerate(text.splitlines(), start=1):
            if MACHINE_PATH.search(line) or OUTSIDE.search(line):
                found.append(f"{path.relative_to(root)}:{k}: {line.strip()[:90]}")
    return found


def test_no_tracked_file_names_a_machine_path_or_a_folder_outside() -> None:
    files = tracked_files()
    assert len(files) > 100
    assert offenders(files) == []


def test_the_check_catches_what_it_is_for(tmp_path: Path) -> None:
    def machine(root: str, rest: str) -> str:  # built, so that this file names none itself
        return f"/{root}/{rest}"

    caught = [f'see "{machine("work", "shared/rules/clash.md")}"',
              f"rules: {machine('home', 'ann/x.md')}", "``.." + "/shared/a``",
              f"open('{machine('tmp', 'out.png')}')", f"cd {machine('root', 'x')}"]
    passed = ["https://example.org/home/index.html", "homework/tmp/", "docs/rules/clash.md",
              "a tmp_path / 'x.png'", "COMMANDPOST_DB=/data/commandpost.db"]
    for k, line in enumerate(caught + passed):
        (tmp_path / f"{k}.txt").write_text(line)
    files = sorted(tmp_path.iterdir(), key=lambda p: int(p.stem))
    assert [f.split(":")[0] for f in offenders(files, tmp_path)] == [
        f"{k}.txt" for k in range(len(caught))]
