"""Nouns the training split shows a few times, with the Spanish word its translations say them with and its gender.

The model writes a noun it saw a handful of times now right, now wrong ("The pantry is empty." came out "La pantry
está vacía.", "I made some corrections." "Hice algunas cebollas."). `translator.text.nouns` hides such nouns behind a
noun the model knows and writes their Spanish back; this module finds them in the corpus itself, so that the list
holds the Spanish the corpus' translators use. `translator/text/corpus_nouns.tsv` (beside `nouns.py`, which reads
it after its hand-written list) is made by

    TRANSLATOR_DATA=path/to/spa-eng.zip python -m translator.training.corpus_nouns

from the training split: one line per noun, as `nouns.tsv` writes them.

A word is taken for a noun of the list when the training split shows it fewer than `nouns.MAX_COUNT` times, never
capitalised inside a sentence (a name), at least half the times after an article, a possessive, "of", "and" or "or",
and never after a pronoun, a modal or "to" (a verb), and one Spanish word goes with it: the word of its pairs' Spanish
with the highest Dice coefficient (2 x pairs holding both / (pairs holding the English + pairs holding the Spanish)),
at least `DICE` and in `SHARE` of its pairs or more, at least as often after an article, a possessive, a number or
"de" as not (a Spanish adjective takes none), and after articles of one gender only (or of none, where its ending
gives the gender: "-o", "-or" masculine, "-a", "-ión", "-dad" feminine). A word seen once is taken only when no
other word of its pair scores as well; a Spanish word that two English nouns would claim ("director" for "conductor"
and "director") says neither, nor does a Spanish plural (an "s", mostly after "los", "mis", "dos", ...) found for an
English singular ("auto" -> "mecánicos", from "auto mechanics"). An English plural without an "s" ("mice",
"firemen") is a plural.

>>> pairs = [("The zither is new.", "La cítara es nueva."), ("Where is my zither?", "¿Dónde está mi cítara?"),
...          ("I bought a zither.", "Compré una cítara.")]
>>> build(pairs + [("I want to paint.", "Quiero pintar."), ("The paint is red.", "La pintura es roja.")])
['zither\\tcítara\\tf']
"""

import collections
import logging

from translator.text import nouns
from translator.training import data

logger = logging.getLogger(__name__)

DICE = 0.5
SHARE = 0.6
# Words before a noun ("the", "my", "of"); those before a verb are `nouns.BEFORE_VERB`.
_BEFORE_NOUN = nouns.DETERMINERS | {"of", "and", "or"}
# Words before a Spanish noun that do not give its gender ("mi", "de", "dos"), and the endings that do where no
# article does ("mi cuaderno", "hay sobrevivientes").
_NO_GENDER = {"mi", "tu", "su", "mis", "tus", "sus", "de", "hay", "dos", "tres", "cuatro", "cinco", "cada", "otro",
              "otra", "otros", "otras", "algunos", "algunas", "vuestro", "vuestra"}
# English plurals without an "s" ("firemen" -> "bomberos").
_PLURALS = {"children", "grandchildren", "mice", "geese", "teeth", "feet", "data", "dice"}
# The words before a Spanish noun that give its number ("los vampiros", "el guardaespaldas").
_SINGULAR_BEFORE = {"el", "la", "un", "una", "este", "esta", "ese", "esa", "aquel", "aquella", "del", "al", "mi", "tu",
                    "su", "nuestro", "nuestra", "cada", "otro", "otra"}
_PLURAL_BEFORE = {"los", "las", "unos", "unas", "estos", "estas", "esos", "esas", "mis", "tus", "sus", "nuestros",
                  "nuestras", "dos", "tres", "cuatro", "cinco", "algunos", "algunas", "otros", "otras", "muchos", "muchas"}
_ENDINGS = {"m": ("o", "os", "or", "ores"), "f": ("a", "as", "ión", "iones", "dad", "dades", "tad", "tud", "umbre")}
_MASCULINE = {"el", "un", "los", "unos", "del", "al", "este", "ese", "aquel", "estos", "esos", "nuestro", "nuestros",
              "mucho", "muchos"}
_FEMININE = {"la", "una", "las", "unas", "esta", "esa", "aquella", "estas", "esas", "nuestra", "nuestras", "mucha",
             "muchas"}


def _english_plural(word, known):
    """Whether the English `word` is a plural: by its "s", as one of `_PLURALS`, or as the "-men" of a "-man" of the
    corpus' words `known` ("firemen"; not "specimen")."""
    return (word.endswith("s") and not word.endswith(("ss", "us", "is")) or word in _PLURALS
            or word.endswith("men") and word[:-3] + "man" in known)


