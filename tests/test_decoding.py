"""The cached decoding loops: the same tokens as the example's loop, greedy and beam alike; beam search's steps."""

from unittest import mock

import numpy as np
import tensorflow as tf
from keras import ops

from translator.model.decoding import (
    IMPOSSIBLE,
    TOP_K_BLOCK,
    _whole_blocks,
    beam_decode,
    decoding_graph,
    extensions,
    finished_extensions,
    follow,
    gnmt_penalty,
    greedy_decode,
    keep_top,
    live_rows,
    reorder,
    retire,
    row_bucket,
    score_candidates,
    spread,
    top_k,
)
from translator.model.recompute import recompute_beam, recompute_greedy


def source_ids(translator, texts):
    return tf.cast(translator.pipeline.source(tf.constant(texts)), tf.int32)


def test_cached_decoding_equals_full_recomputation(tiny_translator, sentences):
    # Sentences of several lengths in one batch: they finish at different steps, and leave the live rows in turn.
    ids = source_ids(tiny_translator, sentences)
    cached, _ = tiny_translator.greedy_ids(ids)
    pipeline, model, length = tiny_translator.pipeline, tiny_translator.model, tiny_translator.max_length
    naive = recompute_greedy(model, ids, length, pipeline.start_id, pipeline.end_id)
    assert len(set((naive != 0).sum(axis=1))) > 2, "the sentences end at different steps"
    np.testing.assert_array_equal(cached.numpy(), naive)
    assert (cached.numpy() == pipeline.end_id).any(axis=1).all(), "every sentence ends"
    # Every row to the end, with a slot for every step: the loop XLA compiles.
    fixed, _ = greedy_decode(model, ids, pipeline.start_id, pipeline.end_id, length, compact=False)
    np.testing.assert_array_equal(ops.convert_to_numpy(fixed), naive)


def test_the_reference_loop_runs_the_model_on_one_shape(tiny_translator, sentences):
    # A backend that compiles each shape (JAX: the epoch scores of translator.training.ids.fit) compiles it once.
    ids = source_ids(tiny_translator, sentences)
    model, pipeline = tiny_translator.model, tiny_translator.pipeline
    with mock.patch.object(model, "decode", wraps=model.decode) as decode:
        tokens = recompute_greedy(model, ids, tiny_translator.max_length, pipeline.start_id, pipeline.end_id)
    assert (tokens != 0).sum(axis=1).max() > 2, "several steps ran"
    assert {tuple(call.args[0].shape) for call in decode.call_args_list} == {
        (len(sentences), tiny_translator.max_length)}


def test_beam_of_one_is_greedy_and_wider_beams_translate(tiny_translator, sentences):
    ids = source_ids(tiny_translator, sentences)
    pipeline, model, length = tiny_translator.pipeline, tiny_translator.model, tiny_translator.max_length
    greedy, _ = greedy_decode(model, ids, pipeline.start_id, pipeline.end_id, length)
    beam, _ = beam_decode(model, ids, pipeline.start_id, pipeline.end_id, length, beam_size=1)
    np.testing.assert_array_equal(beam, greedy)
    assert tiny_translator.translate("Tom is here.", beam_size=4) == "Tom está aquí."
    assert all(tiny_translator.translate(sentences, beam_size=3))


def test_row_buckets_are_few_and_waste_little():
    assert [int(row_bucket(n)) for n in (1, 2, 3, 5, 8, 9, 16, 17, 24, 25, 64, 65)] == [
        1, 2, 4, 8, 8, 16, 16, 24, 24, 32, 64, 72,
    ]


def test_beam_search_equals_the_textbook_search(tiny_translator, sentences):
    # Sentences of several lengths in one batch: they finish at different steps.
    ids = source_ids(tiny_translator, sentences)
    pipeline, model, length = tiny_translator.pipeline, tiny_translator.model, tiny_translator.max_length
    for beam_size in (2, 4):
        naive = recompute_beam(model, ids, length, pipeline.start_id, pipeline.end_id, beam_size)
        assert len(set((naive != 0).sum(axis=1))) > 2, "the sentences end at different steps"
        cached, _ = beam_decode(model, ids, pipeline.start_id, pipeline.end_id, length, beam_size=beam_size)
        np.testing.assert_array_equal(ops.convert_to_numpy(cached), naive)
        for jit_compile in (False, True):
            graph = decoding_graph(model, pipeline.start_id, pipeline.end_id, length, beam_size, jit_compile)
            np.testing.assert_array_equal(graph(ids)[0].numpy(), naive)


def probabilities(rows):
    """Hand-made next-token probabilities `(rows, vocab)`."""
    return ops.convert_to_tensor(np.asarray(rows, "float32"))


