"""Moves judged legal, as ``hanoi moves`` writes them: text, bytes, digest."""

from __future__ import annotations

import itertools
from typing import Any

from hanoi_harness.core.digest import chunk_digest
from hanoi_harness.core.reference import Run


def _text(rows: Any) -> str:
    return "".join(f"{d} {s} {t}\n" for d, s, t in rows)


BYTE_VALUES = 256  # --binary writes each disk and each peg as one unsigned byte


def binary_refusal(n: int, pegs: int) -> str:
    """Why moves of *n* disks on *pegs* pegs cannot be bytes, or "".

    >>> binary_refusal(255, 256)
    ''
    >>> binary_refusal(300, 3)
    '--binary writes each disk as one byte, so N is at most 255, got 300; write the moves as text'
    """
    most = BYTE_VALUES - 1
    if n > most:
        return f"--binary writes each disk as one byte, so N is at most {most}, got {n}; write the moves as text"
    if pegs > BYTE_VALUES:
        return f"--binary writes each peg as one byte (0 to {most}), and the puzzle has {pegs} pegs; write them as text"
    return ""


class Piece:
    """Moves judged legal: their count, digest, text and bytes."""

    count: int

    def digest(self) -> int:
        raise NotImplementedError

    def text(self) -> str:
        raise NotImplementedError

    def binary(self) -> Any:
        raise NotImplementedError


class RunPiece(Piece):
    """A run of the reference's moves, written from its cached text and bytes."""

    def __init__(self, ran: Run, before: int) -> None:
        self.run, self.before, self.count = ran, before, ran.count

    def digest(self) -> int:
        return self.run.digest(self.before)

    def text(self) -> str:
        return self.run.text

    def binary(self) -> Any:
        return self.run.binary


class RowsPiece(Piece):
    """Single moves as triples of integers, or one large reference move."""

    def __init__(self, rows: list[Any], total: int) -> None:
        self.rows, self.total, self.count = rows, total, len(rows)

    def digest(self) -> int:
        return self.total

    def text(self) -> str:
        return _text(self.rows)

    def binary(self) -> Any:
        return bytes(itertools.chain.from_iterable(self.rows))


class ArrayPiece(Piece):
    """Part of an (m, 3) integer array, judged legal."""

    def __init__(self, rows: Any, before: int, total: int | None = None) -> None:
        self.rows, self.before, self.total, self.count = rows, before, total, len(rows)

    def digest(self) -> int:
        return chunk_digest(self.rows, self.before) if self.total is None else self.total

    def text(self) -> str:
        return _text(self.rows.tolist())

    def binary(self) -> Any:
        import numpy as np

        return np.ascontiguousarray(self.rows, dtype=np.uint8).data.cast("B")


def move_digest(move: tuple[int, int, int], before: int) -> int:
    """Return the digest of *move* alone, made after *before* moves.

    >>> move_digest((1, 0, 2), 0), move_digest((1, 0, 2), 1)
    (11, 22)
    """
    disk, src, dst = move
    return (before + 1) * (9 * disk + 3 * src + dst)
