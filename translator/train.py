"""Training: tf.data batches bucketed by length, the fit loop, callbacks and strategy.

A run keeps its state in `runs/<name>/` (vocabularies, a backup of every
epoch, the best weights, TensorBoard logs), so a killed run started again with
the same command resumes where it stopped. The finished model is written to
`saved_models/<name>/`.
"""

import csv
import logging
import os
import platform
import shutil
import time
from pathlib import Path

import keras
import numpy as np
import tensorflow as tf

from translator import augment, data, model_dir, rerank, selection, verbatim
from translator.config import ARCHITECTURE_FIELDS, Config
from translator.devices import accelerator, choose_strategy, resolve_auto
from translator.losses import MaskedAccuracy, MaskedCrossEntropy
from translator.model import Transformer, count_parameters
from translator.multi_worker import MultiWorkerFit
from translator.optimizer import make_optimizer
from translator.text import TextPipeline

logger = logging.getLogger(__name__)

# Sentences are short (most under 12 tokens): batches of similar lengths waste
# little compute on padding.
BUCKET_BOUNDARIES = [6, 8, 10, 12, 15, 19]


def vectorize(pipeline, pairs, batch_size=4096):
    """All pairs as two int32 arrays: source ids and target ids (with [start] and [end])."""
    english, spanish = (list(side) for side in zip(*pairs))
    source = [pipeline.source(english[i:i + batch_size]) for i in range(0, len(english), batch_size)]
    target = [pipeline.target(spanish[i:i + batch_size]) for i in range(0, len(spanish), batch_size)]
    return np.concatenate(source).astype("int32"), np.concatenate(target).astype("int32")


def make_dataset(source_ids, target_ids, batch_size, shuffle=False, seed=None):
    """Teacher forcing batches: `({"encoder_inputs", "decoder_inputs"}, labels)`.

    The decoder sees the target shifted right (`[start] a b`) and learns to
    predict it shifted left (`a b [end]`). Batches group sentences of similar
    length and are padded only to their own longest sentence.
    """

    def trim(source, target):
        return source[: tf.math.count_nonzero(source)], target[: tf.math.count_nonzero(target)]

    def teacher_forcing(source, target):
        return {"encoder_inputs": source, "decoder_inputs": target[:, :-1]}, target[:, 1:]

    dataset = tf.data.Dataset.from_tensor_slices((source_ids, target_ids)).map(trim).cache()
    # On several workers, each builds these same batches (same data, same seed) and takes
    # its share of each one: the data is in memory, with no files to share out.
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    dataset = dataset.with_options(options)
    if shuffle:
        dataset = dataset.shuffle(len(source_ids), seed=seed, reshuffle_each_iteration=True)
    dataset = dataset.bucket_by_sequence_length(
        lambda source, target: tf.maximum(tf.shape(source)[0], tf.shape(target)[0]),
        bucket_boundaries=BUCKET_BOUNDARIES,
        bucket_batch_sizes=[batch_size] * (len(BUCKET_BOUNDARIES) + 1),
    )
    return dataset.map(teacher_forcing).prefetch(tf.data.AUTOTUNE)


class EpochTimer(keras.callbacks.Callback):
    """Adds each epoch's wall time to the logs, so CSVLogger records it."""

    def on_epoch_begin(self, epoch, logs=None):
        self.start = time.perf_counter()

    def on_epoch_end(self, epoch, logs=None):
        logs["seconds"] = time.perf_counter() - self.start


# Fields a resumed run may change: how long it goes on and how its weights are chosen, not the model or data.
RESUMABLE_CHANGES = ("epochs", "early_stopping_patience", "bleu_sentences", "average_last")


def prepare_run(config, run_dir, splits, start_from=None):
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
        english, spanish = zip(*splits["train"])
        pipeline = TextPipeline.adapt(config, english, spanish)
    config = config.replace(
        source_vocab_size=len(pipeline.source_vocabulary), target_vocab_size=len(pipeline.target_vocabulary)
    )
    pipeline.save(run_dir)
    config.to_json(saved_config)
    return pipeline, config


def warm_start_config(directory, **overrides):
    """The config of the model in `directory` with `overrides`: the architecture and
    vocabularies must stay, so only training settings may change."""
    if not (Path(directory) / model_dir.MODEL_FILE).is_file():
        raise model_dir.ModelDirError(f"no trained model at {directory} to start from")
    config = Config.from_json(Path(directory) / model_dir.CONFIG_FILE)
    fixed = set(overrides) & ARCHITECTURE_FIELDS
    if fixed:
        raise ValueError(f"training from {directory} keeps its architecture: {', '.join(sorted(fixed))} cannot change")
    return config.replace(**overrides)


def start_from_record(directory):
    """What metrics.json says of the model a run started from: its path and its own training time."""
    earlier = model_dir.read_metrics(directory).get("training", {})
    return {"model": str(directory), "train_seconds": earlier.get("train_seconds"), "epochs": earlier.get("epochs")}


def read_history(path):
    """The rows of a run's `history.csv` (one per finished epoch), or [] before the first."""
    if not path.is_file():
        return []
    with path.open() as handle:
        return list(csv.DictReader(handle))


def choose_weights(model, config, run_dir, chooser, history, val_pairs):
    """Loads the weights to ship into `model` and says which they are.

    Without per-epoch BLEU: the best validation loss. With it: the best epoch
    by BLEU, or the mean of the last `average_last` epochs if that scores
    higher on the whole validation split (`val_pairs`): the per-epoch slice is
    small, and the two are often within its noise of each other.
    """
    best = run_dir / "best.weights.h5"
    if best.is_file():
        model.load_weights(str(best))
    if not config.bleu_sentences:
        return {"by": "validation loss"}
    scores = [float(row["val_bleu"]) for row in history]
    kept = {"by": "validation BLEU", "epoch": int(np.argmax(scores)) + 1, "val_bleu": round(max(scores), 2)}
    last = selection.epoch_weights(run_dir, config.average_last)
    if config.average_last > 1 and len(last) == config.average_last:
        kept["validation_split_bleu"] = round(chooser.score(val_pairs), 2)
        selection.average_weights(model, last)
        averaged = chooser.score(val_pairs)
        kept["average"] = {"epochs": [path.name for path in last], "validation_split_bleu": round(averaged, 2)}
        if averaged > kept["validation_split_bleu"]:
            kept["by"] = f"mean of the last {len(last)} epochs"
        else:
            model.load_weights(str(best))
    return kept


def write_model_dir(output, model, pipeline, config, train_pairs, **training):
    """The model directory of a finished run: the model, its vocabularies, the training
    split's word counts (for stand-ins and re-ranking) and `training` in metrics.json."""
    model_dir.save(output, model, pipeline, config)
    verbatim.save_word_counts(output, (english for english, _ in train_pairs))
    rerank.save_lexicon(output, (spanish for _, spanish in train_pairs))
    model_dir.update_metrics(
        output, training={"parameters": count_parameters(model), **training, "train_pairs": len(train_pairs)}
    )


class TrainingTransformer(MultiWorkerFit, Transformer):
    """The `Transformer` as training fits it, on one device or several workers (see `translator.multi_worker`).

    Only its weights are saved: the model directory holds a plain `Transformer`.
    """


def compiled_model(config, jit_compile):
    """A built `Transformer`, compiled for training: the configured optimizer, masked loss and accuracy."""
    model = TrainingTransformer(config)
    model.build()
    model.compile(
        optimizer=make_optimizer(config),
        loss=MaskedCrossEntropy(config.label_smoothing),
        metrics=[MaskedAccuracy()],
        jit_compile=jit_compile,
    )
    return model


