"""English as the training corpus writes it: American spellings, straight quotes, words for abbreviations, no capitals.

The training corpus writes American English: "color" 45 times, "colour" never;
"theater" 37, "theatre" never; "realize" 43, "realise" never. A British
spelling is a word the model barely knows, and it garbles it like any rare
word ("My favourite colour is blue." -> "Mi favourite es azul.", "I didn't
realise..." -> "No te he tenido la realidad..."). Before decoding, each word
the corpus shows fewer than `MIN_COUNT` times is spelled the American way
(`WORDS`, then `RULES`) where the corpus shows that spelling more often ("liters"
once, "litres" never); a word no rule makes known ("Colourpop") stays as
written.

>>> counts = {"favorite": 9, "color": 9, "theater": 9, "center": 9, "realize": 9, "traveled": 9}
>>> american("My favourite colour, the Theatre in the centre: we realise you travelled.", counts)
'My favorite color, the Theater in the center: we realize you traveled.'

Typographic quotes and the ellipsis sign are as new to the model: the
corpus' English writes "'" some 32,000 times and "’" 33, never "“" nor "…";
"It’s Tom’s car." came out "No está en el coche de Tom.". `as_the_corpus`
straightens them too. Abbreviations the corpus never writes, Latin ("e.g.") or
of chat ("Where r u?" -> "¿Dónde recuperan?"), are `spelled_out` in its words.
A sentence in capitals is as new ("WHERE IS THE TRAIN STATION?" -> "¿De qué
comporta IS THE TRAIN STATION?", its words taken for a name): `uncapitalised`
writes its words in the case the corpus writes them most ("Where is the train
station?"; "TOM" as "Tom", "NASA" as it is where the corpus lacks it) before
anything else reads it, and the translation comes in the model's case. A
number joined to a unit before a noun ("a 3-day trip") goes to the model noun
first (`nouns_first`: "a trip of 3 days"), as does a country by its initials
("the U.S. economy": "the economy of the U.S.").
"""

import re

from translator.text.numbers import EN_WORD, word_value
from translator.text.words import (
    BODY_WORD,
    COUNTRY,
    DAY_WORD,
    GOES_ON_AFTER_COUNTRY,
    MIN_COUNT,
    UNIT_PLURALS,
    WORD,
    starts_sentence,
)

# Endings and letters British English spells otherwise, as regular expressions on a lower-case word and their
# American replacements: "colour", "centre", "realise", "analyse", "travelled", "defence", "catalogue",
# "programme", "paediatric".
RULES = (
    (r"our", "or"), (r"([tb])re(s?)$", r"\1er\2"), (r"is(e|es|ed|ing|ation|ations|er|ers)$", r"iz\1"),
    (r"ys(e|es|ed|ing)$", r"yz\1"), (r"ll(ed|ing|er|ers|or|ors)$", r"l\1"), (r"ence$", "ense"), (r"ogue$", "og"),
    (r"mme$", "m"), (r"ae", "e"),
)
# Words no rule makes: British and American spell them apart.
WORDS = {"grey": "gray", "tyre": "tire", "tyres": "tires", "jewellery": "jewelry", "aluminium": "aluminum",
         "plough": "plow", "mould": "mold", "pyjamas": "pajamas", "kerb": "curb", "aeroplane": "airplane",
         "aeroplanes": "airplanes", "mum": "mom", "mums": "moms", "whilst": "while", "amongst": "among",
         "learnt": "learned", "spelt": "spelled", "cosy": "cozy", "sceptical": "skeptical", "practise": "practice",
         "storey": "story", "draught": "draft"}


def _known(word, counts):
    """How often the corpus `counts` show `word`, in lower case or capitalised."""
    return counts.get(word, 0) + counts.get(word.capitalize(), 0)


def _american(word, counts):
    """The American spelling of the lower-case `word` that the corpus shows more often than `word`, or None."""
    candidates = [WORDS.get(word, word)] + [re.sub(pattern, replacement, word) for pattern, replacement in RULES]
    candidates.append(word)
    for pattern, replacement in RULES:  # a word may need two rules: "colourise" -> "colorize"
        candidates[-1] = re.sub(pattern, replacement, candidates[-1])
    return next((candidate for candidate in candidates if _known(candidate, counts) > _known(word, counts)), None)