def test_a_finished_hypothesis_extends_only_with_free_padding():
    probs = probabilities([[0.0, 0.1, 0.6, 0.3], [0.0, 0.5, 0.2, 0.3]])
    tokens, scores = extensions(probs, ops.convert_to_tensor([False, True]), beam_size=2)
    np.testing.assert_array_equal(ops.convert_to_numpy(tokens), [[2, 3], [0, 1]])
    np.testing.assert_allclose(ops.convert_to_numpy(scores), [[np.log(0.6), np.log(0.3)], [0.0, IMPOSSIBLE]], rtol=1e-6)


def test_an_extension_of_probability_zero_costs_a_finite_price_above_impossible():
    # A peaked row whose third choice underflowed to 0: a finite cost (no -inf to poison the sums), less than
    # any real one and more than IMPOSSIBLE, which rules out beams not yet live.
    tokens, scores = extensions(probabilities([[0.0, 1.0, 1e-30, 0.0]]), ops.convert_to_tensor([False]), beam_size=3)
    np.testing.assert_array_equal(ops.convert_to_numpy(tokens), [[1, 2, 0]])
    scores = ops.convert_to_numpy(scores)[0]
    np.testing.assert_allclose(scores[:2], [0.0, np.log(1e-30)], rtol=1e-6)
    assert np.isfinite(scores[2]) and IMPOSSIBLE < scores[2] < scores[1]


def test_the_top_candidates_of_each_sentence_are_kept_best_first():
    # Two sentences of two beams; each row offers two extensions.
    scores = ops.convert_to_tensor([-1.0, -2.0, -0.5, -3.0])
    extension_scores = ops.convert_to_tensor([[-0.1, -2.0], [-0.1, -0.2], [-1.0, -1.5], [-0.1, -0.1]])
    tokens = ops.convert_to_tensor([[5, 6], [7, 8], [9, 10], [11, 12]])
    done, lengths = ops.convert_to_tensor([False] * 4), ops.convert_to_tensor([3.0] * 4)
    log_probs, ranks, lengths = score_candidates(scores, lengths, done, extension_scores, alpha=0.0)
    np.testing.assert_allclose(ops.convert_to_numpy(log_probs), [[-1.1, -3.0, -2.1, -2.2], [-1.5, -2.0, -3.1, -3.1]])
    np.testing.assert_allclose(ops.convert_to_numpy(ranks), ops.convert_to_numpy(log_probs))  # no penalty
    np.testing.assert_array_equal(ops.convert_to_numpy(lengths), [4.0] * 4)
    origin, chosen, kept, ranked = (ops.convert_to_numpy(x) for x in keep_top(log_probs, ranks, tokens, 2))
    # Sentence 1: row 0's token 5, then row 1's token 7; sentence 2: both of row 2's (rows are global).
    np.testing.assert_array_equal(origin, [0, 1, 2, 2])
    np.testing.assert_array_equal(chosen, [5, 7, 9, 10])
    np.testing.assert_allclose(kept, [-1.1, -2.1, -1.5, -2.0])
    np.testing.assert_allclose(ranked, kept)


def test_the_length_penalty_favours_the_longer_hypothesis_by_the_right_amount():
    # A short finished hypothesis (2 tokens, log-probability -1.0) against a longer live one extending to 6
    # tokens at -1.2: by log-probability alone the short one wins; over the GNMT penalty the long one does.
    scores = ops.convert_to_tensor([-1.0, -1.15])
    done = ops.convert_to_tensor([True, False])
    lengths = ops.convert_to_tensor([2.0, 5.0])
    extension_scores = ops.convert_to_tensor([[0.0, IMPOSSIBLE], [-0.05, -3.0]])
    tokens = ops.convert_to_tensor([[0, 1], [4, 5]])

    def winner(alpha):
        log_probs, ranks, new_lengths = score_candidates(scores, lengths, done, extension_scores, alpha)
        origin, chosen, _, ranked = (ops.convert_to_numpy(x) for x in keep_top(log_probs, ranks, tokens, 2))
        return int(origin[0]), float(ranked[0]), ops.convert_to_numpy(new_lengths)

    assert winner(0.0)[0] == 0
    origin, ranked, new_lengths = winner(0.6)
    np.testing.assert_array_equal(new_lengths, [2.0, 6.0])  # a finished hypothesis grows no longer
    assert origin == 1
    np.testing.assert_allclose(ranked, -1.2 / ((5 + 6) / 6) ** 0.6, rtol=1e-6)
    assert winner(-0.6)[0] == 0  # a penalty the other way round favours the short one
    np.testing.assert_allclose(ops.convert_to_numpy(gnmt_penalty(ops.convert_to_tensor([1.0, 7.0]), 0.6)),
                               [1.0, 2 ** 0.6], rtol=1e-6)


