"""The pure core: the puzzle and its rules, and the checker of runs.

Nothing here starts a process or touches a file.  Design notes: docs/project/core.md.
"""
