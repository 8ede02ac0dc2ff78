"""Training one run: the corpus in, a model directory out.

A run keeps its state in `runs/<name>/` (`run_state`: vocabularies, a backup
of every epoch, the best weights, TensorBoard logs), so a killed run started
again with the same command resumes where it stopped. The finished model is
written to `saved_models/<name>/` (`write_model`), never over a model
there unless asked to. Its parts: `batches` (the `tf.data` pipeline),
`training_model` (the compiled model), `selection` (which weights are kept),
`machine` (what it ran on). A schedule of runs is a recipe (`recipe`).

Example:

    train(preset("tiny", epochs=2), output_dir="saved_models", runs_dir="runs")
"""

import logging
import time
from pathlib import Path

import keras
import tensorflow as tf

from translator import model_dir
from translator.devices import accelerator, choose_strategy
from translator.machine import machine_record
from translator.model import shortlist
from translator.model.transformer import count_parameters
from translator.text import name_forms, rerank, verbatim
from translator.training import batches, mix, run_state, selection
from translator.training.training_model import compiled_model, precision

logger = logging.getLogger(__name__)


def write_model(directory, model, pipeline, config, train_pairs, overwrite=False, **training):
    """The model directory of a finished run, written whole: the model, its vocabularies, the training
    split's word counts (for stand-ins and re-ranking), shortlist and names, and `training` in metrics.json."""
    with model_dir.writing(directory, overwrite) as partial:
        model_dir.save(partial, model, pipeline, config)
        verbatim.save_word_counts(partial, (english for english, _ in train_pairs))
        rerank.save_lexicon(partial, (spanish for _, spanish in train_pairs))
        shortlist.save_table(partial, pipeline, *batches.vectorize(pipeline, train_pairs))
        name_forms.save_table(partial, train_pairs)
        model_dir.update_metrics(
            partial, training={"parameters": count_parameters(model), **training, "train_pairs": len(train_pairs)}
        )
    return Path(directory)


def start_from_record(directory):
    """What metrics.json says of the model a run started from: its path and its own training time."""
    earlier = model_dir.read_metrics(directory).get("training", {})
    return {"model": str(directory), "train_seconds": earlier.get("train_seconds"), "epochs": earlier.get("epochs")}


def training_record(history, kept, started, start_from, device, strategy):
    """What metrics.json says of a finished run: its epochs, the weights kept, its time and machine."""
    return dict(
        epochs=len(history),
        history=[{key: float(value) for key, value in row.items() if value} for row in history],
        best_val_loss=min(float(row["val_loss"]) for row in history),
        kept_weights=kept,
        train_seconds=sum(float(row["seconds"]) for row in history),
        this_process_seconds=time.perf_counter() - started,
        **({"started_from": start_from_record(start_from)} if start_from else {}),
        machine=machine_record(accelerator=device, replicas=strategy.num_replicas_in_sync, tensorflow=tf.__version__),
    )


def judging_pairs(splits, count=None):
    """The validation pairs that choose a run's weights: `count` (None: all) of the corpus' validation split,
    or with a development set (the training mix's news) as many of each: a model of the mix must not be
    chosen for everyday sentences alone."""
    if not splits.get("dev"):
        return splits["val"][:count]
    half = len(splits["dev"]) if count is None else count // 2
    return splits["val"][:half] + splits["dev"][:half]


def train(config, data_path=None, output_dir="saved_models", runs_dir="runs", splits=None,
          strategy=None, callbacks=(), start_from=None, overwrite=False, train_pairs=None, more_path=None):
    """Trains `config`; writes and returns `output_dir/<config.name>/` (over a model there only with `overwrite`).

    `splits` (train/val pair lists) replaces the corpus and its mix (`mix.load`, reading the further pairs at
    `more_path`); `train_pairs` (a teacher's translations, `distill`) replace its training split for learning only;
    `callbacks` join the standard ones. `start_from`, a model directory of the same architecture
    (`config.warm_start_config`), gives the first weights and the vocabularies. On several workers (`TF_CONFIG`,
    `devices.choose_strategy`) the chief writes the model and returns its directory, the others None.
    """
    # First: a multi-worker strategy must be made before TensorFlow's runtime starts.
    strategy = strategy or choose_strategy()
    started, output, chief = time.perf_counter(), Path(output_dir) / config.name, strategy.extended.should_checkpoint
    model_dir.check_free(output, overwrite or not chief)  # now, not after hours of training; workers write nothing
    keras.utils.set_random_seed(config.seed)
    device = accelerator()
    with precision(config, device) as (mixed, jit):  # the policy before it restored after: a process may go on
        splits, data_record = (splits, None) if splits else mix.load(config, data_path, more_path)
        run_dir = run_state.directory(runs_dir, config.name, strategy)
        pipeline, config = run_state.prepare(config, run_dir, splits, start_from)
        history = run_state.read_history(run_dir / run_state.HISTORY_FILE)
        train_ds, val_ds = batches.training_batches(pipeline, {**splits, "train": train_pairs or splits["train"]},
                                                    config, epochs_done=len(history))
        with strategy.scope():
            model = compiled_model(config, jit)
        logger.info(f"{config.name}: {count_parameters(model):,} parameters, {config.epochs} epochs, "
                    f"{strategy.num_replicas_in_sync} replica(s) on {device}, "
                    f"mixed precision {'on' if mixed else 'off'}, XLA {'on' if jit else 'off'}")
        if start_from and not history:  # a resumed run restores its own weights
            model.set_weights(model_dir.load(start_from)[0].get_weights())
        chooser = selection.checkpoint(pipeline, config, judging_pairs(splits, config.bleu_sentences), run_dir, history)
        run_state.fit(model, config, run_dir, train_ds, val_ds, chooser, callbacks)
        if not chief:  # it holds the chief's weights: the chief alone writes the model
            logger.info("%s: worker %s done; the chief writes the model", config.name, strategy.cluster_resolver.task_id)
            return None
        history = run_state.read_history(run_dir / run_state.HISTORY_FILE)
        kept = selection.choose_weights(model, config, run_dir, chooser, history, judging_pairs(splits))
        write_model(output, model, pipeline, config, splits["train"], overwrite,
                    **training_record(history, kept, started, start_from, device, strategy),
                    **({"trained_on_pairs": len(train_pairs)} if train_pairs else {}),
                    **({"data": data_record} if data_record else {}))
        logger.info("saved %s", output)
        return output
