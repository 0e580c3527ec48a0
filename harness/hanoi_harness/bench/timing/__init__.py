"""Wall time: pytest-benchmark runs, their statistics and the machine's noise floor."""
