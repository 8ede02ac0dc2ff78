"""Training on token ids alone, on any Keras backend: a machine without TensorFlow can train.

The fit of `translator.training.ids` (its docstring has the three commands): trains
on an ids file from `python -m translator.training.ids.convert export` and writes the
weights that `python -m translator.training.ids.convert import` turns into a model
directory.

    KERAS_BACKEND=jax python -m translator.training.ids.fit ids.npz --output fitted --minutes 20

Each epoch takes the next copy-augmented version of the training split, so the
invented names change between epochs. Training keeps the mean of the last
`config.average_last` epochs' weights (`translator.training.selection`), as `translator train` may.
"""

import argparse
import dataclasses
import json
import math
import platform
import time
from pathlib import Path

import keras
import numpy as np

from translator.config import Config
from translator.machine import machine_record
from translator.model.recompute import recompute_greedy
from translator.model.transformer import Transformer, count_parameters
from translator.text.pieces import pieces_to_text
from translator.tokens import END, PAD_ID, START
from translator.training import selection
from translator.training.losses import MaskedAccuracy, MaskedCrossEntropy
from translator.training.optimizer import make_optimizer

WEIGHTS_FILE = "weights.npz"
HISTORY_FILE = "history.json"
# Batches are padded to a multiple of this many tokens: a few shapes to
# compile, little padding (most sentences are under 12 tokens). On a GPU, where
# a step costs little beside its compile (about 20 s a shape there), one shape
# (`--width-step` the sequence length) is faster.
WIDTH_STEP = 4


def read_ids(path):
    """The arrays and the `Config` of an ids file written by `translator.training.ids.convert.export`."""
    with np.load(path) as ids:
        arrays = {name: ids[name] for name in ids.files if name != "config"}
        config = Config(**json.loads(str(ids["config"])))
    return arrays, config


