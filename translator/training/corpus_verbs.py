"""Verbs the training split shows a few times in "-ed" or "-ing", with the stem of the regular "-ar" verb its
translations say them with.

`translator.text.verbs` hides such verbs behind a regular verb the model knows and writes their stem on the ending the
model chose. `translator/text/corpus_verbs.tsv` (beside `verbs.py`, which reads it) is made by

    TRANSLATOR_DATA=path/to/spa-eng.zip python -m translator.training.corpus_verbs

from the training split: one line per English form, `english<TAB>stem`.

A word is taken when it ends in "-ed" or "-ing", the training split shows it fewer than `verbs.MAX_COUNT` times,
never capitalised inside a sentence and in no list of nouns. Its forms ("scribbled", "scribbling") share their
pairs, and their Spanish is the stem with the highest Dice coefficient over them (`corpus_nouns.DICE`, in
`corpus_nouns.SHARE` of the pairs or more; a verb seen once only when no other stem of its pair scores as well),
a stem of an "-ar" verb: its words in those pairs mostly take an ending only verbs or participles have
("garabateó", not "garabato"), the corpus writes it with an ending only "-ar" verbs have ("garabatear", "garabateando"), and with no
stem change ("fregar": "friego"). A stem that two verbs would claim says neither. A verb whose forms the whole split
mostly writes with a reflexive pronoun ("se jubiló", "me he afeitado", "afeitándose") is marked `se` in a third column.

>>> pairs = [("He scribbled a note.", "Él garabateó una nota."), ("I was scribbling.", "Yo estaba garabateando."),
...          ("They scribbled.", "Ellos garabatearon.")]
>>> build(pairs)
['scribbled\\tgarabate', 'scribbling\\tgarabate']
"""

import collections
import logging
import re

from translator.text import nouns, verbs
from translator.text.words import AR, VERBAL
from translator.training import corpus_nouns, data

# Endings only "-ar" verbs have: a stem the corpus writes with one is an "-ar" verb's ("describió" is "-ir").
_ONLY_AR = ("ar", "ando", "aba", "aban", "aron", "aste")
_CHANGED = {"e": "ie", "o": "ue"}
# The endings that show a verb: those only verbs have, and a participle's ("polluted" is said "contaminado").
_VERBAL = VERBAL | {"ado", "ada", "ados", "adas"}
# A verb is reflexive when this share of its forms, of this many or more, take a reflexive pronoun, before it or its
# "haber" ("se ha jubilado") or after it ("jubilarse").
REFLEXIVE_SHARE, REFLEXIVE_SEEN = 0.6, 5
_REFLEXIVE = ("me", "te", "se", "nos", "os")
_HABER = "he|has|ha|hemos|han|había|habías|habíamos|habían"


def _lemma(english):
    """What the "-ed" and "-ing" forms of one verb share: "scribbl" for "scribbled" and "scribbling", "stop" for
    "stopped", "carri" for "carried"."""
    base = english[:-2] if english.endswith("ed") else english[:-3]
    if len(base) > 2 and base[-1] == base[-2] and base[-1] not in "aeiouls":
        base = base[:-1]
    return base.rstrip("e")


def _stems(word):
    """The stems `word` is a regular "-ar" form of, each with its ending."""
    return [(word[:-len(ending)], ending) for ending in AR if word.endswith(ending) and len(word) - len(ending) >= 3]


