"""Training batches: pairs as token ids, grouped by length into `tf.data` batches for teacher forcing.

Example:

    train_ds, val_ds = batches.training_batches(pipeline, splits, config)
    model.fit(train_ds, validation_data=val_ds)
"""

import numpy as np
import tensorflow as tf

from translator import augment, piece_dropout

# Sentences are short (most under 12 tokens): batches of similar lengths waste
# little compute on padding.
BUCKET_BOUNDARIES = [6, 8, 10, 12, 15, 19]
# Rows cut anew in one call: one Python call per sentence would cost more than the cutting.
RECUT_ROWS = 1024


def vectorize(pipeline, pairs, batch_size=4096):
    """All pairs as two int32 arrays: source ids and target ids (with [start] and [end])."""
    english, spanish = (list(side) for side in zip(*pairs))
    source = [pipeline.source(english[i:i + batch_size]) for i in range(0, len(english), batch_size)]
    target = [pipeline.target(spanish[i:i + batch_size]) for i in range(0, len(spanish), batch_size)]
    return np.concatenate(source).astype("int32"), np.concatenate(target).astype("int32")


def make_dataset(source_ids, target_ids, batch_size, shuffle=False, seed=None, recut=None):
    """Teacher forcing batches: `({"encoder_inputs", "decoder_inputs"}, labels)`.

    The decoder sees the target shifted right (`[start] a b`) and learns to
    predict it shifted left (`a b [end]`). Batches group sentences of similar
    length and are padded only to their own longest sentence. `recut`, a function
    of `(source_ids, target_ids)` arrays to new ones (`recut_pieces`), runs at every
    epoch after the shuffle.
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
    if recut:
        dataset = dataset.batch(RECUT_ROWS).map(numpy_recut).unbatch()
    dataset = dataset.map(trim).bucket_by_sequence_length(
        lambda source, target: tf.maximum(tf.shape(source)[0], tf.shape(target)[0]),
        bucket_boundaries=BUCKET_BOUNDARIES,
        bucket_batch_sizes=[batch_size] * (len(BUCKET_BOUNDARIES) + 1),
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


def training_batches(pipeline, splits, config):
    """A run's shuffled training batches (invented names and numbers swapped in, `config.seed`; words cut
    anew every epoch with `config.piece_dropout`) and its validation batches."""
    train_pairs = augment.copy_augment(splits["train"], config.copy_augmentation, seed=config.seed)
    recut = recut_pieces(pipeline, config.piece_dropout, config.seed) if config.piece_dropout else None
    train_ds = make_dataset(*vectorize(pipeline, train_pairs), config.batch_size, shuffle=True, seed=config.seed,
                            recut=recut)
    return train_ds, make_dataset(*vectorize(pipeline, splits["val"]), config.batch_size)
