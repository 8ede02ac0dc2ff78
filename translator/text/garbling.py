"""What a translation got wrong that the stand-ins could not prevent, and what to pass through when it is decoded again.

`translator.text.verbatim` hides what it can find before decoding. What the model
still gets wrong is found in its translation, judged against the source:

- **Invented words**: a word the model spells from subword pieces for an
  English word it barely knows ("He gloated." -> "Él se glotó.": found neither
  in the Spanish of the training corpus, nor as a regular form of a word there
  ("bailaste", `translator.text.spanish`), nor in the source, `invented`) is
  replaced by that English word (`repair_invented`: the source's rare word
  nearest in relative position, or the source word it begins with, "My vet" ->
  "Mi vetert", `spelled_on`), which is what a reader can still make sense of.
  An invented word far from every rare source word (`misplaced`) garbles
  another word, a verb the model missed ("El fuego desclinó mi conexión."): the
  sentence is then decoded again with its rare words passed through as names
  (`rare_word_spans`): "El firewall bloqueó mi conexión.". This was measured
  against passing every English word the corpus never shows through as a span,
  as rule-based systems do: on the test sentences with a rare word, the repair
  left fewer sentences with an invented word and cost less BLEU
  (bench/RESULTS.md).
- **Compounds said as their first word**: a compound the corpus never shows,
  of two words it knows ("milkman"), which the model says as its first word
  alone ("The milkman died." -> "El leche murió.", `said_for_part`, judged by
  the model's own translation of each word alone), is passed through in a
  second decoding ("El milkman murió."); so is a word read as the word it
  begins with ("The warranty ..." -> "La guerra ...", the "war" of it), and a
  word the corpus never shows said as the model's guess at it alone
  ("thermostat" -> "terminada", `guessed`).
- **Garbled names**: a translation that invents a capitalised word, a name the
  corpus shows but the model garbled ("San Francisco" -> "Sanupe"), copies a
  name of several words in part ("Salt Lake City" -> "Lake City"), with a word
  between ("Grand a Rapids") or not at all ("a la lago", `garbled_names`), or
  loses a name the corpus' Spanish writes as it is
  ("He quotes Shakespeare." -> "Él cita a los padres.", `lost_names`), is
  decoded again with its names passed through (`name_spans`).
- **Wrong numbers**: a translation that changes a number or drops a small
  number ("3 items" -> "35", "six jobs" -> "un trabajo", `wrong_numbers`), or
  says a number with a scale as another ("50 million" -> "50 mil millones":
  compared by value, `translator.text.numbers`), is decoded again with every number
  behind a stand-in (`number_spans`; numbers of two digits or more are
  protected already). One that names a month or
  weekday the source does not ("in January" -> "en febrero",
  `changed_days`) or says a number in words that the source says in no way
  ("We pitched our tents" -> "… nuestros diez años", `made_up_words`) is
  decoded again with the rare words passed through, as for a misplaced
  invented word.

`translator.translate` keeps the second decoding when it has fewer of these
faults, the worst first: numbers changed, days changed, numbers dropped,
names garbled or lost, words invented.
"""

import collections
import re
import unicodedata

from translator.text import numbers, spanish, spelling, verbatim
from translator.text.verbatim import Span
from translator.text.words import (
    ADDRESS,
    DIAS,
    LABELS,
    MESES,
    MIN_COUNT,
    MONTH_AS_TIME,
    MONTHS,
    NAME,
    PARTICLES,
    SIGNED_LABELS,
    UNITS,
    WEEKDAY,
    WEEKDAYS,
    WORD,
    opens_sentence,
    spanish_ordinal,
    starts_sentence,
)
from translator.text.words import INITIALS as INITIALS_PATTERN

# An invented word this far (a share of the sentence's length) from every rare source word garbles another word.
FAR = 0.2
SPANISH_DAYS = re.compile(rf"(?<!\w)(?:{'|'.join(MESES + DIAS)})(?!\w)")
IN_SPANISH = dict(zip(MONTHS + WEEKDAYS, MESES + DIAS))
REPEATED_NUMBER = re.compile(r"(?<![\w.,])(\d+)\s+\1(?!\w|[.,]\d)")
# Months, weekdays and feasts, capitalised as names are, are words the model translates ("on Sundays" -> "los
# domingos", "Christmas" -> "Navidad").
FEASTS = ("Christmas", "Easter", "Thanksgiving")
DAYS = re.compile(rf"(?:{'|'.join(MONTHS + WEEKDAYS + FEASTS)})s?")
# A name the model may garble is a run of capitalised words, or of such runs joined by "of" or "&" ("Call of Duty"
# -> "Duty", "The Lord of the Rings" -> "The Lord de los", "Johnson & Johnson" -> "Johnson a Johnson"), which
# stand-ins pass through only when rare (`verbatim`).
# Initials with full stops are one name ("U.S.", not "U" and "S.").
NAME_RUN = re.compile(rf"{INITIALS_PATTERN}|{NAME}(?:\s+(?:of\s+(?:the\s+)?|&\s+){NAME})*")
NAME_PARTICLES = rf"{PARTICLES}|of|the"
INITIALS = re.compile(INITIALS_PATTERN)
# Spanish words capitalised only where a sentence begins.
RESTART = "El|La|Los|Las|Un|Una|Unos|Unas|Se|De|Del|Al|Y|En|Es|Le|Lo"
# Endings that are words too, but make one word of another, no compound ("breathless", "hardship", "percentage"), and
# those of a word's forms ("fathers" is no "fat" and "hers", "armies" no "arm" and "ies").
SUFFIXES = ("ate", "less", "able", "ship", "hood", "ward", "wards", "age")
# Endings that make a word of another, near its meaning ("kindness", "pianist"): a word the corpus knows before one is
# no word misread.
ENDINGS = ("ed", "edly", "er", "ers", "erly", "ing", "ings", "ingly", "ies", "ier", "iest", "est", "ened", "ening", "ness",
           "ment", "ments", "ful", "fully", "ity", "ities", "ous", "ously", "ive", "ively", "ism", "ist", "ists", "ially",
           "ally", "ably", "ible", "ize", "ized", "izing", "ization", "ise", "ised", "ising", "isation", "ify", "ified",
           "ification", "ish", "ery", "ary", "ory", "ion", "ation", "ance", "ence", "ant", "ent", "ian", "ling", "let",
           "ette", "ology", "like", "wise", "dom")
FORMS = {"s": "", "es": "", "ed": "", "d": "", "ing": "", "ies": "y", "er": "", "ers": ""}
# English words that say little of a word they begin ("shenanigans", "perceptive", "overwhelming").
FUNCTION_WORDS_EN = {"she", "his", "her", "for", "per", "into", "over", "out", "all", "any", "can", "the", "you", "our",
                     "not", "use", "one", "who", "how", "why", "was", "are", "and", "off", "its"}
# Spanish articles: the word after one is a noun.
ARTICLES = {"el", "la", "los", "las", "un", "una", "unos", "unas"}
# Spanish words that say nothing of a word's meaning: its translation alone ("La leche.") is said by the others.
FUNCTION_WORDS = ARTICLES | {"de", "del", "a", "al", "y", "o", "en", "que", "es", "se", "lo", "le", "por", "para", "con",
                              "mi", "tu", "su"}
# A word opening a sentence is taken for a name when the corpus shows it capitalised this many times as often as in
# lower case ("Shakespeare", never in lower case; not "She", three times as often): there a capital says little.
OPENING_NAME = 10


def spelled_apart(translation, source):
    """The initials of `source` ("U.S.") that `translation` writes letter by letter, with spaces between: read as
    letters, not as the country or body the corpus' few examples say ("The U.S. and Canada" -> "El U. S. y Canadá").

    >>> [spelled_apart(out, "The U.S. and Canada.") for out in ("El U. S. y Canadá.", "EE. UU. y Canadá.")]
    [['U.S.'], []]
    """
    return [match.group() for match in INITIALS.finditer(source)
            if re.search(r"(?<!\w)" + r"\.\s+".join(match.group().split(".")[:-1]) + r"\.", translation)]


def initials_spans(source, spans, initials):
    """`spans` and each of the `initials` of `source` (`spelled_apart`) as a span, for a second decoding.

    >>> [s.value for s in initials_spans("The U.S. and the U.K.", [Span(17, 21, "initials", "U.K.")], ["U.S."])]
    ['U.S.', 'U.K.']
    """
    for match in INITIALS.finditer(source):
        if match.group() in initials:
            spans = _in_place_of(source, spans, Span(match.start(), match.end(), "initials", match.group()))
    return sorted(spans)


