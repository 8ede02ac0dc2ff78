"""Training batches: pairs as token ids, grouped by length into `tf.data` batches for teacher forcing.

Example:

    train_ds, val_ds = batches.training_batches(pipeline, splits, config)
    model.fit(train_ds, validation_data=val_ds)
"""

import numpy as np
import tensorflow as tf

from translator import augment, soft_targets

# Sentences are short (most under 12 tokens): batches of similar lengths waste
# little compute on padding.
BUCKET_BOUNDARIES = [6, 8, 10, 12, 15, 19]


def vectorize(pipeline, pairs, batch_size=4096):
    """All pairs as two int32 arrays: source ids and target ids (with [start] and [end])."""
    english, spanish = (list(side) for side in zip(*pairs))
    source = [pipeline.source(english[i:i + batch_size]) for i in range(0, len(english), batch_size)]
    target = [pipeline.target(spanish[i:i + batch_size]) for i in range(0, len(spanish), batch_size)]
    return np.concatenate(source).astype("int32"), np.concatenate(target).astype("int32")


def make_dataset(source_ids, target_ids, batch_size, shuffle=False, seed=None, soft=None):
    """Teacher forcing batches: `({"encoder_inputs", "decoder_inputs"}, labels)`.

    The decoder sees the target shifted right (`[start] a b`) and learns to
    predict it shifted left (`a b [end]`). Batches group sentences of similar
    length and are padded only to their own longest sentence. With `soft`
    (`soft_targets.labels_for`: the teacher's likeliest pieces at each position), each label comes with
    them: labels `(batch, length, 1 + 2 * k)` as `soft_targets.split` reads them.
    """

    def trim(source, target, *soft):
        length = tf.math.count_nonzero(target)
        return (source[: tf.math.count_nonzero(source)], target[:length], *(part[: length - 1] for part in soft))

    def teacher_forcing(source, target, *soft):
        labels = target[:, 1:]
        if soft:
            labels = tf.concat([tf.cast(labels, tf.float32)[..., None], soft[0]], axis=-1)
        return {"encoder_inputs": source, "decoder_inputs": target[:, :-1]}, labels

    columns = (source_ids, target_ids) if soft is None else (source_ids, target_ids, soft)
    dataset = tf.data.Dataset.from_tensor_slices(columns).map(trim).cache()
    # On several workers, each builds these same batches (same data, same seed) and takes
    # its share of each one: the data is in memory, with no files to share out.
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    dataset = dataset.with_options(options)
    if shuffle:
        dataset = dataset.shuffle(len(source_ids), seed=seed, reshuffle_each_iteration=True)
    dataset = dataset.bucket_by_sequence_length(
        lambda source, target, *soft: tf.maximum(tf.shape(source)[0], tf.shape(target)[0]),
        bucket_boundaries=BUCKET_BOUNDARIES,
        bucket_batch_sizes=[batch_size] * (len(BUCKET_BOUNDARIES) + 1),
    )
    return dataset.map(teacher_forcing).prefetch(tf.data.AUTOTUNE)


def training_batches(pipeline, splits, config, teachers=()):
    """A run's shuffled training batches (invented names and numbers swapped in, `config.seed`) and
    its validation batches. With `teachers` (models of the same vocabularies), the training labels carry
    their likeliest next pieces (`soft_targets`); the validation labels stay plain."""
    train_pairs = augment.copy_augment(splits["train"], config.copy_augmentation, seed=config.seed)
    source_ids, target_ids = vectorize(pipeline, train_pairs)
    soft = soft_targets.labels_for(*soft_targets.teacher_top_k(teachers, source_ids, target_ids)) if teachers else None
    train_ds = make_dataset(source_ids, target_ids, config.batch_size, shuffle=True, seed=config.seed, soft=soft)
    return train_ds, make_dataset(*vectorize(pipeline, splits["val"]), config.batch_size)
