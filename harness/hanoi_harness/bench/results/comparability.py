"""Which figures two environments let a comparison use, and why not.

Each kind of figure depends on something different:

* **instructions per move** (valgrind) depend on the code that runs, down to
  the machine code: the Python build (version, compiler, build options), numpy
  for an algorithm that runs it (the chunked consumer and ``blocks`` do), the C
  library (its string and memory routines) and the architecture, and on
  valgrind, which decodes them.  Not on the load, nor on the CPU's speed;
* **tracemalloc peaks** depend on the sizes of Python's objects and on what
  numpy allocates: the Python version and build, numpy (for an algorithm that
  runs it) and the architecture (the size of a pointer);
* **times** depend on all of that and on the machine: its CPU, its number of
  cores and how loaded it was;
* **relative times** (an algorithm's time over the reference's in the same
  run) cancel the machine's speed, but not its caches, nor the interpreter.

:func:`comparable` applies those rules to two
:class:`~hanoi_harness.bench.results.environment.Environment` records and
says for each metric whether a comparison may use it, and why not.  Whether
an algorithm runs numpy is what its own process showed
(:attr:`hanoi_harness.bench.results.resultset.AlgorithmResult.runs_numpy`):
numpy loaded there, or not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hanoi_harness.bench.results.environment import Environment

METRICS = ("instructions", "tracemalloc", "time", "relative time")
"""The metrics :func:`comparable` judges, in the order it lists them."""


@dataclass(frozen=True)
class Comparability:
    """Whether two environments' *metric* can be compared.

    Also for which algorithms.

    ``reasons`` are differences that forbid comparing the metric for every
    algorithm; ``numpy`` those that forbid it only for an algorithm that runs
    numpy (another numpy cannot change what code that never runs it
    executes); ``unmeasured`` says why a run could not measure it at all (no
    valgrind).  It is comparable when there is none of them; ``notes`` are
    differences that do not forbid the comparison but a reader should know.
    """

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

        Here is on this metric; the algorithm *runs_numpy* (None: not known).

        >>> found = Comparability("tracemalloc", numpy=("numpy differs (2.3.5, then 2.4.6)",))
        >>> found.forbids(False), found.forbids(None)
        ((), ('numpy differs (2.3.5, then 2.4.6)',))
        """
        return self.reasons + (self.numpy if runs_numpy is not False else ())

    def describe(self) -> str:
        """Return one line: the metric, whether it is compared, and why.

        It names the algorithms it is compared for.

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
    """Why *old* and *new* differ in *fields* ((attribute, what it is) pairs).

    "what differs (old, then new)".
    """
    found = []
    for name, what in fields:
        before, after = getattr(old, name), getattr(new, name)
        if before != after:
            found.append(f"{what} differs ({before or 'unknown'}, then {after or 'unknown'})")
    return found


def comparable(old: Environment, new: Environment) -> tuple[Comparability, ...]:
    """Return, for each metric of :data:`METRICS`, whether two runs compare.

    The runs are those of environments *old* and *new*.

    Another numpy forbids a metric only for the algorithms that run numpy
    (:attr:`Comparability.numpy`); a run without valgrind measured no counts
    (:attr:`Comparability.unmeasured`).

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
