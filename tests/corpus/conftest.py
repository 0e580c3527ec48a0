"""The corpus's programs are other people's code in several languages, run as programs, never imported."""

collect_ignore_glob = ["programs/*"]
