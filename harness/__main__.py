"""``python -m harness``: the same as the ``hanoi`` command."""

from harness.cli import run

if __name__ == "__main__":
    run()
