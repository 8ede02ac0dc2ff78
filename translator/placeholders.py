"""Names and numbers the model has rarely seen, swapped for ones it copies, and swapped back.

A name the training corpus (almost) never shows ("Olusegun", "Tegucigalpa")
reaches the model as several subword pieces, and the model, which learned
names mostly from "Tom" and "Mary", translates the pieces into
Spanish-looking non-words ("Oluseles"). Rare numbers fare the same ("2016"
-> "206"). So before decoding, each such word is replaced by a stand-in the
model copies reliably (a frequent name, a two-digit number), and after
decoding each stand-in is replaced by the word it stands for: the
placeholder trick of production MT systems.

What counts as rare, by the English of the training split (training writes
its word counts to `words_en.txt` in the model directory; a directory
without that file counts each vocabulary token as well known): a number
seen fewer than `MIN_COUNT` times, and a capitalised word seen fewer than
`MIN_COUNT` times that the corpus never writes in lower case (so a
sentence's first word, "Wipe your feet.", is not taken for a name). Names
the corpus does show often ("Africa", "January") are left to the model,
which learned their Spanish ("África", "enero").

A sentence whose translation does not hold each stand-in exactly once (the
model dropped or repeated it) is translated again as it was written.
"""

import collections
import re
from pathlib import Path

# Names and numbers that the shipped model copies verbatim in every sentence frame tried (bench/RESULTS.md).
NAME_STAND_INS = ("John", "Mary", "Mike", "Bob", "Linda")
NUMBER_STAND_INS = ("45", "37", "15", "60", "70")
WORD = re.compile(r"[^\W_]+")
WORDS_FILE = "words_en.txt"
MIN_COUNT = 5  # a word seen less often than this taught the model little about it


def save_word_counts(directory, english):
    """Writes how often each word (as `protect` splits them, case kept) occurs in `english`."""
    counts = collections.Counter(word for text in english for word in WORD.findall(text))
    rows = "".join(f"{word}\t{count}\n" for word, count in counts.most_common())
    (Path(directory) / WORDS_FILE).write_text(rows, encoding="utf-8")


def vocabulary_counts(vocabulary):
    """Word counts for a model without `words_en.txt`: each of its vocabulary's tokens is well known."""
    return dict.fromkeys(vocabulary, MIN_COUNT)


def load_word_counts(directory):
    """The word counts of `save_word_counts`, or None for a directory without them (see `vocabulary_counts`)."""
    path = Path(directory) / WORDS_FILE
    if not path.is_file():
        return None
    rows = (line.split("\t") for line in path.read_text(encoding="utf-8").splitlines())
    return {word: int(count) for word, count in rows}


def is_rare(word, counts):
    """A number of two or more digits, or a name, that `counts` says was seen fewer than `MIN_COUNT` times.

    A capitalised word that `counts` holds in lower case is a word, not a name.

    >>> counts = {"the": 9, "wipe": 1, "Africa": 8, "30": 5}
    >>> [is_rare(w, counts) for w in ("Olusegun", "The", "Wipe", "Africa", "olusegun", "2016", "30", "7")]
    [True, False, False, False, False, True, False, False]
    """
    if word.isdigit():
        return len(word) > 1 and counts.get(word, 0) < MIN_COUNT  # the model copies single digits
    if not word[0].isupper() or counts.get(word.lower(), 0):
        return False
    return counts.get(word, 0) < MIN_COUNT


def protect(text, counts):
    """`text` with its rare names and numbers replaced by stand-ins, and the stand-ins' meanings.

    `counts` are the training corpus' word counts (see `is_rare`).
    Stand-ins already in the text are not used; names beyond the last
    stand-in stay as written.

    >>> protect("Olusegun has 250 cats, Tom has 3.", {"has": 9, "cats": 9, "Tom": 9})
    ('John has 45 cats, Tom has 3.', {'John': 'Olusegun', '45': '250'})
    """
    present = set(WORD.findall(text))
    free = {
        True: iter([s for s in NUMBER_STAND_INS if s not in present]),
        False: iter([s for s in NAME_STAND_INS if s not in present]),
    }
    meanings = {}

    def replace(match):
        word = match.group()
        stand_in = next(free[word.isdigit()], None) if is_rare(word, counts) else None
        if stand_in is None:
            return word
        meanings[stand_in] = word
        return stand_in

    return WORD.sub(replace, text), meanings


def restore(translation, meanings):
    """`translation` with each stand-in replaced by its word, or None if one is missing or repeated.

    >>> restore("John tiene 45 gatos.", {"John": "Olusegun", "45": "250"})
    'Olusegun tiene 250 gatos.'
    >>> restore("Tiene 45 gatos.", {"John": "Olusegun", "45": "250"}) is None
    True
    """
    if not meanings:
        return translation
    found = WORD.findall(translation)
    if any(found.count(stand_in) != 1 for stand_in in meanings):
        return None
    return WORD.sub(lambda match: meanings.get(match.group(), match.group()), translation)
