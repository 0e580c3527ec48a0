"""What the subcommands share: argument types, one-line messages, plugins."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from hanoi_harness.errors import UsageError
from hanoi_harness.registry import DEFAULT_TIMEOUT_S

TYPE_CHECKING = False  # mypy reads it as True; typing itself is left out of a command's start-up
if TYPE_CHECKING:  # the rest is imported where used: a command that needs no registry pays nothing for it
    from typing import Any, NoReturn

    from hanoi_harness.core.puzzle import Config
    from hanoi_harness.registry.record import Algorithm
    from hanoi_harness.registry.sources import Registry


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see '{self.prog} --help')\n")


MAX_DISKS = 64  #: The most disks of a run that must end: 2^64 - 1 moves take 585 years.

MAX_DISKS_REASON = "a run is 2^N - 1 moves, and 2^64 - 1 of them take 585 years at a billion a second"


@contextmanager
def big_numbers() -> Iterator[None]:
    """Lift Python's 4300-digit limit on int <-> str for a while."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(limit)


def non_negative_int(text: str) -> int:
    """Return the integer of any size that *text* spells, if not negative.

    >>> non_negative_int("12")
    12
    >>> non_negative_int("1" * 5000) > 10**4999
    True
    """
    try:
        with big_numbers():
            value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {quote(text)}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {quote(text)}")
    return value


def at_most(limit: int, why: str, what: str = "disks", low: int = 0) -> Any:
    """Make an argparse type for an integer of *what* from *low* to *limit*.

    >>> at_most(64, "why")("12")
    12
    >>> at_most(64, "a run could never finish")("65")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: at most 64 disks, got 65: a run could never finish
    """

    def parse(text: str) -> int:
        if len(text.strip()) > 2 * len(str(limit)) + 8:  # leading zeros and '+' allowed, a long number not
            raise argparse.ArgumentTypeError(f"at most {limit} {what}, got {quote(text, 20)}: {why}")
        value = non_negative_int(text)
        if value < low:
            wanted = "a positive integer" if low == 1 else f"an integer >= {low}"
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {quote(text)}")
        if value > limit:
            raise argparse.ArgumentTypeError(f"at most {limit} {what}, got {value}: {why}")
        return value

    return parse


disks = at_most(MAX_DISKS, MAX_DISKS_REASON)  #: The argparse type of N for ``verify`` and ``bench``.

MAX_STREAMED_DISKS = 10_000  #: The most disks of ``moves``, ``show`` and ``check``, whose runs need not end.

streamed_disks = at_most(
    MAX_STREAMED_DISKS, "the first moves of a larger tower are those of a smaller one with the same parity"
)
"""The argparse type of N for ``moves``, ``show`` and ``check``."""

MAX_WORKERS = 1024  #: The most local worker processes ``hanoi verify --workers`` starts.

workers = at_most(MAX_WORKERS, "each is a process on this machine", "workers", low=1)
"""The argparse type of ``--workers``."""


def positive_int(text: str) -> int:
    """Return the integer *text* spells if it is 1 or more.

    >>> positive_int("2")
    2
    """
    value = non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {quote(text)}")
    return value


