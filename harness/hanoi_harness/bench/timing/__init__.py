"""Wall time: pytest-benchmark runs, their statistics and the noise floor."""
