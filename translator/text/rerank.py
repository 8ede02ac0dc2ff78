"""The hypothesis kept of a beam's: one that makes up no number nor invents a word, and that the others agree with.

Beam search ends with several hypotheses, ranked by the model's score. Three
things the score does not see choose among them here:

- **Numbers made up.** A hypothesis that says a number the source does not
  hold (`garbling.wrong_numbers`: "We tend to make mistakes." -> "Tenemos
  diez errores.") is dropped when another makes up fewer: a changed number is
  the worst thing a translation can say.
- **Invented words.** Subword pieces let the model spell words that no
  Spanish text holds ("mordinario", "salión"). Of those left, hypotheses with more words
  that occur nowhere in the Spanish of the training corpus and are not
  copied from the English (a name, a number) than the fewest are dropped.
  This is the invented-word rate of `translator.evaluation.quality` applied to each
  sentence: a regular form of a corpus word ("bailaste") is Spanish, but an
  irregular one the corpus never shows counts as invented, which is the price
  of the check.
- **Consensus** (minimum Bayes risk decoding). Of those left, the one with
  the highest chrF against all the hypotheses, each weighted by the model's
  probability of it (the softmax of the beam scores): the translation that
  is most like what the model thinks likely, rather than the single most
  likely string. The beam's best often differs from the others by a word
  that they agree on.

The consensus needs the chrF of every hypothesis against every other:
`chrf_matrix` counts each hypothesis' character n-grams once and compares
the counts as arrays, the scores of sacrebleu's sentence chrF without its
per-pair n-gram extraction.

Training writes the corpus' Spanish words to `words_es.txt` in the model
directory; a directory without it skips the first check.
"""

import re
from pathlib import Path

import numpy as np

from translator.text.garbling import wrong_numbers
from translator.text.numbers import SPANISH_NUMBER
from translator.text.spanish import is_form
from translator.text.words import WORD

LEXICON_FILE = "words_es.txt"
# sacrebleu's chrF defaults: character n-grams of 1 to 6, whitespace left out, recall weighted twice (beta 2).
CHAR_ORDER, BETA = 6, 2


def words(text):
    """The lower-cased words of `text`: "¿Dónde está Tom?" -> ["dónde", "está", "tom"]."""
    return WORD.findall(text.lower())


def known_words(spanish_sentences):
    """Every lower-cased word of the Spanish training sentences."""
    known = set()
    for sentence in spanish_sentences:
        known.update(words(sentence))
    return known


def invented_words(translations, sources, known):
    """The words of `translations` that are neither in `known` (nor a regular form of a word there,
    `translator.text.spanish.is_form`: "bailaste" for "bailar") nor in their English source, and the total count.

    Example:

    >>> invented_words(["Hola, Ahmed, mordinario."], ["Hello, Ahmed, ordinary."], {"hola"})
    (['mordinario'], 3)
    """
    invented, total = [], 0
    for translation, source in zip(translations, sources, strict=True):
        output = words(translation)
        copied = set(words(source))
        invented += [w for w in output if w not in known and w not in copied and not is_form(w, known)]
        total += len(output)
    return invented, total


def save_lexicon(directory, spanish):
    """Writes every lower-cased word of the `spanish` sentences, one a line."""
    (Path(directory) / LEXICON_FILE).write_text("".join(f"{w}\n" for w in sorted(known_words(spanish))),
                                                encoding="utf-8")


def load_lexicon(directory):
    """The words of `save_lexicon` as a set, or None for a directory without them."""
    path = Path(directory) / LEXICON_FILE
    return set(path.read_text(encoding="utf-8").split()) if path.is_file() else None


def ngram_counts(texts, n):
    """Each text's character `n`-gram counts, whitespace left out, as `(len(texts), distinct n-grams)`.

    >>> ngram_counts(["aab", "a b"], 1)
    array([[2., 1.],
           [1., 1.]])
    """
    texts = ["".join(text.split()) for text in texts]
    index = {}
    ids = [[index.setdefault(text[i:i + n], len(index)) for i in range(len(text) - n + 1)] for text in texts]
    return np.array([np.bincount(row, minlength=len(index)) for row in ids], float).reshape(len(texts), len(index))


def chrf_matrix(texts):
    """The sentence chrF of every text (rows, the hypothesis) against every text (columns, the reference),
    `(len(texts), len(texts))`: sacrebleu's `CHRF().sentence_score(hypothesis, [reference]).score`, the
    same operations in the same order (an n-gram order that one side lacks is left out of the averages).

    >>> chrf_matrix(["Tengo un perro.", "Tengo un gato."]).round(2)
    array([[100.  ,  48.86],
           [ 46.08, 100.  ]])
    """
    precision = recall = effective = 0.0
    for n in range(1, CHAR_ORDER + 1):
        counts = ngram_counts(texts, n)
        total = counts.sum(axis=1)
        matches = np.minimum(counts[:, None, :], counts[None, :, :]).sum(axis=2)
        both = (total[:, None] > 0) & (total[None, :] > 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = precision + np.where(both, matches / total[:, None], 0.0)
            recall = recall + np.where(both, matches / total[None, :], 0.0)
        effective = effective + both
    factor = BETA ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        precision, recall = precision / effective, recall / effective
        score = (1 + factor) * precision * recall / ((factor * precision) + recall)
    return np.where((effective > 0) & (precision + recall > 0), 100 * score, 0.0)


# A run of one to three words written twice in a row ("la cuna de la cuna de", "seguro seguro"): the model lost its
# place. Not across a comma, as Spanish writes some ("No, no lo sé.", "de eso, eso está bien").
REPEAT = re.compile(r"(?<!\w)((?:\w+\W+){0,2}?\w+)\s+\1(?!\w)", re.IGNORECASE)


def repeats(text):
    """How many runs of words `text` writes twice in a row (`REPEAT`).

    >>> repeats("Grecia fue la cuna de la cuna de la civilización."), repeats("No, no lo sé.")
    (1, 0)
    """
    return len(REPEAT.findall(text))


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
    # A number the source does not hold is the worst a translation can say: the hypotheses that make up fewest stay.
    # One without digits or number words changes none: most, and checking each in full made the choice a third slower.
    changed = [len(wrong_numbers(hypothesis, source)[0])
               if re.search(r"\d", hypothesis) or SPANISH_NUMBER.search(hypothesis) else 0 for hypothesis in hypotheses]
    candidates = [i for i in range(len(hypotheses)) if changed[i] == min(changed)]
    if lexicon is not None:
        invented = {i: len(invented_words([hypotheses[i]], [source], lexicon)[0]) for i in candidates}
        candidates = [i for i in candidates if invented[i] == min(invented.values())]
    if not REPEAT.search(source):
        repeated = {i: repeats(hypotheses[i]) for i in candidates}
        candidates = [i for i in candidates if repeated[i] == min(repeated.values())]
    if not consensus or len(candidates) == 1:
        return candidates[0]
    weights = np.exp(np.asarray(scores, float) - np.max(scores))
    # A running sum, left to right: the order, and so the ties, of a sum over the hypotheses one by one.
    expected = np.cumsum(chrf_matrix(hypotheses)[candidates] * weights, axis=1)[:, -1]
    return candidates[int(np.argmax(expected))]