def _singular(english):
    return english[:-2] if english.endswith("es") else english[:-1] if english.endswith("s") else english


def aligned(together, pairs, count):
    """The word that says an English word seen in `pairs` pairs: of `together` (`{word: those pairs holding it}`), the
    one with the highest Dice coefficient (2 x `together[word]` / (`pairs` + `count(word)`, the pairs holding it in
    all)), at least `DICE` and in `SHARE` of the pairs or more, and, for a word seen once, with no other as good; or
    None."""
    scores = sorted(((2 * n / (pairs + count(word)), n, word) for word, n in together.items()), reverse=True)
    if not scores:
        return None
    dice, n, word = scores[0]
    runner_up = scores[1][0] if len(scores) > 1 else 0
    if dice < DICE or n < SHARE * pairs or (pairs == 1 and runner_up >= DICE):
        return None
    return word


def _said_with(places, spanish_words, spanish_count):
    """The Spanish word that says the English word at `places` (`(pair, position)`s), its gender and whether it
    follows more plural words than singular ones ("los", "mis", "dos"), or None."""
    pairs = sorted({pair for pair, _ in places})
    together = collections.Counter(word for pair in pairs for word in set(spanish_words[pair]))
    spanish = aligned(together, len(pairs), spanish_count.__getitem__)
    if spanish is None:
        return None
    before = collections.Counter()
    for pair in pairs:
        words = spanish_words[pair]
        for previous in (words[k - 1] for k in range(1, len(words)) if words[k] == spanish):
            before["m" if previous in _MASCULINE else "f" if previous in _FEMININE
                   else "-" if previous in _NO_GENDER else "?"] += 1
            before["plural"] += previous in _PLURAL_BEFORE
            before["singular"] += previous in _SINGULAR_BEFORE
    genders = [gender for gender in "mf" if before[gender]]
    if len(genders) > 1 or before["m"] + before["f"] + before["-"] < before["?"]:
        return None
    if not genders:
        genders = [gender for gender, endings in _ENDINGS.items() if spanish.endswith(endings)]
        if not genders:
            return None
    return spanish, genders[0], before["plural"] > before["singular"]


def build(pairs):
    """The lines of `corpus_nouns.tsv` for the training `pairs`: `english<TAB>spanish<TAB>m|f`, and for a plural the
    plural twice over (`nouns.load` then takes it for a plural alone)."""
    english_words = [nouns.WORD.findall(english) for english, _ in pairs]
    spanish_words = [[word.lower() for word in nouns.WORD.findall(spanish)] for _, spanish in pairs]
    spanish_count = collections.Counter(word for words in spanish_words for word in set(words))
    places, capitalised = collections.defaultdict(list), set()
    for pair, words in enumerate(english_words):
        for position, word in enumerate(words):
            places[word.lower()].append((pair, position))
            if position and word[0].isupper():
                capitalised.add(word.lower())
    said = {}
    for english, where in places.items():
        if (len(where) >= nouns.MAX_COUNT or english in capitalised or english in nouns.WRITTEN or english in nouns.SAID
                or len(english) < 3 or "'" in english):
            continue
        before = [english_words[pair][position - 1].lower() if position else "" for pair, position in where]
        if (any(word in nouns.BEFORE_VERB for word in before)
                or sum(word in _BEFORE_NOUN or word.endswith("'s") for word in before) < len(where) / 2):
            continue
        said[english] = _said_with(where, spanish_words, spanish_count)
    said = {english: found for english, found in said.items() if found}
    claims = collections.defaultdict(set)
    for english, (spanish, *_) in said.items():
        claims[spanish].add(_singular(english))
    lines = []
    for english, (spanish, gender, after_plural) in sorted(said.items()):
        if len(claims[spanish]) > 1:
            continue
        english_many = _english_plural(english, places)
        spanish_many = spanish.endswith("s") and not spanish.endswith(("és", "ís", "ús"))
        if spanish_many and after_plural and not english_many:
            continue  # "auto" -> "mecánicos", "vampire" -> "vampiros": a plural for a singular
        plural = english_many and spanish_many
        lines.append(f"{english}\t{spanish}\t{gender}" + (f"\t{english}\t{spanish}" if plural else ""))
    return lines


def write(lines, path, module, what):
    """Writes `lines` to `path` under a header naming the command that made them (`python -m module`) and says how
    many `what` it wrote."""
    header = f"# Made by `python -m {module}` from the training split (see its docstring).\n"
    path.write_text(header + "".join(line + "\n" for line in lines), encoding="utf-8")
    logger.info("%d %s written to %s", len(lines), what, path)


def main():
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    write(build(data.load_splits()["train"]), nouns.CORPUS_FILE, __spec__.name, "nouns")


if __name__ == "__main__":
    main()
