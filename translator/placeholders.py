"""Names and numbers the model has rarely seen, swapped for ones it copies, and swapped back.

A name the training corpus never shows ("Olusegun", "Tegucigalpa") reaches
the model as several subword pieces, and the model, which learned names
mostly from "Tom" and "Mary", translates the pieces into Spanish-looking
non-words ("Oluseles"). Long numbers fare the same ("2016" -> "206"). So
before decoding, each such word is replaced by a stand-in the model copies
reliably (a frequent name, a two-digit number), and after decoding each
stand-in is replaced by the word it stands for: the standard placeholder
trick of production MT systems.

A sentence whose translation does not hold each stand-in exactly once (the
model dropped or repeated it) is translated again as it was written.
"""

import re

# Names and numbers that the shipped model copies verbatim in every sentence frame tried (bench/RESULTS.md).
NAME_STAND_INS = ("John", "Mary", "Mike", "Bob", "Linda")
NUMBER_STAND_INS = ("45", "37", "15", "60", "70")
WORD = re.compile(r"[^\W_]+")


def is_name(word, known):
    """A capitalised word that the vocabulary holds no whole token for, capitalised or not.

    >>> is_name("Olusegun", {"the"}), is_name("The", {"the"}), is_name("olusegun", {"the"})
    (True, False, False)
    """
    return word[0].isupper() and word not in known and word.lower() not in known


def protect(text, known):
    """`text` with rare names and long numbers replaced by stand-ins, and the stand-ins' meanings.

    `known` holds the vocabulary's whole-word tokens. Numbers of two or more
    digits are replaced (the model copies single digits), names as `is_name`
    says. Stand-ins already in the text are not used.

    >>> protect("Olusegun has 250 cats, Tom has 3.", {"has", "cats", "Tom"})
    ('John has 45 cats, Tom has 3.', {'John': 'Olusegun', '45': '250'})
    """
    present = set(WORD.findall(text))
    free = {
        "name": iter([s for s in NAME_STAND_INS if s not in present]),
        "number": iter([s for s in NUMBER_STAND_INS if s not in present]),
    }
    meanings = {}

    def replace(match):
        word = match.group()
        if word.isdigit():
            kind = "number" if len(word) > 1 else None
        else:
            kind = "name" if is_name(word, known) else None
        stand_in = next(free[kind], None) if kind else None
        if stand_in is None:  # nothing to protect, or no stand-in left
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
