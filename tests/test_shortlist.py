"""The vocabulary shortlist: how it is made and kept, and decoding limited to it, greedy and beam, matching
the reference decoders run on logits that rule every other piece out."""

import numpy as np
import pytest
import tensorflow as tf
from keras import ops

from translator.errors import UsageError
from translator.model import shortlist
from translator.model.decoding import beam_decode, greedy_decode
from translator.model.recompute import recompute_beam, recompute_greedy
from translator.training.batches import vectorize
from translator.translate import Translator


class Restricted:
    """A model whose logits of the pieces outside `allowed` are -inf: what decoding over a shortlist of
    `allowed` must choose as."""

    def __init__(self, model, allowed, vocab_size):
        self.model = model
        self.outside = ~np.isin(np.arange(vocab_size), allowed)

    def encode(self, source_ids, training=None):
        return self.model.encode(source_ids, training=training)

    def decode(self, target_ids, encoded, source_padding, training=None):
        logits = ops.convert_to_numpy(self.model.decode(target_ids, encoded, source_padding, training=training))
        return np.where(self.outside, -np.inf, logits).astype("float32")


def test_the_table_holds_each_pieces_likeliest_translations_beyond_the_frequent_ones():
    # Source 5 is in three pairs: target 6 in two of them, 7 in one; target 4 is in every pair (frequent).
    source = [[5, 2, 0], [5, 3, 0], [5, 0, 0], [3, 0, 0]]
    target = [[4, 6, 0], [4, 6, 7], [4, 7, 6], [4, 8, 0]]
    always, likely = shortlist.build(source, target, 10, frequent=1, per_piece=2)
    assert always.tolist() == [4]
    assert likely[5] == [6, 7], "most often first, at most per_piece"
    assert likely[3] == [6, 7] and likely[2] == [6]
    assert 9 not in likely, "a piece never seen has no entry"
    assert 1 not in likely and 0 not in likely, "padding and [UNK] are no pieces of a sentence"


def test_candidates_are_the_frequent_the_likely_and_the_batchs_own_pieces():
    table = shortlist.Shortlist([4], {5: [6, 7], 3: [8]}, 10, copy=True)
    assert table.candidates(tf.constant([[5, 2, 0], [9, 0, 0]])).numpy().tolist() == [0, 2, 4, 5, 6, 7, 9]
    without_copying = shortlist.Shortlist([4], {5: [6, 7], 3: [8]}, 10, copy=False)
    assert without_copying.candidates(tf.constant([[3, 0]])).numpy().tolist() == [0, 4, 8]


def test_a_trained_model_keeps_its_shortlist_and_decodes_with_it(tiny_model_dir, tiny_translator, pairs, tmp_path):
    assert (tiny_model_dir / shortlist.FILE).is_file()
    assert tiny_translator.shortlist is not None
    # The tiny vocabulary is all frequent pieces: a table of a few of them has likely ones to keep too.
    pipeline = tiny_translator.pipeline
    shortlist.save_table(tmp_path, pipeline, *vectorize(pipeline, pairs), frequent=5, per_piece=3)
    loaded = shortlist.load_table(tmp_path, pipeline)
    always, likely = shortlist.build(*vectorize(pipeline, pairs), len(pipeline.target_vocabulary), 5, 3)
    reserved = [0, 1, pipeline.start_id, pipeline.end_id]
    assert loaded.always.tolist() == sorted({*always.tolist(), *reserved})
    assert len(likely) > 10
    for piece, chosen in likely.items():
        assert loaded.table[piece, : len(chosen)].tolist() == chosen
    assert Translator.load(tiny_model_dir, shortlist=None).shortlist is None


def test_a_shortlist_that_does_not_match_the_vocabulary_is_refused(tiny_model_dir, tmp_path):
    import shutil

    copy = shutil.copytree(tiny_model_dir, tmp_path / "model")
    (copy / shortlist.FILE).write_text("\tde la\nzyzzyva\tde\n", encoding="utf-8")
    with pytest.raises(UsageError, match="remove it"):
        Translator.load(copy)


@pytest.mark.parametrize("beam_size", [1, 3])
def test_decoding_over_a_shortlist_chooses_as_if_every_other_piece_were_impossible(tiny_translator, sentences,
                                                                                     beam_size):
    pipeline, model, length = tiny_translator.pipeline, tiny_translator.model, tiny_translator.max_length
    ids = tf.cast(pipeline.source(tf.constant(sentences)), tf.int32)
    vocab_size = len(pipeline.target_vocabulary)

    def reference(decoder):
        if beam_size == 1:
            return recompute_greedy(decoder, ids, length, pipeline.start_id, pipeline.end_id)
        return recompute_beam(decoder, ids, length, pipeline.start_id, pipeline.end_id, beam_size)

    free = reference(model)
    # Rule out the two pieces the free translations use most, besides [end]: the translations must change.
    used = np.bincount(free[(free > 0) & (free != pipeline.end_id)], minlength=vocab_size)
    ruled_out = np.argsort(-used, kind="stable")[:2]
    allowed = np.setdiff1d(np.arange(vocab_size), ruled_out)
    expected = reference(Restricted(model, allowed, vocab_size))
    assert (expected != free).any()
    table = shortlist.Shortlist(allowed.tolist(), {}, vocab_size, copy=False)
    if beam_size == 1:
        tokens, _ = greedy_decode(model, ids, pipeline.start_id, pipeline.end_id, length, shortlist=table)
    else:
        tokens, _ = beam_decode(model, ids, pipeline.start_id, pipeline.end_id, length, beam_size, shortlist=table)
    np.testing.assert_array_equal(ops.convert_to_numpy(tokens), expected)
    assert not np.isin(ops.convert_to_numpy(tokens), ruled_out).any()


def test_a_teacher_translates_over_the_whole_vocabulary(tiny_model_dir, tiny_translator, sentences, tmp_path):
    import shutil

    from translator.training import distill

    teacher = shutil.copytree(tiny_model_dir, tmp_path / "teacher")
    few = " ".join(tiny_translator.pipeline.target_vocabulary[4:8])  # a shortlist far too short
    (teacher / shortlist.FILE).write_text(f"\t{few}\n", encoding="utf-8")
    assert Translator.load(teacher).translate(sentences, 2) != tiny_translator.translate(sentences, 2)
    distill.teach(teacher, sentences, tmp_path / "pairs.tsv", beam_size=2)
    taught = [line.split("\t")[1] for line in (tmp_path / "pairs.tsv").read_text(encoding="utf-8").splitlines()]
    assert taught == tiny_translator.translate(sentences, 2)
