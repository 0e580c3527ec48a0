"""Result sets: ``results.json``, its schema, environment and directory."""
