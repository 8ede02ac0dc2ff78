"""The one error type the command line turns into a one-line message.

`UsageError` is a mistake in what the user asked for or gave (a flag, a
file, a model directory, a corpus): `translator` prints its message on one
line and exits with status 2. Any other exception is a bug and keeps its
traceback. It is a `ValueError`, so code calling the library may catch either.
"""


class UsageError(ValueError):
    """What the user asked for cannot be done; the message says why, and how to fix it, in one line."""