def american(text, counts):
    """`text` with each word the corpus `counts` show fewer than `MIN_COUNT` times spelled the American way, where
    the corpus shows that spelling more often, capitals kept ("Colour" -> "Color"), or in capitals where the corpus
    writes it so ("ok" -> "OK")."""
    def respelled(match):
        word = match.group()
        if not word.isalpha() or _known(word.lower(), counts) >= MIN_COUNT:
            return word
        if counts.get(word.upper(), 0) >= MIN_COUNT:  # the corpus writes it in capitals: "ok" -> "OK"
            return word.upper()
        spelled = _american(word.lower(), counts) if len(word) > 2 else None
        if spelled is None:
            return word
        return spelled.upper() if word.isupper() else spelled.capitalize() if word[0].isupper() else spelled
    return WORD.sub(respelled, text)


# Typographic marks as the corpus' English writes them.
STRAIGHT = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "…": "..."})
# Abbreviations the corpus (almost) never writes, Latin and chat, in the words it writes for them: "e.g." -> "g con un
# sí", "Where r u?" -> "¿Dónde recuperan?".
SPELLED_OUT = {"e.g.": "for example", "i.e.": "that is", "u": "you", "r": "are", "ur": "your", "pls": "please",
               "plz": "please", "thx": "thanks", "btw": "by the way", "gonna": "going to", "gotta": "got to",
               "idk": "I don't know", "congrats": "congratulations", "omg": "oh my God", "tmrw": "tomorrow",
               "cuz": "because", "msg": "message", "vs.": "against", "vs": "against", "approx.": "about",
               "mins": "minutes", "hrs": "hours", "secs": "seconds", "a/c": "air conditioner"}
# Not inside an address, a path or a handle ("example.com/u/r").
_ABBREVIATED = re.compile(r"(?<![\w.'/@#-])(?i:" + "|".join(re.escape(key).replace(r"\.", r"\.\s?").removesuffix(r"\s?")
                                                         for key in SPELLED_OUT) + r")(?![\w'/@-]|\.\w)")


# "~" before a number is "about", a sign the corpus never shows: "takes ~3 hours" -> "obligar 3 horas".
_TILDE = re.compile(r"(?:\b(about|around|approximately|roughly)\s*)?~\s?(?=[$€£]?\d)", re.IGNORECASE)


def spelled_out(text, counts):
    """`text` with the abbreviations of `SPELLED_OUT` that the corpus `counts` show fewer than `MIN_COUNT` times in
    lower case in the words the corpus writes for them, capitalised where typed so; not "U" or "R" alone, a key or
    a letter ("Press R"); "~" before a number as "about". Before the spans are found: a sentence's first word the
    corpus lacks ("Btw") would be taken for a name.

    >>> print(spelled_out("E.g. this, i.e. that. Btw, where r u? Press R.", {}))
    For example this, that is that. By the way, where are you? Press R.
    >>> print(spelled_out("~200 came, about ~5 left, ~ $3 each, ~/notes", {}))
    About 200 came, about 5 left, about $3 each, ~/notes
    """
    def words(match):
        typed = "".join(match.group().split())
        # Counted in lower case: the corpus' "U" is that of "U.S.", no "u".
        if counts.get(typed.lower(), 0) >= MIN_COUNT or typed in ("U", "R"):
            return match.group()
        spelled = SPELLED_OUT[typed.lower()]
        # In capitals inside a sentence, an acronym's ("the A/C"), not a capital opening it.
        capital = typed[0].isupper() and (not typed.isupper() or starts_sentence(text, match.start()))
        return spelled[0].upper() + spelled[1:] if capital else spelled

    def about(match):
        if match[1]:  # "about ~200": said once
            return match[1] + " "
        return "About " if starts_sentence(text, match.start()) else "about "
    return _TILDE.sub(about, _ABBREVIATED.sub(words, text))


# A number joined to a unit before a noun ("a 3-day trip", "my 5-year-old son", "a 55-inch TV", "a twenty-year-old
# driver"), which the model read as pieces: "al día de 3-", "un hotel de 5-estrella", "Es una hora de película a las
# dos" for "a 2-hour movie", "una televisión de 55 y", "El veinte años del año". A century so too ("a
# nineteenth-century house" came out "una casa de nineteenth a la casa"). Not before a word that is no noun ("a 3-day
# long trip"): a past form ("The 19-year-old scored"), nor one before an object ("The 19-year-old won the race" came
# out "El ganado de 19 años", given "The won of 19 years the race").
PLURALS = {**UNIT_PLURALS, "story": "stories", "person": "people"}
COMPOUND_UNITS = ("second", "minute", "hour", "day", "week", "month", "year", "mile", "kilometer", "meter", "star",
                  "page", "point", "step", "inch", "foot", "pound", "gallon", "liter", "litre", "ounce", "room", "bedroom",
                  "story", "person")
