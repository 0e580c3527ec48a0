"""An algorithm in a process of its own, its moves streamed and judged.

It holds the algorithm's process, Ctrl-C, the move stream and the judge.
"""
