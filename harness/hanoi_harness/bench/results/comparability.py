"""Which figures two environments let a comparison use, and why not."""

from __future__ import annotations

from dataclasses import dataclass, field

from hanoi_harness.bench.results.environment import Environment

METRICS = ("instructions", "tracemalloc", "time", "relative time")  #: What :func:`comparable` judges, in order.


@dataclass(frozen=True)
class Comparability:
    """Whether two environments' *metric* can be compared."""

    metric: str
    reasons: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())
    numpy: tuple[str, ...] = ()
    unmeasured: tuple[str, ...] = ()

    @property
    def comparable(self) -> bool:
        """True when nothing forbids comparing the metric, for any algorithm."""
        return not (self.reasons or self.numpy or self.unmeasured)

    def forbids(self, runs_numpy: bool | None) -> tuple[str, ...]:
        """Return the differences that forbid comparing an algorithm here.

        >>> found = Comparability("tracemalloc", numpy=("numpy differs (2.3.5, then 2.4.6)",))
        >>> found.forbids(False), found.forbids(None)
        ((), ('numpy differs (2.3.5, then 2.4.6)',))
        """
        return self.reasons + (self.numpy if runs_numpy is not False else ())

    def describe(self) -> str:
        """Return one line: the metric, whether it is compared, and why.

        >>> Comparability("time", ("the CPU differs (AMD EPYC, then Intel Xeon)",)).describe()
        'time: not compared: the CPU differs (AMD EPYC, then Intel Xeon)'
        >>> Comparability("tracemalloc", numpy=("numpy differs (2.3.5, then 2.4.6)",)).describe()
        'tracemalloc: compared but for the algorithms that run numpy: numpy differs (2.3.5, then 2.4.6)'
        """
        if self.reasons or self.unmeasured:
            said = "not compared: " + "; ".join(self.unmeasured + self.reasons + self.numpy)
        elif self.numpy:
            said = "compared but for the algorithms that run numpy: " + "; ".join(self.numpy)
        else:
            said = "compared"
        return f"{self.metric}: {said}" + "".join(f" (note: {note})" for note in self.notes)


_SOFTWARE = (("python_build", "the Python build"), ("implementation", "the Python implementation"))
_NUMPY = (("numpy", "numpy"),)
_PLATFORM = (("arch", "the architecture"),)


def _differences(old: Environment, new: Environment, fields: tuple[tuple[str, str], ...]) -> list[str]:
    """Why *old* and *new* differ in *fields* ((attribute, what it is) pairs)."""
    found = []
    for name, what in fields:
        before, after = getattr(old, name), getattr(new, name)
        if before != after:
            found.append(f"{what} differs ({before or 'unknown'}, then {after or 'unknown'})")
    return found


def comparable(old: Environment, new: Environment) -> tuple[Comparability, ...]:
    """Return, for each metric of :data:`METRICS`, whether two runs compare.

    >>> a = Environment("3.11.7", "CPython", "b1", "2.1.0", "glibc 2.36", "x86_64", "Linux", "AMD EPYC", 2,
    ...                 valgrind="valgrind-3.19.0")
    >>> from msgspec.structs import replace
    >>> for line in comparable(a, replace(a, cpu="Intel Xeon")):
    ...     print(line.describe())
    instructions: compared (note: the CPU differs (AMD EPYC, then Intel Xeon): glibc picks its string
    routines by the CPU features valgrind reports)
    tracemalloc: compared
    time: not compared: the CPU differs (AMD EPYC, then Intel Xeon)
    relative time: compared (note: the CPU differs (AMD EPYC, then Intel Xeon): its caches change some
    algorithms' speed relative to the reference)
    """
    cpu = _differences(old, new, (("cpu", "the CPU"),))
    cores = _differences(old, new, (("cores", "the number of cores"),))
    numpy = tuple(_differences(old, new, _NUMPY))
    missing = [f"no valgrind in the {which} run" for which, env in (("old", old), ("new", new)) if not env.valgrind]
    instructions = _differences(old, new, (*_SOFTWARE, ("libc", "the C library"), *_PLATFORM))
    if not missing:
        instructions += _differences(old, new, (("valgrind", "valgrind"),))
    software = tuple(_differences(old, new, (*_SOFTWARE, *_PLATFORM)))
    return (
        Comparability(
            "instructions",
            tuple(instructions),
            tuple(f"{why}: glibc picks its string routines by the CPU features valgrind reports" for why in cpu),
            numpy,
            tuple(missing),
        ),
        Comparability("tracemalloc", software, numpy=numpy),
        Comparability("time", software + tuple(cpu + cores), numpy=numpy),
        Comparability(
            "relative time",
            software,
            tuple(f"{why}: its caches change some algorithms' speed relative to the reference" for why in cpu),
            numpy,
        ),
    )
