"""The ``hanoi`` command: one module per subcommand, and what they share."""
