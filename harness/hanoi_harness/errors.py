"""The one exception the command line turns into exit status 2."""


class UsageError(Exception):
    """Bad input from the user: an unknown name, a bad n, a broken plugin."""
