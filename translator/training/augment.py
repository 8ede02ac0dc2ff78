"""Invented names and numbers in training pairs, so the model learns to copy them.

The corpus names few people and places (most sentences say Tom or Mary), so
a model trained on it alone learns "Tom" -> "Tom", not "copy a name", and
mangles the names users type ("Angela" -> "ángel"). Here a share of the pairs
that carry the same name or number on both sides get an invented one in its
place, on both sides: "Tom is in Boston." / "Tom está en Boston." may become
"Nakuro is in Telibe." / "Nakuro está en Telibe.". Invented names are made of
random syllables, so no real name a user types was seen in training.
"""

import collections
import random
import re

NUMBER = re.compile(r"(?<![\w.,])\d+(?!\d|[.,]\d)")
CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b")
ONSETS = "b c d f g h j k l m n p r s t v y z ch sh th br kr tr gr dr pl st".split()
VOWELS = "a e i o u a e i o u ai ei ou".split()
CODAS = ["", "", "", "n", "r", "s", "l", "m", "k", "d"]


def invented_name(rng):
    """A pronounceable capitalised word of 2-3 syllables: "Telibe", "Zoukran"."""
    syllables = [rng.choice(ONSETS) + rng.choice(VOWELS) for _ in range(rng.choice((2, 2, 3)))]
    return ("".join(syllables) + rng.choice(CODAS)).capitalize()


def invented_number(number, rng):
    """Another number of the same length (no leading zero): the model learns to copy digits, not values."""
    digits = [str(rng.randint(1 if i == 0 and len(number) > 1 else 0, 9)) for i in range(len(number))]
    return "".join(digits)


def corpus_names(english_sentences, min_count=3):
    """Words the English side writes capitalised after the first word and never in lower case: names."""
    capitalised, lower = collections.Counter(), set()
    for sentence in english_sentences:
        words = re.findall(r"[A-Za-z]+", sentence)
        lower.update(w for w in words if w.islower())
        capitalised.update(w for w in words[1:] if CAPITALISED.fullmatch(w))
    return {w for w, count in capitalised.items() if count >= min_count and w.lower() not in lower}


def _swap(pattern, english, spanish, replacement):
    """Replaces every whole-word match of `pattern` in both sentences with `replacement`."""
    return pattern.sub(replacement, english), pattern.sub(replacement, spanish)


def copy_augment(pairs, share, seed=0):
    """Returns `pairs` with `share` of the copyable ones given invented names and numbers.

    A pair is copyable when a corpus name or a number appears verbatim on
    both sides; each such name or number is replaced, in both sentences, by
    one invented for this pair. Other pairs, and the order, are unchanged.
    """
    if not share:
        return list(pairs)
    rng = random.Random(seed)
    names = corpus_names(english for english, _ in pairs)
    augmented = []
    for english, spanish in pairs:
        shared_names = {w for w in CAPITALISED.findall(english) if w in names and re.search(rf"\b{w}\b", spanish)}
        shared_numbers = set(NUMBER.findall(english)) & set(NUMBER.findall(spanish))
        if (shared_names or shared_numbers) and rng.random() < share:
            for name in sorted(shared_names):
                english, spanish = _swap(re.compile(rf"\b{name}\b"), english, spanish, invented_name(rng))
            for number in sorted(shared_numbers, key=len, reverse=True):
                pattern = re.compile(rf"(?<![\w.,]){number}(?!\d|[.,]\d)")
                english, spanish = _swap(pattern, english, spanish, invented_number(number, rng))
        augmented.append((english, spanish))
    return augmented


def concatenate(pairs, share, seed=0):
    """Extra training pairs made of 2 to 4 of `pairs` joined, English to English and Spanish to Spanish.

    The everyday corpus is of short sentences; joined, they teach a model
    that learned only from it to translate a text of several sentences whole,
    and to end it only at its end. `share` of `pairs`, drawn at random, are
    used once each.

    >>> concatenate([("Hi.", "Hola."), ("Bye.", "Adiós.")], share=1.0)
    [('Bye. Hi.', 'Adiós. Hola.')]
    """
    rng = random.Random(seed)
    drawn = rng.sample(list(pairs), round(share * len(pairs)))
    joined = []
    while len(drawn) >= 2:
        size = rng.randint(2, 4)
        group, drawn = drawn[:size], drawn[size:]
        joined.append((" ".join(english for english, _ in group), " ".join(spanish for _, spanish in group)))
    return joined
