"""The one exception the command line turns into exit status 2.

The command line prints it as one line on stderr.
"""


class UsageError(Exception):
    """Bad input from the user.

    For example an unknown name, an n out of range or a broken plugin.
    """
