"""The plugin registry: one frozen record per algorithm.

The records come from the tree, from entry points or from plugin files.
"""

DEFAULT_TIMEOUT_S = 60.0
"""How long importing the plugins may take, in seconds.

A command's ``--timeout`` or ``--import-timeout`` can say otherwise.
"""