def train(config, data_path=None, output_dir="saved_models", runs_dir="runs", splits=None,
          strategy=None, callbacks=(), start_from=None):
    """Trains `config` and writes `output_dir/<config.name>/`. Returns that directory.

    `splits` (a dict of train/val pair lists) replaces the corpus; `callbacks`
    are added to the standard ones. `start_from`, a model directory with the
    same architecture (see `warm_start_config`), gives the first weights and
    the vocabularies: to train a shipped model longer or on your own pairs.
    On several workers (`TF_CONFIG`, see `devices.choose_strategy`) every
    worker runs this alike; the chief writes the model and returns its
    directory, the others return None.
    """
    # First: a multi-worker strategy must be made before TensorFlow's runtime starts.
    strategy = strategy or choose_strategy()
    started = time.perf_counter()
    keras.utils.set_random_seed(config.seed)
    device = accelerator()
    mixed = resolve_auto(config.mixed_precision, device)
    if mixed:
        keras.mixed_precision.set_global_policy("mixed_bfloat16" if device == "TPU" else "mixed_float16")
    jit = resolve_auto(config.jit_compile, device)

    splits = splits or data.load_splits(data_path)
    chief = strategy.extended.should_checkpoint
    # Every worker keeps its own state (a restarted worker must resume at the chief's epoch);
    # the chief's is the run's, the others' sit beside it, as they would on their own machines.
    run_dir = Path(runs_dir) / (config.name if chief else f"{config.name}.worker-{strategy.cluster_resolver.task_id}")
    pipeline, config = prepare_run(config, run_dir, splits, start_from)
    train_pairs = augment.copy_augment(splits["train"], config.copy_augmentation, seed=config.seed)
    train_ds = make_dataset(*vectorize(pipeline, train_pairs), config.batch_size, shuffle=True, seed=config.seed)
    val_ds = make_dataset(*vectorize(pipeline, splits["val"]), config.batch_size)

    with strategy.scope():
        model = compiled_model(config, jit)
    logger.info(
        f"{config.name}: {count_parameters(model):,} parameters, {config.epochs} epochs, "
        f"{strategy.num_replicas_in_sync} replica(s) on {device}, "
        f"mixed precision {'on' if mixed else 'off'}, XLA {'on' if jit else 'off'}"
    )
    history_csv = run_dir / "history.csv"
    history = read_history(history_csv)
    if start_from and not history:  # a resumed run restores its own weights
        model.set_weights(model_dir.load(start_from)[0].get_weights())
    if config.bleu_sentences:
        done = [float(row["val_bleu"]) for row in history if row.get("val_bleu")]
        chooser = selection.BleuCheckpoint(
            pipeline, config, splits["val"][: config.bleu_sentences], run_dir, best=max(done, default=-np.inf)
        )
        monitor, mode = "val_bleu", "max"
    else:
        chooser = keras.callbacks.ModelCheckpoint(
            str(run_dir / "best.weights.h5"), monitor="val_loss", save_best_only=True, save_weights_only=True
        )
        monitor, mode = "val_loss", "min"
    # Keras deletes the backup when fit ends: a run with epochs and no backup has finished.
    if history and not (run_dir / "backup").exists():
        logger.info(
            "the run in %s finished after %d epochs: writing its model again (to train it longer, "
            "start from the model: translator train --from DIR --epochs N)", run_dir, len(history)
        )
        model.optimizer.build(model.trainable_variables)  # the saved weights hold its state too
    else:
        model.fit(
            train_ds,
            validation_data=val_ds,
            epochs=config.epochs,
            callbacks=[
                # Two backups: a process killed while writing one resumes from the one before.
                keras.callbacks.BackupAndRestore(str(run_dir / "backup"), double_checkpoint=True),
                EpochTimer(),
                chooser,
                keras.callbacks.EarlyStopping(monitor=monitor, mode=mode, patience=config.early_stopping_patience),
                keras.callbacks.TensorBoard(str(run_dir / "logs")),
                keras.callbacks.CSVLogger(str(history_csv), append=True),
                *callbacks,
            ],
            shuffle=False,  # the dataset shuffles itself
            verbose=1 if os.environ.get("CI") is None else 2,
        )
    if not chief:  # it holds the chief's weights: the chief alone writes the model
        logger.info("%s: worker %s done; the chief writes the model", config.name, strategy.cluster_resolver.task_id)
        return None
    history = read_history(history_csv)
    kept = choose_weights(model, config, run_dir, chooser, history, splits["val"])
    output = Path(output_dir) / config.name
    write_model_dir(
        output, model, pipeline, config, splits["train"],
        epochs=len(history),
        history=[{key: float(value) for key, value in row.items() if value} for row in history],
        best_val_loss=min(float(row["val_loss"]) for row in history),
        kept_weights=kept,
        train_seconds=sum(float(row["seconds"]) for row in history),
        this_process_seconds=time.perf_counter() - started,
        **({"started_from": start_from_record(start_from)} if start_from else {}),
        machine={
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpu_count": os.cpu_count(),
            "accelerator": device,
            "replicas": strategy.num_replicas_in_sync,
            "tensorflow": tf.__version__,
            "keras": keras.__version__,
        },
    )
    logger.info("saved %s", output)
    return output
