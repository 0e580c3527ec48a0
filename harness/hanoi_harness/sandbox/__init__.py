"""An algorithm in a process of its own: children, the guardian, Ctrl-C, the move stream, the judge."""
