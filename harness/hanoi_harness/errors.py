"""The one exception the command line turns into exit status 2 and one line on stderr."""


class UsageError(Exception):
    """Bad input from the user: an unknown name, an n out of range, a broken plugin."""