def build(pairs):
    """The lines of `corpus_verbs.tsv` for the training `pairs`."""
    english_words = [nouns.WORD.findall(english) for english, _ in pairs]
    spanish_words = [{word.lower() for word in nouns.WORD.findall(spanish)} for _, spanish in pairs]
    count = collections.Counter(word.lower() for words in english_words for word in words)
    capitalised = {word.lower() for words in english_words for word in words[1:] if word[0].isupper()}
    pairs_of = collections.defaultdict(set)
    for pair, words in enumerate(english_words):
        for word in words:
            pairs_of[word.lower()].add(pair)
    lemmas = collections.defaultdict(set)
    for word, n in count.items():
        if (n < verbs.MAX_COUNT and word.endswith(("ed", "ing")) and len(word) > 5 and word not in capitalised
                and "'" not in word and word not in nouns.NOUNS):
            lemmas[_lemma(word)].add(word)
    spanish_pairs = collections.defaultdict(set)
    for pair, words in enumerate(spanish_words):
        for word in words:
            for stem, _ in _stems(word):
                spanish_pairs[stem].add(pair)
    known = {word for words in spanish_words for word in words}
    said = {}
    for lemma, forms in lemmas.items():
        stem = _said_with(set().union(*(pairs_of[form] for form in forms)), spanish_words, spanish_pairs)
        if stem and any(stem + ending in known for ending in _ONLY_AR) and not _stem_changes(stem, known):
            said[lemma] = stem
    claims = collections.Counter(said.values())
    said = {lemma: stem for lemma, stem in said.items() if claims[stem] == 1}
    reflexive = _reflexive(set(said.values()), [spanish for _, spanish in pairs])
    return sorted(f"{form}\t{stem}" + ("\tse" if stem in reflexive else "") for lemma, stem in said.items()
                  for form in lemmas[lemma])


def _reflexive(stems, spanish):
    """The `stems` whose forms in the `spanish` sentences mostly take a reflexive pronoun (`REFLEXIVE_SHARE`).

    >>> sorted(_reflexive({"jubil", "visit"}, ["Se jubiló.", "Me he jubilado.", "Va a jubilarse.", "Lo visitó."]))
    []
    >>> sorted(_reflexive({"jubil"}, ["Se jubiló.", "Me he jubilado.", "Va a jubilarse.", "Se jubilan.", "Jubilé."]))
    ['jubil']
    """
    if not stems:
        return set()
    somewhere = re.compile(rf"(?<!\w)(?:{'|'.join(sorted(stems))})", re.IGNORECASE)
    seen, reflexive = collections.Counter(), collections.Counter()
    for sentence in filter(somewhere.search, spanish):
        for stem in stems:
            for match in verbs.forms(stem).finditer(sentence):
                before = re.search(rf"(?<!\w)(\w+)\s+(?:(?:{_HABER})\s+)?$", sentence[:match.start()], re.IGNORECASE)
                seen[stem] += 1
                reflexive[stem] += (match[3].lower().startswith(_REFLEXIVE)
                                    or bool(before) and before[1].lower() in _REFLEXIVE)
    return {stem for stem in stems if seen[stem] >= REFLEXIVE_SEEN and reflexive[stem] >= REFLEXIVE_SHARE * seen[stem]}


def _said_with(pairs, spanish_words, spanish_pairs):
    """The "-ar" stem that says the English verb of `pairs`, or None."""
    together, verbal = collections.Counter(), collections.Counter()
    for pair in pairs:
        endings = collections.defaultdict(set)
        for word in spanish_words[pair]:
            for stem, ending in _stems(word):
                endings[stem].add(ending)
        together.update(endings.keys())
        verbal.update(stem for stem, found in endings.items() if found & _VERBAL)
    stem = corpus_nouns.aligned(together, len(pairs), lambda stem: len(spanish_pairs[stem]))
    return stem if stem is not None and verbal[stem] >= together[stem] / 2 else None


def _stem_changes(stem, known):
    """Whether the corpus writes `stem`'s last "e" or "o" as "ie" or "ue" in a form ("friego" for "freg")."""
    last = max(stem.rfind("e"), stem.rfind("o"))
    changed = stem[:last] + _CHANGED[stem[last]] + stem[last + 1:] if last >= 0 else None
    return changed is not None and any(changed + ending in known for ending in AR)


def main():
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    corpus_nouns.write(build(data.load_splits()["train"]), verbs.VERBS_FILE, __spec__.name, "verb forms")


if __name__ == "__main__":
    main()
