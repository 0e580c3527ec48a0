"""``python -m hanoi_harness``: the same as the ``hanoi`` command."""

from hanoi_harness.cli.main import run

if __name__ == "__main__":
    run()
