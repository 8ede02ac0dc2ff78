"""The decoding loops: cached greedy and beam search, and the compiled graph that runs them.

The encoder runs once per batch. Each decoder layer's cross-attention keys and
values are projected once from its output and cached; its self-attention keys
and values are cached one step at a time, so every step runs the decoder on
the newest token only. The loop is a `while_loop` inside one `tf.function`:
no Python per step, no host sync per step, and the same graph runs on CPU,
GPU and TPU.

Two loops, the same tokens. Without XLA the decoder runs only on the rows of
sentences not yet finished (`live_rows`): one long sentence no longer keeps a
whole batch computing, and the self-attention caches hold the steps taken,
so following the beam's choices (`follow`) copies no empty slots. Under XLA,
which compiles one shape, every row runs to the end in caches of
`max_length` slots.
"""

import itertools

import keras
import tensorflow as tf
from keras import ops

from translator.defaults import DEFAULT_BEAM, LENGTH_PENALTY
from translator.model import ensemble, masks

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


def _decoder_caches(model, encoded, batch, slots):
    """Empty self-attention caches of `slots` steps and filled cross-attention caches, one per decoder layer."""
    self_caches, cross_caches = [], []
    for layer in model.decoder_layers:
        self_caches.append(layer.self_attention.empty_cache(batch, slots, encoded.dtype))
        cross_caches.append(layer.cross_attention.key_value_cache(encoded))
    return self_caches, cross_caches


def _decoder_step(model, token, index, encoded, source_padding, self_caches, cross_caches, projection, append=False):
    """One token `(batch, 1)` at position `index` through the decoder.

    Returns next-token logits `(batch, pieces)` (`projection` is the model's `output_weights`), the
    updated caches, and the cross-attention of the last layer averaged over heads `(batch, source_length)`.
    The self-attention caches have a slot for every position (`append`
    False), or hold the `index` steps before this one (`append`).
    """
    x = model.target_embedding(token, start_index=index)
    new_caches = []
    for layer, cache, cross in zip(model.decoder_layers, self_caches, cross_caches):
        x, cache, scores = layer(
            x, encoded, encoder_padding_mask=source_padding, self_attention_cache=cache,
            cache_update_index=None if append else index, cross_attention_cache=cross, return_attention_scores=True,
        )
        new_caches.append(cache)
    kernel, bias = projection
    # float32 whatever the layers compute in (`model.in_bfloat16`): the loops keep it in float32 tensors.
    logits = ops.cast(ops.matmul(ops.cast(x[:, 0, :], kernel.dtype), kernel), "float32") + bias
    return logits, new_caches, ops.cast(ops.mean(scores[:, :, 0, :], axis=1), "float32")


def live_rows(done, copies, compact=True):
    """The rows the decoder still runs on, ascending: those of every sentence (`copies` rows each) with a
    hypothesis not ended; without `compact`, every row (XLA compiles one shape).

    >>> ops.convert_to_numpy(live_rows(ops.convert_to_tensor([True, True, False, True, True, True]), 2))
    array([2, 3], dtype=int32)
    """
    if not compact:
        return ops.arange(ops.shape(done)[0], dtype="int32")
    sentence_live = ops.logical_not(ops.all(ops.reshape(done, (-1, copies)), axis=1))
    return ops.nonzero(ops.repeat(sentence_live, copies))[0]


def spread(live, values, default):
    """`default`, its rows `live` replaced by `values`: what the decoder computed for the live rows, for every row."""
    return ops.scatter_update(default, live[:, None], values)


def follow(origin, live, next_live, caches):
    """The caches of the rows `next_live`, from those of the rows `live` (the rows they hold now): each row's
    from the row it continues, `origin[row]` (always a live row: a finished sentence has no successor)."""
    position = spread(live, ops.arange(ops.shape(live)[0], dtype="int32"), ops.zeros_like(origin))
    return reorder(ops.take(position, ops.take(origin, next_live)), caches)


