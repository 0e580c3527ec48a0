"""An algorithm in a process of its own, its moves streamed and judged."""
