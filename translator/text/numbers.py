"""Numbers in English and Spanish: found in text, read as values, and said in Spanish.

The checks of `translator.text.garbling` compare the numbers of a translation with
its source's. Digits are compared as written; numbers in words and numbers
with a scale ("three hundred", "1.5 billion", "dos mil", "13.800 millones")
are compared by value, which is what a reader takes from them: "50 million"
written "50 mil millones" keeps its digits and is a thousand times too large.

The English "billion" is a thousand million, the Spanish "billón" a million
million: "1.5 billion" is "1500 millones" (`spanish_scaled`). Digits are read
both ways (`readings`): "1.500" is 1.5 in English and 1,500 in Spanish, and a
model that copies "1.5" from an English source still says 1.5.

>>> [(text, [float(value) for value in values]) for text, values in spanish_numbers("Ganó 1.5 mil millones, no trescientos mil.")]
[('1.5 mil millones', [1500000000.0]), ('trescientos mil', [300000.0])]
"""

import re
from decimal import Decimal

from translator.text.words import (
    CURRENCY,
    DATES_RANGE,
    DAY,
    DAYS_RANGE,
    MONTH,
    ORDINAL_DAYS,
    SPANISH_ORDINALS,
    counts_noun,
    opens_sentence,
    spanish_ordinal,
    starts_sentence,
)

# Small numbers, which `verbatim.find` leaves to the model: one digit ("3 items"), or a number in words up to
# ninety-nine ("six", "twenty-one"; not "one", as often "a" or "the one"), not part of a number with a scale ("three
# hundred", `SCALED`), nor part of a word but an age's ("The nineteen-year-old won" came out "La nueve de años"). The
# model writes each as a digit or in Spanish words (`spanish_number`), as the corpus does.
UNDER_TWENTY = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
SPANISH_UNDER_THIRTY = ("cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once",
                        "doce", "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve", "veinte",
                        "veintiuno", "veintidós", "veintitrés", "veinticuatro", "veinticinco", "veintiséis", "veintisiete",
                        "veintiocho", "veintinueve")
SPANISH_TENS = ("veinte", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa")
SPANISH_HUNDREDS = ("cien", "doscient", "trescient", "cuatrocient", "quinient", "seiscient", "setecient", "ochocient",
                    "novecient")
# Words that multiply what comes before them. The English "billion" is the Spanish "mil millones".
SCALES = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12,
          "mil": 10**3, "millón": 10**6, "millones": 10**6, "billón": 10**12, "billones": 10**12}
EN_SCALE = "hundred|thousand|million|billion|trillion"
ES_SCALE = "mil|millón|millones|billón|billones"
DIGITS = r"\d+(?:[.,]\d+)*"
TENS_WORD = rf"(?:{'|'.join(TENS)})(?:-(?:{'|'.join(UNDER_TWENTY[1:10])}))?"  # "twenty", "twenty-one"
EN_WORD = rf"{TENS_WORD}|{'|'.join(UNDER_TWENTY)}"
SMALL_NUMBER = re.compile(rf"(?<![\w.,-])(?:\d|(?i:{TENS_WORD}|{'|'.join(UNDER_TWENTY[2:])}))(?![\w]|-(?!years?-old\b)|[.,]\d)"
                          rf"(?!\s+(?i:{EN_SCALE})\b)")


def small_numbers(source):
    """The `SMALL_NUMBER`s of `source` that say a count: not a word capitalised inside a sentence, which is part of a
    name ("the Four Seasons", "Ocean's Eleven").

    >>> [m.group() for m in small_numbers("Four of us stayed at the Four Seasons for 3 nights. Two left.")]
    ['Four', '3', 'Two']
    """
    return [match for match in SMALL_NUMBER.finditer(source)
            if match.group().isdigit() or not match.group()[0].isupper() or starts_sentence(source, match.start())]
# A number with a scale word, in digits or words, and a currency before it: "three hundred", "a million", "1.5
# billion", "$2 million", "two hundred and fifty thousand"; not "half a million" ("medio millón").
SCALED = re.compile(rf"(?<![\w.,-])(?P<currency>{CURRENCY})?(?P<number>(?:(?<![Hh]alf )(?i:a)|{DIGITS}|(?i:{EN_WORD}))\s+(?i:{EN_SCALE})"
                    rf"(?:\s+(?:(?i:and)\s+)?(?:{DIGITS}|(?i:{EN_WORD}|{EN_SCALE})))*)(?![\w-])")
