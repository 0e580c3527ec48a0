"""Benchmarks: time, peak memory and instructions per move across n, growth fits, reports and the regression gate.

Every figure drains an algorithm through one consumer, which reads every move
(:mod:`.consume`), at sizes of the same work for every puzzle (:mod:`.plan`).
One module per concern, grouped in folders:

* :mod:`.session`: one ``hanoi bench`` or ``hanoi report`` from start to end (what to measure, the
  quick baseline first, the C reference last, the set written); the commands call it;
* :mod:`.plan`: the settings of a full and a quick run, the n each algorithm is measured at (equal work);
* :mod:`.run`: one measuring run, phase by phase, into a result set;
* :mod:`.check`: every measured (algorithm, n) checked first, in child processes;
* :mod:`.consume`: the one consumer, every move folded into the digest;
* :mod:`.timing.measure` and :mod:`.timing.driver`: time with pytest-benchmark; :mod:`.timing.figures`: a case's figures
  (statistics, the 95% interval of the median, the stability flag, kept rounds), with :mod:`.timing.stats`;
* :mod:`.timing.noise`: interleaved timing and the noise floor (the reference against itself);
* :mod:`.memory.measure` and :mod:`.memory.child`: tracemalloc peak in-process, peak RSS in a fresh child;
* :mod:`.counts.measure` (with :mod:`.counts.child` and :mod:`.counts.cachegrind`): instructions per move under
  valgrind; :mod:`.counts.figures`: the record of one algorithm's counts;
* :mod:`.commands`: other programs (``--command``) checked, timed and their peak RSS measured;
* :mod:`.peers`: other packages' solvers (``--peers``) against ours in a set of their own, head to head, and
  the tables of who is faster;
* :mod:`.results.fit`: growth classes fitted from the measurements;
* :mod:`.results.environment`: what the figures depend on (machine, interpreter, numpy, valgrind, the code's
  version and commit), and which metrics two environments let a comparison use;
* :mod:`.results.resultset`: the versioned ``results.json``, read back with every value checked
  (:mod:`.results.schema` reads each record, :mod:`.results.validate` is bounded, strict reading of JSON);
* :mod:`.results.outdir`: the output directory, taken only when it is a result set of ours, claimed before
  measuring and replaced in one step;
* :mod:`.report.render`: every view rendered from ``results.json`` alone: :mod:`.report.summary` (the ranked
  summary), :mod:`.report.tables` (Markdown and CSV), :mod:`.report.plots` (PNG), :mod:`.report.readme` (README.md and
  tables.md from the Jinja2 templates in ``report/templates/``), with :mod:`.report.formatting` for units;
* :mod:`.gate.compare`: the regression gate: :mod:`.gate.counts` (instructions per move and tracemalloc peaks,
  deterministic) and :mod:`.gate.times` (times relative to the reference, tested).

``cref`` (the C speed reference, source in ``c/hanoi_ref.c``), ``scaling`` (segmented verification's
speed-up) and ``calibrate`` (the measurements behind the gate's threshold) are run as modules.
"""
