"""Training batches: pairs as token ids, grouped by length into `tf.data` batches for teacher forcing.

Example:

    train_ds, val_ds = batches.training_batches(pipeline, splits, config)
    model.fit(train_ds, validation_data=val_ds)
"""

import numpy as np
import tensorflow as tf

from translator.text import placeholders

# Most sentences are short (under 12 tokens), a few run to 128: batches of similar lengths waste little
from translator.training import augment, piece_dropout

# compute on padding. Boundaries past a model's longest sentence are not used.
BUCKET_BOUNDARIES = [6, 8, 10, 12, 15, 19, 24, 32, 40, 48, 64, 80, 100]
# Rows cut anew in one call: one Python call per sentence would cost more than the cutting.
RECUT_ROWS = 1024


def vectorize(pipeline, pairs, batch_size=4096, drop_long=False):
    """All pairs as two int32 arrays: source ids and target ids (with [start] and [end]).

    The pipeline cuts a sentence longer than its sequence length; with `drop_long` such pairs are left
    out instead: a cut pair would teach the model to stop short, or to translate what it did not read.
    """
    english, spanish = (list(side) for side in zip(*pairs))
    chunks = range(0, len(english), batch_size)
    source = np.concatenate([pipeline.source(english[i:i + batch_size]) for i in chunks]).astype("int32")
    target = np.concatenate([pipeline.target(spanish[i:i + batch_size]) for i in chunks]).astype("int32")
    if drop_long:
        lengths = np.concatenate([pipeline.source_lengths(english[i:i + batch_size]).numpy() for i in chunks])
        fits = (lengths <= pipeline.sequence_length) & np.isin(target[:, -1], (0, pipeline.end_id))
        source, target = source[fits], target[fits]
    return source, target


def bucket_batch_sizes(boundaries, longest, batch_size, batch_tokens=None):
    """Rows per batch of each length bucket: `batch_size`, or with `batch_tokens` that many tokens over
    the bucket's longest sentence, so a batch of long sentences costs about what one of short ones does.

    >>> bucket_batch_sizes([8, 16], longest=32, batch_size=64, batch_tokens=1024)
    [146, 68, 32]
    """
    if not batch_tokens:
        return [batch_size] * (len(boundaries) + 1)
    return [max(1, batch_tokens // upper) for upper in [bound - 1 for bound in boundaries] + [longest]]


def make_dataset(source_ids, target_ids, batch_size, shuffle=False, seed=None, recut=None, batch_tokens=None,
                 repeat=False):
    """Teacher forcing batches: `({"encoder_inputs", "decoder_inputs"}, labels)`.

    The decoder sees the target shifted right (`[start] a b`) and learns to
    predict it shifted left (`a b [end]`). Batches group sentences of similar
    length and are padded only to their own longest sentence; with `batch_tokens`,
    batches of longer sentences hold fewer (`bucket_batch_sizes`). `recut`, a function
    of `(source_ids, target_ids)` arrays to new ones (`recut_pieces`), runs at every
    epoch after the shuffle. With `repeat` the batches never end (epochs are then
    counted in steps: `Config.steps_per_epoch`).
    """

    def trim(source, target):
        return source[: tf.math.count_nonzero(source)], target[: tf.math.count_nonzero(target)]

    def teacher_forcing(source, target):
        return {"encoder_inputs": source, "decoder_inputs": target[:, :-1]}, target[:, 1:]

    def numpy_recut(source, target):
        new = tf.numpy_function(recut, [source, target], (source.dtype, target.dtype), stateful=True)
        return tuple(tf.ensure_shape(part, like.shape) for part, like in zip(new, (source, target)))

    dataset = tf.data.Dataset.from_tensor_slices((source_ids, target_ids))
    # On several workers, each builds these same batches (same data, same seed) and takes
    # its share of each one: the data is in memory, with no files to share out.
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    dataset = dataset.with_options(options)
    if shuffle:
        dataset = dataset.shuffle(len(source_ids), seed=seed, reshuffle_each_iteration=True)
    if repeat:
        dataset = dataset.repeat()
    if recut:
        dataset = dataset.batch(RECUT_ROWS).map(numpy_recut).unbatch()
    longest = max(source_ids.shape[1], target_ids.shape[1])
    boundaries = [bound for bound in BUCKET_BOUNDARIES if bound <= longest]
    dataset = dataset.map(trim).bucket_by_sequence_length(
        lambda source, target: tf.maximum(tf.shape(source)[0], tf.shape(target)[0]),
        bucket_boundaries=boundaries,
        bucket_batch_sizes=bucket_batch_sizes(boundaries, longest, batch_size, batch_tokens),
    )
    return dataset.map(teacher_forcing).prefetch(tf.data.AUTOTUNE)


def recut_pieces(pipeline, probability, seed):
    """`make_dataset`'s `recut` for `piece_dropout`: every word of a batch of rows cut anew (one generator,
    seeded, for the whole run: each epoch draws new cuts)."""
    rng = np.random.default_rng(seed)

    def recut(source, target):
        return (piece_dropout.resample(source, pipeline.source_vocabulary, probability, rng),
                piece_dropout.resample(target, pipeline.target_vocabulary, probability, rng))

    return recut


def training_batches(pipeline, splits, config, epochs_done=0):
    """A run's shuffled training batches and its validation batches.

    The training pairs get typed placeholders (`config.placeholders`), then invented names and numbers
    (`config.copy_augmentation`); pairs too long for the model are left out; words are cut anew every
    epoch with `config.piece_dropout`. A run resumed after `epochs_done` epochs of `config.steps_per_epoch`
    steps shuffles with another seed: the same one would deal it again the batches it has learned from.
    """
    seed = config.seed + (epochs_done if config.steps_per_epoch else 0)
    train_pairs = placeholders.augment(splits["train"], config.placeholders, seed=config.seed)
    train_pairs = augment.copy_augment(train_pairs, config.copy_augmentation, seed=config.seed)
    recut = recut_pieces(pipeline, config.piece_dropout, seed) if config.piece_dropout else None
    train_ds = make_dataset(*vectorize(pipeline, train_pairs, drop_long=True), config.batch_size, shuffle=True,
                            seed=seed, recut=recut, batch_tokens=config.batch_tokens,
                            repeat=bool(config.steps_per_epoch))
    return train_ds, make_dataset(*vectorize(pipeline, splits["val"]), config.batch_size,
                                  batch_tokens=config.batch_tokens)
