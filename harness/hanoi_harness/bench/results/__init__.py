"""Result sets: ``results.json``, its schema, its environment and its output directory."""
