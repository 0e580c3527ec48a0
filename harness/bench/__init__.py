"""Benchmarks: time and peak memory across n, growth fits, reports and the regression gate.

One private module per concern:

* :mod:`._plan`: the settings of a full and a quick run and the n each algorithm is measured at;
* :mod:`._check`: every measured (algorithm, n) checked first, in child processes;
* :mod:`._measure` and :mod:`._driver`: time with pytest-benchmark;
* :mod:`._memory` and :mod:`._rss_child`: tracemalloc peak in-process, peak RSS in a fresh child;
* :mod:`._external`: other programs (``--command``) checked, timed and their peak RSS measured;
* :mod:`._fit`: growth classes fitted from the measurements;
* :mod:`._results`: the versioned ``results.json`` and the atomic write of a results directory;
* :mod:`._report`: tables (Markdown and CSV), plots and ``README.md``, from ``results.json`` alone;
* :mod:`._compare`: two result sets compared on times relative to the reference;
* :mod:`._run`: the phases in order, for :mod:`hanoi_harness._cmd_bench`.
"""