_SPANISH_WORD = (rf"(?:{'|'.join(SPANISH_TENS[1:])})\s+y\s+(?:un[ao]?|{'|'.join(SPANISH_UNDER_THIRTY[2:10])})"
                 rf"|veinti(?:ún|una)|{'|'.join(sorted(SPANISH_UNDER_THIRTY[2:] + SPANISH_TENS[1:], key=len, reverse=True))}"
                 rf"|(?<!por )ciento|(?:{'|'.join(SPANISH_HUNDREDS[1:])})(?:os|as)|cien|mil")
# A run of Spanish numbers: digits and words, "un" before a scale; a scale word opens none ("millones de personas").
SPANISH_NUMBER = re.compile(rf"(?<![\w.,])(?:{DIGITS}|(?i:un[ao]?(?=\s+(?:{ES_SCALE})(?!\w))|{_SPANISH_WORD}))"
                            rf"(?:\s+(?:{DIGITS}|(?i:{_SPANISH_WORD}|{ES_SCALE})))*(?![\w])")
# A scale in the plural with no count, "hundreds of years", "tens of thousands of people": how Spanish says each
# word, the first as it is written back ("cientos de años"), and a word the model writes for it is a number changed
# ("thousands of pictures" -> "mil fotos") or left in English ("Hundreds de personas").
SPANISH_MANY = {"tens": ("decenas",), "dozens": ("docenas", "decenas"), "hundreds": ("cientos", "centenares"),
                "thousands": ("miles", "millares"), "millions": ("millones",), "billions": ("miles de millones", "millardos")}
_MANY_WORD = rf"(?i:{'|'.join(SPANISH_MANY)})\s+(?i:of)"
MANY = re.compile(rf"(?<![\w-]){_MANY_WORD}(?:\s+{_MANY_WORD})*(?!\w)")
# An ordinal in digits ("2nd floor", "14th"), which the model may drop ("Ella vive en el piso."); Spanish says one
# up to ten in words of either gender ("segunda", "tercer"), any other in digits. Not a century's, a span written
# back in Roman numerals ("siglo XIX", `verbatim.spanish_century`).
ORDINAL = re.compile(r"(?<![\w.,-])(\d+)(?:st|nd|rd|th)(?!\w)(?!\s+century\b)")
# An ordinal in words, from the third to the hundredth ("the fourth floor" -> "el cuatro piso": a number changed;
# "the twelfth floor", which the corpus shows once, "el piso suave"): "first" and "second" say other things too ("at
# first" -> "al principio", "wait a second" -> "espera un momento"). Not a century's, a span (`verbatim.spanish_century`).
ORDINAL_WORDS = {**{word: value for value, word in enumerate(ORDINAL_DAYS[2:19], 3)},
                 **{tens[:-1] + "ieth": 10 * value for value, tens in enumerate(TENS, 2)},  # "twentieth"
                 **{f"{tens}-{unit}": 10 * value + ones for value, tens in enumerate(TENS, 2)  # "forty-fifth"
                    for ones, unit in enumerate(ORDINAL_DAYS[:9], 1)},
                 "hundredth": 100}
ORDINAL_WORD = re.compile(rf"(?<![\w-])(?i:{'|'.join(ORDINAL_WORDS)})(?![\w-])(?!\s+century\b)")
# A fraction: a count and a part, before "of" or joined to it by a hyphen ("a quarter of the bottle", "two thirds of
# them", "one-third"), which the model may drop ("una botella de la botella"); Spanish says the part as a noun ("un
# tercio", "tres cuartos"; "una tercera parte"). A part without a count or "of" is an ordinal ("a third time"). Not
# a half, which Spanish says in more ways than a check could list ("la mitad", "medio", "y media").
PARTS = {"third": 3, "quarter": 4, **{word: value for word, value in ORDINAL_WORDS.items() if 4 <= value <= 10}}
_PART = rf"(?:{'|'.join(PARTS)})s?"
FRACTION = re.compile(rf"(?<![\w-])(?i:(?P<count>a|one|{'|'.join(UNDER_TWENTY[2:11])})(?:-|\s+(?={_PART}\s+of\b))"
                      rf"(?P<part>{_PART}))(?![\w-])")