def rare_words(source, lexicon, counts):
    """The words of `source` (`re.Match`es) that the corpus `counts` show fewer than `MIN_COUNT` times, in any case,
    and that are no Spanish word of `lexicon` nor a number: the words the model may garble.

    >>> counts = {"The": 9, "the": 9, "blocked": 9, "chapter": 3, "Chapter": 1}
    >>> [m.group() for m in rare_words("The firewall blocked the net, chapter 2.", {"net"}, counts)]
    ['firewall', 'chapter']
    """
    return [match for match in WORD.finditer(source)
            if sum(counts.get(form, 0) for form in {match.group(), match.group().lower()}) < MIN_COUNT
            and not match.group().isdigit() and match.group().lower() not in lexicon]


def invented(translation, source, lexicon, keep=()):
    """The words of `translation` (`re.Match`es) found neither in `lexicon` (nor a regular form of a word there,
    `spanish.is_form`, unless capitalised inside the sentence: a name garbled, "Clinton Billaría"), or capital
    letters alone inside a sentence (`_lone_capital`), and found neither in `source` nor in the strings `keep` (a
    glossary's Spanish), lower-cased, nor numbers: words the model spelled from pieces.

    >>> [m.group() for m in invented("El fuegal bloqueó la red 5.", "The firewall blocked the net.", {"el", "la", "red"})]
    ['fuegal', 'bloqueó']
    >>> [m.group() for m in invented("El fuegal bloqueó la red.", "The firewall blocked the net.", {"el", "la", "red", "bloquear"})]
    ['fuegal']
    >>> [m.group() for m in invented("A Ana le gusta P novia y Prejudice.", "Ana likes Pride and Prejudice.", {"a", "le", "gusta", "p", "novia", "y"})]
    ['P']
    """
    copied = {word.lower() for word in WORD.findall(source) + WORD.findall(" ".join(keep))}
    return [match for match in WORD.finditer(translation) if not match.group().isdigit()
            and (match.group().lower() not in lexicon or _lone_capital(translation, match))
            and match.group().lower() not in copied
            and not (spanish.is_form(match.group(), lexicon)
                     and (not match.group()[0].isupper() or opens_sentence(translation, match.start())))]


def _lone_capital(translation, match):
    """Whether the word `match` of `translation` is a capital letter alone inside a sentence: no Spanish word ("a",
    "y" are lower-case there), but what is left of a name garbled ("Pride and Prejudice" -> "P novia y Prejudice",
    "Eiffel Tower" -> "J Eiffel")."""
    return len(match.group()) == 1 and match.group().isupper() and not starts_sentence(translation, match.start())


def invented_first(translation, source, lexicon, keep=(), noun=False):
    """Whether one of the `invented` words of `translation` is among its first two words (with `noun`, the second
    after an article): where the model says the text's first words, which it may have read as pieces of a name
    ("Tickets" -> "Las mascos", "Windows 11" -> "Las cdoles 11").

    >>> [invented_first(out, "Tickets cost 15.", {"las", "cuestan"}) for out in ("Las mascos cuestan 15.",
    ...                                                                         "Las cuestan mascos 15.")]
    [True, False]
    >>> [invented_first("Olvídate de él.", "Forget him.", {"de", "él"}, noun=noun) for noun in (False, True)]
    [True, False]
    """
    first = WORD.findall(translation)[:2]
    if noun and not (first and first[0].lower() in ARTICLES):
        return False
    return any(len(WORD.findall(translation[:word.start()])) < 2 and (not noun or word.group() != first[0])
               for word in invented(translation, source, lexicon, keep))


def first_words_as_names(translation, source, counts, lexicon, opening=False):
    """The words opening a sentence of `source` that `translation` took for names though the corpus `counts` show
    them mostly in lower case (at least `MIN_COUNT` times, and four times as often as capitalised) and they are no
    Spanish word (`lexicon`): the model read a word it knows as a name because of its capital, and copied it as
    written ("Marriage is a dinner that begins with dessert." -> "Marriage es una cena con postre.") or spelled a
    capitalised word of its own from the same pieces, one of the `invented` with its first three letters
    ("Professor García teaches history." -> "El Profesaror García enseña historia."), or, with `opening`, for the
    text's first word, an invented word after an article opening the translation, a noun (`invented_first`: "Tickets
    cost €15." -> "Las mascos cuestan €15."; not counted as a fault; a verb, "Olvídate de él.", may be a right one the
    corpus lacks). A copy is none before a capitalised word, a name's title ("Prime Minister Jacinda Ardern", "Sister
    Mary"), nor before a number, a name's version ("Windows 11", `opening_version`).

    >>> counts = {"marriage": 40, "Marriage": 3, "bill": 30, "Bill": 20, "professor": 20}
    >>> first_words_as_names("Marriage es una cena.", "Marriage is a dinner.", counts, {"es", "una", "cena"})
    ['Marriage']
    >>> first_words_as_names("Bill está aquí.", "Bill is here.", counts, {"está", "aquí"})
    []
    >>> first_words_as_names("El Profesaror Kim enseña.", "Professor Kim teaches.", counts, {"el", "enseña"})
    ['Professor']
    >>> [first_words_as_names("Las mascos cuestan 15.", "Tickets cost 15.", {"tickets": 22}, {"las", "cuestan"}, opening)
    ...  for opening in (True, False)]
    [['Tickets'], []]
    """
    copied = set(WORD.findall(translation))
    spelled = {_folded(word.group())[:3] for word in invented(translation, source, lexicon) if word.group()[0].isupper()}
    first = opening and invented_first(translation, source, lexicon, noun=True) and next(WORD.finditer(source), None)
    return [match.group() for match in WORD.finditer(source)
            if starts_sentence(source, match.start()) and match.group()[0].isupper()
            and ((match.group() in copied and not re.match(r"\s+[A-ZÀ-ÖØ-Þ\d]", source[match.end():]))
                 or _folded(match.group())[:3] in spelled or (first and match.start() == first.start()))
            and counts.get(match.group().lower(), 0) >= max(MIN_COUNT, 4 * counts.get(match.group(), 0))
            and match.group().lower() not in lexicon]


def rare_word_spans(source, lexicon, counts, spans, words=None):
    """`spans` and, as names, each of `rare_words` (or of `words`, matches in `source`) outside them (joining a span
    beside one, `verbatim.joined`): for a second decoding of a sentence whose translation invented a word, with the
    words it garbled passed through ("El firewall bloqueó mi conexión.").

    >>> [s.value for s in rare_word_spans("Follow @nasa for updates.", {"nasa"}, {"for": 9}, [Span(7, 12, "handle", "@nasa")])]
    ['Follow @nasa', 'updates']
    """
    taken = [(span.start, span.end) for span in spans]
    words = [Span(match.start(), match.end(), "name", match.group())
             for match in (rare_words(source, lexicon, counts) if words is None else words)
             if not any(a < match.end() and match.start() < b for a, b in taken)]
    return verbatim.joined(source, sorted(spans + words))


def compounds(source, lexicon, counts):
    """The words of `source` in lower case that the corpus `counts` never show, made of two words it shows
    `MIN_COUNT` times or more, of three letters or more each, as `(match, first, second)` ("milkman": "milk", "man"):
    compounds, which the model reads as pieces. Not a form of a word the corpus shows (`FORMS`: "fathers",
    "starred"), nor a word and an ending (`SUFFIXES`: "breathless"), nor one whose first word the source writes on its
    own. A word it shows followed by three letters or more that are no word nor an ending (`ENDINGS`) comes as
    `(match, first, None)`: the model reads such a word as the one it begins with too ("warranty" -> "guerra", the
    "war" of it), where a word and an ending ("kindness") is near its stem.

    >>> counts = {"milk": 9, "man": 9, "the": 9, "fat": 9, "father": 9, "hers": 9, "breath": 9, "less": 9, "star": 9,
    ...           "red": 9, "war": 9, "kind": 9, "sad": 9}
    >>> [(m.group(), first, second) for m, first, second in compounds("The milkman, fathers, breathless, starred, "
    ...                                                                "warranty, kindness, saddest.", set(), counts)]
    [('milkman', 'milk', 'man'), ('warranty', 'war', None)]
    """
    written = {word.lower() for word in WORD.findall(source)}
    found = []
    for match in rare_words(source, lexicon, counts):
        word = match.group()
        stems = {word[:-len(ending)] + base for ending, base in FORMS.items() if word.endswith(ending)}
        stems |= {stem[:-1] for stem in stems if len(stem) > 3 and stem[-1] == stem[-2]}  # "starred": "star"
        if (not word.islower() or counts.get(word) or counts.get(word.capitalize())
                or any(counts.get(stem, 0) >= MIN_COUNT for stem in stems)):
            continue
        known = [n for n in range(len(word) - 1, 2, -1) if counts.get(word[:n], 0) >= MIN_COUNT]
        n = next((n for n in known if counts.get(word[n:], 0) >= MIN_COUNT and word[n:] not in SUFFIXES
                  and len(word) - n > 2), None)
        if n is not None:
            found.append((match, word[:n], word[n:]))
        # Not a word and a letter or two ("additional", "restored"), nor after a word that says little ("shenanigans").
        elif known and len(word) - known[0] > 2 and word[:known[0]] not in FUNCTION_WORDS_EN:
            first, rest = word[:known[0]], word[known[0]:]
            # An ending after a doubled last letter ("saddest": "sad", "d", "est") is an ending still.
            if not (counts.get(rest) or rest in SUFFIXES + ENDINGS or (rest[0] == first[-1] and rest[1:] in ENDINGS)):
                found.append((match, first, None))
    return [(match, first, second) for match, first, second in found if first not in written]


