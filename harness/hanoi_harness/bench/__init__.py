"""Benchmarks: time, memory, instruction counts, reports and the gate.

Every figure drains an algorithm through one consumer that reads every move
(:mod:`.consume`), at sizes of about the same work for every puzzle
(:mod:`.plan`).  The modules, by concern:

* :mod:`.session`: one ``hanoi bench`` or ``hanoi report`` from start to end.
* :mod:`.plan`: the settings of a full and a quick run, and the n measured.
* :mod:`.run`: one measuring run, phase by phase, into a result set.
* :mod:`.check`: each measured (algorithm, n) checked first, in a child process.
* :mod:`.consume`: the one consumer, every move folded into the digest.
* :mod:`.commands`: other programs (``--command``), checked and measured.
* :mod:`.timing`: wall time with pytest-benchmark, its statistics and the
  noise floor.
* :mod:`.memory`: tracemalloc peak in-process, peak RSS in a fresh child.
* :mod:`.counts`: instructions per move under valgrind's cachegrind.
* :mod:`.results`: ``results.json``, its schema, environment, growth fits
  and output directory.
* :mod:`.report`: every view (tables, plots, Markdown) from ``results.json``.
* :mod:`.gate`: the regression gate, two result sets compared.

The project's own experiments are in the checkout's ``benchmarks/``.
"""