# Beside a month, an ordinal is a date, which Spanish says with the number ("on the tenth of May" -> "el diez de mayo"),
# and so is one after "on the", "from the" ... with no noun after it (`words.DAY`: "from the fourteenth to the
# seventeenth").
MONTH_AFTER = re.compile(rf"\s+of\s+(?:{MONTH})\b")
MONTH_BEFORE = re.compile(rf"\b(?:{MONTH})\s+(?:the\s+)?$")
_DAY = re.compile(DAY)
_DAYS = re.compile(f"{DAYS_RANGE}|{DATES_RANGE}")


def is_day(source, start):
    """Whether the ordinal at `source[start:]` is a day of the month, which Spanish says with the bare number: after
    "on the", "from the" … with no noun after it (`words.DAY`), or in days from one to another
    (`words.DAYS_RANGE`: "from the 1st to the 14th in the hall"; `words.DATES_RANGE`: "March 3rd to 10th").

    >>> text = "Open from the 1st to the 14th in May, on the 3rd at 6, for the 5th in a row, from the 1st to the 9th floor."
    >>> [is_day(text, text.index(day)) for day in ("14th in May", "3rd at", "5th in", "9th floor")]
    [True, True, False, False]
    >>> text = "Open March 3rd to 10th, then for the 10th time."
    >>> is_day(text, text.index("10th,")), is_day(text, text.index("10th time"))
    (True, False)
    """
    return bool(_DAY.match(source, start)) or any(days.start() <= start < days.end() for days in _DAYS.finditer(source))


# English words that say a number without being one, and the values Spanish may say for them: "both" -> "los dos",
# "every other day" -> "cada dos días", "a fortnight" -> "quince días", "a quarter to three" -> "las tres menos
# quince", "a week" -> "ocho días", "midnight" -> "las doce"; and "once", which Spanish reads as eleven.
IMPLIED = {"both": (2,), "twice": (2,), "couple": (2,), "pair": (2,), "double": (2,), "either": (2,), "neither": (2,),
           "twin": (2,), "twins": (2,), "other": (2,), "thrice": (3,), "triple": (3,), "dozen": (12,), "dozens": (12,),
           "decade": (10,), "score": (20,), "quarter": (15,), "quarters": (15, 25), "week": (7, 8, 15), "weeks": (15,),
           "fortnight": (15,), "midnight": (12,), "noon": (12,), "once": (11,)}
SPANISH_WORD = re.compile(rf"(?i:{_SPANISH_WORD})")


def word_value(word):
    """The value of one number word, English or Spanish, any case and gender, or of a digit run, or None.

    >>> word_value("twenty-one"), word_value("Veintiún"), word_value("quinientas"), word_value("3"), word_value("tree")
    (21, 21, 500, 3, None)
    """
    word = word.lower()
    if word.isdigit():
        return int(word)
    if word in ("a", "un", "una", "uno", "ún"):
        return 1
    tens, _, ones = word.partition("-")
    if tens in TENS:
        return 20 + 10 * TENS.index(tens) + (UNDER_TWENTY.index(ones) if ones else 0)
    if word in UNDER_TWENTY:
        return UNDER_TWENTY.index(word)
    if re.fullmatch(r"veinti(?:ún|una)", word):
        return 21
    if word in SPANISH_UNDER_THIRTY:
        return SPANISH_UNDER_THIRTY.index(word)
    if word in SPANISH_TENS:
        return 20 + 10 * SPANISH_TENS.index(word)
    if word == "ciento":
        return 100
    stem = re.sub(r"(?:os|as)$", "", word)
    return 100 * (SPANISH_HUNDREDS.index(stem) + 1) if stem in SPANISH_HUNDREDS[1:] or word == "cien" else None