_DETERMINER = r"(?<![\w-])((?i:an?|the|my|your|his|her|its|our|their|this|that))\s+"
_NOUN = (r"\s+(?!(?:and|or|in|on|at|to|of|for|with|from|by|is|was|are|were|long|wide|high|deep|tall|old)\b)"
         r"(?![a-z]*ed\b)([a-z]+\b|[A-Z]{2,4}(?![\w-]))(?!\s+(?:the|my|your|his|her|its|our|their|him|them|me|us)\b)")
# A verb in "-s" after an age ("My 2-year-old loves dinosaurs" came out "Mi ama 2 años dinosaurs", given "My loves of 2
# years dinosaurs"): a word in "-s", not "-ss" or "-us", but for the plurals an age goes before.
_VERB_S = r"(?!(?:twins|triplets|kids|boys|girls|sons|daughters|students|brothers|sisters|dogs|cats|puppies)\b)[a-z]+[^su\W]s\b"
_COMPOUND = re.compile(rf"{_DETERMINER}(\d+(?:[.,]\d+)?|(?i:{EN_WORD}))-({'|'.join(COMPOUND_UNITS)})(?:-old(?!\s+{_VERB_S}))?"
                       rf"{_NOUN}")
_CENTURY = re.compile(rf"(?:{_DETERMINER})?(?<![\w-])(\d{{1,2}}(?:st|nd|rd|th)|{DAY_WORD})-century{_NOUN}")
# An age before no noun stands for a person ("The 19-year-old won the race." came out "El 19 y año ganaron la
# carrera"): "the person of 19 years" ("la persona de 19 años"), a child up to twelve ("our child of 3 years"). Only
# before a clause's end, a verb that helps or a word that joins, a verb before its object, or one in the past before
# a clause's end, a preposition or a pronoun ("The 8-year-old asked for a puppy." came out "El 8-años pidió …"): "a
# 30-year-old unmarried woman" is the woman's age.
_AGE_ALONE = re.compile(rf"{_DETERMINER}(\d{{1,3}}|(?i:{EN_WORD}))-year-old"
                        r"(?=\s*(?:[.,;:!?]|$)|\s+(?:is|was|are|were|has|had|will|would|can|could|and|or|who|in|on|at|from|"
                        rf"with)\b|\s+{_VERB_S}|\s+[a-z]+\s+(?:the|a|an|my|your|his|her|its|our|their)\b"
                        r"|\s+[a-z]+ed(?:\s*(?:[.,;:!?]|$)|\s+(?:for|to|at|in|on|with|about|me|him|her|us|them|it)\b))")
CHILD_UNTIL = 12
# A country by its initials qualifying a noun, between "the", "a" or "an" and the clause's next verb or joining word
# ("The U.S. economy grew" came out "Los Estados Unidos la economía creció", "He became a U.S. citizen" "Él se convirtió
# en Estados Unidos los ciudadanos"): the noun first, "the economy of the U.S.", where the country is one the model
# says (`translator.text.verbatim`'s kind "country"). So too one of its bodies ("A U.S. Navy ship arrived." came out "Un
# barco llegó a U.S. Navy."). Not after a preposition: "people in the U.S. work from home" has a verb after the country.
_COUNTRY_BEFORE_NOUN = re.compile(
    rf"(?<![\w-])((?i:an?|the))\s+({COUNTRY}{BODY_WORD}*)\s+(?!{GOES_ON_AFTER_COUNTRY}|ed\b)([a-z]+)"
    rf"(?=\s*(?:[.,;:!?]|$)|\s+(?:{GOES_ON_AFTER_COUNTRY}))")
_PREPOSITION = re.compile(r"\b(?:in|into|to|from|at|of|for|on|with|by|across|throughout|about|around)\s+$", re.IGNORECASE)