def test_hypotheses_retire_at_the_end_and_rows_follow_their_origin():
    done = retire(ops.convert_to_tensor([True, False, False, False]), ops.convert_to_tensor([0, 3, 0, 9]), end_id=3)
    np.testing.assert_array_equal(ops.convert_to_numpy(done), [True, True, True, False])
    cache = ops.reshape(ops.arange(8), (4, 2))
    flags = ops.convert_to_tensor([True, False, False, True])
    cache, flags = reorder(ops.convert_to_tensor([1, 1, 3, 2]), [cache, flags])
    np.testing.assert_array_equal(ops.convert_to_numpy(cache), [[2, 3], [2, 3], [6, 7], [4, 5]])
    np.testing.assert_array_equal(ops.convert_to_numpy(flags), [False, False, True, False])


def test_top_k_in_blocks_is_top_k_ties_included():
    rng = np.random.default_rng(0)
    # Few distinct values: many ties, across blocks and inside them; a width that does not divide the row.
    values = ops.convert_to_tensor(rng.integers(0, 5, (50, 37)).astype("float32"))
    for k, width in ((1, 4), (4, 5), (4, 8), (3, 37)):
        expected = ops.top_k(values, k)
        for got, want in zip(top_k(values, k, width), expected):
            np.testing.assert_array_equal(ops.convert_to_numpy(got), ops.convert_to_numpy(want))


def test_the_beam_projection_is_widened_to_whole_blocks_of_pieces_that_are_never_chosen():
    rng = np.random.default_rng(0)
    kernel, bias = rng.normal(size=(4, 200)).astype("float32"), rng.normal(size=200).astype("float32")
    vocabulary, [(wide_kernel, wide_bias)] = _whole_blocks(ops.arange(1, 201), [(kernel, bias)])
    assert ops.shape(wide_kernel) == (4, TOP_K_BLOCK * 2) and ops.shape(vocabulary) == (TOP_K_BLOCK * 2,)
    np.testing.assert_array_equal(ops.convert_to_numpy(vocabulary), [*range(1, 201), *[0] * 56])  # padding
    x = rng.normal(size=(3, 4)).astype("float32")
    probs = ops.convert_to_numpy(ops.softmax(ops.matmul(x, wide_kernel) + wide_bias))
    np.testing.assert_allclose(probs[:, :200], ops.convert_to_numpy(ops.softmax(x @ kernel + bias)), rtol=1e-5)
    assert (probs[:, 200:] == 0).all()


def test_only_unfinished_sentences_stay_live_and_finished_rows_extend_with_padding():
    done = ops.convert_to_tensor([True, True, False, True, True, True, True, False])
    np.testing.assert_array_equal(ops.convert_to_numpy(live_rows(done, 2)), [2, 3, 6, 7])
    np.testing.assert_array_equal(ops.convert_to_numpy(live_rows(done, 2, compact=False)), range(8))
    # A finished row extends with padding at no cost, whatever its log-probabilities; the others by their best.
    tokens, scores = extensions(probabilities([[0.2, 0.3, 0.5, 0.0]] * 2), ops.convert_to_tensor([True, False]), 3)
    np.testing.assert_array_equal(ops.convert_to_numpy(tokens), [[0, 1, 2], [2, 1, 0]])
    np.testing.assert_allclose(ops.convert_to_numpy(scores), [[0, IMPOSSIBLE, IMPOSSIBLE], np.log([0.5, 0.3, 0.2])],
                               rtol=1e-6)
    for got, want in zip(finished_extensions(done, 3), (tokens[:1], scores[:1])):
        np.testing.assert_array_equal(ops.convert_to_numpy(got), np.repeat(ops.convert_to_numpy(want), 8, axis=0))
    spread_out = spread(ops.convert_to_tensor([1, 3]), ops.convert_to_tensor([[7, 7], [9, 9]]), ops.zeros((4, 2), "int32"))
    np.testing.assert_array_equal(ops.convert_to_numpy(spread_out), [[0, 0], [7, 7], [0, 0], [9, 9]])


def test_caches_follow_the_kept_hypotheses_of_the_live_rows():
    # Rows 0-5, two beams a sentence; sentence 1 has ended, so rows 0, 1, 4, 5 hold the caches 10, 11, 40, 50.
    # Now sentence 0 ends, and sentence 2's rows continue row 5 then row 4 (swapped).
    caches = [ops.convert_to_tensor([10, 11, 40, 50])]
    origin = ops.convert_to_tensor([0, 1, 2, 3, 5, 4])
    followed = follow(origin, ops.convert_to_tensor([0, 1, 4, 5]), ops.convert_to_tensor([4, 5]), caches)
    np.testing.assert_array_equal(ops.convert_to_numpy(followed[0]), [50, 40])