def readings(digits):
    """The values `digits` may stand for: English's decimal point and comma between thousands, then Spanish's
    comma and point; only readings whose groups of thousands have three digits.

    >>> readings("1.500"), readings("2,4"), readings("8,336,817"), readings("12")
    ((Decimal('1.500'), Decimal('1500')), (Decimal('2.4'),), (Decimal('8336817'),), (Decimal('12'),))
    """
    values = []
    for thousands, point in ((",", "."), (".", ",")):
        whole, _, fraction = digits.partition(point)
        groups = whole.split(thousands)
        if point in fraction or thousands in fraction or any(len(group) != 3 for group in groups[1:]):
            continue
        value = Decimal("".join(groups) + ("." + fraction if fraction else ""))
        if value not in values:
            values.append(value)
    return tuple(values)


def values_of(text):
    """The values a run of number words and digits (a `SCALED` or `SPANISH_NUMBER` match) may stand for, one for
    each way of reading its digits (`readings`), English's first: "a hundred and two" is 102, "dos mil millones"
    2,000,000,000.

    >>> values_of("two hundred and fifty thousand"), values_of("1.500 millones"), values_of("555.123.4567 million")
    ((Decimal('250000'),), (Decimal('1500000.000'), Decimal('1500000000')), (Decimal('5551234567000000'),))
    """
    tokens = [token for token in re.findall(rf"{DIGITS}|[^\W\d_]+(?:-[^\W\d_]+)?", text) if token.lower() not in ("and", "y")]
    values = []
    for way in (0, 1):
        total = group = current = Decimal(0)
        for token in tokens:
            scale = SCALES.get(token.lower())
            if scale == 100:
                current *= scale
            elif scale == 1000:  # "mil" alone is a thousand; "dos mil millones" is (2 x 1,000) millions
                group, current = group + (current or 1) * scale, Decimal(0)
            elif scale:
                total, group, current = total + (group + current) * scale, Decimal(0), Decimal(0)
            elif token[0].isdigit():  # digits no reading fits ("555.123.4567 million") read as they are
                options = readings(token) or (Decimal(re.sub(r"\D", "", token)),)
                current += options[min(way, len(options) - 1)]
            else:
                current += word_value(token)
        if total + group + current not in values:
            values.append(total + group + current)
    return tuple(values)


def english_value(word):
    """The value of one English number word (lower case) as a count, an ordinal or a plural, or None.

    >>> [english_value(word) for word in ("seven", "seventeenth", "twentieth", "ninth", "forties", "tens", "tent")]
    [7, 17, 20, 9, 40, 10, None]
    """
    if word in ORDINAL_DAYS:  # "first", "twelfth": not all are a number's word and "th"
        return ORDINAL_DAYS.index(word) + 1
    for ending, written in (("", ""), ("ieth", "y"), ("th", ""), ("ies", "y"), ("s", "")):
        if word.endswith(ending) and word[:len(word) - len(ending)] + written in UNDER_TWENTY + TENS:
            return word_value(word[:len(word) - len(ending)] + written)
    return None


def values_said(text):
    """Every value up to ninety-nine that English `text` says: in digits, in number words of any form
    (`english_value`; "ninety-five" as 95 and each of its parts), or by a word in `IMPLIED`.

    >>> sorted(values_said("Both of the ninety-five boys, on the 3rd, at 10:30."))
    [2, 3, 5, 10, 30, 90, 95]
    """
    values = {int(digits) for digits in re.findall(r"\d+", text)}
    for word in re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)?", text.lower()):
        parts = [english_value(part) for part in word.split("-")]
        values |= {value for value in parts if value is not None}
        values |= {value for part in word.split("-") for value in IMPLIED.get(part, ())}
        if len(parts) == 2 and None not in parts and parts[0] >= 20 and parts[1] < 10:
            values.add(parts[0] + parts[1])
    return values


def spanish_words(translation):
    """The numbers from two to ninety-nine that `translation` says in Spanish words, not part of a number with a
    scale ("dos mil"), one word or "treinta y cinco" each: "las ocho treinta" says eight and thirty.

    >>> spanish_words("Los dos tienen treinta y cinco, a las ocho treinta, dos mil y un perro.")
    ['dos', 'treinta y cinco', 'ocho', 'treinta']
    """
    return [word.group() for run in SPANISH_NUMBER.finditer(translation) if not is_scaled(run.group())
            for word in SPANISH_WORD.finditer(run.group())]


