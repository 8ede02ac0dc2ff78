"""The translation chosen among the beam's hypotheses: one that invents no Spanish word, and the one the others agree with.

Beam search ends with several hypotheses, ranked by the model's score. Two
things the score does not see choose among them here:

- **Invented words.** Subword pieces let the model spell words that no
  Spanish text holds ("mordinario", "salión"). Hypotheses with more words
  that occur nowhere in the Spanish of the training corpus and are not
  copied from the English (a name, a number) than the fewest are dropped.
  This is the invented-word rate of `translator.quality` applied to each
  sentence: a real Spanish form the corpus never shows counts as invented
  too, which is the price of the check.
- **Consensus** (minimum Bayes risk decoding). Of those left, the one with
  the highest chrF against all the hypotheses, each weighted by the model's
  probability of it (the softmax of the beam scores): the translation that
  is most like what the model thinks likely, rather than the single most
  likely string. The beam's best often differs from the others by a word
  that they agree on.

Training writes the corpus' Spanish words to `words_es.txt` in the model
directory; a directory without it skips the first check.
"""

from pathlib import Path

import numpy as np
import sacrebleu

from translator.quality import invented_words, known_words

LEXICON_FILE = "words_es.txt"
CHRF = sacrebleu.metrics.CHRF()


def save_lexicon(directory, spanish):
    """Writes every lower-cased word of the `spanish` sentences, one a line."""
    (Path(directory) / LEXICON_FILE).write_text("".join(f"{w}\n" for w in sorted(known_words(spanish))),
                                                encoding="utf-8")


def load_lexicon(directory):
    """The words of `save_lexicon` as a set, or None for a directory without them."""
    path = Path(directory) / LEXICON_FILE
    return set(path.read_text(encoding="utf-8").split()) if path.is_file() else None


def choose(hypotheses, scores, source, lexicon=None, consensus=True):
    """The index of the hypothesis to keep: of those that invent fewest words (all, without a `lexicon`),
    the one of highest expected chrF against all `hypotheses` (with `consensus`), else the first.

    `hypotheses` are the beam's, best first, and `scores` their log-probabilities (length-normalised).

    >>> choose(["Es mordinario.", "Es ordinario.", "Es raro."], [0, -1, -2], "It is ordinary.",
    ...        {"es", "ordinario", "raro"}, consensus=False)
    1
    >>> choose(["Tengo un perro.", "Tengo un perro grande.", "Tengo uno grande."], [0, 0, 0], "I have a big dog.")
    1
    """
    candidates = list(range(len(hypotheses)))
    if lexicon is not None:
        invented = [len(invented_words([hypothesis], [source], lexicon)[0]) for hypothesis in hypotheses]
        candidates = [i for i in candidates if invented[i] == min(invented)]
    if not consensus or len(candidates) == 1:
        return candidates[0]
    weights = np.exp(np.asarray(scores, float) - np.max(scores))
    expected = [sum(w * CHRF.sentence_score(hypotheses[i], [other]).score for w, other in zip(weights, hypotheses))
                for i in candidates]
    return candidates[int(np.argmax(expected))]