# Beginnings that make a word of another ("unholy", "rewrite"), and endings besides `ENDINGS` that keep a word near its
# stem's meaning ("shyly", "moody", "rhythmical"): a word of a known one and these is no stranger to the model.
PREFIXES = ("un", "re", "dis", "in", "im", "mis", "non", "over", "under", "pre", "out", "de")
NEAR_ENDINGS = ENDINGS + SUFFIXES + ("ly", "y", "al", "ical", "ic", "en")


def _derived(word, counts, prefixed=True):
    """Whether `word` is a form of a word the corpus `counts` show (`FORMS`), one with an ending that keeps its
    meaning near (`NEAR_ENDINGS`, the stem's final "e" or "y" or doubled letter as written: "sufficiently", "happily",
    "saddest"), or one after a beginning (`PREFIXES`: "unholster" is "holster")."""
    def known(stem):
        return len(stem) > 2 and counts.get(stem, 0) >= MIN_COUNT
    stems = {word[:-len(ending)] + base for ending, base in FORMS.items() if word.endswith(ending)}
    stems |= {stem for ending in NEAR_ENDINGS if word.endswith(ending) for stem in
              (word[:-len(ending)], word[:-len(ending)] + "e", word[:-len(ending)][:-1] + "y", word[:-len(ending) - 1])}
    return (any(known(stem) for stem in stems)
            or prefixed and any(word.startswith(start) and (known(word[len(start):])
                                                            or _derived(word[len(start):], counts, prefixed=False))
                                for start in PREFIXES))


def strangers(source, lexicon, counts):
    """The words of `source` in lower case that the corpus `counts` never show and that are none of the `compounds`
    nor `_derived` from a word it shows ("toddler", "thermostat"; not "milkman", "shyly"): the model has nothing to go
    by but its pieces, and may read them as another word.

    >>> counts = {"the": 9, "ate": 9, "a": 9, "shy": 9, "milk": 9, "man": 9, "cake": 9}
    >>> [m.group() for m in strangers("The toddler shyly ate a milkman's cake.", set(), counts)]
    ['toddler']
    """
    parts = {match.start() for match, *_ in compounds(source, lexicon, counts)}
    return [match for match in rare_words(source, lexicon, counts)
            if len(match.group()) > 3 and match.group().islower()
            and not counts.get(match.group()) and not counts.get(match.group().capitalize())
            and spelling.american(match.group(), counts) == match.group()  # "colour" reaches the model as "color"
            and match.start() not in parts and not _derived(match.group(), counts)]


def guessed(translation, source, lexicon, counts, said):
    """The `strangers` of `source` that `translation` says with the model's own Spanish for the word alone (`said`),
    no word of which begins with the stranger's first three letters (a cognate, "dermatólogo", "vacuna") nor is the
    stranger copied: a guess at a word the model never saw, which reads as a word of the sentence and is most often
    another ("The toddler threw a tantrum." -> "El asintió a una tantrum.", "The thermostat is broken." -> "La
    terminada está roto.").

    >>> said = {"toddler": "El asintió.", "dermatologist": "El dermatólogo.", "thermostat": "El terminaba."}
    >>> [[m.group() for m in guessed(out, src, set(), {"the": 9, "is": 9}, said)]
    ...  for out, src in (("El asintió.", "The toddler."), ("El dermatólogo.", "The dermatologist."),
    ...                   ("La terminada está rota.", "The thermostat is broken."))]
    [['toddler'], [], ['thermostat']]
    """
    words = {word.lower() for word in WORD.findall(translation)}
    found = []
    for match in strangers(source, lexicon, counts):
        stranger = match.group()
        alone = {word.lower() for word in WORD.findall(said.get(stranger, ""))} - FUNCTION_WORDS
        # A word of another form says it too: its first six letters ("terminaba" for "terminada").
        stems = {word[:6] for word in alone if len(word) > 6}
        hit = {word for word in words if word in alone or len(word) > 6 and word[:6] in stems}
        if stranger not in words and hit and not any(_folded(word)[:3] == _folded(stranger)[:3] for word in hit):
            found.append(match)
    return found


def said_for_part(translation, source, lexicon, counts, said):
    """The `compounds` of `source` that `translation` says as their first word alone: it holds a word of the model's
    own Spanish for that word (`said`, each word's translation alone) and none for the second, nor the compound
    copied ("The milkman died." -> "El leche murió.", "Mary is Tom's stepmother." -> "Mary es el paso de Tom."). The
    first word of an English compound only qualifies the second, which names what the compound is (a milkman is a
    man): said alone, it is a lie a reader cannot see. So is a word said as the word it begins with, the rest no
    word ("The warranty covers parts." -> "La guerra cubre partes.").

    >>> said = {"milk": "Leche.", "man": "Hombre.", "died": "Murió."}
    >>> counts = {"milk": 9, "man": 9, "the": 9, "died": 9}
    >>> [[m.group() for m in said_for_part(out, "The milkman died.", set(), counts, said)]
    ...  for out in ("El leche murió.", "El hombre de la leche murió.", "El milkman murió.")]
    [['milkman'], [], []]
    >>> [[m.group() for m in said_for_part(out, "The warranty expired.", set(), {"war": 9, "the": 9}, {"war": "Guerra."})]
    ...  for out in ("La guerra expiró.", "La garantía expiró.")]
    [['warranty'], []]
    >>> [m.group() for m in said_for_part("Bajé la propagación.", "I got the spreadsheet.", set(),
    ...                                   {"spread": 9, "sheet": 9}, {"spread": "Se propagó.", "sheet": "La hoja."})]
    ['spreadsheet']
    """
    words = {word.lower() for word in WORD.findall(translation)}
    # A word of another form says it too: its first six letters ("propagó" for "propagación").
    stems = {word[:6] for word in words if len(word) > 6}

    def says(english):
        alone = {word.lower() for word in WORD.findall(said[english])} - FUNCTION_WORDS
        return bool(words & alone or stems & {word[:6] for word in alone if len(word) > 6})
    return [match for match, first, second in compounds(source, lexicon, counts)
            if says(first) and not (second and says(second)) and match.group() not in words]


def name_spans(source, counts, spans, runs=None, said=None):
    """`spans` and, as names, the runs of capitalised words of `source` (`NAME_RUN`; only those of `runs`, when
    given) that `verbatim.find` left to the model, in part or whole, as names it knows ("San Francisco", "Whole
    Foods", the "Bill" of "Bill Clinton"): for a second decoding of a sentence whose translation invented a
    capitalised word ("Sanupe", "Clinton Billaría"), lost a name (`lost_names`), or garbled the names `runs`
    (`garbled_names`; the others, which it may have said well its way, "Nueva York", are left to the model as
    before). A run takes the place of the spans inside it and across its edge (`_in_place_of`); one holding a
    span whose value is not its text (a glossary's term) is left out; one beside a span joins it
    (`verbatim.joined`). A run of one word in `said` comes out as its value there: a name lost that Spanish says
    its way ("London" -> "Londres", `translator.text.name_forms.in_spanish`).
    Neither "I" nor a first word the corpus knows in lower case ("The") is part of a run, and months, weekdays and
    feasts (`DAYS`) alone are none.

    >>> [s.value for s in name_spans("The Golden Gate is in San Francisco on Sundays, I think.", {"the": 9}, [])]
    ['Golden Gate', 'San Francisco']
    >>> [s.value for s in name_spans("He said Bill Clinton won.", {"he": 9}, [Span(13, 20, "name", "Clinton")])]
    ['Bill Clinton']
    >>> [s.value for s in name_spans("She sang at Carnegie Hall in New York.", {}, [], runs=["Carnegie Hall"])]
    ['Carnegie Hall']
    >>> [s.value for s in name_spans("London is small.", {}, [], said={"London": "Londres"})]
    ['Londres']
    >>> [s.value for s in name_spans("The U.S. and Canada.", {"the": 9}, [])]
    ['U.S.', 'Canada']
    """
    said = said or {}
    spans = list(spans)
    for match in NAME_RUN.finditer(source):
        words = _run_words(source, match, counts)
        if runs is not None and match.group() not in runs or all(DAYS.fullmatch(word.group()) for word in words):
            continue
        start, end = match.start() + words[0].start(), match.start() + words[-1].end()
        version = _version(source, match, counts)
        end = match.end() + version.end() if version else verbatim.abbreviated(source, end)
        spans = _in_place_of(source, spans, Span(start, end, "name", said.get(source[start:end], source[start:end])))
    return verbatim.joined(source, sorted(spans))