def positive_float(text: str) -> float:
    """Return the seconds *text* spells, if finite and greater than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {quote(text)}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {quote(text)}")
    return value


CONFIGURATION_HELP = "the peg of each disk, smallest first, as 'hanoi state' prints it (e.g. 0,1,1); "


def configuration_text(limit: int) -> Any:
    """Make an argparse type for a configuration of at most *limit* disks.

    >>> configuration_text(64)(" 0,1,2 ")
    '0,1,2'
    >>> configuration_text(2)("0,1,2")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: at most 2 disks, got 3 pegs
    """

    def parse(text: str) -> str:
        count = disks_in(text)
        if count > limit:
            raise argparse.ArgumentTypeError(f"at most {limit} disks, got {count} pegs")
        return text.strip()

    return parse


ALGORITHM_ENDS = (
    "for an algorithm that can start elsewhere (the from/to column of 'hanoi list')",
    "the algorithm's final peg",
)
"""Who takes ``--from`` and ``--to``, and the goal they replace."""


def add_ends_options(parser: argparse.ArgumentParser, limit: int, notes: tuple[str, str] = ALGORITHM_ENDS) -> None:
    """Add ``--from`` and ``--to`` to *parser*, at most *limit* disks each."""
    takes, replaced = notes
    parser.add_argument(
        "--from",
        dest="start",
        metavar="PEGS",
        type=configuration_text(limit),
        help="start from this configuration instead of the whole tower on peg 0: " + CONFIGURATION_HELP + takes,
    )
    parser.add_argument(
        "--to",
        dest="goal",
        metavar="PEGS",
        type=configuration_text(limit),
        help=f"end in this configuration instead of the whole tower on {replaced}: "
        + CONFIGURATION_HELP
        + "the moves must then be the fewest from the start to it",
    )


def disks_in(text: str) -> int:
    """Count the disks of the configuration *text*: one peg for each disk.

    >>> disks_in("0,1,1"), disks_in("")
    (3, 0)
    """
    return text.count(",") + 1 if text.strip() else 0


def ends_for(args: argparse.Namespace, algorithm: Algorithm, n: int) -> tuple[Config, Config] | None:
    """Return the start and goal ``--from``/``--to`` ask, or None."""
    if args.start is None and args.goal is None:
        return None
    pegs = algorithm.puzzle.pegs
    start = None if args.start is None else read_config("--from", args.start, pegs, n)
    goal = None if args.goal is None else read_config("--to", args.goal, pegs, n)
    options = "/".join(option for option, text in (("--from", args.start), ("--to", args.goal)) if text is not None)
    try:
        return algorithm.endpoints(n, start, goal)
    except UsageError as exc:
        raise UsageError(f"{options}: {exc}") from None


def read_config(option: str, text: str, pegs: int, n: int) -> Config:
    """Read the configuration *text* of *option* for *n* disks on *pegs* pegs."""
    try:
        from hanoi_harness.core.puzzle import parse_config

        return parse_config(text, pegs, n)
    except UsageError as exc:
        raise UsageError(f"{option}: {exc}") from None


def quote(text: str, limit: int = 40) -> str:
    """Quote *text* as ``repr`` does, cut to *limit* characters.

    >>> quote("abc")
    "'abc'"
    >>> quote("x" * 100, 10)
    "'xxxxxxxxxx'... (100 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def one_line(text: str, limit: int = 400) -> str:
    """Return *text* on one line, at most *limit* characters long.

    >>> one_line("a\\nb\\r\\tc  d")
    'a b c  d'
    >>> len(one_line("x" * 1000))
    400
    """
    flat = _CONTROLS.sub(" ", text[: 4 * limit]).strip()
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def add_plugin_option(parser: argparse.ArgumentParser, *, import_timeout: bool = True) -> None:
    """Add ``--plugin``, and ``--import-timeout`` with *import_timeout*."""
    parser.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="SPEC",
        help="also load the generator function FILE.py:FUNC or package.module:FUNC as an algorithm named FUNC "
        "(repeatable)",
    )
    if import_timeout:
        parser.add_argument(
            "--import-timeout",
            type=positive_float,
            default=DEFAULT_TIMEOUT_S,
            metavar="SECONDS",
            help="how long importing the plugins and installed algorithms may take, in a child process first "
            f"(default {DEFAULT_TIMEOUT_S:g})",
        )


def registry_from(args: argparse.Namespace) -> Registry:
    """The registry for *args*, plugins imported in a child first."""
    from hanoi_harness.cli.streams import algorithm_output  # streams imports this module
    from hanoi_harness.registry.sources import build_registry

    name = getattr(args, "name", None)
    with algorithm_output():
        return build_registry(
            getattr(args, "plugin", []),
            timeout=getattr(args, "import_timeout", None),
            wanted=name if isinstance(name, str) else None,
        )


def algorithm_for(args: argparse.Namespace, n: int | None = None) -> Algorithm:
    """Find the algorithm ``args.name``, checked against *n* disks if given."""
    algorithm = registry_from(args).get(args.name)
    if n is not None:
        algorithm.check_n(n)
    return algorithm


def fail(message: str) -> NoReturn:
    raise UsageError(message)
