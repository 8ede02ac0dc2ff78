"""Two checks of translation quality that BLEU hides: copying what must come through unchanged, and inventing words.

- **Copy rate**: on sentences with names and numbers that the corpus never
  shows, the share of sentences whose every name and number appears verbatim
  in the translation. Two sets ship in `testsets/`: `names_numbers.tsv`,
  against which the stand-ins of `translator.text.verbatim` were chosen, and
  `names_numbers_heldout.tsv`, written afterwards in other sentence frames and
  never tuned against.
- **Spans intact**: the same on sentences holding every shape of span that
  `translator.text.verbatim` protects (URLs, e-mail addresses, handles, paths,
  times, dates, numbers, phones, codes, titled and rare names): `spans.tsv`,
  tuned against, and `spans_heldout.tsv`, other frames and values, never tuned against.
- **Golden sets**: the same on sentences people typed to find failures, each
  with the spans it must keep as written (`golden.tsv`; `golden_heldout.tsv`
  from sentences never tuned on); `tests/test_golden.py` holds the shipped
  model to every line.
- **Glossary rate**: the share of sentences whose every glossary term comes
  out as the glossary's Spanish, once per occurrence. `glossary.tsv` holds
  sentences with the office and computer words of `glossary_terms.tsv`, words
  the training corpus shows rarely or never.
- **Invented-word rate**: the share of the words a model writes that occur
  nowhere in the Spanish side of the training corpus, are no regular form of a
  word there (`translator.text.spanish`: "bailaste" for "bailar") and are not copied
  from the English sentence ("mordinario", "salión": pieces glued into non-words);
  and on the *rare-words set* (`rare_word_pairs`: test pairs whose English
  holds a word the training English shows fewer than 3 times) the share of
  sentences with an invented word (`invented_share`).
- **Sentence breaks** (`sentence_breaks`): the share of outputs cut into more
  sentences than their source (`translator.text.segments.split_sentences`): one
  English sentence come out as two Spanish ones, a full stop the model made up.
- **Untranslated** (`untranslated`): the share of outputs that keep, as
  written, a lower-case word of their source that Spanish does not know
  (hunspell's es_ES dictionary, read with spylls): English left as it was
  ("los competitors", "un producto seasonal"). Names are capitalised and left
  out; a word both languages share ("web", "no", "pan") is Spanish too.
"""

import collections
import functools
import logging
import re
from importlib import resources
from pathlib import Path

from translator.text.glossary import Glossary
from translator.text.rerank import invented_words, words
from translator.text.segments import split_sentences

logger = logging.getLogger(__name__)


COPY_SETS = {"copy_rate": "names_numbers.tsv", "heldout_copy_rate": "names_numbers_heldout.tsv",
             "spans_intact": "spans.tsv", "heldout_spans_intact": "spans_heldout.tsv",
             "golden": "golden.tsv", "heldout_golden": "golden_heldout.tsv"}


def load_copy_set(name):
    """The shipped names-and-numbers set `name` (see `COPY_SETS`): a list of `(english, [names and numbers it must keep])`."""
    text = resources.files("translator.evaluation").joinpath("testsets", name).read_text(encoding="utf-8")
    rows = [line.split("\t") for line in text.splitlines() if line.strip()]
    return [(english, expected.split("|")) for english, expected in rows]


def copy_rate(translations, expected):
    """Share of translations containing every one of their expected strings as a whole word.

    Example:

    >>> copy_rate(["Angela vive en Teherán.", "Tengo 37 libros."], [["Angela", "Tehran"], ["37"]])
    0.5
    """
    kept = [
        all(re.search(rf"(?<!\w){re.escape(item)}(?!\w)", translation) for item in items)
        for translation, items in zip(translations, expected, strict=True)
    ]
    return sum(kept) / len(kept) if kept else 0.0


RARE_BELOW = 3  # a word the training English shows fewer times than this is rare


def rare_word_pairs(train_pairs, test_pairs, below=RARE_BELOW):
    """The `test_pairs` whose English holds a word (not a number) seen fewer than `below` times in `train_pairs`' English.

    Built at run time from the corpus, which is never committed.

    >>> rare_word_pairs([("I see a cat.", "Veo un gato.")] * 3, [("I see a gnu.", "Veo un ñu."), ("A cat.", "Un gato.")])
    [('I see a gnu.', 'Veo un ñu.')]
    """
    counts = collections.Counter(word for english, _ in train_pairs for word in words(english))
    return [(english, spanish) for english, spanish in test_pairs
            if any(counts[word] < below and not word.isdigit() for word in words(english))]


def invented_share(translations, sources, known):
    """Share of translations holding at least one invented word (see `invented_words`).

    >>> invented_share(["Hola, mordinario.", "Hola."], ["Hello, ordinary.", "Hello."], {"hola"})
    0.5
    """
    flagged = [bool(invented_words([t], [s], known)[0]) for t, s in zip(translations, sources, strict=True)]
    return sum(flagged) / len(flagged) if flagged else 0.0

GLOSSARY_SET, GLOSSARY_TERMS = "glossary.tsv", "glossary_terms.tsv"


def load_glossary_set():
    """The shipped glossary set: its `Glossary`, and a list of `(english, [the glossary's English terms it holds])`."""
    testsets = resources.files("translator.evaluation").joinpath("testsets")
    with resources.as_file(testsets.joinpath(GLOSSARY_TERMS)) as path:
        glossary = Glossary.load(path)
    return glossary, load_copy_set(GLOSSARY_SET)


