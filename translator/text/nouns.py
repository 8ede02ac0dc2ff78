"""Everyday nouns the corpus barely shows, said in Spanish through a noun the model knows of the same gender and number.

The model copies an English noun it saw a few times ("The recipe calls for 3 cups of flour." came out "El recipe
llama 3 tazas de harina.") or invents one from pieces. `nouns.tsv`, written by hand, and `corpus_nouns.tsv`, found
in the training split (`translator.training.corpus_nouns`), give such nouns their Spanish and its gender;
`translator.text.verbatim` finds them (`pattern`, where the corpus shows the word fewer than `MAX_COUNT` times), first
leaves them to the model (kept where it said their Spanish) and otherwise hides each behind a noun of the same gender
and number that the model knows well ("The table calls for 3 cups of flour." -> "La mesa pide 3 tazas de harina."), so
that the articles and adjectives around it agree, and writes the Spanish in its place ("La receta pide 3 tazas de
harina.").

>>> spanish("Printers"), spanish("recipe"), pool("toddlers")
('impresoras', 'receta', 'nouns_m')
"""

import re
from pathlib import Path

NOUNS_FILE = Path(__file__).with_name("nouns.tsv")
# The nouns the training split shows a few times, found there with their Spanish (`translator.training.corpus_nouns`).
CORPUS_FILE = Path(__file__).with_name("corpus_nouns.tsv")
# A word the corpus shows this often or more is one the model learned: left to it.
MAX_COUNT = 20
# The nouns each noun hides behind, by gender and number, and how the model says them: each translated the same way
# in nearly every sentence of the corpus.
STAND_INS = {"noun_m": ("book", "tree", "dog"), "noun_f": ("table", "house", "window"),
             "nouns_m": ("books", "trees", "dogs"), "nouns_f": ("tables", "houses", "windows")}
# The pools of plural nouns.
PLURALS = ("nouns_m", "nouns_f")
SAID = {"book": "libro", "tree": "árbol", "dog": "perro", "table": "mesa", "house": "casa", "window": "ventana",
        "books": "libros", "trees": "árboles", "dogs": "perros", "tables": "mesas", "houses": "casas", "windows": "ventanas"}

# Words before a verb: "to", a pronoun, a modal ("He repairs cars", "Don't brake", "to curb the pain").
BEFORE_VERB = {"to", "i", "you", "we", "they", "he", "she", "it", "will", "can", "could", "would", "should", "must",
               "may", "might", "don't", "didn't", "won't", "can't", "please", "let's"}
# Words before a noun: a determiner or a possessive ("the", "my").
DETERMINERS = {"a", "an", "the", "my", "your", "his", "her", "our", "their", "this", "that", "these", "those", "its",
               "some", "no", "any"}
# A word of letters, with its apostrophe's ending ("don't", "Tom's").
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_WORD_BEFORE = re.compile(rf"({WORD.pattern})\s+$")


def word_before(text, start):
    """The word of `text` before `start`, in lower case with a straight apostrophe ("don't"), or "" where none is."""
    before = _WORD_BEFORE.search(text[:start])
    return before[1].lower().replace("’", "'") if before else ""


def as_verb(text, start, end):
    """Whether the noun from `start` to `end` of `text` is a verb there: after "to", a pronoun or a modal, or opening a
    sentence before a pronoun it acts on ("Text me when you land." came out "Texto me cuando …").

    >>> as_verb("He repairs cars.", 3, 10), as_verb("It needs repairs.", 9, 16), as_verb("Don't brake!", 6, 11)
    (True, False, True)
    >>> as_verb("Text me later.", 0, 4), as_verb("The text me.", 4, 8), as_verb("Recipes: 3.", 0, 7)
    (True, False, False)
    """
    if word_before(text, start) in BEFORE_VERB:
        return True
    return text[start].isupper() and re.match(r"\s+(?:me|him|her|us|them|it)\b", text[end:]) is not None