class IdBatches(keras.utils.PyDataset):
    """Teacher-forcing batches of similar lengths from id arrays, reshuffled every epoch.

    Args:
        source: `(versions, pairs, sequence_length)` or `(pairs, sequence_length)` source ids.
        target: the matching target ids, one token longer (`[start] ... [end]`).
        batch_size: pairs a batch; the last, incomplete batch of each width is dropped.
        shuffle: reshuffle at every epoch's end and move on to the next version.
        width_step: batches are padded to a multiple of this many tokens.

    Example:

    >>> ids = np.array([[5, 6, 0, 0], [7, 0, 0, 0]])
    >>> batches = IdBatches(ids, np.array([[2, 5, 3, 0, 0], [2, 7, 3, 0, 0]]), batch_size=2, shuffle=False)
    >>> inputs, labels = batches[0]
    >>> inputs["encoder_inputs"].shape, inputs["decoder_inputs"].shape, labels.shape
    ((2, 4), (2, 4), (2, 4))
    """

    def __init__(self, source, target, batch_size, shuffle=True, seed=0, width_step=WIDTH_STEP):
        super().__init__()
        self.width_step = width_step
        self.source = source if source.ndim == 3 else source[None]
        self.target = target if target.ndim == 3 else target[None]
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.rng = np.random.default_rng(seed)
        self.epoch = 0
        self._plan()

    def _plan(self):
        version = self.epoch % len(self.source)
        source, target = self.source[version], self.target[version]
        lengths = np.maximum((source != PAD_ID).sum(1), (target != PAD_ID).sum(1) - 1)
        widths = np.minimum(-(-lengths // self.width_step) * self.width_step, source.shape[1])
        order = self.rng.permutation(len(source)) if self.shuffle else np.arange(len(source))
        self.batches = []
        for width in np.unique(widths):
            rows = order[widths[order] == width]
            for start in range(0, len(rows) - self.batch_size + 1, self.batch_size):
                self.batches.append((version, rows[start:start + self.batch_size], int(width)))
        if self.shuffle:
            self.rng.shuffle(self.batches)

    def __len__(self):
        return len(self.batches)

    def __getitem__(self, index):
        version, rows, width = self.batches[index]
        source = self.source[version, rows, :width].astype("int32")
        target = self.target[version, rows, : width + 1].astype("int32")
        return {"encoder_inputs": source, "decoder_inputs": target[:, :-1]}, target[:, 1:]

    def on_epoch_end(self):
        if self.shuffle:
            self.epoch += 1
            self._plan()


def piece_translator(vocabulary, max_length, batch_size=500):
    """`translate(model, sources) -> words` for `selection.BleuCheckpoint`: greedy ids, pieces joined.

    The words are standardised (no truecasing or detokenising): a quick,
    backend-free stand-in for `translator evaluate`, to compare epochs and runs.
    The decoder is `recompute.recompute_greedy` (no cache, any backend, no TensorFlow).
    """
    start_id, end_id = vocabulary.index(START), vocabulary.index(END)

    def translate(model, sources):
        sources = np.asarray(sources)
        ids = [recompute_greedy(model, sources[i:i + batch_size], max_length, start_id, end_id)
               for i in range(0, len(sources), batch_size)]
        return [pieces_to_text(row, vocabulary) for row in np.concatenate(ids)]

    return translate


class Progress(keras.callbacks.Callback):
    """Per epoch: wall time and the logs (the validation BLEU among them) printed and kept in `history`;
    stops training when the next epoch would end after `deadline` (seconds since the epoch).

    `seconds` is the whole epoch; `step_seconds` its training steps alone (compiles included), without the
    validation and the score after them, which can cost more than the steps on an accelerator."""

    def __init__(self, deadline=math.inf):
        super().__init__()
        self.deadline = deadline
        self.history = []

    def on_epoch_begin(self, epoch, logs=None):
        self.started = self.steps_ended = time.time()

    def on_test_begin(self, logs=None):
        self.steps_ended = time.time()

    def on_epoch_end(self, epoch, logs=None):
        row = {"epoch": epoch + 1, **{k: float(v) for k, v in (logs or {}).items()}}
        row["seconds"] = time.time() - self.started
        row["step_seconds"] = self.steps_ended - self.started
        self.history.append(row)
        print(json.dumps(row), flush=True)
        if time.time() + row["seconds"] > self.deadline:
            self.model.stop_training = True


def device_name():
    """The accelerator training runs on, as the backend names it."""
    if keras.backend.backend() == "jax":
        import jax

        return jax.devices()[0].device_kind
    return platform.processor() or platform.machine()


def fit(ids_path, output, config=None, minutes=None, bleu_sentences=1000, bleu_every=1, width_step=WIDTH_STEP):
    """Trains on the ids file; writes `weights.npz` (the mean of the last epochs) and `history.json`.

    `config` replaces the ids file's own (its vocabulary fields must match the file's).
    """
    started = time.time()
    arrays, stored = read_ids(ids_path)
    config = config or stored
    if config.target_vocab_size != stored.target_vocab_size or config.sequence_length != stored.sequence_length:
        raise ValueError(f"the config does not match the vocabulary and sequence length of {ids_path}")
    keras.utils.set_random_seed(config.seed)
    vocabulary = [str(token) for token in arrays["vocabulary"]]
    model = Transformer(config)
    model.build()
    model.compile(
        optimizer=make_optimizer(config), loss=MaskedCrossEntropy(config.label_smoothing), metrics=[MaskedAccuracy()]
    )
    train = IdBatches(arrays["train_source"], arrays["train_target"], config.batch_size, seed=config.seed,
                      width_step=width_step)
    val = IdBatches(arrays["val_source"], arrays["val_target"], config.batch_size, shuffle=False, width_step=width_step)
    deadline = started + 60 * minutes if minutes else math.inf
    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    references = [pieces_to_text(row, vocabulary) for row in arrays["val_target"][:bleu_sentences]]
    checkpoint = selection.BleuCheckpoint(
        None, None, list(zip(arrays["val_source"][:bleu_sentences], references)), output,
        translate=piece_translator(vocabulary, config.sequence_length), keep=max(config.average_last, 1),
        every=bleu_every, tokenize="none", name="val_piece_bleu",
    )
    progress = Progress(deadline)
    model.fit(train, validation_data=val, epochs=config.epochs, callbacks=[checkpoint, progress], verbose=2)
    kept = selection.epoch_weights(output, config.average_last or 1)
    selection.average_weights(model, kept)
    summary = {
        "parameters": count_parameters(model),
        "epochs": len(progress.history),
        "averaged_epochs": [path.name for path in kept],
        "val_loss": model.evaluate(val, verbose=0, return_dict=True)["loss"],
        "val_piece_bleu": checkpoint.score(),
        "train_seconds": sum(row["seconds"] for row in progress.history),
        "machine": machine_record(accelerator=device_name()),
        "config": dataclasses.asdict(config),
        "history": progress.history,
    }
    np.savez(output / WEIGHTS_FILE, *model.get_weights())
    (output / HISTORY_FILE).write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k not in ("history", "config")}), flush=True)
    return summary


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m translator.training.ids.fit", description=__doc__.split("\n")[0])
    parser.add_argument("ids", help="an ids file from `python -m translator.training.ids.convert export`")
    parser.add_argument("--output", required=True, help="directory for weights.npz and history.json")
    parser.add_argument("--minutes", type=float, help="stop after the epoch that would pass this much time")
    parser.add_argument("--config", help="a config.json to train instead of the ids file's own")
    parser.add_argument("--bleu-every", type=int, default=1, help="piece BLEU every N epochs (default 1)")
    parser.add_argument("--width-step", type=int, default=WIDTH_STEP,
                        help=f"pad batches to a multiple of this many tokens (default {WIDTH_STEP}; "
                             "the sequence length: one shape to compile)")
    args = parser.parse_args(argv)
    config = Config.from_json(args.config) if args.config else None
    fit(args.ids, args.output, config, args.minutes, bleu_every=args.bleu_every, width_step=args.width_step)


if __name__ == "__main__":
    main()