def glossary_kept(translation, source, glossary):
    """Whether `translation` holds the Spanish of each glossary term of `source` once per occurrence.

    Each Spanish is counted as a whole phrase, cased as `Glossary.matches`
    gives it; a longer one is counted first, and the words it covers are not
    counted again ("atajo de teclado" holds no "teclado" of its own).

    >>> glossary = Glossary([("keyboard shortcut", "atajo de teclado"), ("keyboard", "teclado")])
    >>> glossary_kept("El atajo de teclado y el teclado.", "The keyboard shortcut and the keyboard.", glossary)
    True
    >>> glossary_kept("El atajo de teclado.", "The keyboard shortcut and the keyboard.", glossary)
    False
    """
    expected = collections.Counter(spanish for _, _, spanish in glossary.matches(source))
    for spanish in sorted(expected, key=len, reverse=True):
        pattern = re.compile(rf"(?<!\w){re.escape(spanish)}(?!\w)")
        if len(pattern.findall(translation)) != expected[spanish]:
            return False
        translation = pattern.sub("\0", translation)  # NUL: found in no Spanish, so counted once only
    return True


def glossary_rate(translations, sources, glossary):
    """Share of translations for which `glossary_kept` holds (of those whose source holds a glossary term).

    >>> glossary = Glossary([("firewall", "cortafuegos")])
    >>> glossary_rate(["Cortafuegos nuevo.", "El muro.", "Hola."], ["Firewall rules.", "The firewall.", "Hi."], glossary)
    0.5
    """
    kept = [glossary_kept(translation, source, glossary)
            for translation, source in zip(translations, sources, strict=True) if glossary.matches(source)]
    return sum(kept) / len(kept) if kept else 0.0


def sentence_count_breaks(text):
    """The sentence breaks of `text` (`translator.text.segments.split_sentences`): one fewer than its sentences, none
    for blank text.

    >>> sentence_count_breaks("Hola. ¿Qué tal?"), sentence_count_breaks("Hola."), sentence_count_breaks("")
    (1, 0, 0)
    """
    return max(len(split_sentences(text)) - 1, 0)


def sentence_breaks(outputs, sources):
    """Share of outputs with more sentence breaks than their source (`sentence_count_breaks`).

    >>> sentence_breaks(["El tren llega. Tarde.", "Hola. Adiós.", "Hola."], ["The train is late.", "Hi. Bye.", "Hi."])
    0.3333333333333333
    """
    split = [sentence_count_breaks(output) > sentence_count_breaks(source)
             for output, source in zip(outputs, sources, strict=True)]
    return sum(split) / len(split) if split else 0.0


# Debian's hunspell-es: es_ES.dic and es_ES.aff.
SPANISH_DICTIONARY = "/usr/share/hunspell/es_ES"
DICTIONARY_NOTE = ("the untranslated-word measure is left out: it needs the Python package spylls (pip install "
                   "spylls; a dependency of this project) and hunspell's Spanish dictionary {path}.dic and .aff "
                   "(Debian, Ubuntu: apt-get install hunspell-es)")


@functools.cache
def spanish_dictionary(path=SPANISH_DICTIONARY):
    """Whether hunspell's Spanish dictionary at `path` (.dic and .aff) knows a word, as a memoised function of the
    word; loaded once a process (it takes a second). None where spylls or the dictionary is missing, with a logged
    note on how to install them.
    """
    try:
        from spylls.hunspell import Dictionary
    except ImportError:
        logger.warning(DICTIONARY_NOTE.format(path=path))
        return None
    if not all(Path(f"{path}.{ending}").is_file() for ending in ("dic", "aff")):
        logger.warning(DICTIONARY_NOTE.format(path=path))
        return None
    try:
        dictionary = Dictionary.from_files(str(path))
    except OSError as error:
        logger.warning("%s (%s)", DICTIONARY_NOTE.format(path=path), error)
        return None
    return functools.lru_cache(maxsize=None)(dictionary.lookup)


def source_words(source):
    """The words of `source` that are letters only, all lower case and 2 letters or more: names, acronyms and
    numbers are no English left untranslated.

    >>> source_words("Tom's competitors sell 3 seasonal NGO items, a web-based app.")
    ['competitors', 'sell', 'seasonal', 'items', 'web', 'based', 'app']
    """
    return list(dict.fromkeys(word for word in re.findall(r"\w+", source)
                              if len(word) >= 2 and word.isalpha() and word.islower()))


def untranslated_words(output, source, known):
    """The words of `source` (`source_words`) that `output` holds as written, as whole words, and that `known`
    (a function: whether Spanish knows a word) does not know.

    >>> untranslated_words("Los competitors y el web.", "The competitors and the web.", {"web", "el"}.__contains__)
    ['competitors']
    """
    return [word for word in source_words(source)
            if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", output) and not known(word)]


def untranslated(outputs, sources, known=None):
    """Share of outputs holding English left untranslated (`untranslated_words`); `known` tells whether Spanish
    knows a word, by default hunspell's Spanish dictionary (`spanish_dictionary`: a `LookupError` without it).

    >>> known = {"casa", "la", "de", "los", "ganan", "no"}.__contains__
    >>> untranslated(["Los competitors ganan.", "La casa.", "No.", "Los Competitors."],
    ...              ["The competitors win.", "The house.", "No.", "The competitors."], known)
    0.25
    """
    if known is None:
        known = spanish_dictionary()
        if known is None:
            raise LookupError(DICTIONARY_NOTE.format(path=SPANISH_DICTIONARY))
    flagged = [bool(untranslated_words(output, source, known)) for output, source in zip(outputs, sources, strict=True)]
    return sum(flagged) / len(flagged) if flagged else 0.0
