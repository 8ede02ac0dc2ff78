"""Word-level distillation (Kim & Rush, 2016; from an ensemble, Freitag et al., 2017): the teacher's
next-token probabilities as a second target beside each label.

Sequence-level distillation (`distill`) hands the student the translations its
teacher chose; one label a position says nothing of the pieces the teacher
found almost as likely. Here the teacher (one model, or several with their
probabilities averaged as `ensemble` decodes them) reads every training pair
once before training, teacher-forced, and keeps at each position its `TOP_K`
likeliest pieces with their probabilities, renormalised over those: most of
its mass, at a sliver of the memory of the whole distribution. They ride in
the labels (`labels`), and the loss (`losses.MaskedCrossEntropy` with
`soft_weight`) mixes the cross-entropy against the label with the one
against the teacher's distribution.

Example:

    ids, probs = teacher_top_k([teacher], source_ids, target_ids)
    train_ds = batches.make_dataset(source_ids, target_ids, 64, soft=labels_for(ids, probs))
"""

import logging
import time

import numpy as np
from keras import ops

from translator import ensemble

logger = logging.getLogger(__name__)

TOP_K = 8
BATCH_SIZE = 256


def teacher_top_k(teachers, source_ids, target_ids, k=TOP_K, batch_size=BATCH_SIZE):
    """The teachers' `k` likeliest next pieces where the student is taught, teacher-forced on `target_ids`.

    `source_ids` and `target_ids` are `(pairs, length)` int arrays as `batches.vectorize` makes them (targets
    with `[start]` and `[end]`). Returns `(ids, probs)`, each `(pairs, target_length - 1, k)`: at the
    position that predicts `target_ids[:, j + 1]`, the pieces (int32) and their probabilities (float32,
    summing to 1 over the `k`), likeliest first; zeros past each target's end.
    """
    started = time.perf_counter()
    source_ids, target_ids = np.asarray(source_ids), np.asarray(target_ids)
    pairs, width = target_ids.shape[0], target_ids.shape[1] - 1
    ids, probs = np.zeros((pairs, width, k), np.int32), np.zeros((pairs, width, k), np.float32)
    lengths = np.count_nonzero(target_ids, axis=1) - 1
    # Pairs of like length together: each batch is cut to its longest, not to the longest of all.
    order = np.argsort(lengths, kind="stable")
    for start in range(0, pairs, batch_size):
        rows = order[start:start + batch_size]
        source_width = max(int(np.count_nonzero(source_ids[rows], axis=1).max()), 1)
        target_width = max(int(lengths[rows].max()), 1)
        inputs = {"encoder_inputs": source_ids[rows, :source_width], "decoder_inputs": target_ids[rows, :target_width]}
        log_probs = ensemble.mean_log_probs([teacher(inputs, training=False) for teacher in teachers])
        values, top = ops.top_k(log_probs, k)
        real = (np.arange(target_width)[None, :] < lengths[rows][:, None])[..., None]
        ids[rows, :target_width] = np.where(real, ops.convert_to_numpy(top), 0)
        probs[rows, :target_width] = np.where(real, ops.convert_to_numpy(ops.softmax(values, axis=-1)), 0.0)
    logger.info(f"the likeliest {k} pieces of {len(teachers)} teacher(s) at every position of {pairs:,} pairs: "
                f"{time.perf_counter() - started:.0f} s")
    return ids, probs


def labels_for(ids, probs):
    """`(ids, probs)` of `teacher_top_k` as one float32 array `(pairs, length, 2 * k)`: what
    `batches.make_dataset` puts beside each label (ids are exact in float32 below 2**24)."""
    return np.concatenate([np.asarray(ids, np.float32), np.asarray(probs, np.float32)], axis=-1)


def split(labels):
    """Labels of `batches.make_dataset` with soft targets, `(batch, length, 1 + 2 * k)`, as
    `(label, ids, probs)`: `(batch, length)` and twice `(batch, length, k)`."""
    k = (labels.shape[-1] - 1) // 2
    return labels[..., 0], ops.cast(labels[..., 1:1 + k], "int32"), labels[..., 1 + k:]
