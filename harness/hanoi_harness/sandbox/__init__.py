"""An algorithm in a process of its own, its moves streamed and judged.

It holds the children, the guardian, Ctrl-C, the move stream and the judge.
"""
