"""Outputs that never replace what the user has unless asked (`--overwrite`), and replace it whole.

Example:

    with new_directory("exports/en-es", overwrite=False) as folder:
        write_the_export(folder)    # "exports/en-es" appears only once this succeeds
"""

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

from translator.errors import UsageError
from translator.files.lines import umask


class OutputExistsError(UsageError):
    """The output is already there and `--overwrite` was not given; the message says so in one line."""


def refuse_existing(path, overwrite=False):
    """Raises `OutputExistsError` if `path` exists (an empty folder excepted) and `overwrite` is false."""
    path = Path(path)
    empty_folder = path.is_dir() and not any(path.iterdir())
    if (path.exists() or path.is_symlink()) and not empty_folder and not overwrite:
        raise OutputExistsError(f"{path} exists: pass --overwrite to replace it")


@contextlib.contextmanager
def new_directory(path, overwrite=False):
    """Yields an empty folder beside `path` that replaces `path` (and all it held) when the block succeeds.

    An existing `path` is refused unless `overwrite` (see `refuse_existing`);
    on any error the new folder is removed and `path` stays as it was.
    """
    refuse_existing(path, overwrite)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent))
    try:
        yield folder
        os.chmod(folder, 0o777 & ~umask())  # mkdtemp's folder is private; give it a plain mkdir's mode
        if path.is_dir() and not path.is_symlink():
            # Out of the way first: a folder cannot be renamed over one that is not empty.
            old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old", dir=path.parent))
            os.replace(path, old / path.name)
            os.replace(folder, path)
            shutil.rmtree(old)
        else:
            if path.exists() or path.is_symlink():
                path.unlink()
            os.replace(folder, path)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise

