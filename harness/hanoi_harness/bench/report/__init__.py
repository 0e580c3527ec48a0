"""Every view of a result set.

Tables, plots and Markdown, rendered from ``results.json``.
"""
