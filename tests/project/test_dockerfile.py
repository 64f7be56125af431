"""The image writes only where its user may: every file the service writes (the database,
the console's pictures) lies on the image's volume, which that user owns."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WRITTEN = ("COMMANDPOST_DB", "COMMANDPOST_PICTURES")  # settings naming where files go


def test_every_file_the_service_writes_lies_on_the_volume_its_user_owns():
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    [volume] = re.findall(r'^VOLUME \["([^"]+)"\]', text, re.M)
    [user] = re.findall(r"^USER (\S+)", text, re.M)
    assert f"chown {user}:{user} {volume}" in text
    env = dict(re.findall(r"\b(COMMANDPOST_[A-Z_]+)=(\S+)", text))
    assert {name: env.get(name, "").startswith(volume + "/") for name in WRITTEN} == {
        name: True for name in WRITTEN}