def nouns_first(text):
    """`text` with each number or century joined to a unit before a noun said the way the corpus says it, noun
    first: "a 2-hour movie" is "a movie of 2 hours" ("una película de 2 horas"), "my 5-year-old son" "my son of 5
    years", "a nineteenth-century house" "a house of the nineteenth century"; an age before no noun, a person's.

    >>> print(nouns_first("A 1-day pass and an 8-hour shift, my 5-year-old son, a 55-inch TV, a 3-day long trip."))
    A pass of 1 day and a shift of 8 hours, my son of 5 years, a TV of 55 inches, a 3-day long trip.
    >>> print(nouns_first("The twenty-year-old driver, an 18th-century painting. The 19-year-old won the race."))
    The driver of twenty years, a painting of the 18th century. The person of 19 years won the race.
    >>> print(nouns_first("Our 3-year-old is sick; an eleven-year-old and a one-year-old."))
    Our child of 3 years is sick; a child of eleven years and a child of one year.
    >>> print(nouns_first("I'm a 30-year-old unmarried woman. The 8-year-old asked for a puppy."))
    I'm a 30-year-old unmarried woman. The child of 8 years asked for a puppy.
    >>> print(nouns_first("She collects 20th-century posters. Twentieth-century art is here."))
    She collects posters of the 20th century. Art of the twentieth century is here.
    >>> print(nouns_first("The U.S. economy grew. He became a US citizen in 2010. People in the U.S. work at home."))
    The economy of the U.S. grew. He became a citizen of the US in 2010. People in the U.S. work at home.
    >>> print(nouns_first("A U.S. Navy ship arrived. She is a U.S. Air Force pilot."))
    A ship of the U.S. Navy arrived. She is a pilot of the U.S. Air Force.
    """
    def article(determiner, noun):
        return determiner[0] + ("n" if noun[0] in "aeiou" else "") if determiner.lower() in ("a", "an") else determiner

    def noun_first(match):
        determiner, number, unit, noun = match.groups()
        return (f"{article(determiner, noun)} {noun} of {number} "
                f"{unit if number.lower() in ('1', 'one') else PLURALS.get(unit, unit + 's')}")

    def person_of(match):
        determiner, number = match.groups()
        age = word_value(number)
        who = "child" if age <= CHILD_UNTIL else "person"
        return f"{article(determiner, who)} {who} of {number} year{'' if age == 1 else 's'}"

    def century_after(match):
        determiner, ordinal, noun = match.groups()
        if determiner:
            return f"{article(determiner, noun)} {noun} of the {ordinal} century"
        if starts_sentence(match.string, match.start()):  # "Twentieth-century art is …": "Art of the twentieth century is …"
            noun, ordinal = noun.capitalize(), ordinal.lower()
        return f"{noun} of the {ordinal} century"
    def country_after(match):
        determiner, country, noun = match.groups()
        if _PREPOSITION.search(match.string[:match.start()]):
            return match.group()
        return f"{article(determiner, noun)} {noun} of the {country}"
    text = _CENTURY.sub(century_after, _AGE_ALONE.sub(person_of, _COMPOUND.sub(noun_first, text)))
    return _COUNTRY_BEFORE_NOUN.sub(country_after, text)


def as_the_corpus(text, counts):
    """`text` as the corpus writes English: straight quotes, and British spellings made `american`.

    >>> print(as_the_corpus("It’s “grey”…", {"gray": 9}))
    It's "gray"...
    """
    return american(text.translate(STRAIGHT), counts)


def uncapitalised(text, counts):
    """`text`, when in capitals (three words of two letters or more in four at least, and two of them), with each
    word in capitals written as the corpus `counts` show it most, capitalised to open a sentence; a word they do
    not show stays in capitals ("NASA").

    >>> counts = {"where": 9, "Where": 2, "is": 9, "Tom": 9, "tom": 1}
    >>> uncapitalised("WHERE IS TOM, NASA? WHERE?", counts), uncapitalised("Where is NASA?", counts)
    ('Where is Tom, NASA? Where?', 'Where is NASA?')
    """
    words = [word for word in WORD.findall(text) if len(word) > 1 and word.isalpha()]
    shouted = [word for word in words if word.isupper()]
    if len(shouted) < 2 or 4 * len(shouted) < 3 * len(words):
        return text

    def cased(match):
        word = match.group()
        if not word.isupper() or not (counts.get(word.lower()) or counts.get(word.capitalize())):
            return word
        if starts_sentence(text, match.start()):
            return word.capitalize()
        return max((word.lower(), word.capitalize()), key=lambda form: counts.get(form, 0))
    return WORD.sub(cased, text)


def lowered(text, words):
    """`text` with each of `words` in lower case where it opens a sentence.

    >>> lowered("Marriage is a dinner. Then we left, Marriage.", ["Marriage", "Then"])
    'marriage is a dinner. then we left, Marriage.'
    """
    return WORD.sub(lambda m: m.group().lower() if m.group() in words and starts_sentence(text, m.start()) else m.group(),
                    text)
