"""The plugin registry: one frozen record per algorithm.

The records come from the tree, from entry points or from plugin files.
"""
