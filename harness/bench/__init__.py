"""Benchmarks: time and peak memory across n, growth fits, reports and the regression gate.

One private module per concern:

* :mod:`._session`: one ``hanoi bench`` or ``hanoi report`` from start to end (what to measure, the
  quick baseline first, the C reference last, the set written); the commands call it;
* :mod:`._plan`: the settings of a full and a quick run and the n each algorithm is measured at;
* :mod:`._run`: one measuring run, phase by phase, into a result set;
* :mod:`._check`: every measured (algorithm, n) checked first, in child processes;
* :mod:`._measure` and :mod:`._driver`: time with pytest-benchmark;
* :mod:`._memory` and :mod:`._rss_child`: tracemalloc peak in-process, peak RSS in a fresh child;
* :mod:`._external`: other programs (``--command``) checked, timed and their peak RSS measured;
* :mod:`._fit`: growth classes fitted from the measurements;
* :mod:`._provenance`: the machine and the code (version, commit) the figures came from;
* :mod:`._results`: the versioned ``results.json``, read back with every value checked
  (:mod:`._validate`: bounded, strict reading of JSON);
* :mod:`._outdir`: the output directory, taken only when it is a result set of ours, claimed before
  measuring and replaced in one step;
* :mod:`._report`: every view rendered from ``results.json`` alone: :mod:`._tables` (Markdown and
  CSV), :mod:`._plots` (PNG), :mod:`._readme` (README.md and tables.md from the Jinja2 templates in
  ``templates/``), with :mod:`._format` for units;
* :mod:`._compare`: two result sets compared on times relative to the reference (the gate).

``cref`` (the C speed reference, source in ``c/hanoi_ref.c``) and ``scaling`` (chunked
verification's speed-up) are benchmarks of their own, run as modules.
"""
