"""WordPiece dropout: other cuts of the same words, never of the bracketed tokens, never past the width."""

import numpy as np

from translator.text.pieces import pieces_to_text
from translator.training.piece_dropout import resample

VOCABULARY = ["", "[UNK]", "[start]", "[end]", "[NUM0]", "casa", "ca", "c", "##sa", "##s", "##a", "a", "s",
              "##as", "ha", "h", "##blo", "##b", "##l", "##o", "##lo", "hablo", ".",
              "[", "##N", "##U", "##M", "##0", "##]"]  # a stand-in could be spelt in pieces, and must not be


def ids(*rows, width=10):
    table = np.zeros((len(rows), width), "int32")
    for number, row in enumerate(rows):
        table[number, : len(row)] = [VOCABULARY.index(piece) for piece in row]
    return table


def test_no_dropout_keeps_the_cut():
    # WordPiece's own cut is the greedy one, longest piece first: without dropout it comes out again.
    table = ids(["[start]", "hablo", "casa", ".", "[end]"], ["casa", "##s", "[NUM0]", "a"])
    np.testing.assert_array_equal(resample(table, VOCABULARY, 0.0, np.random.default_rng(0)), table)


def test_other_cuts_spell_the_same_words():
    rng = np.random.default_rng(1)
    table = ids(*[["[start]", "hablo", "casa", "[NUM0]", "casa", "##s", ".", "[end]"]] * 200, width=40)
    resampled = resample(table, VOCABULARY, 0.3, rng)
    words = {pieces_to_text(row, VOCABULARY) for row in resampled}
    assert words == {"hablo casa [NUM0] casas ."}
    assert len({tuple(row) for row in resampled}) > 5  # several cuts, not one
    assert (resampled == VOCABULARY.index("[NUM0]")).sum(1).tolist() == [1] * 200  # the stand-in stays whole


def test_every_match_passed_over_leaves_single_characters():
    resampled = resample(ids(["hablo", "casa"]), VOCABULARY, 1.0, np.random.default_rng(0))
    assert [VOCABULARY[i] for i in resampled[0] if i] == ["h", "##a", "##b", "##l", "##o", "c", "##a", "##s", "##a"]


def test_a_row_whose_new_cut_would_not_fit_keeps_its_pieces():
    table = ids(["[start]", "hablo", "casa", "[end]"], width=5)
    np.testing.assert_array_equal(resample(table, VOCABULARY, 1.0, np.random.default_rng(0)), table)
