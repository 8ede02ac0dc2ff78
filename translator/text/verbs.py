"""Verbs the corpus barely shows, said in Spanish through a regular verb the model knows, in the form it chose.

The model copies a verb it saw a few times ("He muttered a curse." came out "Él muttered una bolsa.", "Tom boarded
the plane." "Tom boarded el avión.") or takes it for another. `corpus_verbs.tsv`, found in the training split
(`translator.training.corpus_verbs`), gives such verbs in "-ed" and "-ing" the stem of the regular "-ar" verb the
corpus' translators say them with ("muttered" -> "murmur", "boarded" -> "abord"). `translator.text.verbatim` finds them
(`pattern`), first leaves them to the model (kept where it wrote a form of the stem, `forms`) and otherwise hides each
behind a regular "-ar" verb the model knows in the same English form ("He visited a curse." -> "Él visitó una
maldición."): the model conjugates the stand-in, and `rewrite` writes the verb's stem on its ending ("Él murmuró una
maldición.").

>>> VERBS["muttered"], rewrite("¿Lo estás visitando? Visité. Visítalo.", "visiting", "abraz")
('murmur', '¿Lo estás abrazando? Abracé. Abrázalo.')
"""

import functools
import re
from pathlib import Path

from translator.text import nouns
from translator.text.words import AR, CLITICS, starts_sentence

# The verbs the training split shows a few times, found there with their Spanish stem
# (`translator.training.corpus_verbs`).
VERBS_FILE = Path(__file__).with_name("corpus_verbs.tsv")
# A form the corpus shows this often or more is one the model learned: left to it.
MAX_COUNT = nouns.MAX_COUNT
# The verbs each verb hides behind, by its English ending, and their Spanish stems: regular in both languages, and
# said with their own "-ar" verb in nearly every sentence of the corpus.
# A reflexive verb ("retired": "se jubiló") hides behind a reflexive one, whose pronoun the model writes ("se quedó").
STAND_INS = {"verb_ed": ("visited", "helped"), "verb_ing": ("visiting", "helping"),
             "verb_ed_se": ("stayed", "complained"), "verb_ing_se": ("staying", "complaining")}
SAID = {"visited": "visit", "visiting": "visit", "helped": "ayud", "helping": "ayud", "stayed": "qued", "staying": "qued",
        "complained": "quej", "complaining": "quej"}
# A gerund or an infinitive takes an accent before the pronouns after it ("visitándolo").
_ENDINGS = sorted({*AR, "ándo", "ár"}, key=len, reverse=True)
_ACUTE = str.maketrans("aeiou", "áéíóú")
# How an "-ar" verb's last "c", "g" or "z" is written before an "e" ("saqué", "pagué", "bostecé").
BEFORE_E = {"c": "qu", "g": "gu", "z": "c"}


def load(path=VERBS_FILE):
    """`{english: stem}` of every verb form of `path`, and the set of those of a reflexive verb."""
    rows = [line.split("\t") for line in Path(path).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    return {english: stem for english, stem, *_ in rows}, {english for english, _, *se in rows if se == ["se"]}


VERBS, REFLEXIVE = load()


def pool(written):
    """The stand-in pool of the verb form `written`: by its ending, and whether it is reflexive (`REFLEXIVE`).

    >>> pool("muttered"), pool("Retiring"), pool("stayed")
    ('verb_ed', 'verb_ing_se', 'verb_ed_se')
    """
    form = written.lower()
    reflexive = form in REFLEXIVE or form in STAND_INS["verb_ed_se"] + STAND_INS["verb_ing_se"]
    return ("verb_ing" if form.endswith("ing") else "verb_ed") + ("_se" if reflexive else "")


def pattern(pool_name):
    """A regular expression of the verb forms hidden behind `pool_name`'s stand-ins, as `nouns.words_pattern` finds
    words."""
    return nouns.words_pattern([english for english in VERBS if pool(english) == pool_name])


def as_noun(text, start, end):
    """Whether the "-ing" word from `start` to `end` of `text` is a noun there: opening a sentence ("Boarding begins at
    7." came out "Abordas empieza …", the stand-in read as "visitas", visits) or after a determiner or possessive
    ("your boarding pass").

    >>> as_noun("Boarding begins.", 0, 8), as_noun("Show your boarding pass.", 10, 18), as_noun("I am boarding.", 5, 13)
    (True, True, False)
    """
    if not text[start:end].lower().endswith("ing"):
        return False
    return starts_sentence(text, start) or nouns.word_before(text, start) in nouns.DETERMINERS


def spelled(stem, ending):
    """`stem` and `ending` as Spanish spells them: a "c", "g" or "z" before "e" becomes "qu", "gu" or "c".

    >>> spelled("sac", "é"), spelled("pag", "emos"), spelled("abraz", "é"), spelled("abraz", "ó")
    ('saqué', 'paguemos', 'abracé', 'abrazó')
    """
    if ending[:1] in ("e", "é") and stem[-1:] in BEFORE_E:
        stem = stem[:-1] + BEFORE_E[stem[-1]]
    return stem + ending


@functools.cache  # one pattern a verb, made once: every sentence holding it is checked with it
def forms(stem):
    """A regular expression of every form of the "-ar" verb of `stem`, any case, with pronouns after it: groups the
    stem as written (its last vowel accented before pronouns: "sácala"), the ending and the pronouns.

    >>> [m.groups() for m in forms("sac").finditer("Saqué la basura y la sacaron; sácala, sacándola.")]
    [('Saqu', 'é', ''), ('sac', 'aron', ''), ('sác', 'a', 'la'), ('sac', 'ándo', 'la')]
    """
    stems = {stem, spelled(stem, "e")[:-1], _accented(stem)}
    endings = "|".join(_ENDINGS)
    clitics = "|".join(sorted(CLITICS, key=len, reverse=True))
    return re.compile(rf"(?<!\w)({'|'.join(map(re.escape, stems))})({endings})((?:{clitics})?)(?!\w)", re.IGNORECASE)


def _accented(stem):
    """`stem` with its last vowel accented, as an imperative before pronouns writes it ("sác", "visít")."""
    last = max(stem.rfind(vowel) for vowel in "aeiou")
    return stem[:last] + stem[last].translate(_ACUTE) + stem[last + 1:] if last >= 0 else stem


def rewrite(translation, stand_in, stem):
    """`translation` with every form of the stand-in verb `stand_in` (its Spanish, `SAID`) written with `stem`
    instead, in the same case, ending and pronouns."""
    def written(match):
        said, ending, clitics = match.groups()
        accented = said.lower() != SAID[stand_in] and said.lower() != spelled(SAID[stand_in], "e")[:-1]
        new = (_accented(stem) + ending if accented else spelled(stem, ending.lower())) + clitics
        return new[:1].upper() + new[1:] if said[:1].isupper() else new
    return forms(SAID[stand_in]).sub(written, translation)
