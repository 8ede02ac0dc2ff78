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
from translator.defaults import DEFAULT_BEAM, LENGTH_PENALTY

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
    rows = ops.shape(source_ids)[0] * copies
    source_padding = masks.padding_mask(source_ids)
    encoded = model.encode(source_ids, training=False)
    self_caches, cross_caches = _decoder_caches(model, encoded, rows, max_length)
    if copies > 1:
        # A sentence's beams share its encoding and cross-attention keys and values: computed once, then repeated.
        encoded, source_padding, *cross_caches = (
            ops.repeat(x, copies, axis=0) for x in (encoded, source_padding, *cross_caches))

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


# A score no hypothesis reaches: the cost of what is ruled out (beams not yet live, words after the end).
IMPOSSIBLE = -1e9


def gnmt_penalty(lengths, alpha):
    """GNMT's length penalty ((5 + length) / 6) ** alpha: a hypothesis is ranked by log-probability over it,
    so a longer one is not beaten by a short one merely for having more words to pay for.

    >>> [round(float(p), 3) for p in gnmt_penalty(ops.convert_to_tensor([1.0, 7.0]), 0.6)]
    [1.0, 1.516]
    """
    return ops.power((5.0 + lengths) / 6.0, alpha)


def extensions(log_probs, done, beam_size):
    """Each row's best `beam_size` next tokens and their log-probabilities, both `(rows, beam_size)`.

    A finished hypothesis extends only with padding, at no cost. A row's
    extensions share its length penalty, so only its best `beam_size` can be
    among its sentence's best `beam_size`: ranking those alone spares sorting
    the whole vocabulary.
    """
    pad_only = ops.where(ops.arange(ops.shape(log_probs)[-1]) == 0, 0.0, IMPOSSIBLE)
    log_probs = ops.where(done[:, None], pad_only[None, :], log_probs)
    best, tokens = ops.top_k(log_probs, beam_size)
    return tokens, best


def score_candidates(scores, lengths, done, extension_scores, alpha):
    """The candidates of each sentence: every row's extensions, `(batch, beam_size ** 2)`, row-major.

    Returns `(log_probs, ranks, lengths)`: each candidate's log-probability,
    that over its length penalty, and every row's length after this step
    (a finished hypothesis grows no longer).
    """
    beam_size = ops.shape(extension_scores)[-1]
    lengths = lengths + ops.cast(ops.logical_not(done), "float32")
    log_probs = ops.reshape(scores[:, None] + extension_scores, (-1, beam_size * beam_size))
    penalty = ops.reshape(ops.repeat(gnmt_penalty(lengths, alpha), beam_size), (-1, beam_size * beam_size))
    return log_probs, log_probs / penalty, lengths


def keep_top(log_probs, ranks, tokens, beam_size):
    """The `beam_size` best candidates of each sentence, best first (ties to the earlier candidate).

    Returns `(origin, chosen, scores, ranked)`, each `(batch * beam_size,)`:
    the row each one extends, its token, its log-probability and its rank.
    """
    ranked, best = ops.top_k(ranks, beam_size)
    sentences = ops.shape(ranks)[0]
    origin = ops.cast(best // beam_size, "int32") + ops.arange(sentences, dtype="int32")[:, None] * beam_size
    chosen = ops.take_along_axis(ops.reshape(tokens, (sentences, -1)), best, axis=1)
    scores = ops.take_along_axis(log_probs, best, axis=1)
    return tuple(ops.reshape(x, (-1,)) for x in (origin, ops.cast(chosen, "int32"), scores, ranked))


def retire(done, chosen, end_id):
    """Which hypotheses are finished after `chosen`: those that were, and those that chose `[end]` (or padding)."""
    return ops.logical_or(done, ops.logical_or(ops.equal(chosen, end_id), ops.equal(chosen, 0)))


def reorder(origin, tensors):
    """Every per-row tensor in `tensors`, its rows now those of the hypotheses they continue."""
    return [ops.take(x, origin, axis=0) for x in tensors]


def beam_decode(model, source_ids, start_id, end_id, max_length, beam_size=DEFAULT_BEAM, length_penalty=LENGTH_PENALTY,
                all_beams=False):
    """Beam search over the same cached step; returns `(tokens, attended)` like `greedy_decode`.

    Hypotheses are ranked by log-probability over `gnmt_penalty` of
    exponent `length_penalty`. Each step scores the candidates, keeps the top `beam_size`
    of each sentence, reorders the per-row state (caches included) to follow
    them, and retires those that ended; the loop stops when every hypothesis
    has ended. With `all_beams`, returns every hypothesis, `beam_size` rows a
    sentence, best first, and their ranks: `(tokens, attended, ranked)`, so
    that a caller can choose by other means.
    """
    batch = ops.shape(source_ids)[0]
    decoder_step, state = _begin(model, source_ids, start_id, max_length, copies=beam_size)
    # Only the first beam is live at the start, so the first step does not pick one token beam_size times.
    first = ops.concatenate([ops.zeros((1,)), ops.full((beam_size - 1,), IMPOSSIBLE)])
    scores = ops.tile(first, (batch,))
    lengths = ranked = ops.zeros((batch * beam_size,), "float32")

    def step(index, previous, done, tokens, attended, caches, scores, lengths, ranked):
        logits, caches, attention = decoder_step(previous, index, caches)
        tokens_next, extension_scores = extensions(ops.log_softmax(ops.cast(logits, "float32"), axis=-1), done,
                                                   beam_size)
        log_probs, ranks, lengths = score_candidates(scores, lengths, done, extension_scores, length_penalty)
        origin, chosen, scores, ranked = keep_top(log_probs, ranks, tokens_next, beam_size)
        tokens, attended, attention, done, lengths, *caches = reorder(
            origin, [tokens, attended, attention, done, lengths, *caches])
        tokens, attended = _record(tokens, attended, index, chosen, attention)
        done = retire(done, chosen, end_id)
        return index + 1, chosen[:, None], done, tokens, attended, caches, scores, lengths, ranked

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