def is_scaled(text):
    """Whether a number run says a hundred or more in words ("trescientos", "dos mil", "1.5 billion")."""
    return any(SCALES.get(word.lower()) or (word_value(word) or 0) >= 100 for word in re.findall(r"[^\W\d_]+", text))


def spanish_numbers(translation):
    """The numbers with a scale that `translation` says in Spanish (`SPANISH_NUMBER` runs that `is_scaled`), each
    as `(text, values)`."""
    return [(match.group(), values_of(match.group())) for match in SPANISH_NUMBER.finditer(translation)
            if is_scaled(match.group())]


def values_in(text):
    """Every value `text` writes in digits (each of their `readings`), in English words with a scale, or says in
    Spanish words with a scale."""
    values = {value for digits in re.findall(DIGITS, text) for value in readings(digits)}
    values |= {value for match in SCALED.finditer(text) for value in values_of(match.group("number"))}
    return values | {value for _, found in spanish_numbers(text) for value in found}


def spanish_digits(value):
    """`value` in digits as Spanish writes them: a point between thousands from five digits on, a decimal comma.

    >>> spanish_digits(Decimal(1500)), spanish_digits(Decimal(20000)), spanish_digits(Decimal("2.40"))
    ('1500', '20.000', '2,4')
    """
    whole, _, fraction = format(value.normalize(), "f").partition(".")
    if len(whole) > 4:
        whole = f"{int(whole):,}".replace(",", ".")
    return whole + ("," + fraction if fraction else "")


def many_words(match):
    """The scale words of a `MANY` match, lower-cased: "Tens of thousands of" -> ["tens", "thousands"]."""
    return [word.lower() for word in re.findall(r"\w+", match.group()) if word.lower() != "of"]


def said_many(word):
    """A regular expression of a `SPANISH_MANY` word said in Spanish, any of its ways ("cientos", "centenares")."""
    return rf"(?<!\w)(?i:{'|'.join(SPANISH_MANY[word])})(?!\w)"


def spanish_many(match):
    """A `MANY` match as Spanish says it: "tens of thousands of" -> "decenas de miles de".

    >>> [spanish_many(match) for match in MANY.finditer("Hundreds of people, tens of thousands of birds.")]
    ['cientos de', 'decenas de miles de']
    """
    return " ".join(SPANISH_MANY[word][0] + " de" for word in many_words(match))


def spanish_scaled(match, source):
    """A `SCALED` match of `source` in Spanish: in digits up to a million ("three hundred" -> "300", "twenty
    thousand" -> "20.000"; digits have no gender, "trescientas" has), else counted in millions or Spanish
    billions, with "de" before the noun they count ("7 billion people" -> "7000 millones de personas").

    >>> source = "They spent $2 million; 7 billion people; a million; twenty thousand pesos."
    >>> [spanish_scaled(match, source) for match in SCALED.finditer(source)]
    ['$2 millones', '7000 millones de', 'un millón', '20.000']
    """
    value = values_of(match.group("number"))[0]
    currency = match.group("currency") or ""
    if value < 10**6:
        return currency + spanish_digits(value)
    scale, one, many = (10**12, "billón", "billones") if value >= 10**12 else (10**6, "millón", "millones")
    count = value / scale
    said = {1: f"un {one}", 1000: "mil millones"}.get(count, f"{spanish_digits(count)} {many}")
    return currency + said + (" de" if counts_noun(source[match.end():]) and not currency else "")