def _in_place_of(source, spans, span):
    """`spans` with `span` in place of those inside it, widened to take in those across its edge ("Real Madrid" and
    the span "Madrid 3-1": "Real Madrid 3-1"); `spans` as they are when one of them holds a glossary's term or
    Spanish (a value that is not its text), or `span` already is that piece of `source`.

    >>> [s.value for s in _in_place_of("Real Madrid 3-1 won.", [Span(5, 15, "name", "Madrid 3-1")],
    ...                                Span(0, 11, "name", "Real Madrid"))]
    ['Real Madrid 3-1']
    """
    crossing = [other for other in spans if other.start < span.end and span.start < other.end
                and not (span.start <= other.start and other.end <= span.end)]
    if crossing and all(other.value == source[other.start:other.end] for other in crossing):
        start, end = min(span.start, *(o.start for o in crossing)), max(span.end, *(o.end for o in crossing))
        span = Span(start, end, "name", source[start:end])
    inside = [other for other in spans if span.start <= other.start and other.end <= span.end]
    if (any(other.start < span.end and span.start < other.end for other in spans if other not in inside)
            or [(other.start, other.end) for other in inside] == [(span.start, span.end)]
            or any(other.value != source[other.start:other.end] for other in inside)):
        return spans
    return [other for other in spans if other not in inside] + [span]


def _run_words(source, match, counts):
    """The words of a run of capitalised words (a `NAME_RUN` match in `source`) that make a name: not "I", not a
    sentence's first word the corpus knows in lower case, `MIN_COUNT` times or more ("The", each part of
    "One-third"; not "Fort" of "Fort Worth"), nor a unit after a number ("16 GB of RAM"), nor the "of" after either
    ("Bank of America"). Particles inside stay in ("Rio de Janeiro", "Call of Duty")."""
    words = [word for word in re.finditer(r"\S+", match.group()) if word.group() != "I"]
    if (words and opens_sentence(source, match.start())
            and all(counts.get(part.lower(), 0) >= MIN_COUNT for part in WORD.findall(words[0].group()))):
        words = words[1:]
    # A unit after a number is no word of a name ("16 GB of RAM" -> "16 GB de RAM" garbles no "GB of RAM").
    if words and re.fullmatch(UNITS, words[0].group()) and re.search(r"\d\s?$", source[:match.start()]):
        words = words[1:]
    while words and re.fullmatch(NAME_PARTICLES, words[0].group()):
        words = words[1:]
    return words


def _folded(word):
    """`word` lower-cased without accents: "México" and "Mexico" are one name."""
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c))


def garbled_names(translation, source, counts, forms=None):
    """The names of two words or more in `source` that `translation` garbled: copied in part, the rest neither
    copied nor written as capitalised words of its own ("Salt Lake City" -> "Lake City", "Mexico City" ->
    "México de México"), a copied word written more often than the source writes it ("Cape de Cape"), every
    word copied in order with others between (`_split`: "Grand Rapids" -> "Grand a Rapids"; not names the corpus
    knows apart, "Mary Tom"), or none copied, none a name the corpus knows, not all of them words it shows
    capitalised often ("New Year" -> "año"), and no capitalised word of the translation's own written ("Salt Lake
    City" -> "la lago"); a name of one word with its version after it (`_version`: "Windows 11", not "Room 214")
    counts as a name of two words.
    A name translated whole ("Nueva York", "Ciudad de México", "Juegos Olímpicos") is no garbling, nor one of
    `DAYS` ("Tom Monday" -> "Tom el lunes"), nor a word before the words copied that the corpus `counts` show
    often and mostly capitalised, which the model knows on its own and may write in lower case ("Mt Fuji" -> "monte
    Fuji"), or a form of address opening the name (`ADDRESS`: "Grandma Rose" -> "la abuela Rose"); after them,
    such a word not written was dropped ("Manchester United" -> "Manchester"), unless said in one of the ways
    `forms` says it (`translator.text.name_forms`: "Is Tom Canadian?" -> "¿Tom es canadiense?"). A name copied with a
    capitalised Spanish article or pronoun right after one of its words is garbled (`_restarted_after`).

    >>> counts = {"we": 9}
    >>> [garbled_names(out, "We drove to Salt Lake City.", counts) for out in ("Fuimos a Lake City.",
    ...                                                                         "Fuimos a Salt Lake City.")]
    [['Salt Lake City'], []]
    >>> [garbled_names(out, "We live in Mexico City.", counts) for out in ("Vivimos en México de México.",
    ...                                                                     "Vivimos en la Ciudad de México.")]
    [['Mexico City'], []]
    >>> [garbled_names(out, "We met at Union Station.", counts) for out in ("Nos vimos en la Unión a Station.",
    ...     "Nos vimos en la estación.", "Nos vimos en la Estación Unión.", "Nos vimos en Union Station.")]
    [['Union Station'], ['Union Station'], [], []]
    >>> [garbled_names(out, "She plays Call of Duty.", {}) for out in ("Juega a Duty.", "Juega a Call of Duty.")]
    [['Call of Duty'], []]
    >>> garbled_names("Trabaja para Johnson a Johnson.", "He works for Johnson & Johnson.", {})
    ['Johnson & Johnson']
    >>> garbled_names("Es el Banco de Inglaterra.", "It is the Bank of England.", {"England": 9})
    []
    >>> garbled_names("Cenamos con la abuela Rose.", "We ate with Grandma Rose.", {})
    []
    >>> [garbled_names("¿Tom es canadiense?", "Is Tom Canadian?", {"is": 9}, forms) for forms in ({}, {"Canadian": {"canadiense"}})]
    [['Is Tom Canadian'], []]
    >>> garbled_names("Un tercio de Earth es agua.", "One-third of the Earth is water.", {"one": 9, "third": 9})
    []
    """
    runs = []
    for match in NAME_RUN.finditer(source):
        spaced = _run_words(source, match, counts)
        parts = [part for word in spaced for part in WORD.findall(word.group())]
        words = [part for part in parts if not re.fullmatch(NAME_PARTICLES, part)]
        versioned = bool(words and _version(source, match, counts))
        if len(words) > 1 or versioned:
            runs.append((match, words, parts, len(spaced) > 1 or versioned))
    if not runs:
        return []  # most sentences: nothing to fold
    written = collections.Counter(_folded(word) for word in WORD.findall(translation))
    in_source = collections.Counter(_folded(word) for word in WORD.findall(source))
    own_names = _own_names(translation, source)
    garbled = []
    for match, words, parts, several in runs:
        own = _said_its_way(own_names, source, match, written)
        copied = [_folded(word) for word in words if written[_folded(word)]]
        # A known word before the words copied may be said in Spanish, as Spanish says a title or a place's kind
        # before the name ("monte Fuji"); after them, one not written was dropped ("Manchester United" -> "Manchester").
        first_copied = next((i for i, word in enumerate(words) if written[_folded(word)]), len(words))
        known = [word for i, word in enumerate(words)
                 if DAYS.fullmatch(word) or (i < first_copied and (_known_name(word, counts) or (i == 0 and word in ADDRESS)))]
        missing = [word for word in words
                   if not written[_folded(word)] and word not in known and not _said_in_spanish(word, forms or {}, written)]
        if copied and (len(missing) > own or any(written[word] > in_source[word] for word in copied)
                       or _restarted_after(words, translation, source)):
            garbled.append(match.group())
        # Every word copied, but with others between ("Grand Rapids" -> "Grand a Rapids"; names the corpus knows
        # apart only with a capitalised word of the translation's own between: "Charles Darles Darwin", not "Is Mary
        # Tom's mother?"); or, a name of several words or with its version, none of them a name the
        # model knows, not every one a word the corpus shows capitalised often (as "Happy New Year" -> "Feliz año"),
        # none copied and no capitalised word of the translation's own to say it its way ("Salt Lake City" -> "la
        # lago", "Windows 11" -> "las 11").
        elif ((not missing and _split(parts, translation)
               and (not all(_known_name(word, counts) for word in words) or _made_up_between(words, translation, source)))
              or (not copied and not known and not own and several
                  and not all(counts.get(word, 0) >= MIN_COUNT for word in words))):
            garbled.append(match.group())
    return garbled


