"""The plugin registry: one frozen record per algorithm, from the tree, entry points or plugin files."""
