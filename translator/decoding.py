"""The decoding loops: cached greedy and beam search, and the compiled graph that runs them.

The encoder runs once per batch. Each decoder layer's cross-attention keys and
values are projected once from its output and cached; its self-attention keys
and values grow in a fixed-size cache, one slot per step, so every step runs
the decoder on the newest token only. The loop is `keras.ops.while_loop`
inside one `tf.function`: no Python per step, no host sync per step, and the
same graph runs on CPU, GPU and TPU.
"""

import tensorflow as tf
from keras import ops

from translator import masks

# Under XLA, source lengths are padded up to a multiple of this: few shapes to compile, little padding to compute.
LENGTH_BUCKET = 8
ROW_STEP = 8


def row_bucket(batch):
    """The rows a batch of `batch` sentences is padded to under XLA: few shapes, little padding.

    Powers of two up to `ROW_STEP`, then multiples of it: 1, 2, 4, 8, 16, 24, 32, ...
    (the `allowed_batch_sizes` of TF Serving's batching, in one formula).

    >>> [int(row_bucket(n)) for n in (1, 3, 8, 9, 17)]
    [1, 4, 8, 16, 24]
    """
    batch = tf.convert_to_tensor(batch, tf.int32)
    power_of_two = 2 ** tf.reduce_sum(tf.cast(2 ** tf.range(31) < batch, tf.int32))
    return tf.where(batch <= ROW_STEP, power_of_two, -(-batch // ROW_STEP) * ROW_STEP)


def padded_shapes(max_batch_size, max_length):
    """Every `(rows, length)` that batches of up to `max_batch_size` sentences are padded to under XLA.

    >>> padded_shapes(3, 12)
    [(1, 8), (1, 12), (2, 8), (2, 12), (4, 8), (4, 12)]
    """
    rows = sorted({int(row_bucket(size)) for size in range(1, max_batch_size + 1)})
    steps = range(LENGTH_BUCKET, max_length + LENGTH_BUCKET, LENGTH_BUCKET)
    lengths = sorted({min(length, max_length) for length in steps})
    return [(r, length) for r in rows for length in lengths]


def _decoder_caches(model, encoded, batch, max_length):
    """Empty self-attention caches and filled cross-attention caches, one per decoder layer."""
    self_caches, cross_caches = [], []
    for layer in model.decoder_layers:
        shape = (batch, 2, max_length, layer.num_heads, layer.key_dim)
        self_caches.append(ops.zeros(shape, dtype=encoded.dtype))
        cross_caches.append(layer.cross_attention.key_value_cache(encoded))
    return self_caches, cross_caches


def _decoder_step(model, token, index, encoded, source_padding, self_caches, cross_caches):
    """One token `(batch, 1)` at position `index` through the decoder.

    Returns next-token logits `(batch, vocab)`, the updated caches, and the
    cross-attention of the last layer averaged over heads `(batch, source_length)`.
    """
    x = model.target_embedding(token, start_index=index)
    new_caches = []
    for layer, cache, cross in zip(model.decoder_layers, self_caches, cross_caches):
        x, cache, scores = layer(
            x, encoded, encoder_padding_mask=source_padding, self_attention_cache=cache,
            cache_update_index=index, cross_attention_cache=cross, return_attention_scores=True,
        )
        new_caches.append(cache)
    logits = model.project(x)[:, 0, :]
    return logits, new_caches, ops.mean(scores[:, :, 0, :], axis=1)


def _begin(model, source_ids, start_id, max_length, copies=1):
    """What both loops start from, with each sentence repeated `copies` times (the beams), sentence-major.

    Encodes the sources once and returns `(step, state)`: `step(previous,
    index, caches)` runs `_decoder_step` against that encoding, and `state` is
    the loop's first `(index, previous, done, tokens, attended, caches)`.
    """
    source_ids = ops.convert_to_tensor(source_ids, "int32")
    if copies > 1:
        source_ids = ops.repeat(source_ids, copies, axis=0)
    rows = ops.shape(source_ids)[0]
    source_padding = masks.padding_mask(source_ids)
    encoded = model.encode(source_ids, training=False)
    self_caches, cross_caches = _decoder_caches(model, encoded, rows, max_length)

    def step(previous, index, caches):
        return _decoder_step(model, previous, index, encoded, source_padding, caches, cross_caches)

    previous = ops.full((rows, 1), start_id, "int32")
    # An empty source (all padding) has nothing to translate: it is done before the first step.
    done = ops.logical_not(ops.any(source_padding, axis=1))
    empty = ops.zeros((rows, max_length), "int32")
    return step, (0, previous, done, empty, empty, self_caches)


def _record(tokens, attended, index, chosen, attention):
    """Writes step `index`: the chosen tokens, and the source position each one's cross-attention weighted most."""
    tokens = ops.slice_update(tokens, (0, index), chosen[:, None])
    where = ops.cast(ops.argmax(attention, axis=-1), "int32")
    return tokens, ops.slice_update(attended, (0, index), where[:, None])


def _loop(step, state, max_length):
    """Runs `step` over `state` until every row is done or `max_length` tokens are written."""

    def keep_going(index, previous, done, *rest):
        return ops.logical_and(index < max_length, ops.logical_not(ops.all(done)))

    return ops.while_loop(keep_going, step, state, maximum_iterations=max_length)


def greedy_decode(model, source_ids, start_id, end_id, max_length):
    """Greedy decoding with cached encoder output and key/value caches.

    Returns `(tokens, attended)`, both `(batch, max_length)` int32: the chosen
    target ids (0 after `[end]`) and, for each, the source position its
    cross-attention weighted most.
    """
    decoder_step, state = _begin(model, source_ids, start_id, max_length)

    def step(index, previous, done, tokens, attended, caches):
        logits, caches, attention = decoder_step(previous, index, caches)
        chosen = ops.where(done, 0, ops.cast(ops.argmax(logits, axis=-1), "int32"))
        tokens, attended = _record(tokens, attended, index, chosen, attention)
        done = ops.logical_or(done, ops.equal(chosen, end_id))
        return index + 1, chosen[:, None], done, tokens, attended, caches

    _, _, _, tokens, attended, _ = _loop(step, state, max_length)
    return tokens, attended


def beam_decode(model, source_ids, start_id, end_id, max_length, beam_size=4, length_penalty=0.6, all_beams=False):
    """Beam search over the same cached step; returns `(tokens, attended)` like `greedy_decode`.

    Hypotheses are scored by log-probability divided by the GNMT length
    penalty ((5 + length) / 6) ** length_penalty, so longer sentences are not
    unfairly beaten by short ones. With `all_beams`, returns every
    hypothesis, `beam_size` rows a sentence, best first, and their scores:
    `(tokens, attended, scores)`, so that a caller can choose by other means.
    """
    batch = ops.shape(source_ids)[0]
    rows = batch * beam_size
    decoder_step, state = _begin(model, source_ids, start_id, max_length, copies=beam_size)
    # Only the first beam is live at the start, so the first step does not pick one token beam_size times.
    first = ops.concatenate([ops.zeros((1,)), ops.full((beam_size - 1,), -1e9)])
    scores = ops.tile(first, (batch,))
    lengths = ops.zeros((rows,), "float32")
    ranked = ops.zeros((rows,), "float32")

    def step(index, previous, done, tokens, attended, caches, scores, lengths, ranked):
        logits, caches, attention = decoder_step(previous, index, caches)
        log_probs = ops.log_softmax(ops.cast(logits, "float32"), axis=-1)
        # A finished hypothesis may only extend itself with padding, at no cost.
        vocab = ops.shape(log_probs)[-1]
        pad_only = ops.where(ops.arange(vocab) == 0, 0.0, -1e9)
        log_probs = ops.where(done[:, None], pad_only[None, :], log_probs)
        # A row's extensions share its length penalty, so only its best beam_size can be among
        # its sentence's best beam_size: ranking those alone spares sorting the whole vocabulary.
        extension_scores, extensions = ops.top_k(log_probs, beam_size)
        lengths = lengths + ops.cast(ops.logical_not(done), "float32")
        penalty = ops.power((5.0 + lengths) / 6.0, length_penalty)
        candidates = ops.reshape(scores[:, None] + extension_scores, (batch, beam_size * beam_size))
        normalized = candidates / ops.reshape(ops.repeat(penalty, beam_size), (batch, beam_size * beam_size))
        ranked, best = ops.top_k(normalized, beam_size)
        origin = ops.cast(best // beam_size, "int32") + ops.arange(batch, dtype="int32")[:, None] * beam_size
        origin = ops.reshape(origin, (rows,))
        chosen = ops.reshape(ops.take_along_axis(ops.reshape(extensions, (batch, -1)), best, axis=1), (rows,))
        chosen = ops.cast(chosen, "int32")
        scores = ops.reshape(ops.take_along_axis(candidates, best, axis=1), (rows,))
        # Rows now continue the hypotheses they were chosen from: reorder every per-row state.
        caches = [ops.take(cache, origin, axis=0) for cache in caches]
        tokens, attended, attention, done, lengths = (
            ops.take(x, origin, axis=0) for x in (tokens, attended, attention, done, lengths)
        )
        tokens, attended = _record(tokens, attended, index, chosen, attention)
        done = ops.logical_or(done, ops.equal(chosen, end_id))
        done = ops.logical_or(done, ops.equal(chosen, 0))
        return index + 1, chosen[:, None], done, tokens, attended, caches, scores, lengths, ops.reshape(ranked, (rows,))

    _, _, _, tokens, attended, _, _, _, ranked = _loop(step, (*state, scores, lengths, ranked), max_length)
    if all_beams:
        return tokens, attended, ranked
    # Beams stay sorted by top_k, so the first of each sentence is the best.
    return tokens[::beam_size], attended[::beam_size]


def decoding_graph(model, start_id, end_id, max_length, beam_size=1, jit_compile=False, all_beams=False):
    """Decoding as one graph: source ids `(batch, length)` in, `(tokens, attended)` out.

    With `all_beams` (and `beam_size` > 1), `beam_decode`'s every hypothesis
    and its score: `(tokens, attended, scores)`, `beam_size` rows a sentence.

    With `jit_compile` the loop is compiled by XLA, which fuses its many small
    per-step ops: faster per sentence on a CPU, and what a TPU needs. XLA
    compiles once per input shape, so ids are padded to a few shapes first:
    rows to a `row_bucket` (extra rows are empty sentences, done before the
    first step) and length to a multiple of `LENGTH_BUCKET`. Without XLA,
    batches are only trimmed to their longest sentence: padding past it
    changes nothing (it is masked) but costs compute.
    """
    loop, options = (beam_decode, {"beam_size": beam_size, "all_beams": all_beams}) if beam_size > 1 else (
        greedy_decode, {})
    copies = beam_size if beam_size > 1 and all_beams else 1
    decode = tf.function(
        lambda ids: loop(model, ids, start_id, end_id, max_length, **options), jit_compile=jit_compile
    )

    @tf.function(input_signature=[tf.TensorSpec((None, None), tf.int32, name="source_ids")])
    def padded_decode(source_ids):
        batch = tf.shape(source_ids)[0]
        longest = tf.maximum(tf.reduce_max(tf.math.count_nonzero(source_ids, axis=1, dtype=tf.int32)), 1)
        if not jit_compile:
            return decode(source_ids[:, :longest])
        length = tf.minimum(-(-longest // LENGTH_BUCKET) * LENGTH_BUCKET, max_length)
        source_ids = source_ids[:, :length]
        rows = row_bucket(batch)
        source_ids = tf.pad(source_ids, [[0, rows - batch], [0, length - tf.shape(source_ids)[1]]])
        return tuple(output[: batch * copies] for output in decode(source_ids))

    return padded_decode