def _said_its_way(own_names, source, match, written):
    """How many of `own_names` (`_own_names`) may say the name `match` of `source` its way: those left when each
    other capitalised word inside the source's sentences (not "I") that the translation does not write, `written`,
    takes one with its initial, as that word said its way ("The Black Sea borders Turkey." -> "La Black la frontera
    con Turquía.": "Turquía" is "Turkey", and the "Sea" lost is no name said otherwise).

    >>> garbled_names("La Black la frontera con Turquía.", "The Black Sea borders Turkey.", {"the": 9})
    ['The Black Sea']
    """
    left = list(own_names)
    for word in WORD.finditer(source):
        if (match.start() <= word.start() < match.end() or not word.group()[0].isupper() or word.group() == "I"
                or starts_sentence(source, word.start()) or written[_folded(word.group())]):
            continue
        said = next((name for name in left if name[0] == _folded(word.group())[0]), None)
        if said is not None:
            left.remove(said)
    return len(left)


def _version(source, match, counts):
    """The number after a name (a `NAME_RUN` match in `source`) that is its version ("Windows 7", "Android 14"), as a match
    of what follows the name; none after a label ("Room 214"), which `verbatim` writes back in Spanish, a month or
    weekday, or a name the corpus `counts` show as one ("We gave Tom 5 apples")."""
    last = match.group().split()[-1]
    if last in LABELS or DAYS.fullmatch(last) or _known_name(last, counts):
        return None
    return re.match(r"\s\d+(?:\.\d+)*(?![\w-]|[.,]\d)", source[match.end():])


def _said_in_spanish(name, forms, written):
    """Whether one of the `written` words (folded, `_folded`) begins as one of the ways `forms` says `name`
    (`translator.text.name_forms`), but for a longer way's last letter ("francesa" for "francés").

    >>> _said_in_spanish("French", {"French": {"francés"}}, {"francesas"}), _said_in_spanish("French", {}, {"french"})
    (True, False)
    """
    return any(word.startswith(_folded(form)[:-1] if len(form) > 4 else _folded(form))
               for form in forms.get(name, ()) for word in written)


def _known_name(word, counts):
    """Whether the corpus `counts` show `word` often and mostly capitalised: a name the model knows on its own."""
    return counts.get(word, 0) >= MIN_COUNT and counts[word] > counts.get(word.lower(), 0)


def _split(parts, translation):
    """Whether `translation` writes the words of the name `parts` capitalised, but with other words between them
    ("Grand Rapids" -> "Grand a Rapids"; particles such as "de" are the name's own) or out of its order ("MacBook
    Pro" -> "Pro MacBook")."""
    written = WORD.findall(translation)
    at = []
    for part in (part for part in parts if not re.fullmatch(NAME_PARTICLES, part)):
        capitalised = [i for i, word in enumerate(written) if word[0].isupper() and _folded(word) == _folded(part)]
        at.append(next((i for i in capitalised if not at or i > at[-1]), None))
        if at[-1] is None:
            return any(i not in at for i in capitalised)  # written, but before the word it follows
    return [_folded(word) for word in written[at[0]:at[-1] + 1]] != [_folded(part) for part in parts]


def _restarted_after(words, translation, source):
    """Whether `translation` writes a Spanish article, pronoun or preposition capitalised (`RESTART`) right after one
    of a name's `words`, and `source` does not: the model began a sentence inside the name ("Stanford University is
    near Palo Alto." -> "Stanford La Universidad está cerca de Palo Alto.").

    >>> [_restarted_after(["Stanford", "University"], out, "Stanford University is near.") for out in (
    ...     "Stanford La Universidad está cerca.", "La Universidad Stanford está cerca.")]
    [True, False]
    """
    return any(restart[1] not in WORD.findall(source)
               for word in words for restart in re.finditer(rf"(?<!\w){re.escape(word)}\s+({RESTART})(?!\w)", translation))


def _made_up_between(words, translation, source):
    """Whether `translation` writes a capitalised word that `source` does not between the first and the last of a
    name's `words`: a piece of the name garbled ("Charles Darwin" -> "Charles Darles Darwin").

    >>> [_made_up_between(["Charles", "Darwin"], out, "Charles Darwin sailed.") for out in (
    ...     "Charles Darles Darwin navegó.", "Charles navegó con Darwin.")]
    [True, False]
    """
    between = re.search(rf"(?<!\w){re.escape(words[0])}(?!\w)(.*)(?<!\w){re.escape(words[-1])}(?!\w)", translation)
    in_source = {_folded(word) for word in WORD.findall(source)}
    return bool(between) and any(word[0].isupper() and _folded(word) not in in_source for word in WORD.findall(between[1]))


def _own_names(translation, source):
    """The capitalised words inside its sentences that `translation` writes and `source` does not, `_folded`: names
    said the model's way ("Nueva York", "Tokio", "Navidad"); not a letter alone, which says no name ("Fifth Avenue"
    -> "F quinto Avenue").

    >>> _own_names("Vive en F quinto Avenue, en Nueva York.", "She lives on Fifth Avenue, in New York.")
    ['nueva']
    """
    in_source = {_folded(word) for word in WORD.findall(source)}
    return [_folded(word.group()) for word in WORD.finditer(translation) if word.group()[0].isupper()
            and len(word.group()) > 1 and not starts_sentence(translation, word.start())
            and _folded(word.group()) not in in_source]


def lost_names(translation, source, counts, lexicon, forms=None):
    """The names of `source` that `translation` does not write, when they are more than the capitalised words it
    writes of its own with the initial of one of them (which may say them its way: "Tokyo" -> "Tokio"): names lost,
    dropped ("He asked Lincoln to say a few words." -> "Él le pidió que digan unas pocas palabras.") or changed
    ("He often quotes from Shakespeare." -> "Él a menudo cita de los padres."; "President Lincoln" -> "presidente
    de Japón"). A name here is a capitalised word (not in capitals, not one of `DAYS`) that the corpus `counts` show
    mostly capitalised and its Spanish, the `lexicon`, writes as it is, so that the model learned to copy it
    ("Lincoln", "India"), or, inside a sentence, says in one of the ways of `forms` (`translator.text.name_forms`:
    "Europe" -> "europa", "French" -> "francés"), which a word of the translation must begin as (but for the last
    letter: "francesa", "Europa"). A word opening a sentence is one when the corpus shows it `OPENING_NAME` times as
    often capitalised and a word follows it ("Shakespeare wrote Hamlet." -> "Trabaja a Hamlet."; not "Hey!"), and the
    translation writes no word with its first three letters ("Tom" -> "Tomás").

    >>> counts, lexicon = {"he": 9, "Lincoln": 9, "lincoln": 1, "Tokyo": 9}, {"lincoln", "tokyo"}
    >>> [lost_names(out, "He asked Lincoln to go to Tokyo.", counts, lexicon) for out in (
    ...     "Él le pidió a Lincoln que fuera a Tokio.", "Él le pidió que fuera a Tokio.")]
    [[], ['Lincoln', 'Tokyo']]
    >>> lost_names("El presidente de Japón nació aquí.", "President Lincoln was born here.", counts, lexicon)
    ['Lincoln']
    >>> forms = {"Europe": {"europa"}, "French": {"francés"}}
    >>> [lost_names(out, "He likes French songs from Europe.", {"French": 9, "Europe": 9}, lexicon, forms) for out in (
    ...     "Le gustan las canciones francesas de Europa.", "Le gustan las canciones francesas.")]
    [[], ['Europe']]
    >>> counts = {"Shakespeare": 9, "Tom": 9, "Hey": 9}
    >>> [lost_names(out, "Shakespeare wrote it.", counts, {"shakespeare"}) for out in ("Trabaja.", "Shakespeare lo escribió.")]
    [['Shakespeare'], []]
    >>> lost_names("Tomás se fue.", "Tom left.", counts, {"tom"}), lost_names("¡Eh!", "Hey!", counts, {"hey"})
    ([], [])
    """
    forms = forms or {}
    names = [(match.group(), opening) for match in WORD.finditer(source)
             for opening in [starts_sentence(source, match.start())]
             if match.group()[0].isupper() and match.group()[1:].islower() and not DAYS.fullmatch(match.group())
             and (match.group().lower() in lexicon or match.group() in forms and not opening)
             and counts.get(match.group(), 0) > counts.get(match.group().lower(), 0) * (OPENING_NAME if opening else 1)
             and (not opening or re.match(r" [^\W\d_]", source[match.end():]))]
    if not names:
        return []  # most sentences: nothing to fold
    written = {_folded(word) for word in WORD.findall(translation)}
    lost = [name for name, opening in names if _folded(name) not in written and not _said_in_spanish(name, forms, written)
            and not (opening and any(word.startswith(_folded(name)[:3]) for word in written))]
    initials = {_folded(name)[0] for name in lost}
    return lost if len(lost) > sum(word[0] in initials for word in _own_names(translation, source)) else []


