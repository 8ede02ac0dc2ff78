"""A model directory's file names, and the checks of a directory that read no file: whether a model is there.

Imports nothing heavy, so the command line refuses a mistyped --model or --from
at once, not after the seconds TensorFlow takes to import. `model_dir` reads
and writes the files.
"""

from pathlib import Path

from translator.errors import UsageError

MODEL_FILE = "model.keras"
CONFIG_FILE = "config.json"
METRICS_FILE = "metrics.json"
HOW_TO_MAKE = "create it with `make train`"


class ModelDirError(UsageError):
    """The model directory is missing, unreadable or in the way; the message says what to do."""


def require_model(directory, purpose=f": {HOW_TO_MAKE}"):
    """Raises `ModelDirError` unless `directory` holds a model file; `purpose` ends the message."""
    if not (Path(directory) / MODEL_FILE).is_file():
        raise ModelDirError(f"no trained model at {directory}{purpose}")


def check_free(directory, overwrite=False):
    """Raises `ModelDirError` if `directory` holds a model, unless `overwrite`: a trained model is hours of work."""
    if not overwrite and (Path(directory) / MODEL_FILE).exists():
        raise ModelDirError(f"{directory} already holds a model: choose another --name, or --overwrite to replace it")
