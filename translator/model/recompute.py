"""Decoding without caches, as the keras.io example does it: the reference the cached loops must match (tests,
notebook 5), the benchmark's baseline and the epoch scores of `translator.training.ids.fit`. Slow by design: every step
re-runs the whole model on the whole prefix. Any Keras backend: nothing here imports TensorFlow."""

import numpy as np
from keras import ops

from translator.defaults import LENGTH_PENALTY
from translator.model import masks


def recompute_greedy(model, source_ids, max_length, start_id, end_id):
    """Greedy decoding that re-runs the encoder and the decoder over the whole prefix at every step.

    As in the keras.io example, the prefix is padded to `max_length`: every step
    runs the model on the same shapes (the causal mask keeps the padding out of
    the positions read), so a backend that compiles each shape (JAX) compiles
    once, not once a step. Returns target ids `(batch, max_length)`, 0 after `[end]`.
    """
    source_ids = ops.convert_to_tensor(source_ids, "int32")
    batch = int(ops.shape(source_ids)[0])
    tokens = np.zeros((batch, max_length), "int32")
    done = np.zeros(batch, bool)
    for step in range(max_length):
        prefix = np.concatenate([np.full((batch, 1), start_id, "int32"), tokens[:, :-1]], axis=1)
        encoded = model.encode(source_ids, training=False)
        logits = model.decode(ops.convert_to_tensor(prefix), encoded, masks.padding_mask(source_ids))
        chosen = np.where(done, 0, np.argmax(ops.convert_to_numpy(logits[:, step, :]), axis=-1)).astype("int32")
        tokens[:, step] = chosen
        done |= chosen == end_id
        if done.all():
            break
    return tokens


def recompute_beam(model, source_ids, max_length, start_id, end_id, beam_size, length_penalty=LENGTH_PENALTY):
    """Beam search by the book: one sentence at a time, each hypothesis's whole prefix re-run at every step.

    The rules are those `decoding.beam_decode` states: a hypothesis is scored
    by its log-probability over the GNMT length penalty ((5 + length) / 6) **
    `length_penalty`, a finished one (after `[end]` or padding) extends only
    with padding at no cost and no length, and ties go to the earlier
    hypothesis, then the lower token id. Returns every sentence's best
    hypothesis as target ids `(batch, max_length)`, 0 after `[end]`.
    """
    source_ids = ops.convert_to_tensor(source_ids, "int32")
    best = np.zeros((int(ops.shape(source_ids)[0]), max_length), "int32")
    for row in range(best.shape[0]):
        source = source_ids[row : row + 1]
        beams = [([], 0.0, 0, False)]  # (tokens, log-probability, length, finished)
        for _ in range(max_length):
            if all(finished for *_, finished in beams):
                break
            # Live hypotheses all hold as many tokens as steps taken: one batch re-runs them all.
            live = [tokens for tokens, *_, finished in beams if not finished]
            prefixes = ops.convert_to_tensor([[start_id, *tokens] for tokens in live], "int32")
            sources = ops.repeat(source, len(live), axis=0)
            encoded = model.encode(sources, training=False)
            logits = ops.convert_to_numpy(model.decode(prefixes, encoded, masks.padding_mask(sources))[:, -1])
            log_probs = iter(ops.convert_to_numpy(ops.log_softmax(logits, axis=-1)))
            candidates = []
            for tokens, score, length, finished in beams:
                if finished:
                    candidates.append((tokens + [0], score, length, True))
                    continue
                extensions = next(log_probs)
                candidates += [(tokens + [token], score + float(extensions[token]), length + 1, token in (0, end_id))
                               for token in range(len(extensions))]
            beams = sorted(candidates, key=lambda c: -c[1] / ((5.0 + c[2]) / 6.0) ** length_penalty)[:beam_size]
        tokens = beams[0][0]
        best[row, : len(tokens)] = tokens
    return best
