"""Two checks of translation quality that BLEU hides: copying what must come through unchanged, and inventing words.

- **Copy rate**: on sentences with names and numbers that the corpus never
  shows, the share of sentences whose every name and number appears verbatim
  in the translation. Two sets ship in `testsets/`: `names_numbers.tsv`,
  against which the stand-ins of `translator.verbatim` were chosen, and
  `names_numbers_heldout.tsv`, written afterwards in other sentence frames and
  never tuned against.
- **Spans intact**: the same on sentences holding every shape of span that
  `translator.verbatim` protects (URLs, e-mail addresses, handles, paths,
  times, dates, numbers, phones, codes, titled and rare names): `spans.tsv`,
  tuned against, and `spans_heldout.tsv`, other frames and values, never tuned against.
- **Glossary rate**: the share of sentences whose every glossary term comes
  out as the glossary's Spanish, once per occurrence. `glossary.tsv` holds
  sentences with the office and computer words of `glossary_terms.tsv`, words
  the training corpus shows rarely or never.
- **Invented-word rate**: the share of the words a model writes that occur
  nowhere in the Spanish side of the training corpus, are no regular form of a
  word there (`translator.spanish`: "bailaste" for "bailar") and are not copied
  from the English sentence ("mordinario", "salión": pieces glued into non-words);
  and on the *rare-words set* (`rare_word_pairs`: test pairs whose English
  holds a word the training English shows fewer than 3 times) the share of
  sentences with an invented word (`invented_share`).
"""

import collections
import re
from importlib import resources

from translator.glossary import Glossary
from translator.spanish import is_form
from translator.words import WORD


def words(text):
    """The lower-cased words of `text`: "¿Dónde está Tom?" -> ["dónde", "está", "tom"]."""
    return WORD.findall(text.lower())


COPY_SETS = {"copy_rate": "names_numbers.tsv", "heldout_copy_rate": "names_numbers_heldout.tsv",
             "spans_intact": "spans.tsv", "heldout_spans_intact": "spans_heldout.tsv"}


def load_copy_set(name):
    """The shipped names-and-numbers set `name` (see `COPY_SETS`): a list of `(english, [names and numbers it must keep])`."""
    text = resources.files("translator").joinpath("testsets", name).read_text(encoding="utf-8")
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


def known_words(spanish_sentences):
    """Every lower-cased word of the Spanish training sentences."""
    known = set()
    for sentence in spanish_sentences:
        known.update(words(sentence))
    return known


def invented_words(translations, sources, known):
    """The words of `translations` that are neither in `known` (nor a regular form of a word there,
    `translator.spanish.is_form`: "bailaste" for "bailar") nor in their English source, and the total count.

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
    testsets = resources.files("translator").joinpath("testsets")
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