def _begin(model, source_ids, start_id, max_length, copies=1, compact=True, shortlist=None):
    """What both loops start from, with each sentence repeated `copies` times (the beams), sentence-major.

    With `compact`, rows leave as their sentences end (`live_rows`), and the
    self-attention caches grow a step at a time: what reordering them copies
    is the steps taken, not `max_length` slots. Without it (XLA), every shape
    stays as it starts.

    With a `shortlist.Shortlist`, the logits are those of the batch's candidates alone, in ascending order of
    their ids (padding, id 0, first).

    Encodes the sources once and returns `(step, state, narrow, pieces)`. `step(previous, index, live,
    caches, context)` runs `_decoder_step` on the rows `live` (`live_rows`); `state` is the loop's first
    `(index, previous, done, tokens, attended, live, caches, context)`; `narrow(live, next_live, context)`
    is the `context` of the rows `next_live`: their source padding and cross-attention caches;
    `pieces(chosen)` turns positions in the logits into vocabulary ids.

    An `ensemble.Ensemble` runs every member's step on the same tokens: the caches are the members' one
    after another, the logits `ensemble.mean_log_probs` of theirs, the attention the mean of theirs.
    """
    source_ids = ops.convert_to_tensor(source_ids, "int32")
    rows = ops.shape(source_ids)[0] * copies
    source_padding = masks.padding_mask(source_ids)
    models = ensemble.members(model)
    self_caches, cross_caches = [], []
    for member in models:
        member_caches = _decoder_caches(member, member.encode(source_ids, training=False), rows,
                                        0 if compact else max_length)
        self_caches, cross_caches = self_caches + member_caches[0], cross_caches + member_caches[1]
    # Where each member's caches start and end in those lists: each has one per decoder layer.
    ends = list(itertools.accumulate(len(member.decoder_layers) for member in models))
    bounds = list(zip([0, *ends], ends))
    # Once a batch, not once a step: the candidates' rows of the output projection, transposed, the table in
    # the layers' dtype. With bfloat16 layers, multiplying by it in bfloat16 made decoding about 1.2 times as
    # fast for 0.01 BLEU (bench/RESULTS.md); the bias and the logits stay float32.
    vocabulary = None if shortlist is None else shortlist.candidates(source_ids)
    projections = []
    for member in models:
        kernel, bias = member.output_weights(vocabulary)
        projections.append((ops.cast(kernel, member.compute_dtype), bias))
    if copies > 1:
        vocabulary, projections = _whole_blocks(vocabulary, projections)

    def gather(live):
        # A sentence's beams share its encoding and cross-attention keys and values: computed once, then gathered.
        return reorder(live // copies, [source_padding, *cross_caches])

    def narrow(live, next_live, context):
        # Rows only ever leave, so the same number of rows is the same rows.
        return ops.cond(ops.shape(next_live)[0] < ops.shape(live)[0], lambda: gather(next_live), lambda: context)

    def step(previous, index, live, caches, context):
        padding, *cross = context
        token = ops.take(previous, live, axis=0)
        outputs = [_decoder_step(member, token, index, None, padding, caches[start:end], cross[start:end], projection,
                                 compact) for member, (start, end), projection in zip(models, bounds, projections)]
        if len(outputs) == 1:
            return outputs[0]
        logits, caches, attention = zip(*outputs)
        return (ensemble.mean_log_probs(logits), [cache for member in caches for cache in member],
                ops.mean(ops.stack(attention), axis=0))

    previous = ops.full((rows, 1), start_id, "int32")
    # An empty source (all padding) has nothing to translate: it is done before the first step.
    done = ops.repeat(ops.logical_not(ops.any(source_padding, axis=1)), copies)
    live = live_rows(done, copies, compact)
    empty = ops.zeros((rows, max_length), "int32")

    def pieces(chosen):
        return chosen if vocabulary is None else ops.take(vocabulary, chosen)

    return step, (0, previous, done, empty, empty, live, reorder(live, self_caches), gather(live)), narrow, pieces


def _whole_blocks(vocabulary, projections):
    """`vocabulary` (None: every piece) and the `projections` widened to a whole number of `top_k`'s blocks,
    once a batch, so that the beam's `top_k` has no logits to pad at every step (a copy of them all: 5% of a
    beam step on a CPU). The new columns score `IMPOSSIBLE` (a probability of 0) and stand for padding."""
    kernel = projections[0][0]
    extra = -ops.shape(kernel)[1] % TOP_K_BLOCK
    if vocabulary is not None:
        vocabulary = ops.pad(vocabulary, [[0, extra]])
    return vocabulary, [(ops.pad(kernel, [[0, 0], [0, extra]]), ops.pad(bias, [[0, extra]], constant_values=IMPOSSIBLE))
                        for kernel, bias in projections]


def argmax(values):
    """The int32 position of the largest of the last axis. Not `ops.argmax`: for floats, Keras' TensorFlow
    backend first turns every -0.0 into minus the smallest float (numpy's answer where a flushing CPU would
    tie them), four more operations over all the values: greedy decoding was about 1.1 times as fast
    without them on a CPU, for ties that logits do not have."""
    return tf.argmax(values, axis=-1, output_type=tf.int32)


def _record(tokens, attended, index, chosen, attention):
    """Writes step `index`: the chosen tokens, and the source position each one's cross-attention weighted most
    (0 after `[end]`, like the tokens)."""
    tokens = ops.slice_update(tokens, (0, index), chosen[:, None])
    where = ops.where(chosen == 0, 0, argmax(attention))
    return tokens, ops.slice_update(attended, (0, index), where[:, None])


def _loop(step, state, max_length, compact):
    """Runs `step` over `state` until every row is done or `max_length` tokens are written.

    With `compact`, the shapes of the state may change from step to step (rows leave, caches grow).
    """

    def keep_going(index, previous, done, *rest):
        return ops.logical_and(index < max_length, ops.logical_not(ops.all(done)))

    if not compact:
        return ops.while_loop(keep_going, step, state, maximum_iterations=max_length)
    state = tf.nest.map_structure(tf.convert_to_tensor, state)
    any_shape = tf.nest.map_structure(lambda x: tf.TensorShape([None] * x.shape.rank), state)
    return tf.while_loop(keep_going, lambda *state: step(*state), state, shape_invariants=any_shape,
                         maximum_iterations=max_length)


def greedy_decode(model, source_ids, start_id, end_id, max_length, compact=True, shortlist=None):
    """Greedy decoding with cached encoder output and key/value caches.

    Returns `(tokens, attended)`, both `(batch, max_length)` int32: the chosen
    target ids (0 after `[end]`) and, for each, the source position its
    cross-attention weighted most. With `compact`, a finished sentence
    leaves the rows the decoder runs on (see `live_rows`). With a `shortlist.Shortlist`, each batch
    chooses among its candidates alone.
    """
    decoder_step, state, narrow, pieces = _begin(model, source_ids, start_id, max_length, compact=compact,
                                                 shortlist=shortlist)

    def step(index, previous, done, tokens, attended, live, caches, context):
        logits, caches, attention = decoder_step(previous, index, live, caches, context)
        best = spread(live, pieces(argmax(logits)), ops.zeros_like(done, "int32"))
        chosen = ops.where(done, 0, best)
        attention = spread(live, attention, ops.zeros((ops.shape(done)[0], ops.shape(attention)[1])))
        tokens, attended = _record(tokens, attended, index, chosen, attention)
        done = ops.logical_or(done, ops.equal(chosen, end_id))
        next_live = live_rows(done, 1, compact)
        caches = ops.cond(ops.shape(next_live)[0] < ops.shape(live)[0],
                          lambda: follow(ops.arange(ops.shape(done)[0], dtype="int32"), live, next_live, caches),
                          lambda: caches)
        return index + 1, chosen[:, None], done, tokens, attended, next_live, caches, narrow(live, next_live, context)

    _, _, _, tokens, attended, *_ = _loop(step, state, max_length, compact)
    return tokens, attended


# A score no hypothesis reaches: the cost of what is ruled out (beams not yet live, words after the end).
IMPOSSIBLE = -1e9
TINY = 1.1754944e-38  # float32's smallest normal number


def gnmt_penalty(lengths, alpha):
    """GNMT's length penalty ((5 + length) / 6) ** alpha: a hypothesis is ranked by log-probability over it,
    so a longer one is not beaten by a short one merely for having more words to pay for.

    >>> [round(float(p), 3) for p in gnmt_penalty(ops.convert_to_tensor([1.0, 7.0]), 0.6)]
    [1.0, 1.516]
    """
    return ops.power((5.0 + lengths) / 6.0, alpha)


# `top_k` ranks the vocabulary in blocks of this many: about the square root of a vocabulary of 8,000.
TOP_K_BLOCK = 128


def top_k(values, k, width=TOP_K_BLOCK):
    """`ops.top_k` along the last axis of `(rows, n)` `values`, ties to the lower index alike, in two short passes.

    The `k` largest values lie in the `k` blocks of `width` whose maxima are largest (ties to the lower
    block): each of their maxima is at least every value of a block left out, so at least `k` values come
    before it. Ranking the block maxima, then the `k * width` values of those blocks in their order, sorts
    two short rows instead of a long one (about 4 times faster than `ops.top_k` over 8,000 logits).

    >>> [ops.convert_to_numpy(x).tolist() for x in top_k(ops.convert_to_tensor([[1., 5., 3., 5., 0., 4.]]), 3, 2)]
    [[[5.0, 5.0, 4.0]], [[1, 3, 5]]]
    """
    rows, n = ops.shape(values)[0], ops.shape(values)[1]
    width = ops.maximum(1, ops.minimum(width, n // k))  # at least k blocks; n is a tensor under a shortlist
    blocks = -(-n // width)
    padded = ops.pad(values, [[0, 0], [0, blocks * width - n]], constant_values=float("-inf"))
    padded = ops.reshape(padded, (rows, blocks, width))
    _, chosen = ops.top_k(ops.max(padded, axis=-1), k)
    chosen = ops.sort(chosen, axis=-1)
    # The chosen blocks as rows of the (rows * blocks, width) table: one gather of whole rows, where
    # `take_along_axis` along the middle axis would transpose every value first (a millisecond a beam step).
    flat_index = chosen + ops.arange(rows, dtype=chosen.dtype)[:, None] * blocks
    candidates = ops.reshape(ops.take(ops.reshape(padded, (-1, width)), flat_index, axis=0), (rows, k * width))
    best, where = ops.top_k(candidates, k)
    return best, ops.take_along_axis(chosen, where // width, axis=1) * width + where % width


def extensions(probs, done, beam_size):
    """Each row's best `beam_size` next tokens and their log-probabilities, both `(rows, beam_size)`, from its
    next-token probabilities `probs`.

    A finished hypothesis extends only with padding, at no cost (`finished_extensions`: chosen after the
    ranking, on `beam_size` values a row, not by masking every log-probability first). A row's
    extensions share its length penalty, so only its best `beam_size` can be
    among its sentence's best `beam_size`: ranking those alone spares sorting
    the whole vocabulary. Only their logarithms are taken: a softmax and `beam_size` logarithms a row
    take less than half the time of a log-softmax of every piece on a CPU (oneDNN computes the softmax).
    """
    best, tokens = top_k(probs, beam_size)
    # Below float32's smallest normal number a probability loses its digits, and 0 has no logarithm: it costs
    # as much as that number (about e ** -87), a cost that no hypothesis kept otherwise pays.
    best = ops.log(ops.maximum(best, TINY))
    finished_tokens, finished_scores = finished_extensions(done, beam_size)
    return ops.where(done[:, None], finished_tokens, tokens), ops.where(done[:, None], finished_scores, best)


def finished_extensions(done, beam_size):
    """What `extensions` gives rows that have ended: padding at no cost, then tokens 1, 2, ... at an
    impossible cost (as ranking a row of such costs would, ties going to the lower token)."""
    rows = ops.shape(done)[0]
    tokens = ops.tile(ops.arange(beam_size, dtype="int32")[None, :], (rows, 1))
    scores = ops.where(ops.arange(beam_size) == 0, 0.0, IMPOSSIBLE)
    return tokens, ops.tile(ops.cast(scores, "float32")[None, :], (rows, 1))


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
    """Every per-row tensor in `tensors` (a list, whose items may be a cache's pair), its rows now those of the
    hypotheses they continue."""
    return keras.tree.map_structure(lambda x: ops.take(x, origin, axis=0), tensors)


def beam_decode(model, source_ids, start_id, end_id, max_length, beam_size=DEFAULT_BEAM, length_penalty=LENGTH_PENALTY,
                all_beams=False, compact=True, shortlist=None):
    """Beam search over the same cached step; returns `(tokens, attended)` like `greedy_decode`.

    Hypotheses are ranked by log-probability over `gnmt_penalty` of
    exponent `length_penalty`. Each step scores the candidates, keeps the top `beam_size`
    of each sentence, reorders the per-row state to follow them, and retires those that ended;
    the loop stops when every hypothesis has ended. With `compact`, the decoder runs only on the
    sentences with a hypothesis not ended (`live_rows`), and its caches follow the kept hypotheses
    (`follow`); a finished sentence's rows extend only with padding. With `all_beams`, returns every
    hypothesis, `beam_size` rows a sentence, best first, and their ranks: `(tokens, attended, ranked)`,
    so that a caller can choose by other means. With a `shortlist.Shortlist`, each batch extends its
    hypotheses with its candidates alone (their log-softmax is over those).
    """
    batch = ops.shape(source_ids)[0]
    decoder_step, state, narrow, pieces = _begin(model, source_ids, start_id, max_length, copies=beam_size,
                                                 compact=compact, shortlist=shortlist)
    # Only the first beam is live at the start, so the first step does not pick one token beam_size times.
    first = ops.concatenate([ops.zeros((1,)), ops.full((beam_size - 1,), IMPOSSIBLE)])
    scores = ops.tile(first, (batch,))
    lengths = ranked = ops.zeros((batch * beam_size,), "float32")

    def step(index, previous, done, tokens, attended, live, caches, context, scores, lengths, ranked):
        logits, caches, attention = decoder_step(previous, index, live, caches, context)
        probs = ops.softmax(ops.cast(logits, "float32"), axis=-1)
        chosen, best = extensions(probs, ops.take(done, live, axis=0), beam_size)
        tokens_next, extension_scores = (spread(live, x, default) for x, default in zip(
            (pieces(chosen), best), finished_extensions(done, beam_size)))
        attention = spread(live, attention, ops.zeros((ops.shape(done)[0], ops.shape(attention)[1])))
        log_probs, ranks, lengths = score_candidates(scores, lengths, done, extension_scores, length_penalty)
        origin, chosen, scores, ranked = keep_top(log_probs, ranks, tokens_next, beam_size)
        tokens, attended, attention, done, lengths = reorder(origin, [tokens, attended, attention, done, lengths])
        tokens, attended = _record(tokens, attended, index, chosen, attention)
        done = retire(done, chosen, end_id)
        next_live = live_rows(done, beam_size, compact)
        caches = follow(origin, live, next_live, caches)
        return (index + 1, chosen[:, None], done, tokens, attended, next_live, caches, narrow(live, next_live, context),
                scores, lengths, ranked)

    _, _, _, tokens, attended, *_, ranked = _loop(step, (*state, scores, lengths, ranked), max_length, compact)
    if all_beams:
        return tokens, attended, ranked
    # Beams stay sorted by top_k, so the first of each sentence is the best.
    return tokens[::beam_size], attended[::beam_size]


def decoding_graph(model, start_id, end_id, max_length, beam_size=1, jit_compile=False, all_beams=False,
                   shortlist=None):
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

    A `shortlist.Shortlist` limits each batch's choices to its candidates,
    without XLA only: their number changes from batch to batch, and XLA
    would compile each anew (on a GPU or TPU the whole vocabulary is one
    large multiplication anyway).
    """
    loop, options = (beam_decode, {"beam_size": beam_size, "all_beams": all_beams}) if beam_size > 1 else (
        greedy_decode, {})
    # XLA compiles one shape per input: its loop keeps every row to the end.
    options.update(compact=not jit_compile, shortlist=None if jit_compile else shortlist)
    # No autograph: these functions branch on no tensor (the loops are explicit `while_loop`s), and autograph's
    # rewriting of every function they call (Keras layers, tensorflow-text) was half of a first translation's
    # 4.3 s (bench/RESULTS.md).
    copies = beam_size if beam_size > 1 and all_beams else 1
    decode = tf.function(
        lambda ids: loop(model, ids, start_id, end_id, max_length, **options), jit_compile=jit_compile,
        autograph=False,
    )

    @tf.function(input_signature=[tf.TensorSpec((None, None), tf.int32, name="source_ids")], autograph=False)
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
