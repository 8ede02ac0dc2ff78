"""A progress bar for long jobs on standard error: done of total, time per item, time left.

It is Keras' `Progbar`, drawn on standard error (standard output may carry
the translations) and only where someone watches: when standard error is a
terminal. Piped or redirected, or `shown=False` (`--quiet`), it draws nothing.

Example:

    progress = Progress(24_000, "line")
    progress.update(2_048)    # 2048/24000 ━━━━━━━━━━━━━━━━━━━━ 22s 1ms/line
"""

import contextlib
import sys

import keras


def on_terminal(quiet=False):
    """Whether to show progress: not `quiet`, and standard error is a terminal."""
    return not quiet and sys.stderr.isatty()


class Progress:
    """Items done of `total` (None: unknown, no time left shown), named `unit` ("line", "sentence")."""

    def __init__(self, total, unit, shown=True):
        self._bar = None
        if shown:
            with contextlib.redirect_stdout(sys.stderr):  # Progbar draws on standard output
                self._bar = keras.utils.Progbar(total, unit_name=unit)

    def update(self, done):
        """Shows that `done` items (in all, not since the last update) are done."""
        if self._bar is not None:
            with contextlib.redirect_stdout(sys.stderr):
                self._bar.update(done)
