"""WordPiece dropout: the same words cut into other pieces of the vocabulary, a new cut for every copy.

Subword regularisation (Kudo 2018; BPE-dropout, Provilkov et al. 2020) shows
the model each word in several segmentations while it trains, so that a rare
word's pieces, and the pieces of words it never saw, are ones it has learnt
to read and write. WordPiece cuts a word greedily, the longest piece of the
vocabulary first; here each match longer than one character is passed over
with probability `probability`, and the next shorter one is tried. Decoding
and evaluation keep the deterministic cut.

It works on token ids after `TextPipeline` made them, so the words (split,
standardised, with their stand-ins) are exactly those the model sees; a piece
in brackets (`[start]`, `[end]`, `[UNK]`, a stand-in) is never cut.

>>> vocabulary = ["", "[UNK]", "[start]", "[end]", "hablo", "ha", "##blo", "##b", "##lo", "h", "##a", "##l", "##o"]
>>> ids = np.array([[2, 4, 3, 0, 0, 0, 0]])
>>> resample(ids, vocabulary, 0.0, np.random.default_rng(0)).tolist()
[[2, 4, 3, 0, 0, 0, 0]]
>>> resample(ids, vocabulary, 1.0, np.random.default_rng(0)).tolist()
[[2, 9, 10, 7, 11, 12, 3]]
"""

import numpy as np

from translator.text.pieces import SUFFIX
from translator.tokens import PAD_ID


def _atomic(piece):
    return piece.startswith("[") and piece.endswith("]")


def _words(pieces):
    """Pieces grouped by word: a piece that continues a word starts with `SUFFIX`."""
    words = []
    for piece in pieces:
        if piece.startswith(SUFFIX) and words and not _atomic(words[-1][0]):
            words[-1].append(piece)
        else:
            words.append([piece])
    return words


def _cut(word, index, probability, rng):
    """`word` cut greedily into pieces of `index`, each match longer than a character passed over with
    `probability`; None where no cut exists (a character with no piece of its own)."""
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = word[start:end] if start == 0 else SUFFIX + word[start:end]
            if piece in index and (end - start == 1 or rng.random() >= probability):
                break
        else:
            return None
        pieces.append(piece)
        start = end
    return pieces


def resample(ids, vocabulary, probability, rng):
    """`ids` `(rows, width)`, padded with `PAD_ID`, with each word cut anew; a row whose new cut would not fit
    in `width` (or a word with no other cut) keeps its pieces."""
    index = {piece: i for i, piece in enumerate(vocabulary)}
    resampled = np.zeros_like(ids)
    for number, row in enumerate(ids):
        old = [vocabulary[i] for i in row if i != PAD_ID]
        new = []
        for word in _words(old):
            text = word[0] + "".join(piece[len(SUFFIX):] for piece in word[1:])
            new += word if _atomic(word[0]) else (_cut(text, index, probability, rng) or word)
        kept = new if len(new) <= ids.shape[1] else old
        resampled[number, : len(kept)] = [index[piece] for piece in kept]
    return resampled