def spanish_number(value):
    """`value` (0 to 99) in Spanish words, as the corpus writes it.

    >>> spanish_number(6), spanish_number(21), spanish_number(95)
    ('seis', 'veintiuno', 'noventa y cinco')
    """
    if value < 30:
        return SPANISH_UNDER_THIRTY[value]
    tens = SPANISH_TENS[value // 10 - 2]
    return f"{tens} y {SPANISH_UNDER_THIRTY[value % 10]}" if value % 10 else tens


# Other ways Spanish says two and three: "both of them", "three times as many" ("el triple de libros").
SAID_ALSO = {2: "|ambos|ambas|doble", 3: "|triple"}


def said_ordinal(value):
    """A regular expression of the ordinal `value` in Spanish: its digits ("2.º", "2ª"; not the English "2nd"), bare
    after the noun ("el piso 2") or in a date ("el 2 de mayo") but not before another word, where the model read it
    as a count ("the 21st floor" -> "el suelo de 21 piso", "her 3rd gold medal" -> "su 3 patio de oro"), or up to
    ten in words.

    >>> [bool(re.search(said_ordinal(2), text)) for text in ("la segunda planta", "el piso 2.º", "el piso 12", "el 2nd",
    ...                                                      "el piso 2.", "el 2 de mayo", "el 2 piso", "el 2.º piso")]
    [True, True, False, False, True, True, False, True]
    """
    words = rf"|(?i:{SPANISH_ORDINALS[value - 1]}(?:[oa]s?)?(?!\w))" if 1 <= value <= 10 else ""
    return rf"(?<![\w.,])(?:{value}(?:\.?[ºª](?!\w)|(?!\w|[.,]\d|\s+(?!(?:de|del|y|o)\b)[a-záéíóúñ])){words})"


def ordinal_words(source):
    """The ordinals in words of `source` (`ORDINAL_WORD`) the model must keep, as `(match, value, is_date)`: not
    a fraction, nor part of a name, capitalised inside the sentence ("Third Avenue", "the Fourth of July") or before
    another capitalised word ("Twelfth Night is a comedy").

    >>> [(m.group(), value, date) for m, value, date in ordinal_words("The fourth scene, a third of it, on Third Avenue "
    ...                                                               "on the tenth of May, the twelfth time, the "
    ...                                                               "fortieth of May.")]
    [('fourth', 4, False), ('tenth', 10, True), ('twelfth', 12, False), ('fortieth', 40, False)]
    >>> ordinal_words("Twelfth Night is a comedy.")
    []
    """
    found = []
    fractions = [fraction.span("part") for fraction in FRACTION.finditer(source)]
    for match in ORDINAL_WORD.finditer(source):
        before, after = source[:match.start()], source[match.end():]
        if match.span() in fractions or match.group()[0].isupper() and (
                not opens_sentence(source, match.start()) or re.match(r"\s+[A-Z]", after)):
            continue
        value = ORDINAL_WORDS[match.group().lower()]
        is_date = value <= 31 and (bool(MONTH_AFTER.match(after) or MONTH_BEFORE.search(before))
                                   or is_day(source, match.start()))
        found.append((match, value, is_date))
    return found


def _part(match):
    """The value of the part of the fraction `match` (`FRACTION`): 3 for "third" or "thirds"."""
    return PARTS[match["part"].lower().removesuffix("s")]


def said_fraction(match):
    """A regular expression of the part of the fraction `match` (`FRACTION`) in Spanish, as a noun ("tercio", "cuartos")
    or an ordinal before "parte" ("tercera parte"); not as the ordinal alone ("Uno tercer del dinero").

    >>> [bool(re.search(said_fraction(FRACTION.search("a third of it")), text)) for text in ("un tercio", "la tercera parte",
    ...                                                                                      "el tercer", "tres")]
    [True, True, False, False]
    """
    noun = "tercio" if _part(match) == 3 else SPANISH_ORDINALS[_part(match) - 1] + "o"
    return rf"(?i:(?<!\w)(?:{noun}s?|{SPANISH_ORDINALS[_part(match) - 1]}as?\s+partes?)(?!\w))"


def spanish_fraction(match):
    """The fraction `match` (`FRACTION`) as Spanish says it, its part a noun.

    >>> [spanish_fraction(match) for match in FRACTION.finditer("A quarter of it, two thirds of them, one-fifth.")]
    ['un cuarto', 'dos tercios', 'un quinto']
    """
    count, part = word_value(match["count"]), "tercio" if _part(match) == 3 else spanish_ordinal(_part(match))
    return f"{'un' if count == 1 else spanish_number(count)} {part}{'s' if count > 1 else ''}"


def said(value, also=True):
    """A regular expression of `value` (0 to 99) in Spanish words, any gender ("veintiún", "una"), or (with `also`) as
    `SAID_ALSO`."""
    words = re.escape(spanish_number(value))
    words = words[:-3] + "(?:uno|una|un|ún)" if words.endswith("uno") else words
    return f"(?:{words}{SAID_ALSO.get(value, '') if also else ''})"
