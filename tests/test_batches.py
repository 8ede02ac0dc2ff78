"""Training batches of a mix of short and long pairs: too-long pairs left out, long batches of fewer rows."""

import numpy as np

from translator.config import preset
from translator.text.pipeline import TextPipeline
from translator.training import batches


def test_pairs_longer_than_the_model_reads_are_left_out_not_cut(pairs):
    config = preset("tiny", sequence_length=6)
    english, spanish = zip(*pairs)
    pipeline = TextPipeline.adapt(config, english, spanish)
    long_source = ("Tom is here and Mary is here and I am here.", "Tom está aquí.")
    long_target = ("Tom is here.", "Tom está aquí y María está aquí y yo estoy aquí.")
    fitting = ("Tom is here.", "Tom está aquí.")
    source, target = batches.vectorize(pipeline, [long_source, fitting, long_target], drop_long=True)
    assert len(source) == len(target) == 1
    np.testing.assert_array_equal(source, pipeline.source([fitting[0]]).numpy())
    # Without drop_long, every pair stays, cut to the sequence length.
    assert len(batches.vectorize(pipeline, [long_source, fitting, long_target])[0]) == 3


def test_batches_of_long_sentences_hold_fewer_rows_for_about_the_same_tokens():
    rng = np.random.default_rng(0)
    lengths = rng.integers(3, 100, size=600)
    source = np.zeros((600, 100), "int32")
    for row, length in enumerate(lengths):
        source[row, :length] = 5
    target = np.concatenate([np.full((600, 1), 2, "int32"), source], axis=1)
    made = list(batches.make_dataset(source, target, batch_size=64, batch_tokens=1024))
    tokens = [labels.shape[0] * labels.shape[1] for _, labels in made]
    rows = [labels.shape[0] for _, labels in made]
    assert max(tokens) <= 1024 + 101 and max(rows) > 4 * min(rows)
    assert sum(rows) == 600
    # A repeated dataset does not end: epochs are then counted in steps.
    repeated = batches.make_dataset(source, target, batch_size=64, batch_tokens=1024, repeat=True)
    assert len(list(repeated.take(3 * len(made)))) == 3 * len(made)
