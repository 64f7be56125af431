"""Every test has a time limit (pytest-timeout, from the test extras): a test that hangs,
an event stream left open say, fails with its stack instead of stopping the suite."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_suite_runs_with_a_limit_per_test(pytestconfig: pytest.Config) -> None:
    assert pytestconfig.pluginmanager.hasplugin("timeout")
    assert pytestconfig.getini("timeout") == "300"


def test_a_test_that_hangs_fails_at_the_limit(tmp_path: Path) -> None:
    (tmp_path / "test_hangs.py").write_text(textwrap.dedent("""
        import asyncio

        async def test_waits_for_ever():
            await asyncio.Event().wait()

        def test_after_it():
            pass
    """))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-o", "timeout=1", "-o", "asyncio_mode=auto",
                           "-o", "asyncio_default_fixture_loop_scope=function", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "test_waits_for_ever - Failed: Timeout (>1.0s)" in done.stdout
    assert "1 failed, 1 passed" in done.stdout  # the suite went on after it
