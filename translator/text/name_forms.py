"""How the corpus' Spanish says each English name it shows often: "Europe" -> "europa", "French" -> "francés".

`translator.text.garbling.lost_names` judges whether a translation lost a name of
the source. A name that Spanish writes as English does ("Lincoln") must be
written; one it says its own way ("London" -> "Londres", "Germany" ->
"Alemania") must be written in one of the ways the corpus says it. Without
this table a translation that drops "Europe" ("Taylor Swift is visiting
Europe next year." -> "Taylor Swift es visitar el año que viene.") could not
be told from one that says it "Europa".

The table is made from the training split when a model directory is written
(`training.train.write_model`) and kept there as `names.tsv`: one line per English name,
a tab and its Spanish words, lower-cased, separated by spaces. A model
directory without it judges only the names Spanish writes as English does.
"""

import collections
from pathlib import Path

from translator.errors import UsageError
from translator.text.words import MIN_COUNT, WORD

FILE = "names.tsv"
# A Spanish word says a name when it is in this share of the name's pairs, and this many times likelier there than
# in the corpus at large; one in this share of all pairs ("en", "de") says no name.
SHARE = 0.2
LIFT = 5
COMMON = 0.01


def build(pairs):
    """Each English name of `pairs` (a word in `MIN_COUNT` pairs or more, mostly capitalised inside a sentence) and
    the set of the Spanish words, lower-cased, that say it.

    >>> pairs = [("I live in Germany.", "Vivo en Alemania."), ("Tom is in Germany.", "Tom está en Alemania.")] * 3
    >>> others = [(f"Tom is in room {i}.", f"Tom está en la habitación {i}.") for i in range(500)]
    >>> pairs += [("I was in Yokohama.", "Estuve en Yokohama."), ("He was in Yokohama.", "Él estuvo en Yokohama.")] * 3
    >>> build(pairs + others + [(f"I live at number {i}.", f"Vivo en el número {i}.") for i in range(500)])
    {'Germany': {'alemania'}}
    """
    with_word, capitalised, lower = collections.Counter(), collections.Counter(), collections.Counter()
    beside = collections.defaultdict(collections.Counter)
    spanish_pairs = collections.Counter()
    for english, spanish in pairs:
        words = WORD.findall(english)
        # Capitalised after the first word: "According" and "Although" open sentences and are no names.
        capitalised.update(word for word in words[1:] if word[0].isupper())
        lower.update(word for word in words if word.islower())
        said = {word.lower() for word in WORD.findall(spanish)}
        spanish_pairs.update(said)
        for name in {word for word in words if word[0].isupper()}:
            with_word[name] += 1
            beside[name].update(said)
    table = {}
    for name, n in with_word.items():
        if n < MIN_COUNT or capitalised[name] <= lower[name.lower()]:
            continue
        forms = {word for word, k in beside[name].items()
                 if k >= SHARE * n and spanish_pairs[word] < COMMON * len(pairs)
                 and k / n > LIFT * spanish_pairs[word] / len(pairs)}
        # A name its Spanish writes as it is ("Yokohama") must be written so: the words beside it in a few pairs
        # ("vive") say nothing of it.
        if forms and name.lower() not in forms:
            table[name] = forms
    return table


def save_table(directory, pairs):
    """Writes `FILE` into the model directory `directory`: the names of `pairs` (English, Spanish) and their Spanish."""
    lines = [f"{name}\t{' '.join(sorted(forms))}" for name, forms in sorted(build(pairs).items())]
    (Path(directory) / FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")


def load_table(directory):
    """The table of `save_table` (a dict from name to its set of Spanish words), or None for a directory without it."""
    path = Path(directory) / FILE
    if not path.is_file():
        return None
    try:
        return {name: set(forms.split()) for name, forms in
                (line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line)}
    except ValueError:  # a line without its one tab
        raise UsageError(f"{path} is not a table of names (a name, a tab, its Spanish words on each line): "
                         "remove it to judge only the names Spanish writes as English does") from None


def in_spanish(name, table, truecase):
    """The Spanish word that says `name` in `table`: its one form that `truecase` (the corpus' casing of words written
    capitalised inside a sentence) capitalises ("London" -> "Londres"), else its one form ("English" -> "inglés");
    None for a name said in several ("America" -> "Estados Unidos", "América"; "Japanese" -> "japonés", "japoneses").

    >>> truecase = {"londres": "Londres", "estados": "Estados", "unidos": "Unidos", "américa": "América"}
    >>> table = {"London": {"londres", "vive"}, "English": {"inglés"}, "America": {"estados", "unidos", "américa"},
    ...          "Japanese": {"japonés", "japoneses"}}
    >>> [in_spanish(name, table, truecase) for name in ("London", "English", "America", "Japanese", "Paris")]
    ['Londres', 'inglés', None, None, None]
    """
    forms = table.get(name, set())
    capitalised = [truecase[form] for form in forms if form in truecase]
    if len(capitalised) == 1:
        return capitalised[0]
    return next(iter(forms)) if len(forms) == 1 and not capitalised else None
