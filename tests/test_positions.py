"""A model with the original paper's sinusoidal positions, end to end: trained, saved, loaded and decoded."""

import numpy as np
import pytest
import tensorflow as tf

from translator.config import preset
from translator.model.recompute import recompute_greedy
from translator.training import train
from translator.translate import Translator


@pytest.fixture(scope="module")
def sinusoidal(pairs, tmp_path_factory):
    """The tiny model of `tiny_model_dir`, with sinusoidal positions instead of learned ones."""
    root = tmp_path_factory.mktemp("sinusoidal")
    splits = {"train": pairs, "val": pairs[:8], "test": pairs[:8]}
    config = preset("tiny", epochs=20, learning_rate=1e-2, name="sinusoidal", early_stopping_patience=20,
                    positional="sinusoidal")
    return Translator.load(train.train(config, output_dir=root / "models", runs_dir=root / "runs", splits=splits))


def test_it_is_saved_and_loaded_without_position_weights(sinusoidal):
    assert sinusoidal.config.positional == "sinusoidal"
    names = [weight.path for weight in sinusoidal.model.weights]
    assert any("token_embeddings" in name for name in names)
    assert not any("position" in name for name in names)


def test_cached_decoding_equals_full_recomputation(sinusoidal, sentences):
    """The cache embeds one token at a time at its position: a wrong offset into the table shows here."""
    ids = tf.cast(sinusoidal.pipeline.source(tf.constant(sentences)), tf.int32)
    cached, _ = sinusoidal.greedy_ids(ids)
    pipeline = sinusoidal.pipeline
    naive = recompute_greedy(sinusoidal.model, ids, sinusoidal.max_length, pipeline.start_id, pipeline.end_id)
    np.testing.assert_array_equal(cached.numpy(), naive)


def test_it_learns_the_fixture(sinusoidal, pairs):
    """20 epochs teach it a part of the pairs word for word (17 of 40, greedy, in one run)."""
    english = [source for source, _ in pairs]
    for beam in (1, 4):
        right = sum(out == spanish for out, (_, spanish) in zip(sinusoidal.translate(english, beam_size=beam), pairs))
        assert right >= len(pairs) // 4, (beam, right)