def wrong_numbers(translation, source, keep=()):
    """The numbers `translation` got wrong, the worst thing a translation can say, as `(changed, dropped)`.

    Changed: its digit runs that neither `source` nor the strings `keep` hold ("3 items" -> "35"), a small number
    said more often than the source says it ("for two hours" -> "de dos horas por dos horas"), and the numbers
    with a scale it says in Spanish (`numbers.spanish_numbers`) whose value the source does not hold ("50 million"
    -> "50 mil millones"), and the smaller ones it says in Spanish words that the source says in no way
    (`made_up_words`). Dropped: the small numbers of `source` (`numbers.small_numbers`) that it neither writes as
    digits nor says in words ("6 eggs" -> "los huevos", "six different jobs" -> "un trabajo diferente"), and the
    numbers with a scale (`numbers.SCALED`) whose value it neither writes nor says ("five hundred soldiers" ->
    "cinco soldados"; one said as another number is both changed and dropped), and so is an ordinal in digits it
    neither writes nor says in Spanish ("the 2nd floor" -> "el piso", "2ndiente", "el piso de 14th piso"), "twice" not
    said as two, and a
    fraction whose part it does not say ("a quarter of the bottle" -> "una botella de la botella",
    `numbers.FRACTION`). Other numbers are spans, which `verbatim.restore` puts back.

    >>> wrong_numbers("Muestra 35 artículos por $27.40.", "It shows 3 items for $27.40.")
    (['35'], ['3'])
    >>> wrong_numbers("Nació el 3 de marzo de 1998, con dos hijos y 4 gatos.", "Born March 3, 1998, with 2 sons and four cats.")
    ([], [])
    >>> wrong_numbers("Tenía al menos un trabajo; debe trescientos dólares.", "She had six jobs; he owes three hundred dollars.")
    ([], ['six'])
    >>> wrong_numbers("Votaron 90 veces, veintiún días.", "They voted ninety-five times, twenty-one days.")
    (['90'], ['ninety-five'])
    >>> wrong_numbers("Tiene el triple de libros que ambos.", "She has three times as many books as the two of us.")
    ([], [])
    >>> wrong_numbers("El cruel cuarenta no tiene límites.", "Human cruelty has no limits.")
    (['cuarenta'], [])
    >>> wrong_numbers("Tiene 50 mil millones de personas y cinco soldados.", "It has 50 million people and five hundred soldiers.")
    (['50 mil millones'], ['50 million', 'five hundred'])
    >>> wrong_numbers("Por cierto, el autobús sale a las 7 7.", "By the way, the bus leaves at 7.")
    (['7 7'], [])
    >>> wrong_numbers("Me quedo en el hotel Four Seasons.", "I stay at the Four Seasons hotel.")  # a name's word
    ([], [])
    >>> wrong_numbers("Vive en la segunda planta.", "She lives on the 2nd floor.")
    ([], [])
    >>> [wrong_numbers(out, "She lives on the 2nd floor.")[1] for out in ("Vive en el piso.", "Vive en el 2ndo piso.",
    ...                                                                   "Vive en el piso 2nd.")]
    [['2nd'], ['2nd'], ['2nd']]
    >>> wrong_numbers("Llega el 14 a las 6.", "He lands on the 14th at 6.")  # a day of the month (`words.DAY`)
    ([], [])
    >>> wrong_numbers("Nos vemos en la 5th Ave.", "Meet me on 5th Ave.", keep=["5th Ave"])  # a span as written
    ([], [])
    >>> wrong_numbers("Estuvo caído de dos horas por dos horas.", "It was down for two hours.")
    (['2'], [])
    >>> wrong_numbers("Cuesta el doble que hace dos años.", "It costs double what it did two years ago.")
    ([], [])
    >>> [wrong_numbers(out, "Take 20 mg twice a day.") for out in ("Toma 20 mg veces al día.", "Toma 20 mg dos veces al día.")]
    [([], ['twice']), ([], [])]
    """
    scaled = list(numbers.SCALED.finditer(source))
    scaled_values = [numbers.values_of(match.group("number")) for match in scaled]
    smalls = [small for small in numbers.small_numbers(source)
              if not any(match.start() <= small.start() < match.end() for match in scaled)]
    # A number with a scale may come out in digits: "fifteen hundred" as "1500", "1.500" or "1,500".
    as_digits = [form for match, values in zip(scaled, scaled_values) if values[0] == int(values[0])
                 for form in (str(int(values[0])), f"{int(values[0]):,}", numbers.spanish_scaled(match, source))]
    held = set(re.findall(r"\d+", " ".join([source, *keep, *as_digits])))
    small_values = [numbers.word_value(small.group()) for small in smalls]
    ordinal_words = numbers.ordinal_words(source)
    held |= {str(value) for value in small_values} | {str(value) for _, value, _ in ordinal_words}
    written = re.findall(r"\d+", translation)
    times = collections.Counter(small_values)
    def times_said(value, also=True):
        return written.count(str(value)) + len(re.findall(rf"(?<!\w){numbers.said(value, also)}(?!\w)", translation,
                                                          re.IGNORECASE))
    said = {value: times_said(value) for value in times}
    dropped = list(dict.fromkeys(small.group() for small, value in zip(smalls, small_values) if said[value] < times[value]))
    dropped += [ordinal.group() for ordinal in numbers.ORDINAL.finditer(source)
                if not any(ordinal.group() in WORD.findall(kept) for kept in keep)  # "5th Ave", a span as written
                and not re.search(numbers.said_ordinal(int(ordinal.group(1))) + (
                    rf"|(?<![\w.,]){ordinal.group(1)}(?!\w|[.,]\d)" if numbers.is_day(source, ordinal.start()) else ""), translation)]
    dropped += [many.group() for many in numbers.MANY.finditer(source)
                if not all(re.search(numbers.said_many(word), translation) for word in numbers.many_words(many))]
    # "twice" is two times ("20 mg twice a day" came out "20 mg veces al día"); "once" may be "formerly".
    dropped += [twice.group() for twice in re.finditer(r"(?i)\btwice\b", source)
                if not re.search(rf"(?i)(?<!\w)(?:2|{numbers.said(2)})(?!\w)", translation)]
    dropped += [fraction.group() for fraction in numbers.FRACTION.finditer(source)
                if not re.search(numbers.said_fraction(fraction), translation)]
    dropped += [word.group() for word, value, is_date in ordinal_words  # a date's in words or digits ("del 12 al 20")
                if not re.search(numbers.said_ordinal(value) + (rf"|(?i:(?<!\w){numbers.said(value)}(?!\w))"
                                                                rf"|(?<![\w.,]){value}(?!\w|[.,]\d)" if is_date else ""),
                                 translation)]
    in_words = numbers.spanish_numbers(translation)
    changed = [number for number in written if number not in held]
    # A number written twice in a row that the source writes once ("Por cierto, las 7 7.") is one made up; so is one
    # said more often than the source says it elsewhere ("for two hours" -> "de dos horas por dos horas"), though not
    # one, whose "un" and "una" are articles too, and in digits or words only ("doble" may say "double").
    repeats = [repeat for repeat in REPEATED_NUMBER.finditer(translation)
               if not re.search(rf"(?<![\w.,]){repeat[1]}\s+{repeat[1]}(?!\w|[.,]\d)", source)]
    changed += [repeat[0] for repeat in repeats]
    changed += [str(value) for value in times if value > 1 and str(value) not in {repeat[1] for repeat in repeats}
                and times_said(value, also=False) > times[value]]
    if in_words:  # most translations say no number with a scale: the source's values are not needed
        in_source = numbers.values_in(" ".join([source, *keep]))
        changed += [text for text, values in in_words if in_source.isdisjoint(values)]
    changed += made_up_words(translation, source, keep)
    # Each number of the translation, in digits or in words with a scale, stands for one of the source's.
    found = [set(numbers.readings(digits)) for digits in re.findall(numbers.DIGITS, translation)]
    found += [set(values) for _, values in in_words]
    for match, values in zip(scaled, scaled_values):
        hit = next((said for said in found if not said.isdisjoint(values)), None)
        if hit is None:
            dropped.append(match.group())
        else:
            found.remove(hit)
    return changed, dropped


