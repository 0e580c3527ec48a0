"""Every view of a result set, rendered from ``results.json``."""
