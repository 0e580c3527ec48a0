"""What every subcommand shares: argument types, the plugin option, safe output."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

from hanoi_harness.errors import UsageError
from hanoi_harness.registry import Algorithm, Registry, build_registry


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


@contextmanager
def big_numbers() -> Iterator[None]:
    """Lift Python's 4300-digit limit on int <-> str for a while: N and K may be any size."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(limit)


def non_negative_int(text: str) -> int:
    """non_negative_int(text): the integer ``text`` spells, of any size, refusing negatives and non-integers.

    >>> non_negative_int("12")
    12
    >>> non_negative_int("1" * 5000) > 10**4999
    True
    """
    try:
        with big_numbers():
            value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """positive_int(text): an integer >= 1.

    >>> positive_int("2")
    2
    """
    value = non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def positive_float(text: str) -> float:
    """positive_float(text): a number of seconds greater than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def add_plugin_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="SPEC",
        help="also load a generator function as an ad-hoc algorithm: FILE.py:FUNC or package.module:FUNC "
        "(repeatable); it is named after the function",
    )


def registry_from(args: argparse.Namespace) -> Registry:
    return build_registry(getattr(args, "plugin", []))


def algorithm_for(args: argparse.Namespace, n: int | None = None) -> Algorithm:
    """algorithm_for(args, n): the algorithm ``args.name``, checked against n when given."""
    algorithm = registry_from(args).get(args.name)
    if n is not None:
        algorithm.check_n(n)
    return algorithm


def write_lines(lines: Iterable[str]) -> None:
    """write_lines(lines): write to stdout in blocks; a closed pipe (``| head``) ends quietly."""
    out = sys.stdout
    try:
        block: list[str] = []
        for line in lines:
            block.append(line)
            if len(block) >= 4096:
                out.write("".join(block))
                block.clear()
        out.write("".join(block))
        out.flush()
    except BrokenPipeError:
        quiet_stdout()


def write_binary(blocks: Iterable[Any]) -> None:
    """write_binary(blocks): write byte buffers to stdout as they come; a closed pipe ends quietly.

    Each block goes to ``sys.stdout.buffer`` as it is: a buffer larger than
    the writer's own goes straight to the file, with no copy.
    """
    out = sys.stdout.buffer
    try:
        for block in blocks:
            out.write(block)
        out.flush()
    except BrokenPipeError:
        quiet_stdout()


def quiet_stdout() -> None:
    """After the reader of stdout has gone, point stdout at /dev/null so exit does not complain."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def fail(message: str) -> NoReturn:
    raise UsageError(message)
