"""A training run's state in `runs/<name>/`, so that the same command run again resumes a killed run.

    config.json, vocab_*.txt   the run's config and vocabularies: a resumed run keeps them
    history.csv                one row per finished epoch
    backup/                    weights, optimizer state and epoch count of the last finished epoch
                               (Keras removes it when the run finishes)
    best.weights.h5, epoch_NNN.weights.h5   the weights `selection` chooses from
    logs/                      TensorBoard

What a kill loses is the epoch under way, never more.
"""

import csv
import logging
import os
import shutil
import time
from pathlib import Path

import keras

from translator import model_dir
from translator.config import Config
from translator.text.pipeline import TextPipeline
from translator.training import selection

logger = logging.getLogger(__name__)

HISTORY_FILE = "history.csv"
# Fields a resumed run may change: how long it goes on and how its weights are chosen, not the model or data.
RESUMABLE_CHANGES = ("epochs", "early_stopping_patience", "bleu_sentences", "average_last")


def directory(runs_dir, name, strategy):
    """Where this process keeps the run `name`. Every worker keeps its own state (a restarted worker
    must resume at the chief's epoch): the chief's is the run's, the others' sit beside it, as they
    would on their own machines."""
    chief = strategy.extended.should_checkpoint
    return Path(runs_dir) / (name if chief else f"{name}.worker-{strategy.cluster_resolver.task_id}")


def prepare(config, run_dir, splits, start_from=None):
    """Reuses the vocabularies of an interrupted run of the same config, else those of the
    model directory `start_from`, else learns them from the training split."""
    saved_config = run_dir / model_dir.CONFIG_FILE
    if saved_config.is_file():
        previous = Config.from_json(saved_config)
        changes = {field: getattr(config, field) for field in RESUMABLE_CHANGES}
        if previous.replace(**changes) == config.replace(
            source_vocab_size=previous.source_vocab_size, target_vocab_size=previous.target_vocab_size
        ):
            logger.info("resuming the run in %s", run_dir)
            return TextPipeline.load(run_dir, previous), previous.replace(**changes)
        logger.info("%s holds a run with another config: starting afresh", run_dir)
        shutil.rmtree(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    if start_from:
        pipeline = TextPipeline.load(start_from, config)
    else:
        logger.info("learning vocabularies from the training split...")
        english, spanish = zip(*dict.fromkeys(splits["train"]))  # a source weighed twice counts once
        pipeline = TextPipeline.adapt(config, english, spanish)
    config = config.replace(
        source_vocab_size=len(pipeline.source_vocabulary), target_vocab_size=len(pipeline.target_vocabulary)
    )
    pipeline.save(run_dir)
    config.to_json(saved_config)
    return pipeline, config


def read_history(path):
    """The rows of a run's `history.csv` (one per finished epoch), or [] before the first."""
    if not path.is_file():
        return []
    with path.open() as handle:
        return list(csv.DictReader(handle))


class EpochTimer(keras.callbacks.Callback):
    """Adds each epoch's wall time to the logs, so CSVLogger records it."""

    def on_epoch_begin(self, epoch, logs=None):
        self.start = time.perf_counter()

    def on_epoch_end(self, epoch, logs=None):
        logs["seconds"] = time.perf_counter() - self.start


def fit(model, config, run_dir, train_ds, val_ds, chooser, callbacks=()):
    """Fits `model` for the epochs the run in `run_dir` has left, backing up every epoch; `chooser` (see
    `selection.checkpoint`) keeps weights, `callbacks` join the standard ones. A finished run is not fitted again."""
    history = read_history(run_dir / HISTORY_FILE)
    # Keras deletes the backup when fit ends: a run with epochs and no backup has finished.
    if history and not (run_dir / "backup").exists():
        logger.info(
            "the run in %s finished after %d epochs: writing its model again (to train it longer, "
            "start from the model: translator train --from DIR --epochs N)", run_dir, len(history)
        )
        return
    monitor, mode = selection.monitored(config)
    model.fit(
        train_ds,
        validation_data=val_ds,
        epochs=config.epochs,
        steps_per_epoch=config.steps_per_epoch,
        callbacks=[
            # Two backups: a process killed while writing one resumes from the one before.
            keras.callbacks.BackupAndRestore(str(run_dir / "backup"), double_checkpoint=True),
            EpochTimer(),
            chooser,
            keras.callbacks.EarlyStopping(monitor=monitor, mode=mode, patience=config.early_stopping_patience),
            keras.callbacks.TensorBoard(str(run_dir / "logs")),
            keras.callbacks.CSVLogger(str(run_dir / HISTORY_FILE), append=True),
            *callbacks,
        ],
        shuffle=False,  # the dataset shuffles itself
        verbose=1 if os.environ.get("CI") is None else 2,
    )
