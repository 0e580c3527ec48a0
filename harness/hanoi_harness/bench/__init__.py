"""Benchmarks: time, peak memory and instructions per move across n, growth fits, reports and the regression gate.

Every figure drains an algorithm through one consumer, which reads every move
(:mod:`._consume`), at sizes of the same work for every puzzle (:mod:`._plan`).
One private module per concern:

* :mod:`._session`: one ``hanoi bench`` or ``hanoi report`` from start to end (what to measure, the
  quick baseline first, the C reference last, the set written); the commands call it;
* :mod:`._plan`: the settings of a full and a quick run, the n each algorithm is measured at (equal work);
* :mod:`._run`: one measuring run, phase by phase, into a result set;
* :mod:`._check`: every measured (algorithm, n) checked first, in child processes;
* :mod:`._consume`: the one consumer, every move folded into the digest;
* :mod:`._measure` and :mod:`._driver`: time with pytest-benchmark; :mod:`._timing`: a case's figures
  (statistics, the 95% interval of the median, the stability flag, kept rounds), with :mod:`._stats`;
* :mod:`._noise`: interleaved timing and the noise floor (the reference against itself);
* :mod:`._memory` and :mod:`._rss_child`: tracemalloc peak in-process, peak RSS in a fresh child;
* :mod:`._counts` (with :mod:`._count_child` and :mod:`._cachegrind`): instructions per move under
  valgrind; :mod:`._instructions`: the record of one algorithm's counts;
* :mod:`._external`: other programs (``--command``) checked, timed and their peak RSS measured;
* :mod:`._peers`: other packages' solvers (``--peers``) against ours in a set of their own, head to head, and
  the tables of who is faster;
* :mod:`._fit`: growth classes fitted from the measurements;
* :mod:`._environment`: what the figures depend on (machine, interpreter, numpy, valgrind, the code's
  version and commit), and which metrics two environments let a comparison use;
* :mod:`._results`: the versioned ``results.json``, read back with every value checked
  (:mod:`._schema` reads each record, :mod:`._validate` is bounded, strict reading of JSON);
* :mod:`._outdir`: the output directory, taken only when it is a result set of ours, claimed before
  measuring and replaced in one step;
* :mod:`._report`: every view rendered from ``results.json`` alone: :mod:`._summary` (the ranked
  summary), :mod:`._tables` (Markdown and CSV), :mod:`._plots` (PNG), :mod:`._readme` (README.md and
  tables.md from the Jinja2 templates in ``templates/``), with :mod:`._format` for units;
* :mod:`._compare`: the regression gate: :mod:`._gate` (instructions per move and tracemalloc peaks,
  deterministic) and :mod:`._timecheck` (times relative to the reference, tested).

``cref`` (the C speed reference, source in ``c/hanoi_ref.c``), ``scaling`` (chunked verification's
speed-up) and ``calibrate`` (the measurements behind the gate's threshold) are run as modules.
"""