def said(stand_in):
    """The ways the model writes `stand_in`: its English copied, its Spanish, each with a capital too, and for a plural
    its singular as well ("full of tables" came out "lleno de mesa": still the stand-in, not a word of the sentence).

    >>> said("tables")
    ('Tables', 'mesas', 'Mesas', 'mesa', 'Mesa')
    """
    spanish = [SAID[stand_in], *([SAID[stand_in[:-1]]] if any(stand_in in STAND_INS[pool] for pool in PLURALS) else [])]
    return (stand_in.capitalize(), *(form for word in spanish for form in (word, word.capitalize())))
_UNACCENTED = str.maketrans("áéíóú", "aeiou")


def english_plural(word):
    """The usual English plural of `word`.

    >>> english_plural("recipe"), english_plural("coach"), english_plural("allergy"), english_plural("day")
    ('recipes', 'coaches', 'allergies', 'days')
    """
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def spanish_plural(noun):
    """The usual Spanish plural of `noun`, its first word where it has more ("hoja de cálculo"): a vowel takes "s",
    a consonant "es" (a last syllable's written accent goes: "camión" -> "camiones"), a "z" becomes "ces".

    >>> [spanish_plural(n) for n in ("receta", "almacén", "escáner", "lápiz", "hoja de cálculo", "café con leche")]
    ['recetas', 'almacenes', 'escáneres', 'lápices', 'hojas de cálculo', 'cafés con leche']
    """
    head, _, rest = noun.partition(" ")
    if head[-1] in "aeiouáéó":
        head += "s"
    elif head.endswith("z"):
        head = head[:-1] + "ces"
    else:
        # An accent on the last vowel marks a last syllable stressed, which "es" makes the next to last: unwritten.
        last_vowel = max(head.rfind(v) for v in "aeiouáéíóú")
        if head[last_vowel] in "áéíóú":
            head = head[:last_vowel] + head[last_vowel].translate(_UNACCENTED) + head[last_vowel + 1:]
        head += "es"
    return f"{head} {rest}" if rest else head


def load(path=NOUNS_FILE):
    """`{english: (spanish, pool)}` of every noun of `path` in the singular and the plural, lower case."""
    nouns = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        english, spanish_noun, gender, *plurals = line.split("\t")
        english_many, spanish_many = plurals or (english_plural(english), spanish_plural(spanish_noun))
        if english_many != english:  # "spinach": said in the plural alone ("espinacas")
            nouns[english] = (spanish_noun, f"noun_{gender}")
        nouns[english_many] = (spanish_many, f"nouns_{gender}")
    return nouns


WRITTEN = load()
NOUNS = {**load(CORPUS_FILE), **WRITTEN}


def pattern(pool_name):
    """A regular expression of the nouns hidden behind `pool_name`'s stand-ins (`words_pattern`).

    >>> [bool(re.search(pattern("noun_f"), text)) for text in ("Our app.", "App Store.", "I like the App Store.")]
    [True, True, False]
    """
    return words_pattern([english for english, (_, pool_of) in NOUNS.items() if pool_of == pool_name])


def words_pattern(words):
    """A regular expression of `words` (lower case), whole words, in lower case or with a capital where a sentence
    opens: one inside a sentence is a name's word ("the App Store")."""
    words = sorted(words, key=len, reverse=True)
    opening = r"(?:^|(?<=^[\"'(])|(?<=[.!?…]\s)|(?<=[.!?…][\"'”)]\s))"
    return (rf"(?:(?<![\w'’-])(?:{'|'.join(map(re.escape, words))})"
            rf"|{opening}(?:{'|'.join(re.escape(word.capitalize()) for word in words)}))(?![\w'’-])")


def spanish(written):
    """The Spanish of the noun `written`, in lower case (`translator.text.verbatim` capitalises it where a sentence
    opens)."""
    return NOUNS[written.lower()][0]


def pool(written):
    """The stand-in pool of the noun `written`: its gender and number."""
    return NOUNS[written.lower()][1]
