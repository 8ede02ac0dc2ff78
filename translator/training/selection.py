"""Which weights a training run keeps: validation BLEU after every epoch, and the mean of the last epochs.

With label smoothing the validation loss keeps rising while translations
still improve, so the loss is a poor judge of the epoch to ship. Here the
judge is what users see: greedy translations of a fixed slice of the
validation split, scored with sacrebleu.
"""

import logging
import math
from pathlib import Path

import keras
import numpy as np
import sacrebleu

EPOCH_FILE = "epoch_{:03d}.weights.h5"
BEST_FILE = "best.weights.h5"
logger = logging.getLogger(__name__)


def bleu(hypotheses, references, tokenize="13a"):
    """Corpus BLEU, cased, one reference each; `tokenize="none"` for text already split into tokens.

    >>> round(bleu(["¿ qué hora es ?"], ["¿ qué hora es ?"], tokenize="none"), 1)
    100.0
    """
    metric = sacrebleu.metrics.BLEU(tokenize=tokenize, force=tokenize == "none")
    return metric.corpus_score(list(hypotheses), [list(references)]).score


class BleuCheckpoint(keras.callbacks.Callback):
    """After every epoch: BLEU of the model's translations of `pairs`, the epoch's weights on disk, the best kept.

    Args:
        pipeline, config: the run's `TextPipeline` and `Config`: the model
            being trained translates through a `Translator` (greedy). Unused
            (None) when `translate` is given.
        pairs: `(source, reference)` validation pairs, scored every epoch.
        directory: gets `epoch_NNN.weights.h5` for every epoch (for
            averaging) and `best.weights.h5`, the best BLEU so far.
        best: the best BLEU of earlier epochs, when a run resumes.
        translate: `translate(model, sources) -> translations`, for models
            trained without a `TextPipeline` (token ids on any backend).
        keep: how many of the latest epochs' weight files to keep; all if None.
        every: score every `every` epochs only (the weights are saved every epoch).
        tokenize: sacrebleu's tokenisation, as in `bleu`.
        name: the key of the score in the epoch logs.

    Adds `val_bleu` (or `name`) to the epoch logs, so `CSVLogger`,
    `EarlyStopping` and TensorBoard see it.

    Example:

        checkpoint = BleuCheckpoint(pipeline, config, val_pairs[:1000], "runs/en-es")
        model.fit(train_ds, epochs=10, callbacks=[checkpoint])
        model.load_weights(checkpoint.best_path)
    """

    def __init__(self, pipeline, config, pairs, directory, best=-math.inf, *, translate=None, keep=None, every=1,
                 tokenize="13a", name="val_bleu"):
        super().__init__()
        self.pipeline, self.config = pipeline, config
        self.sources = [source for source, _ in pairs]
        self.references = [reference for _, reference in pairs]
        self.directory = Path(directory)
        self.best = best
        self.best_path = self.directory / BEST_FILE
        self.translate = translate or self.translate_with_pipeline
        self.keep, self.every, self.tokenize, self.name = keep, every, tokenize, name
        self.translator = None

    def translate_with_pipeline(self, model, english):
        if self.translator is None:
            from translator.translate import Translator  # inference code, built once around the training model

            self.translator = Translator(model, self.pipeline, self.config)
        return self.translator.translate(list(english))

    def score(self, pairs=None):
        """BLEU of the model's weights as they are now, on the epochs' pairs or on other `pairs`."""
        sources, references = (self.sources, self.references) if pairs is None else zip(*pairs)
        return bleu(self.translate(self.model, list(sources)), list(references), self.tokenize)

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        self.model.save_weights(str(self.directory / EPOCH_FILE.format(epoch + 1)))
        if self.keep:
            for old in epoch_weights(self.directory, epoch + 1)[: -self.keep]:
                old.unlink()
        if (epoch + 1) % self.every:
            return
        logs[self.name] = self.score()
        if logs[self.name] > self.best:
            self.best = logs[self.name]
            self.model.save_weights(str(self.best_path))
        logger.info("epoch %d: validation BLEU %.2f (best %.2f)", epoch + 1, logs[self.name], self.best)


def epoch_weights(directory, last):
    """The weight files of the `last` latest epochs in `directory`, oldest first."""
    return sorted(Path(directory).glob(EPOCH_FILE.replace("{:03d}", "*")))[-last:]


def average_weights(model, paths):
    """Sets `model`'s weights to the element-wise mean of the weight files `paths`."""
    total = None
    for path in paths:
        model.load_weights(str(path))
        weights = model.get_weights()
        total = weights if total is None else [t + w for t, w in zip(total, weights)]
    model.set_weights([np.asarray(t / len(paths), dtype=t.dtype) for t in total])


def monitored(config):
    """The epoch log value that judges a run's epochs, and "max" or "min": which way is better."""
    return ("val_bleu", "max") if config.bleu_sentences else ("val_loss", "min")


def checkpoint(pipeline, config, val_pairs, run_dir, history):
    """The callback that keeps the best epoch's weights in `run_dir`: by greedy BLEU on the first
    `config.bleu_sentences` of `val_pairs` (every epoch's weights kept too, for averaging), else by
    validation loss. `history`, the rows of the epochs already run, gives a resumed run its best so far."""
    if config.bleu_sentences:
        done = [float(row["val_bleu"]) for row in history if row.get("val_bleu")]
        return BleuCheckpoint(
            pipeline, config, val_pairs[: config.bleu_sentences], run_dir, best=max(done, default=-math.inf)
        )
    return keras.callbacks.ModelCheckpoint(
        str(Path(run_dir) / BEST_FILE), monitor="val_loss", save_best_only=True, save_weights_only=True
    )


def choose_weights(model, config, run_dir, chooser, history, val_pairs):
    """Loads the weights to ship into `model` and says which they are.

    Without per-epoch BLEU: the best validation loss. With it: the best epoch
    by BLEU, or the mean of the last `average_last` epochs if that scores
    higher on the whole validation split (`val_pairs`): the per-epoch slice is
    small, and the two are often within its noise of each other.
    """
    best = Path(run_dir) / BEST_FILE
    if best.is_file():
        model.load_weights(str(best))
    if not config.bleu_sentences:
        return {"by": "validation loss"}
    scores = [float(row["val_bleu"]) for row in history]
    kept = {"by": "validation BLEU", "epoch": int(np.argmax(scores)) + 1, "val_bleu": round(max(scores), 2)}
    last = epoch_weights(run_dir, config.average_last)
    if config.average_last > 1 and len(last) == config.average_last:
        kept["validation_split_bleu"] = round(chooser.score(val_pairs), 2)
        average_weights(model, last)
        averaged = chooser.score(val_pairs)
        kept["average"] = {"epochs": [path.name for path in last], "validation_split_bleu": round(averaged, 2)}
        if averaged > kept["validation_split_bleu"]:
            kept["by"] = f"mean of the last {len(last)} epochs"
        else:
            model.load_weights(str(best))
    return kept
