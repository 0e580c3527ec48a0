"""Peak memory: tracemalloc in this process, peak RSS in a fresh child."""
