"""Every view of a result set: tables, plots and Markdown, rendered from ``results.json``."""
