"""The user's glossary: English terms that must come out as the Spanish the user gave.

A glossary file is UTF-8 text, one `English<TAB>Spanish` pair a line; blank
lines and lines starting with `#` are skipped, a byte order mark and CRLF line
endings are accepted:

    # network words
    firewall	cortafuegos
    keyboard shortcut	atajo de teclado

`Glossary.matches(text)` finds the terms in an English text; the translator
(see `translator.text.verbatim`) passes each match through the model as a
stand-in and writes the Spanish in its place. The rules:

- **Whole words, any case**: "cat" matches "Cat" and "CAT", never
  "category" or "bobcat". Spaces inside a term match any run of spaces.
- **Longest term first**: where occurrences overlap, the longest term wins
  ("user account" over "user"), and a shorter term still matches in what is
  left ("user account settings" with "user account" and "account settings":
  "account settings", then "user" if that is a term too). Of two of the same
  length, the one further left wins.
- **Casing follows the occurrence**, relative to how the glossary writes the
  English: an occurrence written as in the glossary gives the Spanish as
  given; one in capitals ("FIREWALL", two letters or more) gives the Spanish
  in capitals, unless the glossary writes that English in capitals itself
  (an acronym: "VPN" -> "red privada virtual" stays as given); one that starts
  with a capital where the glossary's does not ("Firewall" at a sentence
  start) gives the Spanish with its first letter capitalised ("Cortafuegos").
  The Spanish is never lower-cased: "excel" -> "Excel" stays "Excel".

Bad input raises `GlossaryError`, a `ValueError` whose one-line message names
the file and line: a line without a tab or with more than one, an empty side,
an English term given two different translations (the same pair twice is
fine), a file that is missing or not UTF-8.

>>> glossary = Glossary([("firewall", "cortafuegos"), ("keyboard shortcut", "atajo de teclado")])
>>> glossary.matches("Firewall rules need a keyboard  shortcut.")
[(0, 8, 'Cortafuegos'), (22, 40, 'atajo de teclado')]
"""

import re
from pathlib import Path

from translator.errors import UsageError


class GlossaryError(UsageError):
    """A glossary that cannot be used; the message names the file (or request entry) and line."""


def _key(english):
    """How an English term is compared to others: case and spacing ignored."""
    return " ".join(english.split()).casefold()


def _pattern(english):
    """The regular expression of a term: whole words, any case, any run of spaces inside."""
    body = r"\s+".join(re.escape(word) for word in english.split())
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def _first_word(english):
    """The lower-cased first run of letters or digits of a term (None if it has none): the index key."""
    word = re.search(r"\w+", english)
    return word.group().lower() if word else None


def cased(spanish, occurrence, english):
    """`spanish` cased like `occurrence`, an occurrence of the glossary's `english` (see the module's rules).

    >>> cased("cortafuegos", "Firewall", "firewall"), cased("cortafuegos", "FIREWALL", "firewall")
    ('Cortafuegos', 'CORTAFUEGOS')
    >>> cased("red privada virtual", "VPN", "VPN"), cased("Excel", "excel", "excel")
    ('red privada virtual', 'Excel')
    """
    letters = [c for c in occurrence if c.isalpha()]
    if len(letters) > 1 and occurrence.isupper() and not english.isupper():
        return spanish.upper()
    if letters and letters[0].isupper() and not next(c for c in english if c.isalpha()).isupper():
        return spanish[:1].upper() + spanish[1:]
    return spanish


class Glossary:
    """English terms and the Spanish each must come out as.

    Args:
        pairs: `(english, spanish)` pairs; surrounding spaces are ignored.
        places: where each pair comes from, for error messages (`Glossary.load`
            gives "terms.tsv, line 3"); default "glossary entry 1", 2, ...

    Raises `GlossaryError` for an empty side or an English term with two
    different translations.

    >>> Glossary([("router", "router"), ("Router", "enrutador")])
    Traceback (most recent call last):
    ...
    translator.text.glossary.GlossaryError: glossary entry 2: "Router" is translated as "router" by glossary entry 1, \
here as "enrutador"
    """

    def __init__(self, pairs, places=None):
        pairs = [(english.strip(), spanish.strip()) for english, spanish in pairs]
        places = places or [f"glossary entry {n}" for n in range(1, len(pairs) + 1)]
        self.terms = {}  # key -> (english, spanish, place), in the order given
        for (english, spanish), place in zip(pairs, places, strict=True):
            if not english or not spanish:
                raise GlossaryError(f"{place}: the {'English' if not english else 'Spanish'} side is empty")
            known = self.terms.get(_key(english))
            if known and known[1] != spanish:
                raise GlossaryError(f'{place}: "{english}" is translated as "{known[1]}" by {known[2]}, '
                                    f'here as "{spanish}"')
            self.terms.setdefault(_key(english), (english, spanish, place))
        # Terms by their first word: a text is searched only for the terms whose first word it holds.
        self._by_first_word = {}
        for english, spanish, _ in self.terms.values():
            self._by_first_word.setdefault(_first_word(english), []).append((_pattern(english), english, spanish))

    @classmethod
    def load(cls, path):
        """The glossary in the file `path` (see the module's docstring for the format)."""
        try:
            data = Path(path).read_bytes()
        except FileNotFoundError:
            raise GlossaryError(f"glossary {path}: no such file") from None
        except OSError as error:
            raise GlossaryError(f"glossary {path}: cannot be read ({error.strerror or error})") from None
        try:
            text = data.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError as error:
            line, column = data.count(b"\n", 0, error.start) + 1, error.start - data.rfind(b"\n", 0, error.start) - 1
            raise GlossaryError(f"glossary {path}, line {line}: not valid UTF-8 at byte offset {column} of the line") \
                from None
        pairs, places = [], []
        for number, line in enumerate(text.split("\n"), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            place = f"glossary {path}, line {number}"
            columns = line.split("\t")
            if len(columns) != 2:
                problem = "no tab" if len(columns) < 2 else f"{len(columns) - 1} tabs"
                raise GlossaryError(f"{place}: {problem}; each line is English<TAB>Spanish")
            pairs.append(columns)
            places.append(place)
        return cls(pairs, places)

    @classmethod
    def from_mapping(cls, mapping):
        """A glossary from `{"english": "spanish", ...}` (the server's requests)."""
        return cls(mapping.items())

    def __len__(self):
        return len(self.terms)

    def __repr__(self):
        return f"Glossary({len(self)} terms)"

    def pairs(self):
        """The `(english, spanish)` pairs, in the order given, each English term once."""
        return [(english, spanish) for english, spanish, _ in self.terms.values()]

    def matches(self, text):
        """Non-overlapping `(start, end, spanish)` spans of `text` holding glossary terms, sorted by start.

        `spanish` is cased like the occurrence (see `cased`).

        >>> Glossary([("user", "usuario"), ("account settings", "ajustes de la cuenta")]).matches(
        ...     "User account settings, usernames")
        [(0, 4, 'Usuario'), (5, 21, 'ajustes de la cuenta')]
        """
        words = set(re.findall(r"\w+", text.lower()))
        found = []
        for word in (None, *words):
            for pattern, english, spanish in self._by_first_word.get(word, ()):
                found += [(match.start(), match.end(), cased(spanish, match.group(), english))
                          for match in pattern.finditer(text)]
        taken = []
        for start, end, spanish in sorted(found, key=lambda span: (span[0] - span[1], span[0])):
            if all(end <= other_start or other_end <= start for other_start, other_end, _ in taken):
                taken.append((start, end, spanish))
        return sorted(taken)
