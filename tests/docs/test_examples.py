"""The example plugins of ``docs/examples/`` do as the debugging page says."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import ROOT

PAGE = (ROOT / "docs" / "guide" / "debugging.md").read_text("utf-8")


def hanoi(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hanoi_harness", *argv], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_what_a_variant_prints_goes_to_stderr_and_the_moves_stay_exact() -> None:
    done = hanoi("moves", "chatty", "10", "--binary", "--plugin", "docs/examples/chatty.py:chatty")
    assert done.returncode == 0 and len(done.stdout.encode("latin-1")) == 3 * 1023
    assert done.stderr.count("moving") == 1023
    verified = hanoi("verify", "chatty", "--n", "10", "--plugin", "docs/examples/chatty.py:chatty")
    shown = verified.stderr.splitlines()
    assert shown[:2] == ["chatty: moving (1, 0, 1)", "chatty: moving (2, 0, 2)"] and shown[-1] in PAGE


def test_a_crash_and_an_illegal_move_are_reported_as_the_page_shows() -> None:
    crash = hanoi("moves", "crashes", "3", "--plugin", "docs/examples/crashes.py:crashes")
    illegal = hanoi("moves", "buggy", "3", "--plugin", "docs/examples/buggy.py:buggy")
    for done in (crash, illegal):
        assert done.returncode == 1 and done.stdout == "1 0 2\n" and done.stderr.strip() in PAGE
