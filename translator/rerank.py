"""Beam hypotheses re-ranked so that a translation invents no Spanish word where the beam holds one that does not.

Subword pieces let the model spell words that no Spanish text holds
("mordinario", "salión"). Beam search ends with several hypotheses; when the
best-scoring one holds a word that occurs nowhere in the Spanish of the
training corpus and is not copied from the English (a name, a number), the
best-scoring hypothesis with fewer such words is chosen instead. This is the
invented-word rate of `translator.quality`, applied to each sentence's
hypotheses: a real Spanish form the corpus never shows counts as invented
too, which is the price of the check.

Training writes the corpus' Spanish words to `words_es.txt` in the model
directory; a directory without it keeps the beam's own choice.
"""

from pathlib import Path

from translator.quality import invented_words, known_words

LEXICON_FILE = "words_es.txt"


def save_lexicon(directory, spanish):
    """Writes every lower-cased word of the `spanish` sentences, one a line."""
    (Path(directory) / LEXICON_FILE).write_text("".join(f"{w}\n" for w in sorted(known_words(spanish))),
                                                encoding="utf-8")


def load_lexicon(directory):
    """The words of `save_lexicon` as a set, or None for a directory without them."""
    path = Path(directory) / LEXICON_FILE
    return set(path.read_text(encoding="utf-8").split()) if path.is_file() else None


def choose(hypotheses, source, lexicon):
    """The index of the hypothesis that invents fewest words; among those, the first (the beam ranks them).

    >>> choose(["Es mordinario.", "Es ordinario.", "Es raro."], "It is ordinary.", {"es", "ordinario", "raro"})
    1
    >>> choose(["Ahmed vive aquí.", "Vive aquí."], "Ahmed lives here.", {"vive", "aquí"})
    0
    """
    invented = [len(invented_words([hypothesis], [source], lexicon)[0]) for hypothesis in hypotheses]
    return invented.index(min(invented))
