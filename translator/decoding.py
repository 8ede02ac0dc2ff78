"""Inference: the cached greedy and beam-search loops, and `Translator`.

The encoder runs once per batch. Each decoder layer's cross-attention keys and
values are projected once from its output and cached; its self-attention keys
and values grow in a fixed-size cache, one slot per step, so every step runs
the decoder on the newest token only. The loop is `keras.ops.while_loop`
inside one `tf.function`: no Python per step, no host sync per step, and the
same graph runs on CPU, GPU and TPU.
"""

import logging
import re
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import tensorflow as tf
from keras import ops

from translator import masks, model_dir
from translator.devices import resolve_auto

logger = logging.getLogger(__name__)

# A sentence ends at . ! ? (or …) followed by space: long inputs are split
# there and translated sentence by sentence.
SENTENCE_BREAK = re.compile(r"(?<=[.!?…])\s+")
# Under XLA, source lengths are padded up to a multiple of this: few shapes to compile, little padding to compute.
LENGTH_BUCKET = 8
ROW_STEP = 8


def row_bucket(batch):
    """The rows a batch of `batch` sentences is padded to under XLA: few shapes, little padding.

    Powers of two up to `ROW_STEP`, then multiples of it: 1, 2, 4, 8, 16, 24, 32, ...
    (the `allowed_batch_sizes` of TF Serving's batching, in one formula).
    """
    batch = tf.convert_to_tensor(batch, tf.int32)
    power_of_two = 2 ** tf.reduce_sum(tf.cast(2 ** tf.range(31) < batch, tf.int32))
    return tf.where(batch <= ROW_STEP, power_of_two, -(-batch // ROW_STEP) * ROW_STEP)


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


def greedy_decode(model, source_ids, start_id, end_id, max_length):
    """Greedy decoding with cached encoder output and key/value caches.

    Returns `(tokens, attended)`, both `(batch, max_length)` int32: the chosen
    target ids (0 after `[end]`) and, for each, the source position its
    cross-attention weighted most.
    """
    source_ids = ops.convert_to_tensor(source_ids, "int32")
    batch = ops.shape(source_ids)[0]
    source_padding = masks.padding_mask(source_ids)
    encoded = model.encode(source_ids, training=False)
    self_caches, cross_caches = _decoder_caches(model, encoded, batch, max_length)
    tokens = ops.zeros((batch, max_length), "int32")
    attended = ops.zeros((batch, max_length), "int32")
    previous = ops.full((batch, 1), start_id, "int32")
    # An empty source (all padding) has nothing to translate: it is done before the first step.
    done = ops.logical_not(ops.any(source_padding, axis=1))

    def keep_going(index, previous, done, tokens, attended, caches):
        return ops.logical_and(index < max_length, ops.logical_not(ops.all(done)))

    def step(index, previous, done, tokens, attended, caches):
        logits, caches, attention = _decoder_step(
            model, previous, index, encoded, source_padding, caches, cross_caches
        )
        chosen = ops.where(done, 0, ops.cast(ops.argmax(logits, axis=-1), "int32"))
        tokens = ops.slice_update(tokens, (0, index), chosen[:, None])
        where = ops.cast(ops.argmax(attention, axis=-1), "int32")
        attended = ops.slice_update(attended, (0, index), where[:, None])
        done = ops.logical_or(done, ops.equal(chosen, end_id))
        return index + 1, chosen[:, None], done, tokens, attended, caches

    _, _, _, tokens, attended, _ = ops.while_loop(
        keep_going, step, (0, previous, done, tokens, attended, self_caches), maximum_iterations=max_length
    )
    return tokens, attended


def beam_decode(model, source_ids, start_id, end_id, max_length, beam_size=4, length_penalty=0.6):
    """Beam search over the same cached step; returns `(tokens, attended)` like `greedy_decode`.

    Hypotheses are scored by log-probability divided by the GNMT length
    penalty ((5 + length) / 6) ** length_penalty, so longer sentences are not
    unfairly beaten by short ones.
    """
    source_ids = ops.convert_to_tensor(source_ids, "int32")
    batch = ops.shape(source_ids)[0]
    # Each sentence becomes beam_size rows: (batch * beam, ...), sentence-major.
    source_ids = ops.repeat(source_ids, beam_size, axis=0)
    source_padding = masks.padding_mask(source_ids)
    encoded = model.encode(source_ids, training=False)
    self_caches, cross_caches = _decoder_caches(model, encoded, batch * beam_size, max_length)
    rows = batch * beam_size
    tokens = ops.zeros((rows, max_length), "int32")
    attended = ops.zeros((rows, max_length), "int32")
    # Only the first beam is live at the start, so the first step does not pick one token beam_size times.
    first = ops.concatenate([ops.zeros((1,)), ops.full((beam_size - 1,), -1e9)])
    scores = ops.tile(first, (batch,))
    done = ops.logical_not(ops.any(source_padding, axis=1))
    previous = ops.full((rows, 1), start_id, "int32")
    lengths = ops.zeros((rows,), "float32")

    def keep_going(index, previous, done, scores, lengths, tokens, attended, caches):
        return ops.logical_and(index < max_length, ops.logical_not(ops.all(done)))

    def step(index, previous, done, scores, lengths, tokens, attended, caches):
        logits, caches, attention = _decoder_step(
            model, previous, index, encoded, source_padding, caches, cross_caches
        )
        log_probs = ops.log_softmax(ops.cast(logits, "float32"), axis=-1)
        vocab = ops.shape(log_probs)[-1]
        # A finished hypothesis may only extend itself with padding, at no cost.
        pad_only = ops.where(ops.arange(vocab) == 0, 0.0, -1e9)
        log_probs = ops.where(done[:, None], pad_only[None, :], log_probs)
        candidates = ops.reshape(scores[:, None] + log_probs, (batch, beam_size * vocab))
        new_lengths = lengths[:, None] + ops.cast(ops.logical_not(done), "float32")[:, None]
        new_lengths = ops.reshape(ops.broadcast_to(new_lengths, (rows, vocab)), (batch, beam_size * vocab))
        penalty = ops.power((5.0 + new_lengths) / 6.0, length_penalty)
        _, best = ops.top_k(candidates / penalty, beam_size)
        origin = ops.cast(best // vocab, "int32") + ops.arange(batch, dtype="int32")[:, None] * beam_size
        origin = ops.reshape(origin, (rows,))
        chosen = ops.reshape(ops.cast(best % vocab, "int32"), (rows,))
        scores = ops.reshape(ops.take_along_axis(candidates, best, axis=1), (rows,))
        lengths = ops.reshape(ops.take_along_axis(new_lengths, best, axis=1), (rows,))
        # Rows now continue the hypotheses they were chosen from: reorder every per-row state.
        caches = [ops.take(cache, origin, axis=0) for cache in caches]
        tokens = ops.slice_update(ops.take(tokens, origin, axis=0), (0, index), chosen[:, None])
        where = ops.cast(ops.argmax(ops.take(attention, origin, axis=0), axis=-1), "int32")
        attended = ops.slice_update(ops.take(attended, origin, axis=0), (0, index), where[:, None])
        done = ops.logical_or(ops.take(done, origin, axis=0), ops.equal(chosen, end_id))
        done = ops.logical_or(done, ops.equal(chosen, 0))
        return index + 1, chosen[:, None], done, scores, lengths, tokens, attended, caches

    state = (0, previous, done, scores, lengths, tokens, attended, self_caches)
    _, _, _, scores, lengths, tokens, attended, _ = ops.while_loop(
        keep_going, step, state, maximum_iterations=max_length
    )
    # Beams stay sorted by top_k, so the first of each sentence is the best.
    return tokens[::beam_size], attended[::beam_size]


def recompute_greedy(model, source_ids, max_length, start_id, end_id):
    """The keras.io example's loop: every step re-runs the encoder and the decoder over the whole prefix.

    Kept as the reference that the cached loop must match token for token,
    and as the baseline of the benchmark. Returns target ids `(batch, max_length)`.
    """
    source_ids = ops.convert_to_tensor(source_ids, "int32")
    batch = int(ops.shape(source_ids)[0])
    prefix = np.full((batch, 1), start_id, "int32")
    done = np.zeros(batch, bool)
    for _ in range(max_length):
        encoded = model.encode(source_ids, training=False)
        logits = model.decode(ops.convert_to_tensor(prefix), encoded, masks.padding_mask(source_ids))
        chosen = np.where(done, 0, np.argmax(ops.convert_to_numpy(logits[:, -1, :]), axis=-1)).astype("int32")
        prefix = np.concatenate([prefix, chosen[:, None]], axis=1)
        done |= chosen == end_id
        if done.all():
            break
    tokens = np.zeros((batch, max_length), "int32")
    tokens[:, : prefix.shape[1] - 1] = prefix[:, 1:]
    return tokens


class Translator:
    """English in, readable Spanish out.

    Args:
        model, pipeline, config: what `model_dir.load` returns (`Translator.load` does it).
        batch_size: sentences decoded together.
        jit_compile: compile the decoding loop with XLA: True, False, or None
            (auto: on with a GPU or TPU). On a CPU, XLA decodes about 2-3x
            faster but compiles for a second or two per batch shape, which
            pays off in a long-running process, not in one command.
        parallel_batches: batches decoded at the same time, in threads.

    Example:

    >>> translator = Translator.load("saved_models/en-es")
    >>> translator.translate("Where is the train station?")
    '¿Dónde está la estación de tren?'
    """

    def __init__(self, model, pipeline, config, batch_size=64, jit_compile=None, parallel_batches=2):
        self.model = model
        self.pipeline = pipeline
        self.config = config
        self.batch_size = batch_size
        self.max_length = config.sequence_length
        self.jit_compile = resolve_auto(jit_compile)
        self.parallel_batches = parallel_batches
        self._id_functions = {}
        self._text_functions = {}
        self.greedy_ids = self.ids_function(beam_size=1)
        # Traced once: run eagerly, the ragged text ops cost milliseconds per call.
        self._count_tokens = tf.function(
            lambda texts: pipeline.split_source(pipeline.standardize_source(texts)).merge_dims(1, 2).row_lengths(),
            input_signature=[tf.TensorSpec([None], tf.string)],
        )

    def ids_function(self, beam_size=1):
        """Decoding as one graph: source ids `(batch, length)` in, `(tokens, attended)` out.

        With `jit_compile` the loop is compiled by XLA, which fuses its many
        small per-step ops: about 3x faster per sentence on a CPU, and what a
        TPU needs. XLA compiles once per input shape, so ids are padded to a
        few shapes first: rows to a `row_bucket` (extra rows are empty
        sentences, done before the first step) and length to a multiple of
        `LENGTH_BUCKET`. Without XLA, batches are only trimmed to their longest
        sentence: padding past it changes nothing (it is masked) but costs compute.
        """
        if beam_size not in self._id_functions:
            start, end = self.pipeline.start_id, self.pipeline.end_id
            loop, options = (beam_decode, {"beam_size": beam_size}) if beam_size > 1 else (greedy_decode, {})
            decode = tf.function(
                lambda ids: loop(self.model, ids, start, end, self.max_length, **options), jit_compile=self.jit_compile
            )

            @tf.function(input_signature=[tf.TensorSpec((None, None), tf.int32, name="source_ids")])
            def padded_decode(source_ids):
                batch = tf.shape(source_ids)[0]
                longest = tf.maximum(tf.reduce_max(tf.math.count_nonzero(source_ids, axis=1, dtype=tf.int32)), 1)
                if not self.jit_compile:
                    return decode(source_ids[:, :longest])
                length = tf.minimum(-(-longest // LENGTH_BUCKET) * LENGTH_BUCKET, self.max_length)
                source_ids = source_ids[:, :length]
                rows = row_bucket(batch)
                source_ids = tf.pad(source_ids, [[0, rows - batch], [0, length - tf.shape(source_ids)[1]]])
                tokens, attended = decode(source_ids)
                return tokens[:batch], attended[:batch]

            self._id_functions[beam_size] = padded_decode
        return self._id_functions[beam_size]

    @classmethod
    def load(cls, directory, **kwargs):
        return cls(*model_dir.load(directory), **kwargs)

    def text_function(self, beam_size=1):
        """The whole of translation as one graph: strings `(batch,)` in, strings out.

        Vectorisation, decoding, the copying of source words for `[UNK]` and
        detokenisation run without returning to Python, which matters for
        single sentences, where the decoding itself is only a few milliseconds.
        The exported SavedModel serves this same function.
        """
        if beam_size not in self._text_functions:
            pipeline, decode = self.pipeline, self.ids_function(beam_size)

            def translate(texts):
                tokens, attended = decode(tf.cast(pipeline.source(texts), tf.int32))
                words = tf.gather(pipeline.source_words(texts), attended, batch_dims=1)
                return pipeline.detokenize(tokens, unk_words=words)

            self._text_functions[beam_size] = tf.function(
                translate, input_signature=[tf.TensorSpec([None], tf.string, name="texts")]
            )
        return self._text_functions[beam_size]

    def warm_up(self, max_batch_size=None, beam_size=1):
        """Prepares every batch shape up to `max_batch_size` sentences, so no caller waits for a compile.

        Without XLA one call traces the graph, which serves any shape. With
        XLA each padded shape (rows to a `row_bucket`, length to a multiple
        of `LENGTH_BUCKET`) is compiled once. Returns the number of shapes.
        """
        self.translate("Hello.", beam_size)
        if not self.jit_compile:
            return 1
        rows = sorted({int(row_bucket(size)) for size in range(1, (max_batch_size or self.batch_size) + 1)})
        steps = range(LENGTH_BUCKET, self.max_length + LENGTH_BUCKET, LENGTH_BUCKET)
        lengths = sorted({min(length, self.max_length) for length in steps})
        shapes = [(r, length) for r in rows for length in lengths]
        with ThreadPoolExecutor(self.parallel_batches) as pool:
            list(pool.map(lambda shape: self.ids_function(beam_size)(tf.ones(shape, tf.int32)), shapes))
        return len(shapes)

    def decode_batch(self, texts, beam_size=1):
        """Translates a list of texts that each fit the model; returns a list of str."""
        translations = self.text_function(beam_size)(tf.constant(texts, tf.string))
        return [s.decode("utf-8") for s in translations.numpy()]

    def token_counts(self, texts):
        """How many source tokens each text becomes (before truncation), in one batched call."""
        return self._count_tokens(tf.constant(texts, tf.string)).numpy()

    def segments(self, texts):
        """Cuts texts into pieces that fit the model: sentences, then runs of words if still too long.

        Returns `(owners, pieces, sizes)`: each piece, the index of the text it
        came from and its number of source tokens.
        """
        owners, sentences = [], []
        for owner, text in enumerate(texts):
            for sentence in SENTENCE_BREAK.split(" ".join(text.split())):
                if sentence:
                    owners.append(owner)
                    sentences.append(sentence)
        segments = ([], [], [])

        def add(*segment):
            for column, value in zip(segments, segment):
                column.append(value)

        for owner, sentence, size in zip(owners, sentences, self.token_counts(sentences)):
            if size <= self.max_length:
                add(owner, sentence, size)
                continue
            logger.warning(
                "a sentence of %d tokens exceeds the model's %d; translating it in pieces", size, self.max_length
            )
            words = sentence.split()
            run, used = [], 0
            for word, word_size in zip(words, self.token_counts(words)):
                if run and used + word_size > self.max_length:
                    add(owner, " ".join(run), used)
                    run, used = [], 0
                run.append(word)
                used += word_size
            add(owner, " ".join(run), used)
        return segments

    def translate(self, texts, beam_size=1, batch_size=None):
        """Translates one string (returns str) or a list of strings (returns a list).

        Empty or blank text gives "". Text longer than the model's sequence
        length is split at sentence boundaries (and, if one sentence is still
        too long, into runs of words, with a logged warning), each piece is
        translated, and the pieces are joined. Pieces are sorted by length and
        decoded `batch_size` at a time (default: the translator's).
        """
        if beam_size < 1:
            raise ValueError(f"beam size must be at least 1, got {beam_size}")
        single = isinstance(texts, str)
        texts = [texts] if single else list(texts)
        owners, pieces, sizes = self.segments(texts)
        # Batches of similar lengths: short sentences do not wait for long ones.
        order = sorted(range(len(pieces)), key=lambda i: (sizes[i], len(pieces[i])))
        batch_size = batch_size or self.batch_size
        batches = [order[start:start + batch_size] for start in range(0, len(order), batch_size)]
        outputs = [""] * len(pieces)
        # Batches decode in parallel threads (TensorFlow releases the GIL): one batch's
        # loop alone leaves the cores idle between its small per-step ops.
        with ThreadPoolExecutor(self.parallel_batches) as pool:
            decoded = pool.map(lambda batch: self.decode_batch([pieces[i] for i in batch], beam_size), batches)
            for batch, batch_outputs in zip(batches, decoded):
                for i, output in zip(batch, batch_outputs):
                    outputs[i] = output
        joined = [[] for _ in texts]
        for owner, output in zip(owners, outputs):
            if output:
                joined[owner].append(output)
        results = [" ".join(parts) for parts in joined]
        return results[0] if single else results

    def attention(self, text):
        """Cross-attention of the greedy translation of one sentence.

        Returns `(source_tokens, target_tokens, weights)`, weights of shape
        `(len(target_tokens), len(source_tokens))` from the last decoder layer,
        averaged over heads: row i says which source tokens target token i looked at.
        """
        source_ids = tf.cast(self.pipeline.source(tf.constant([text])), tf.int32)
        tokens, _ = self.greedy_ids(source_ids)
        tokens = [int(t) for t in tokens.numpy()[0] if t]
        if self.pipeline.end_id in tokens:
            tokens = tokens[: tokens.index(self.pipeline.end_id) + 1]
        prefix = ops.convert_to_tensor([[self.pipeline.start_id] + tokens[:-1]], "int32")
        encoded = self.model.encode(source_ids, training=False)
        _, scores = self.model.decode(prefix, encoded, masks.padding_mask(source_ids), return_attention_scores=True)
        source = [int(i) for i in source_ids.numpy()[0] if i]
        weights = ops.convert_to_numpy(ops.mean(scores[-1][0], axis=0))[:, : len(source)]
        source_tokens = [self.pipeline.source_vocabulary[i] for i in source]
        target_tokens = [self.pipeline.target_vocabulary[i] for i in tokens]
        return source_tokens, target_tokens, weights