def changed_days(translation, source):
    """The months and weekdays that `translation` names, in Spanish, more often than `source` does (in English, whole
    or by its first three letters, "Jan", "Mon"): a date the model changed, as numbers are ("The COVID-19 vaccine
    arrived in January." -> "… llegó a febrero"), most often for a rare word beside it, or said twice ("should arrive
    Thursday" -> "de llegar jueves y debería llegar el jueves").

    >>> changed_days("La vacuna llegó en febrero, un lunes.", "The vaccine arrived in January, on a Monday.")
    ['febrero']
    >>> changed_days("Llega jueves y debería llegar el jueves.", "It should arrive Thursday.")
    ['jueves']
    """
    named = collections.Counter(SPANISH_DAYS.findall(translation))
    return [spanish for english, spanish in IN_SPANISH.items()
            if named[spanish] and named[spanish] > len(re.findall(rf"\b{english[:3]}", source))]


def dropped_days(translation, source):
    """The weekdays of `source`, and its months named as a time (`words.MONTH_AS_TIME`), that `translation` does
    not say in Spanish (`verbatim.restore` has written in Spanish those it copied): a date lost, as a number dropped
    is ("Can we do it on Monday instead?" -> "¿Podemos hacerlo en lugar?").

    >>> dropped_days("¿Podemos hacerlo en lugar?", "Can we do it on Monday instead, in June?")
    ['June', 'Monday']
    >>> dropped_days("Cerramos los sábados de mayo.", "We close on Saturdays in May.")
    []
    """
    named = [match[1] or match[2] for match in MONTH_AS_TIME.finditer(source)]
    named += [match[1] for match in WEEKDAY.finditer(source)]
    return [day for day in named if not re.search(rf"(?i)(?<!\w){IN_SPANISH[day]}", translation)]


def wrong_days(translation, source):
    """The months and weekdays that `translation` changed or said twice (`changed_days`) and those of `source` it lost
    (`dropped_days`): a date wrong.

    >>> wrong_days("Llega el jueves y el jueves.", "It comes on Thursday or Friday.")
    ['jueves', 'Friday']
    """
    return changed_days(translation, source) + dropped_days(translation, source)


def made_up_words(translation, source, keep=()):
    """The numbers `translation` says in Spanish words (`numbers.spanish_words`) that neither `source` nor the
    strings `keep` say in any way (`numbers.values_said`: "both" says two), most often for a word the model barely
    knows, as a month changed (`changed_days`): "We tend to make mistakes." -> "Tenemos diez errores.".

    >>> made_up_words("Tenemos diez errores; los dos, cada dos días.", "We tend to make mistakes; both, every other day.")
    ['diez']
    """
    said = numbers.spanish_words(translation)
    if not said:  # most translations: the source's values are not needed
        return []
    in_source = numbers.values_said(" ".join([source, *keep]))
    return [word for word in said if numbers.values_of(word)[0] not in in_source]


def number_spans(source, spans):
    """`spans` and each number of `source` outside them that the model may get wrong, for a second decoding of a
    sentence whose translation changed or dropped one, with every number behind a stand-in: a number with a scale
    (`numbers.SCALED`), written back as `numbers.spanish_scaled` says it (in place of the spans inside it, "50" of
    "50 million"), a small number (`numbers.small_numbers`), written back as a digit, or in Spanish words when
    in words ("seven" -> "siete"; `verbatim.restore` capitalises either where it opens the sentence), a fraction
    (`numbers.FRACTION`), written as Spanish says it ("a quarter" -> "un cuarto"), and an ordinal in digits
    (`numbers.ORDINAL`), written as Spanish abbreviates it ("2nd" -> "2.º").

    >>> [s.value for s in number_spans("Buy 3 apples for $20 on day two.", [Span(17, 20, "number", "$20")])]
    ['3', '$20', 'dos']
    >>> [s.value for s in number_spans("About 50 million people, three hundred dogs.", [Span(6, 8, "number", "50")])]
    ['50 millones de', '300']
    >>> [s.value for s in number_spans("She lives on the 2nd floor.", [])]
    ['2.º']
    """
    spans = list(spans)
    for match in numbers.SCALED.finditer(source):
        spans = _in_place_of(source, spans, Span(match.start(), match.end(), "number", numbers.spanish_scaled(match, source)))
    for many in numbers.MANY.finditer(source):
        spans = _in_place_of(source, spans, Span(many.start(), many.end(), "number", numbers.spanish_many(many)))
    for fraction in numbers.FRACTION.finditer(source):
        spans = _in_place_of(source, spans, Span(fraction.start(), fraction.end(), "number", numbers.spanish_fraction(fraction)))
    for small in numbers.small_numbers(source):
        if any(span.start <= small.start() < span.end for span in spans):
            continue
        value = small.group() if small.group().isdigit() else numbers.spanish_number(numbers.word_value(small.group()))
        spans.append(Span(small.start(), small.end(), "number", value))
    ordinals = [(ordinal, ordinal.group(1) + ".º") for ordinal in numbers.ORDINAL.finditer(source)]
    ordinals += [(word, numbers.spanish_number(value) if is_date else spanish_ordinal(value))
                 for word, value, is_date in numbers.ordinal_words(source)]
    for ordinal, value in ordinals:
        if not any(span.start < ordinal.end() and ordinal.start() < span.end for span in spans):
            spans.append(Span(ordinal.start(), ordinal.end(), "number", value))
    return sorted(spans)


def _place(match, text):
    """Where `match` sits in `text`: its word's index over the number of words (0 to 1)."""
    return len(WORD.findall(text[:match.start()])) / max(len(WORD.findall(text)), 1)


# A capitalised word opening a text with a number after it: a name and its version ("Windows 11 keeps crashing.").
_OPENING_VERSION = re.compile(r"[\s\"'(]*([A-Z][a-z]+)\s\d+(?:\.\d+)*(?![\w-]|[.,:]\d)")
# Words opening a sentence before a number that are no name: "The 2 boys" -> "Los 2 chicos" says no name as a noun.
_NO_NAME = {"the", "a", "an", "my", "your", "his", "her", "its", "our", "their", "this", "that", "these", "those", "in",
            "on", "at", "by", "for", "from", "to", "with", "after", "before", "since", "until", "about", "around", "over",
            "under", "only", "all", "some", "every", "each", "we", "you", "they", "he", "she", "it", "i", "nearly",
            "almost", "just", "and", "but", "or", "so"}


def _opening_version(source):
    """The `_OPENING_VERSION` match of `source`, or None; none for a label, a month or a weekday ("Room 5", "May 5"),
    nor an order's word, which gives one too ("Order 5 pizzas")."""
    opening = _OPENING_VERSION.match(source)
    return (opening if opening and opening[1] not in {**LABELS, **SIGNED_LABELS} and not DAYS.fullmatch(opening[1])
            else None)


def said_as_noun(translation, source):
    """Whether `translation` opens with an article where `source` opens with a name and its version, and does not
    write the name: the model said the name as a noun of its own ("Windows 11 runs well" -> "Las cobras 11 corren
    bien"). A verb giving an order is no name ("Order 5 pizzas" -> "Pide 5 pizzas", "La pizza de 5 pizzas").

    >>> [said_as_noun(out, "Windows 11 runs well.") for out in ("Las cobras 11 corren bien.", "El Windows 11 corre bien.")]
    [True, False]
    >>> said_as_noun("La pizza de 5 pizzas.", "Order 5 pizzas."), said_as_noun("Los 2 chicos.", "The 2 boys.")
    (False, False)
    >>> said_as_noun("El tren de las 7:15.", "Train 7:15 leaves.")  # a time, no version
    False
    """
    opening, words = _opening_version(source), WORD.findall(translation)
    return bool(opening and opening[1].lower() not in _NO_NAME and words and words[0].lower() in ARTICLES
                and opening[1] not in words)


