"""A trained model on disk: `saved_models/<name>/`.

    model.keras      the Transformer (weights and architecture, no optimizer state)
    config.json      the Config it was built from
    vocab_en.txt     English vocabulary, one token a line
    vocab_es.txt     Spanish vocabulary
    truecase.tsv     lower-cased word <TAB> its usual casing
    words_en.txt     English word <TAB> its count in the training split (see `text.verbatim`)
    words_es.txt     every lower-cased Spanish word of the training split (see `text.rerank`)
    shortlist.tsv    each English piece's likely Spanish pieces in the training split (see `model.shortlist`)
    names.tsv        each English name of the training split and the Spanish words that say it (see `text.name_forms`)
    metrics.json     training history and, after `evaluate`, the scores

A directory is written whole (`writing`): beside its place, renamed into it
when complete, and never over a model unless asked to. A finished run's, with
the word lists of its training split, is written by `training.train.write_model`.
"""

import json
from pathlib import Path

import keras

from translator.config import Config
from translator.files import outputs
from translator.model import layers  # noqa: F401  (registers the layers for loading)
from translator.model.transformer import in_dtype
from translator.model_files import (
    CONFIG_FILE,
    HOW_TO_MAKE,
    METRICS_FILE,
    MODEL_FILE,
    ModelDirError,
    check_free,
    require_model,
)
from translator.text.pipeline import TextPipeline


def writing(directory, overwrite=False):
    """`outputs.new_directory` for a model: an empty directory to write the model into, which becomes
    `directory` when the block ends without error, refused if `directory` holds a model (`check_free`).

    Example:

        with model_dir.writing("saved_models/mine") as partial:
            model_dir.save(partial, model, pipeline, config)
    """
    check_free(directory, overwrite)
    return outputs.new_directory(directory, overwrite=True)


def save(directory, model, pipeline, config, bfloat16=False):
    """Writes the model's files into `directory`. `bfloat16`: its weights stored in bfloat16, half the file, as
    a recipe keeps its stages in the repository (`recipe.keep`); `load` reads them back into float32."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    # A fresh copy without the optimizer: Adam's two moment tensors would
    # triple the file, and inference never needs them.
    clean = in_dtype(model, "bfloat16" if bfloat16 else "float32", config)
    clean.save(directory / MODEL_FILE)
    config.to_json(directory / CONFIG_FILE)
    pipeline.save(directory)


def load(directory):
    """Returns `(model, pipeline, config)`, or raises `ModelDirError` naming the path."""
    directory = Path(directory)
    require_model(directory)
    try:
        config = Config.from_json(directory / CONFIG_FILE)
        model = keras.saving.load_model(directory / MODEL_FILE, safe_mode=True, compile=False)
        if model.dtype_policy.variable_dtype != "float32":  # kept in bfloat16 (`save`): trained and run in float32
            model = in_dtype(model, "float32")
        pipeline = TextPipeline.load(directory, config)
    except Exception as error:  # any unreadable part makes the whole directory unusable
        raise ModelDirError(f"the model at {directory} is corrupt or incomplete ({error}); {HOW_TO_MAKE}") from None
    return model, pipeline, config


def read_metrics(directory):
    path = Path(directory) / METRICS_FILE
    return json.loads(path.read_text()) if path.is_file() else {}


def last_run(directory):
    """The training record of the last run behind the model in `directory` ({} if none):
    for a mean of models (`translator average`), that of its newest part."""
    training = read_metrics(directory).get("training", {})
    while "averaged" in training:
        training = training["averaged"][-1]
    return training


def update_metrics(directory, **sections):
    metrics = read_metrics(directory)
    metrics.update(sections)
    (Path(directory) / METRICS_FILE).write_text(json.dumps(metrics, indent=2, ensure_ascii=False) + "\n")
