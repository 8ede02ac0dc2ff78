"""WordPiece's joining rule in plain Python: target ids back to words, no TensorFlow needed.

A piece that continues the word before it starts with `SUFFIX`. `TextPipeline.detokenize`
(`translator.text.pipeline`) applies the same rule with TensorFlow ops, then truecases and
attaches punctuation; `pieces_to_text` stops at the words, for code that runs
without TensorFlow (`translator.training.ids.fit` scores its epochs with it).
"""

from translator.tokens import END, PAD, START

SUFFIX = "##"


def pieces_to_text(ids, vocabulary):
    """Target ids to space-separated words, continuations joined, up to `[end]`; padding and `[start]` dropped.

    >>> vocabulary = ["", "[UNK]", "[start]", "[end]", "ha", "##blo", "es", "##pañol", "."]
    >>> pieces_to_text([2, 4, 5, 6, 7, 8, 3, 4, 0], vocabulary)
    'hablo español .'
    """
    words = []
    for token in (vocabulary[i] for i in ids):
        if token == END:
            break
        if token in (PAD, START):
            continue
        if token.startswith(SUFFIX) and words:
            words[-1] += token[len(SUFFIX):]
        else:
            words.append(token)
    return " ".join(words)