def opening_version(translation, source, lexicon, spans, keep=()):
    """`spans` and, as a name, the name and version opening `source` (`_OPENING_VERSION`: not a label, month or
    weekday), whose name is a word the corpus knows in lower case, so that `verbatim` left it to the model ("Windows",
    "windows"), when `translation` opens with a word it invented in its place (`invented_first`: "Las cdoles 11 …") or
    says the name as a noun (`said_as_noun`: "Las cobras 11 …"): for a second decoding. `spans` as they are otherwise: "In
    1950, ..." comes out "En 1950, ...", nothing invented.

    >>> source, lexicon = "Windows 11 keeps crashing.", {"las", "sigue", "fallando"}
    >>> [[s.value for s in opening_version(out, source, lexicon, [Span(8, 10, "number", "11")])]
    ...  for out in ("Las cdoles 11 sigue fallando.", "Windows 11 sigue fallando.", "Las ventanas 11 sigue fallando.")]
    [['Windows 11'], ['11'], ['Windows 11']]
    >>> [s.value for s in opening_version("Pide 5 pizzas.", "Order 5 pizzas.", {"pide", "pizzas"}, [])]
    []
    """
    opening = _opening_version(source)
    if not opening or not (invented_first(translation, source, lexicon, keep) or said_as_noun(translation, source)):
        return spans
    name = Span(opening.start(1), opening.end(), "name", source[opening.start(1):opening.end()])
    return verbatim.joined(source, sorted(_in_place_of(source, spans, name)))


def misplaced(translation, source, lexicon, counts, keep=()):
    """Whether an `invented` word of `translation` sits `FAR` or farther, in relative position, from every one of
    the `rare_words` of `source`: then it garbles another word (a verb the model missed), and `repair_invented`
    would write a rare word in its place ("El fuego desclinó mi conexión." -> "El fuego firewall mi conexión.").

    >>> counts = {"The": 9, "blocked": 9, "my": 9, "connection": 9}
    >>> source, lexicon = "The firewall blocked my connection.", {"el", "fuego", "mi", "conexión"}
    >>> misplaced("El fuego desclinó mi conexión.", source, lexicon, counts)
    True
    >>> misplaced("El fuegal bloqueó mi conexión.", source, lexicon | {"bloqueó"}, counts)
    False
    """
    rare = [_place(match, source) for match in rare_words(source, lexicon, counts)]
    return bool(rare) and any(min(abs(place - _place(match, translation)) for place in rare) >= FAR - 1e-9
                              for match in invented(translation, source, lexicon, keep))


def spelled_on(translation, source, lexicon, keep=()):
    """The `invented` words of `translation` that begin with a word of `source` of three letters or more, as
    `(invented, source word)` pairs of `re.Match`es: the model spelled on from a word it barely knows ("My vet ..." ->
    "Mi vetert ...", "the oven" -> "el oveno"). Not a Spanish word (`lexicon`: "extratrata" for "extra" is a Spanish
    word spelled on), a word that says little (`FUNCTION_WORDS_EN`), one the translation writes already, nor a name
    (capitalised inside a sentence: "San Francisco" -> "Sanupe" is a name garbled, `garbled_names`).

    >>> [(a.group(), b.group()) for a, b in spelled_on("Mi vetert vio el oveno.", "My vet saw the oven.", {"mi", "vio", "el"})]
    [('vetert', 'vet'), ('oveno', 'oven')]
    >>> spelled_on("Mi vet vio el vetert.", "My vet saw the vetting.", {"mi", "vio", "el"})
    []
    """
    written = {word.lower() for word in WORD.findall(translation)}
    words = [match for match in WORD.finditer(source) if len(match.group()) > 2 and match.group().lower() not in lexicon
             and match.group().lower() not in FUNCTION_WORDS_EN and match.group().lower() not in written
             and (match.group().islower() or starts_sentence(source, match.start()))]
    pairs = []
    for match in invented(translation, source, lexicon, keep):
        begun = [word for word in words if _folded(match.group()).startswith(_folded(word.group()))]
        if begun:
            pairs.append((match, max(begun, key=lambda word: len(word.group()))))
    return pairs


def repair_invented(translation, source, lexicon, counts, keep=()):
    """`translation` with each of its `invented` words replaced by the word of `source` it begins with (`spelled_on`:
    "Mi vetert" -> "Mi vet"), else by one of the `rare_words` of `source`, the one nearest in relative position (each
    is used once, and none of the spans in `keep`: `verbatim.restore` wrote them back already, and "Su coderado ZIP" is
    no "Su ZIP ZIP").

    >>> repair_invented("El fuegal bloqueó la red.", "The firewall blocked the net.", {"el", "bloqueó", "la", "red"},
    ...                 {"The": 9, "the": 9, "blocked": 3, "net": 2})
    'El firewall bloqueó la red.'
    >>> [repair_invented(out, src, {"la", "factura"}, {"I": 9, "the": 9, "invoice": 9, "and": 9})
    ...  for out, src in (("Revé la factura.", "I emailed the invoice."), ("Revé la factura.", "and emailed the invoice."))]
    ['Emailed la factura.', 'emailed la factura.']
    >>> repair_invented("Enseña el tercer gradorer en Lincoln Elementary.", "She teaches third grade at Lincoln Elementary.",
    ...                 {"enseña", "el", "tercer", "en"}, {"She": 9, "teaches": 9, "third": 9, "grade": 9, "at": 9})
    'Enseña el tercer gradorer en Lincoln Elementary.'
    >>> [repair_invented(out, "Add 1 teaspoon of salt.", {"añade", "de", "sal"}, {"Add": 9, "of": 9, "salt": 9})
    ...  for out in ("Añade 1spucharon de sal.", "Añade 1 1spuchar de sal.")]
    ['Añade 1 teaspoon de sal.', 'Añade 1 teaspoon de sal.']
    >>> [repair_invented(out, "It moved to Thursday.", {"se", "mudó", "a", "al", "jueves"},
    ...                  {"It": 9, "moved": 9, "to": 9, "Thursday": 9}) for out in ("Se mudó a Thurs.", "Se mudó a Thurs al jueves.")]
    ['Se mudó a jueves.', 'Se mudó a Thurs al jueves.']
    >>> repair_invented("Mi vetert vio el fuegal.", "My vet saw the firewall.", {"mi", "vio", "el"}, {"My": 9, "saw": 9,
    ...                                                                                               "the": 9, "vet": 9})
    'Mi vet vio el firewall.'
    """
    spans = {word for value in keep for word in WORD.findall(value)}
    begun = {match.start(): word.group() for match, word in spelled_on(translation, source, lexicon, keep)
             if word.group() not in spans}
    # A weekday or month of the source copied cut short ("moved to Thursday" -> "mudado a Thurs") is said in Spanish,
    # unless the translation says it already ("llegar a Thurs al jueves").
    unsaid = [day for day in DAYS.findall(source)
              if day in IN_SPANISH and not re.search(rf"(?i)(?<!\w){IN_SPANISH[day]}(?!\w)", translation)]
    begun |= {match.start(): IN_SPANISH[day] for match in invented(translation, source, lexicon, keep)
              if len(match.group()) > 2 for day in unsaid if day != match.group() and day.startswith(match.group())}
    # Nor a name the translation writes already as often as the source: copied, not twice ("el tercer Elementary a
    # Lincoln Elementary", which `garbled_names` counts as garbled).
    unwritten = collections.Counter(WORD.findall(source)) - collections.Counter(WORD.findall(translation))
    rare = [(_place(match, source), match.group()) for match in rare_words(source, lexicon, counts)
            if match.group() not in spans and (match.group().islower() or unwritten[match.group()])]
    rare = [(place, word) for place, word in rare if word not in begun.values()]
    pieces, at = [], 0
    for match in invented(translation, source, lexicon, keep):
        if match.start() in begun:
            word = begun[match.start()]
        elif rare:
            place = _place(match, translation)
            nearest = min(rare, key=lambda r: abs(r[0] - place))
            rare.remove(nearest)
            word = nearest[1]
        else:
            continue
        # One that opened a sentence leaves its capital to the word put in its place ("Revé el …" -> "Emailed el …"),
        # unless the source opens in lower case: a piece of a sentence too long for the model ("and reflect.").
        if opens_sentence(translation, match.start()) and source.lstrip(" \"'¿¡(")[:1].isupper():
            word = word[0].upper() + word[1:]
        # A number glued before it stays ("y 1spucharon de sal" -> "y 1 teaspoon de sal"; "y 1 1spuchar" has it).
        glued = re.match(r"\d+", match.group())
        if glued and not re.search(rf"(?<![\w.,]){glued.group()}\s*$", translation[:match.start()]):
            word = f"{glued.group()} {word}"
        pieces += [translation[at:match.start()], word]
        at = match.end()
    return "".join(pieces) + translation[at:]
