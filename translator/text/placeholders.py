"""Typed placeholders: opaque tokens the model is trained to copy, standing in for spans that must come out exactly.

A training pair whose English and Spanish both hold the same number, web or
file address, code or name may have it replaced, on both sides, by one token
of its kind with an index: "Version 2.4 is at https://x.org." / "La versión
2.4 está en https://x.org." becomes "Version PHNUM3 is at PHURL1." / "La
versión PHNUM3 está en PHURL1.". The indices are drawn at random, so the
model learns to copy each token, not to count; a translation's tokens are put
back by index (`restore`). Each token is one entry of the vocabulary
(`RESERVED`), made of letters and digits so the text pipeline keeps it whole.

>>> spans = {"PHNUM1": "2.4"}
>>> restore("La versión PHNUM1 ya está.", spans)
'La versión 2.4 ya está.'
"""

import random
import re

KINDS = ("URL", "NUM", "CODE", "NAME")
MAX_INDEX = 9
RESERVED = tuple(f"PH{kind}{index}" for kind in KINDS for index in range(1, MAX_INDEX + 1))
TOKEN = re.compile(rf"PH(?:{'|'.join(KINDS)})[1-9]")

# A word of a name: a capital, or a lower-case start before one ("iPad"), and a lower-case letter ("Zoë", "McDonald").
NAME_WORD = r"(?:[A-ZÀ-ÖØ-Þ]|[a-z]+[A-Z])[^\W\d_]*[a-zß-öø-ÿ][^\W\d_]*(?:-(?:[A-ZÀ-ÖØ-Þ])[^\W\d_]*[a-zß-öø-ÿ][^\W\d_]*)*"
# Each kind's shape in text, the first pattern (in this order) that matches at a place winning.
PATTERNS = {
    # Web and e-mail addresses, paths, handles and hashtags, file and domain names ("config.yaml", "example.com").
    "URL": r"(?:https?://|www\.)[^\s<>\"]+[^\s<>\".,;:!?)]|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:~|\.{1,2})?(?:/[\w.-]+){2,}/?"
           r"|[A-Za-z]:\\[^\s]*[^\s.,;:!?)]|[\w.-]+(?:/[\w.-]+){2,}"
           r"|(?<![\w@#])[@#][A-Za-z_]\w*|\b[\w-]+(?:\.[\w-]+)*\.[a-z][a-z0-9]{1,4}\b",
    # Codes: identifiers, calls, words of letters and digits ("221B", "INV-2024-0193"), not ordinals or decades.
    "CODE": r"\b(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:\(\))|\b[A-Za-z]+_\w+"
            r"|\b(?!\d+(?:st|nd|rd|th|s)\b)(?=\w*\d)(?=\w*[A-Za-z])\w+(?:[.-]\w+)*"
            r"|\b(?=[A-Z0-9-]*\d)[A-Z][A-Z0-9]*(?:-\w+)+",
    # Phone numbers in groups ("+34 912 345 678", "(020) 7946 0958"), amounts, numbers, dates in digits.
    "NUM": r"(?:\+\d{1,3} )?(?:\(\d{1,4}\) ?)?\d{2,4}(?:[ -]\d{2,4}){1,3}\b(?![.,]\d)|\+\d{1,3} \(\d{1,4}\) ?\d+(?:-\d+)*"
           r"|[$€£¥₹]?[-+]?\d+(?:[.,:/-]\d+)*",
    "NAME": rf"\b{NAME_WORD}(?: {NAME_WORD})*",
}
SPAN = re.compile("|".join(f"(?P<{kind}>{pattern})" for kind, pattern in PATTERNS.items()))


def whole(text):
    """`text` as a pattern that matches it whole: not inside a longer word or number."""
    return re.compile(rf"(?<![\w.]){re.escape(text)}(?![\w]|[.,]\d)")


def shared_spans(english, spanish):
    """The spans of `english` that `spanish` holds as written, as `(kind, text)`, longest first.

    A name opening the English sentence is left out: it may be any word
    written with a capital ("Where ..."). A span is found in the Spanish only
    as a whole (not inside a longer word or number).

    >>> shared_spans("Tom moved to Boston in 1999.", "Tom se mudó a Boston en 1999.")
    [('NAME', 'Boston'), ('NUM', '1999')]
    """
    found = {}
    for match in SPAN.finditer(english):
        kind, text = match.lastgroup, match.group()
        if kind == "NAME" and match.start() == 0:
            continue
        if whole(text).search(spanish):
            found.setdefault(text, kind)
    return sorted(((kind, text) for text, kind in found.items()), key=lambda span: -len(span[1]))


def replace_spans(english, spanish, spans, rng):
    """Both sentences with each of `spans` replaced by a token of its kind, indices drawn from `rng`; a kind's
    spans past `MAX_INDEX` are left as they are."""
    free = {kind: rng.sample(range(1, MAX_INDEX + 1), MAX_INDEX) for kind in KINDS}
    for kind, text in spans:
        if not free[kind]:
            continue
        token = f"PH{kind}{free[kind].pop()}"
        pattern = whole(text)
        english, spanish = pattern.sub(token, english), pattern.sub(token, spanish)
    return english, spanish


def augment(pairs, share, seed=0):
    """`pairs` with `share` of those holding a shared span (`shared_spans`) given typed placeholders instead.

    >>> augment([("I paid 30 euros.", "Pagué 30 euros.")], share=1.0, seed=1)[0][0].startswith("I paid PHNUM")
    True
    """
    if not share:
        return list(pairs)
    rng = random.Random(seed)
    augmented = []
    for english, spanish in pairs:
        spans = shared_spans(english, spanish)
        if spans and rng.random() < share:
            english, spanish = replace_spans(english, spanish, spans, rng)
        augmented.append((english, spanish))
    return augmented


def restore(translation, spans):
    """`translation` with every placeholder token of `spans` (token -> text) put back; one it does not hold is
    left as the model wrote it, for the caller's checks to find."""
    return TOKEN.sub(lambda match: spans.get(match.group(), match.group()), translation)
