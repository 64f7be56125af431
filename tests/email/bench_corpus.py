"""`bench/mailcorpus.py` as a module, for the tests that send its corpus over real SMTP."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location(
    "bench_mailcorpus", Path(__file__).resolve().parents[2] / "bench" / "mailcorpus.py")
mailcorpus = importlib.util.module_from_spec(_SPEC)  # type: ignore[arg-type]
sys.modules["bench_mailcorpus"] = mailcorpus
_SPEC.loader.exec_module(mailcorpus)  # type: ignore[union-attr]
