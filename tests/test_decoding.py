"""The cached decoding loops: the same tokens as the example's loop, greedy and beam alike."""

import numpy as np
import tensorflow as tf
from keras import ops

from tests.reference import recompute_beam, recompute_greedy
from translator.decoding import beam_decode, greedy_decode, row_bucket


def source_ids(translator, texts):
    return tf.cast(translator.pipeline.source(tf.constant(texts)), tf.int32)


def test_cached_decoding_equals_full_recomputation(tiny_translator, sentences):
    ids = source_ids(tiny_translator, sentences)
    cached, _ = tiny_translator.greedy_ids(ids)
    pipeline = tiny_translator.pipeline
    naive = recompute_greedy(tiny_translator.model, ids, tiny_translator.max_length, pipeline.start_id, pipeline.end_id)
    np.testing.assert_array_equal(cached.numpy(), naive)
    assert (cached.numpy() == pipeline.end_id).any(axis=1).all(), "every sentence ends"


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
    ids = source_ids(tiny_translator, sentences[:4])
    pipeline, model, length = tiny_translator.pipeline, tiny_translator.model, tiny_translator.max_length
    for beam_size in (2, 4):
        cached, _ = beam_decode(model, ids, pipeline.start_id, pipeline.end_id, length, beam_size=beam_size)
        naive = recompute_beam(model, ids, length, pipeline.start_id, pipeline.end_id, beam_size)
        np.testing.assert_array_equal(ops.convert_to_numpy(cached), naive)
