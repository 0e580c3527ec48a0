"""The pure core: the puzzle and its rules, and the checker of runs.

It holds the puzzle, its optimal counts, legality, verdicts and the checker.
Nothing here starts a process or touches a file.
"""
