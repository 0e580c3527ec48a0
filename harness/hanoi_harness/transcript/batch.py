"""Grade many outputs at once: one JSON record in, one verdict out."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from hanoi_harness.core.astray import Prefix
from hanoi_harness.core.puzzle import Puzzle, Rule
from hanoi_harness.errors import UsageError
from hanoi_harness.transcript.check import check_lines, describe

RULES: dict[str, Rule] = {"classic": "any", "cyclic": "cyclic", "linear": "linear"}
"""The ``rules`` of a record, as ``hanoi check --rules`` names them."""
CHUNK = 64


def grade(record: str) -> dict[str, Any]:
    """The verdict of one JSON record, as a dict; ``refused`` if unreadable.

    >>> grade('{"id": 7, "n": 1, "text": "A -> C"}')["status"]
    'ok'
    """
    try:
        data = json.loads(record)
        if not isinstance(data, dict) or not isinstance(data.get("text"), str) or type(data.get("n")) is not int:
            raise UsageError('a record is {"id": ..., "n": N, "text": "..."}')
    except (ValueError, UsageError) as exc:
        return {"id": None, "status": "refused", "reason": str(exc)}
    n, out = data["n"], {"id": data.get("id"), "n": data["n"]}
    prefix = Prefix(n) if n <= 60 else None
    try:
        rules = data.get("rules", "classic")
        if rules not in RULES:
            raise UsageError(f"rules must be one of {', '.join(RULES)}, got {rules!r}")
        puzzle = Puzzle(pegs=int(data.get("pegs_count", 3)), rule=RULES[rules])
        classic = puzzle.pegs == 3 and puzzle.rule == "any"
        verdict = check_lines(
            data["text"].splitlines(keepends=True),
            n,
            pegs=data.get("pegs"),
            target=data.get("target"),
            disks=data.get("disks"),
            puzzle=puzzle,
            counter=data.get("counter"),
            read=data.get("read"),
            observe=prefix if classic else None,
        )
    except (UsageError, ValueError) as exc:
        return {**out, "status": "refused", "reason": str(exc)}
    out.update(status=verdict.status, count=verdict.moves, verdict=describe(verdict, n))
    if verdict.step is not None:
        out.update(step=verdict.step, line=verdict.extra.get("line"))
    if prefix is not None and classic:
        out["prefix"] = prefix.length
    return out


def grade_all(records: Iterable[str], workers: int = 1) -> Iterator[dict[str, Any]]:
    """The verdicts of ``records`` in their order, blank lines passed over."""
    lines = (line for line in records if line.strip())
    if workers <= 1:
        yield from map(grade, lines)
        return
    with ProcessPoolExecutor(workers) as pool:
        pending: list[Any] = []
        for line in lines:
            pending.append(line)
            if len(pending) == CHUNK * workers:
                yield from pool.map(grade, pending, chunksize=CHUNK)
                pending = []
        yield from pool.map(grade, pending, chunksize=CHUNK)


class Summary:
    """The verdicts counted by n: how many of each status, and in all.

    >>> s = Summary()
    >>> s.add({"n": 3, "status": "ok"}); s.add({"n": 3, "status": "illegal"})
    >>> s.rows()
    [{'n': 3, 'records': 2, 'ok': 1, 'accuracy': 0.5, 'statuses': {'ok': 1, 'illegal': 1}}]
    """

    def __init__(self) -> None:
        self.by_n: defaultdict[Any, Counter[str]] = defaultdict(Counter)

    def add(self, verdict: dict[str, Any]) -> None:
        """Count ``verdict``."""
        self.by_n[verdict.get("n")][str(verdict["status"])] += 1

    def rows(self) -> list[dict[str, Any]]:
        """One row per n, in order of n (records with no n last)."""
        out = []
        for n in sorted(self.by_n, key=lambda k: (not isinstance(k, int), k if isinstance(k, int) else 0)):
            counts = self.by_n[n]
            total = sum(counts.values())
            out.append({"n": n, "records": total, "ok": counts["ok"], "accuracy": round(counts["ok"] / total, 4)})
            out[-1]["statuses"] = dict(counts)
        return out
