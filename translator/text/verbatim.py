"""What must come through translation unchanged: found before decoding, hidden behind stand-ins, written back after.

A URL, an e-mail address, "8,336,817", "SUMMER2027" or a name the training
corpus (almost) never shows ("Okonkwo") reaches the model as several subword
pieces, and the model, which learned names mostly from "Tom" and "Mary",
turns the pieces into Spanish-looking non-words ("Acmeme", "836,336"). So
before decoding each such *span* is replaced by a stand-in the model copies
reliably (a frequent name, a two-digit number, a place), and after decoding
each stand-in is replaced by the span exactly as written: the placeholder
trick of production MT systems. `KINDS` is the table of what is protected.

Names are protected when rare, by the English of the training split
(training writes its word counts to `words_en.txt` in the model directory; a
directory without that file counts each vocabulary token as well known): a
capitalised word seen fewer than `MIN_COUNT` times that the corpus never
writes in lower case (so a sentence's first word, "Wipe your feet.", is not
taken for a name), together with the capitalised words around it ("Acme
Widget", "José Álvarez", "Jean-Luc Picard"). Names the corpus shows often
("Africa", "New York") are left to the model, which learned their Spanish.
Every number of two digits or more is protected (the model copies single
digits, and a translation that changes or drops a number is decoded again
with them protected too: `translator.text.garbling`); a number with a separator,
a sign, a currency, a percent sign or a unit ("250 ml", "US$ 899") too. A
date with its month's name ("March 3, 1998") comes out as Spanish writes it
("3 de marzo de 1998"): the one span whose value is not its text, as a
glossary's terms are.

Protection is for what the model would change. A time, a written date, a
number with a separator and a plain number the corpus shows often (`tried`) are
first left to the model: the sentence is decoded both ways in one batch, and the model's
own translation is kept when it still holds each of them once, as written or
as Spanish writes it (`kept_by_model`): "at 2:30" -> "a las dos y media", as
the corpus spells it; "2,000 books" -> "2.000 libros"; "150 books" -> "150
libros". A garbled one ("a las 2:3", "15 libros") keeps the stand-in's translation.

What the model still garbles (invented words, names copied in part, numbers
changed) is judged in its translation: `translator.text.garbling`.

The model may still drop, repeat or change a stand-in. `restore` then keeps one
occurrence (the one nearest the span's place in the source), reads a word that
holds the stand-in with letters or digits glued to it ("455" for "45") as the
stand-in, and puts a dropped span back at the same relative word position it
had in the source (a simple position rule: at this model's sentence lengths
word order is close to monotone), and says so in a note, so that every span
comes out exactly once. Such a sentence is first decoded once more behind the
next stand-ins of each pool (`protect`'s `shift`), and that translation kept if
it needed fewer repairs.
"""

import collections
import functools
import re
from pathlib import Path
from typing import NamedTuple

from translator.text import nouns, verbs
from translator.text.words import (
    ADDRESS,
    BARE_GREETINGS,
    BODY_WORD,
    CALLS,
    CAPITALISED,
    CLOSINGS,
    CODES,
    COUNTRIES,
    COUNTRY,
    COUPLE_TITLE,
    CURRENCY,
    DATES_RANGE,
    DAY,
    DAY_WORD,
    DAYS_APART,
    DAYS_RANGE,
    DECADES,
    DIAS,
    GOES_ON_AFTER_COUNTRY,
    GREETED,
    GREETINGS,
    INITIALS,
    LABEL,
    LABEL_DETERMINERS,
    LABEL_NUMBER,
    LABELS,
    LETTER,
    MERIDIEM,
    MESES,
    MIN_COUNT,
    MONTH,
    MONTH_AS_TIME,
    MONTHS,
    NAME,
    NUMBER_NAMES,
    NUMBERED,
    OFFICES,
    ORDINAL_DAY,
    ORDINAL_DAYS,
    PARTICLES,
    ROUGHLY,
    SENTENCE_END,
    SIGNED_LABELS,
    SIGNS,
    SPANISH_TITLES,
    TITLE,
    TITLES,
    UNIT_WORDS,
    UNITS,
    WEEKDAY,
    WEEKDAYS,
    WORD,
    counts_noun,
    opens_sentence,
    spanish_ordinal,
)

# Stand-ins that the shipped model copies verbatim in every sentence frame tried (bench/RESULTS.md).
STAND_INS = {
    "name": ("John", "Mary", "Mike", "Bob", "Linda", "Tom"),
    "number": ("45", "37", "15", "60", "70", "25"),
    "place": ("Texas", "Denver", "Dallas", "Miami", "Houston", "Boston"),
    # Two people, for a family or a couple: the model makes the verb agree ("Tom y Mary nos invitaron").
    "pair": ("Tom and Mary",),
    **nouns.STAND_INS,
    **verbs.STAND_INS,
}
# The kinds of a word of a list (`translator.text.nouns`, `translator.text.verbs`), behind a stand-in of its class:
# its English decides whether it is one ("printers").
LISTED = (*nouns.STAND_INS, *verbs.STAND_INS)
# How the corpus' Spanish writes some stand-ins ("Mary" as "María" in one pair in six, "Tom" as "Tomás" in one in
# twenty): the model may write them so too, and each form still stands for the span.
SPANISH_FORMS = {"John": ("Juan",), "Mary": ("María",), "Tom": ("Tomás",), "Texas": ("Tejas",),
                 "Tom and Mary": ("Tom y Mary", "Tom y María", "Tomás y María"),
                 **{noun: nouns.said(noun) for noun in nouns.SAID}}
WORDS_FILE = "words_en.txt"
# Words that may follow a decade that qualifies no noun: a verb or a word that joins ("The 1990s were ...", "the 80s and").
AFTER_DECADE = ("were|was|are|is|had|have|has|saw|brought|and|or|in|on|at|to|for|with|when|as|but|that|which|where|"
                "anymore|again|too|now|then|also|will|would|could|can|until|before|after|of|from")
# A period or unit after a sum, with a slash or "a", "an" or "per" ("$2,300/month", "$139 per year", "$3.89 a gallon";
# the model dropped it, "cuesta $2,300.", or copied it, "a gallon"), and how Spanish says it so: "/mes", "al mes".
PERIODS = {"month": ("mes", "al mes"), "mo": ("mes", None), "year": ("año", "al año"), "yr": ("año", None),
           "week": ("semana", "a la semana"), "wk": ("semana", None), "day": ("día", "al día"),
           "night": ("noche", "por noche"), "hour": ("hora", "por hora"), "hr": ("hora", None),
           "person": ("persona", "por persona"), "gallon": ("galón", "por galón"), "liter": ("litro", "por litro"),
           "litre": ("litro", "por litro"), "kilo": ("kilo", "por kilo"), "pound": ("libra", "por libra"),
           "mile": ("milla", "por milla")}
PER_PERIOD = (rf"/(?:{'|'.join(PERIODS)})\b"
              rf"|\s(?:a|an|per)\s(?:{'|'.join(word for word, (_, said) in PERIODS.items() if said)})\b")
# "minus" before a number, which Spanish says "menos" (`spanish_amount`).
MINUS = r"(?<![\w-])[Mm]inus\s"
# Fractions in one sign, alone or after a whole number ("2½", "¾"), which the model reads as no number ("anima años").
VULGAR = "½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒"
# "1.2k", "$1.5M", "3bn": a thousand, a million, a billion, written after the digits ("221B" is a code).
MULTIPLIER = r"(?:[kKM]|bn)"
# A weekday by its place in the month, "the last Monday of each month", "the first Thursday of the month", after any
# "the": the model said it as one day ("el lunes pasado", a day gone by), dropped its "every" ("el segundo martes de
# mes") or its ordinal's ending ("los primers jueves del mes").
MONTHLY_WEEKDAY = (rf"(?<=\b[Tt]he )(?:{'|'.join(ORDINAL_DAYS[:5])}|last|[1-5](?:st|nd|rd|th))\s+(?:{'|'.join(WEEKDAYS)})"
                   r"\s+of\s+(?:every|each|the)\s+month\b")
# "#" and a number, or a code of capitals and digits, after a label or a `SIGNED_LABELS` noun in any case, with the
# word before it (`LABEL_DETERMINERS`): "Invoice #2231", "your order #58213", "the invoice INV-2024-0042".
LABEL_DETERMINER = rf"(?i:(?:{'|'.join(LABEL_DETERMINERS)})\s)?"
SIGNED_LABEL = (rf"{LABEL_DETERMINER}(?i:{LABEL}|{'|'.join(SIGNED_LABELS)})"
                r"\s(?:#\s?\d+(?:-\d+)*|[A-Z]{2,}-(?=[A-Z\d-]*\d)[A-Z\d]+(?:-[A-Z\d]+)*)(?![\w-])")
# A label in lower case after any word when a capital letter is part of its number, with the word before it: "I'm
# flying with Iberia, flight IB 6251, seat 23C." came out "… asiento a IB 6251, el asiento a 23C" ("flight" said
# "asiento"), "Your flight UA 1234 …" "Tu7 el vuelo UA 1234 …".
CODED_LABEL = rf"{LABEL_DETERMINER}(?i:{LABEL})(?=\s(?:[A-Z]{{1,2}}\s?\d|\d+[A-Z](?![\w-])|(?:{LETTER})(?![\w'-])))"
# The words after which a label may be in lower case ("Call extension 4402" opening a sentence too).
LOWER_LABEL_AFTER = "|".join(f"(?<=[{word[0]}{word[0].upper()}]{word[1:]} )"
                             for word in ("in", "on", "at", "to", "from", "into", "see", "read", "call", "dial", "take", "watch",
                                          "took", "takes", "catch", "caught", "board", "ride", "rode"))
# The words of a street's name after its number.
STREETS = ("Avenue", "Ave", "Street", "St", "Boulevard", "Blvd", "Road", "Rd", "Place", "Pl", "Drive", "Dr", "Lane", "Ln")
# Not "Dr." or "St." before a name: "Ask Dr. Brown", "visit St. Louis".
STREET_WORD = "|".join(rf"{word}(?!\.?\s+[A-Z])" if word in ("Dr", "St") else word for word in STREETS)
# Kin that a family calls by it, as by a name, capitalised: "Grandpa turns 80 next Sunday." came out "Grandpa gira a
# 80 …" (the corpus shows "grandpa" three times); alone it comes out as Spanish says it too, "el abuelo". Not when
# called, between commas ("Grandma, can you hear me?"), where Spanish says no article.
GRANDPARENTS = ("Grandma", "Granny", "Grandpa", "Grandmother", "Grandfather")
# A product's edition after its code or version, part of its name: "iPhone 16 Pro" came out "el iPhone 16", "Pro" read
# as a word the corpus knows in lower case.
EDITIONS = ("Pro", "Max", "Plus", "Ultra", "Mini", "mini", "Air", "Lite", "SE", "Home")
# The last word of a company's name: the words before it are its name, though the corpus knows them ("Apple Inc.").
COMPANIES = ("Inc", "Corp", "Ltd", "LLC", "Co", "GmbH", "PLC")
# The words a title leaves in lower case between its capitalised ones ("The Lord of the Rings").
SMALL_TITLE_WORDS = "a|an|the|of|and|or|nor|but|in|on|at|to|for|with|by|from|as|vs"
# One emoji: a flag (two regional letters), or a symbol with its skin tone, variation and joined symbols.
EMOJI = (r"(?:[\U0001F1E6-\U0001F1FF]{2}|[\U0001F300-\U0001FAFF\u2600-\u27BF]"
         r"(?:[\uFE0F\U0001F3FB-\U0001F3FF]|\u200D[\U0001F300-\U0001FAFF\u2600-\u27BF])*)")
FILE_ENDINGS = ("txt|csv|json|ya?ml|py|js|ts|html?|css|pdf|docx?|xlsx?|pptx?|png|jpe?g|gif|svg|zip|tar|gz|md|log|cfg|ini|"
                "conf|sh|exe|mp[34]|wav|sql|xml|toml|ipynb|java|cpp|c|h|rs|go|com|org|net|io|edu|gov|dev|es|uk|de")


class Kind(NamedTuple):
    """One shape of span: its `name`, its `pattern`, the `stand_in` pool it is hidden behind, and `examples` of it."""

    name: str
    pattern: str
    stand_in: str
    examples: tuple


# Earlier kinds win where matches overlap: an e-mail address is not read as a handle and a file name.
KINDS = (
    Kind("url", r"(?:https?://|www\.)[^\s<>\"]*[^\s<>\".,!?;:)\]'’]", "place",
         ("https://example.org", "www.example.com/a?b=1")),
    Kind("email", r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}", "place", ("jane.doe@example.com",)),
    # With what a hyphen joins to it: "#A-20931" came out "20931 de #A-".
    Kind("handle", r"(?<![\w@#])[@#][A-Za-z_]\w*(?:-\w+)*", "place", ("@nasa", "#TBT", "#A-20931")),
    Kind("path", r"(?:[A-Za-z]:\\|~/|\.{1,2}/|(?<![\w.])/)[\w.\\/-]*\w"
                 rf"|(?<![\w.])(?:[\w-]+/)*[\w-]+(?:\.[\w-]+)*\.(?:{FILE_ENDINGS})\b(?:/[\w.~%+=&?#/-]*[\w/])?", "place",
         ("config.yaml", "/etc/hosts", "docs/notes.txt", "C:\\Users\\ana\\a.doc", "example.org", "github.com/keras-team")),
    # A title in quotes, its words capitalised ("I read "The Old Man and the Sea" last summer." came out "Leí " Los Old
    # Man y el último verano."), as written, the quotes the model's: a book's, film's or song's name.
    Kind("quoted_title", rf'(?<=")(?:{CAPITALISED}|\d+)(?:\s(?:(?:{SMALL_TITLE_WORDS})\s)*(?:{CAPITALISED}|\d+))+(?=")', "name",
         ()),
    Kind("days", f"{DAYS_RANGE}|{DATES_RANGE}", "number",
         ("from the 1st to the 14th", "from the third to the ninth of June", "from July 1 to July 15", "July 4-6")),
    # The day in words too: "the tenth of May" came out "el diez de mayo de mayo", "the second of January" "el segundo";
    # or none, a month and its year ("postponed until March 2027" came out "hasta que las 2027").
    Kind("written_date", rf"\b(?:{MONTH})\.?\s(?:of\s)?\d{{4}}(?!\w)"
                         rf"|\b(?:{MONTH})\.?\s(?:\d{{1,2}}(?:st|nd|rd|th)?|(?:the\s)?{DAY_WORD}(?![\w-]))(?:,?\s\d{{4}})?(?!\w)"
                         rf"|(?:(?<![\w.,])\d{{1,2}}(?:st|nd|rd|th)?\s(?:of\s)?|(?<![\w-]){DAY_WORD}\sof\s)(?:{MONTH})\b"
                         rf"(?:,?\s\d{{4}})?(?!\w)", "number",
         ("March 3, 1998", "June 14th", "4th of August", "2 February 1987", "Sept. 9", "fourteenth of February",
          "May the twenty-first", "March 2027")),
    # "#1" too: "the #1 player" came out "el jugador de 1 jugador".
    Kind("numbered", rf"(?<![\w.]){NUMBERED}|(?<![\w#&])#\d+(?![\w#]|[.,]\d)", "number", ("No. 5", "No.12", "#1")),
    # A street, a name, as written: numbered ("Meet me at Starbucks on 5th Ave." came out "… a Ave a las 5.ª"), named
    # ("turn left onto Oak Street" came out "gira a Oak. Street."), with a house number before it ("Our office is at
    # 1600 Pennsylvania Avenue." came out "… a las 1600 Pennsylvania Avenue", an hour's article).
    Kind("street", rf"(?<![\w.,-])(?:\d+(?:st|nd|rd|th)|(?:\d+[A-Z]?\s)?(?!(?:The|A|An)\s){CAPITALISED}"
                   rf"(?:\s{CAPITALISED}){{0,2}})\s(?:{STREET_WORD})(?!\w)", "place",
         ("5th Ave", "42nd Street", "3rd St", "Oak Street", "1600 Pennsylvania Avenue", "221B Baker Street")),
    # A post office box, as written: "Send the forms to P.O. Box 1234." came out "… a Plan. La caja 1234.".
    Kind("po_box", r"(?<![\w.])P\.?\s?O\.?\s?Box\s\d+(?![\w-])", "place", ("P.O. Box 1234", "PO Box 77")),
    # A world war by its number, which the model knows as "la Segunda Guerra Mundial" but changed for the first ("World
    # War I" came out "la Segunda Guerra Mundial" or "la Guerra Mundial"): as Spanish says it, with its article.
    Kind("war", r"\bWorld\sWar\s(?:II|I)(?![\w-])", "name", ("World War I", "World War II")),
    # A country's body, its initials before capitalised words ("the U.S. Navy", "the US Army", "the U.S. Department of
    # State"), as written: the initials read as the country and the words left to the model came out garbled ("A U.S.
    # Navy ship arrived." -> "Un Estados Unidos na mar llegó barco.", "She is a U.S. Air Force pilot." -> "… de U.S. a
    # Forir Force."; `spelling.nouns_first` gives the noun it qualifies first, "a ship of the U.S. Navy").
    Kind("country_body", rf"(?<![\w.-]){COUNTRY}{BODY_WORD}+(?![\w'’-])",
         "name", ("U.S. Navy", "US Army", "U.S. Air Force", "UK Parliament", "U.S. Department of State")),
    # A country or union by the initials English writes it with, which Spanish writes otherwise ("I live in the US."
    # came out "Vivo en el US.", "The UN met" "El UN conoció"): its "the" with it, as Spanish says it (`COUNTRIES`).
    # Not before a noun it qualifies (`spelling.nouns_first` gives "a US citizen" as "a citizen of the US"; one it
    # leaves, "the UK army officer", is the model's): only before no lower-case word, or one of `AFTER_COUNTRY` or in
    # "-ed" ("The EU passed a law"); nor before a capitalised word (a body of it, or a name: "the UN Security Council").
    Kind("country", rf"(?<![\w.-])(?:[Tt]he\s)?{COUNTRY}(?![\w$-]|\.\w|\s+[A-Z])"
                    rf"(?!\s+(?!{GOES_ON_AFTER_COUNTRY})[a-z])",
         "place", ("the US", "U.S.", "the UK", "EU", "the UN", "the E.U.")),
    # A vitamin by its letter: "Vitamin C is good for you." came out "Vitamin es bueno para ti.", the letter lost. No
    # article in Spanish, which says it bare where English does ("rica en vitamina C").
    Kind("vitamin", r"(?<![\w-])[Vv]itamin\s[A-EK]\d{0,2}(?![\w-])", "number", ("Vitamin C", "vitamin B12")),
    # A letter grade with its sign, as written: "I got a B+ on my history exam." came out "Conseguí un Bive …". Not
    # "C++".
    Kind("grade", r"(?<![\w+-])[A-DF][+-](?![\w+-])", "number", ("B+", "A-")),
    # A school year, "3rd grade", as Spanish writes it: the model copied "grade" ("en 3.º grade") or said it as a mark
    # ("el primer nota").
    Kind("school_year", rf"(?<![\w.,-])(?:\d{{1,2}}(?:st|nd|rd|th)|(?i:{'|'.join(ORDINAL_DAYS[:12])}))\s+grade(?![\w-])",
         "number", ("3rd grade", "first grade")),
    # A share off a price, as Spanish says it: "Everything is 20% off" came out "Todo es 20% de", "for 20% off" "por
    # 20%", "off" lost. Not a share off a mark ("20% off its peak").
    Kind("discount", r"(?<![\w.,])\d+(?:[.,]\d+)?\s?%\s+off(?![\w-])(?!\s+(?:its|their|target|course|track)\b)", "number",
         ("20% off", "12.5 % off")),
    # In words too: "in the nineteenth century" came out "en la nineteenth", "the twenty-first century" "las veinte años
    # de primeras".
    Kind("century", rf"(?<![\w.,-])(?:\d{{1,2}}(?:st|nd|rd|th)|{DAY_WORD})\s+century(?!\w)", "number",
         ("19th century", "21st century", "nineteenth century", "Twenty-first century")),
    # A decade with its "the" (and an "in" before "the early"; in words, "and" or "or" does: "the sixties and
    # seventies"): the model read "the 1990s" as "los 190", "the 80s" as "los ochos" and "the sixties" as "los seis
    # años". Not "in her 30s", an age, nor before a noun it qualifies, "(the) 1980s music", which Spanish says in
    # another order ("la música de los años 80"): a word in lower case after it must be one that follows a subject or
    # a time (`AFTER_DECADE`).
    Kind("decade", r"(?<![\w-])(?:[Ii]n\s+[Tt]he\s+(?:early|mid|late)[\s-]+|[Tt]he\s+(?:(?:early|mid|late)[\s-]+)?"
                   rf"|(?:(?<=\band\s)|(?<=\bor\s))(?={'|'.join(DECADES)}))"
                   rf"(?:(?:(?:1\d|20)\d0|['’]?\d0)s|{'|'.join(DECADES)})(?!\w)(?!\s+(?!(?:{AFTER_DECADE})\b)[a-z])",
         "number", ("the 1990s", "in the early 2000s", "the late 1800s", "the '80s", "the 60s", "the sixties")),
    # The early, middle or late part of a year or month ("in mid-2026" came out "en mid-2026", "by late 2024" "de tarde
    # a las 2024"), as Spanish says it, "a mediados de 2026", "finales de 2024" ("in" and all).
    # A century's part with its "the" ("in the late nineteenth century" came out "en el siglo XIX tarde").
    Kind("part", rf"(?<![\w-])(?:[Ii]n\s+)?(?:(?:[Ee]arly|[Mm]id|[Ll]ate)[\s-]+(?:(?:1\d|20)\d\d|(?:{'|'.join(MONTHS)})(?:,?\s\d{{4}})?)"
                 rf"|[Tt]he\s+(?:early|mid|late)[\s-]+{ORDINAL_DAY}\s+century)(?![\w-])", "number",
         ("mid-2026", "in early 2025", "late March", "in mid-May 2027", "the late 19th century")),
    # A numbered place or part, "Room 214", "Chapter 12", "Gate B12": the model copied the noun in English or garbled
    # it ("Le capter 12"). It comes out with its Spanish noun and article ("la habitación 214"); in lower case only
    # after a preposition or a verb that goes to one ("in room 214", "call extension 4402": "llamar extension a las
    # 4402"), as "the room 5 minutes ago" is no label; but for "version", which numbers whatever comes before it ("The
    # new update, version 4.2, fixed the login bug." came out "El nuevo cartero, la entrada 4.2, login la perilla.").
    Kind("label", rf"(?<![\w-])(?:(?:{LABEL}|(?:{LOWER_LABEL_AFTER})(?i:{LABEL})|{CODED_LABEL}|version){LABEL_NUMBER}"
                  rf"|{SIGNED_LABEL})", "number",
         ("Room 214", "Chapter 12", "Gate B12", "Version 2.4.1", "Terminal 2", "Highway 101", "Chapter IV",
          "Flight AA 2417", "Order #45821", "your invoice INV-2024-0187", "flight IB 6251", "seat 23C")),
    # Two numbers with "to" between, a range, a ratio or a score: "4 to 1" came out "4 1", "6 to 8 years" "6 para 8 años".
    # A deal, "2-for-1" ("una echa de 2-10": a number changed), as Spanish writes it, "2x1".
    # Two times too when the last says "a.m." or "p.m." ("from 10 p.m. to 2 a.m." came out "de 10 p.m. para 2 a.m.");
    # not others ("9:00 to 11:30", spans of their own, which the model may say in words). With "in", a share, "1 in
    # 10" ("Solo 1 10 personas"); not before a unit of time ("2 in 5 minutes").
    Kind("range", rf"(?<![\w.,:/-])\d{{1,2}}(?::\d{{2}})?(?:\s?{MERIDIEM})?(?:\s+to\s+|\s?[–-]\s?)\d{{1,2}}(?::\d{{2}})?\s?{MERIDIEM}"
                  rf"|(?<![\w.,:/-]){CURRENCY}?\d+(?:[.,]\d+)*%?\s+to\s+{CURRENCY}?\d+(?:[.,]\d+)*%?(?![\w:/]|[.,]\d)"
                  r"|(?<![\w.,:/-])\d{1,2}\s+in\s+\d{1,3}"
                  r"(?![\w:/]|[.,]\d|\s+(?:second|minute|hour|day|week|month|year)s?\b)"
                  r"|(?<![\w.,:/-])\d{1,2}-for-\d{1,2}(?![\w-])",
         "number", ("4 to 1", "10 to 15", "1.5 to 2.5", "1 in 10", "10 p.m. to 2 a.m", "9 to 11am", "3 pm–5 pm", "9am-5pm",
                    "12.5% to 15%", "$20 to $30", "2-for-1")),
    # "8 o'clock" and "10am sharp" come out as Spanish says them, "8 en punto", "10am en punto" (the model wrote "8 de
    # punto", "10am afilada"). "14:30h" with its "h" ("a las 14:30 30h" otherwise).
    Kind("time", rf"(?<![\w:])\d{{1,2}}(?:(?::\d{{2}}(?::\d{{2}})?(?![\d:])(?:\s?{MERIDIEM}|h(?!\w))?|\s?{MERIDIEM})(?:\s+sharp\b)?"
                 rf"|\s?o['’]clock\b|\s+sharp\b)",
         "number", ("10:30", "7:45 pm", "9:05 a.m", "6 p.m", "11am", "8 o'clock", "14:30h", "10am sharp", "6 sharp")),
    # Found only after a preposition and "the" (`DAY`): no example stands alone.
    Kind("day", f"{DAY}|{MONTHLY_WEEKDAY}", "number", ()),
    # Weekdays from one to another, "(from) Monday to Friday", as Spanish says them, "de lunes a viernes" ("The clinic
    # is open Monday to Friday, 8 am to 6 pm." came out "El lunes a clinic está abierta el viernes …").
    Kind("weekdays", rf"(?<![\w-])(?:[Ff]rom\s)?(?:{'|'.join(WEEKDAYS)})\s?(?:to|through|thru|till|until|[–-])\s?"
                     rf"(?:{'|'.join(WEEKDAYS)})(?![\w-])", "place",
         ("Monday to Friday", "from Monday through Saturday")),
    Kind("date", r"(?<![\w/.-])\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}(?![\w/]|[/.-]\d)", "number", ("12/05/2024", "2024-05-12")),
    # With the North American "1" before it ("1-800-555-0199" came out "a las 1-800-555-0199", a digit group's).
    # With dots too, in three, three and four digits, no number's grouping ("555.123.4567" came out "a las 555.123.4567").
    # With its extension ("555-0199 ext. 12" came out "555-0199. 12."). With a country's code before an area's in
    # brackets ("+1 (555) 123-4567" came out "a las +1 (555) 123-4567", read as a number and a phone).
    Kind("phone", r"(?<![\w+])(?:\+\d{1,3}(?:[\s-]\d{1,4}){2,5}|(?:1[\s-]|\+\d{1,3}\s?)?(?:\(\d{2,4}\)\s?)?\d{3,4}(?:[\s-]\d{2,4}){1,3}"
                  r"|(?<![\d.,])\d{3}\.\d{3}\.\d{4}(?!\.\d))(?:,?\s[Ee]xt\.?\s?\d{1,5})?(?![\w-])",
         "number", ("555-0142", "+34 912 345 678", "(020) 7946 0958", "+44 20 7946 0018", "1-800-555-0199", "555.123.4567",
                    "555-0199 ext. 12", "+1 (555) 123-4567")),
    # A ratio, "3:1" or "16:9", that no time is (a time's minutes are two digits): "en una 3:1: 1 ratio" otherwise.
    # A height in feet and inches, "5'11\"", came out "5 11 \"". Dimensions, "30 x 20 x 15 cm", "30 completas 15 cm 20".
    # A whole number with its fraction, which the model said half in words ("2 1/2 cups" came out "dos 1/2 tazas").
    Kind("serial", r"(?<![\w-])\d+(?:-\d+)+(?![\w-])|(?<![\w/.,])(?:\d+\s(?=[1-9]/[2-9](?!\d)))?\d+/\d+(?![\w/]|[.,]\d)"
                   r"|(?<![\w:.,])\d+(?::\d+)+(?![\w:]|[.,]\d)"
                   r"|(?<![\w.,'’])\d{1,2}['’′]\s?\d{1,2}(?:[\"”″]|(?![\w.,]))"
                   rf"|(?<![\w.,])\d+(?:[.,]\d+)?(?:(?:\s?×\s?|\sx\s)\d+(?:[.,]\d+)?)+(?:\s?(?:{UNITS})(?![\w/°]))?(?![\w])",
         "number", ("90210-1234", "978-3-16-148410-0", "120/80", "24/7", "2 1/2", "3:1", "16:9", "5'11\"",
                    "6′2″", "30 x 20 x 15 cm", "1920×1080")),
    # A unit in words ("4.5 kilograms", "70 square meters"), which the model copied, dropped or garbled ("3alnes" for
    # "3 gallons", "metros de plaza"): written back in Spanish, but first left to the model (`tried`).
    Kind("measure", rf"(?<![\w.,])(?:{MINUS})?\d+(?:[.,]\d+)*\s(?:(?:square|cubic)\s)?"
                    rf"(?:{'|'.join(sorted(UNIT_WORDS, key=len, reverse=True))})(?:{PER_PERIOD})?(?!\w)",
         "number", ("4.5 kilograms", "1 foot", "70 square meters", "minus 5 degrees", "35 miles per gallon", "59 cents")),
    # "percent" and "minus" in words too, which the model dropped ("6 percent" -> "6 años") or copied ("minus 12").
    # A sum up to another after a dash ("$5-10" came out "$5 de 10"), and a "+" after a number ("$1,000+", "18+").
    Kind("number", rf"(?<![\w.,]){CURRENCY}\d+(?:[.,]\d+)*[–-]{CURRENCY}?\d+(?:[.,]\d+)*(?![\w-])"
                   rf"|(?<![\w.,])(?:[-+−]|{MINUS}(?=\d))?{CURRENCY}?(?:\d+(?:[.,]\d+)*[{VULGAR}]?|[{VULGAR}])"
                   rf"{MULTIPLIER}?(?:%|\s?[{SIGNS}]|\s?(?:{UNITS})(?![\w/°])|\s(?:percent|per\s?cent))?"
                   rf"(?:{PER_PERIOD})?(?:\+(?![\w+]))?(?![\w])"
                   rf"|(?<![\w.,])[-+−]?[{SIGNS}]\d+\w*",
         "number", ("8,336,817", "3.14", "-5", "$20", "€1,200.50", "45%", "1999", "250 ml", "90 km/h", "98.6 °F", "4 USD",
                    "US$ 899", "CHF 20", "₹500", "1.2k", "$1.5M", "2½", "¾", "3.9 percent", "minus 12", "850 sq ft",
                    "$2,300/month", "20 €", "$139 per year", "5 min", "$5-10", "$1,000+", "18+", "$3.89 a gallon")),
    # A shop or restaurant named for its owner, "McDonald's", "Trader Joe's": the model dropped the "'s" ("Ayer comí en
    # la McDonald"). Only a name the corpus does not know (`wanted`: "Tom's" is Tom's home), of two letters or more,
    # not after "is" or "are" ("They are Tania's": hers), and before no noun: at the end of a clause or before a word
    # that follows a subject or place (`AFTER_DECADE`).
    Kind("business", rf"(?<![\w-])(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bbe\s)(?<!['’]s\s)(?<!['’]re\s)"
                     rf"(?!(?:The|A|An)\s|\w['’])"
                     rf"{CAPITALISED}(?:\s{CAPITALISED})*['’]s(?![\w'’-])"
                     rf"(?=\s*$|\s*[,.;:!?)]|\s+(?:{AFTER_DECADE}|yesterday|today|tonight|tomorrow|every|last|next|near)\b)",
         "place", ("McDonald's", "Trader Joe's")),
    Kind("code", r"(?:(?<![\w-])(?!\d+(?:st|nd|rd|th|s)\b)(?=[\w.#&*+=~^-]*[\d_])(?=[\w.#&*+=~^-]*[A-Za-z])"
                 r"[A-Za-z0-9]+(?:[._#&*+=~^-][A-Za-z0-9]+)*(?![\w-])"
                 r"|(?<!\w)(?:[A-Za-z][a-z]*[A-Z][a-z][A-Za-z]*|[a-z]+[A-Z]{2,}[a-z]*)(?:\s\d+(?:\.\d+)*[A-Za-z]*)?(?!\w))"
                 rf"(?:\s(?:{'|'.join(EDITIONS)})(?![\w-]))*"
                 r"|(?<![\w+])(?:Ctrl|Alt|Shift|Cmd|Option|Fn|Win)(?:\+\w+)+(?![\w+])|(?<![\w-])--[A-Za-z][\w-]*"
                 r"|(?<![\w&])[A-Z]+&[A-Z]+(?![\w&])|(?<![\w+#])[CF](?:\+\+|#)(?![\w+#])", "name",
         ("SUMMER2027", "221B", "BA117", "v2.3.1", "iPhone 15", "iPhone 16 Pro", "iPad mini", "PlayStation 5", "iOS 17.2", "macOS",
          "hunter2", "max_retries", "HomeNet_5G", "Xk7#pQ2", "Ctrl+Alt+Delete", "--dry-run", "R&D", "AT&T", "C++", "C#")),
    # "etc." ends a list the model reads as one more item: "huevos, la etuada" unless a name stands in for it. Its
    # full stop is the span's only when the sentence goes on: a sentence the model sees end in none runs on.
    Kind("etc", r"(?<![\w.])etc(?:\.(?!\s*$))?(?!\w)", "name", ("etc",)),
    # A place named for its owner or saint, "St. Mary's Hospital", "Joe's Pizza": the model, given "John's Hospital",
    # wrote "en la Hospital" and lost the name. Taken whole, but only when a word after the "'s" is one the corpus
    # knows in lower case, a noun that makes it a place (`wanted`): "Tom's Honda" is Tom's car.
    Kind("institution", rf"(?<![\w-])(?!(?:The|A|An)\s)(?:{TITLE}\s)?{CAPITALISED}(?:\s{CAPITALISED})*['’]s"
                        rf"(?:\s{CAPITALISED})+(?![\w-])", "place",
         ("St. Mary's Hospital", "Joe's Pizza", "Macy's Thanksgiving Day Parade", "Boston Children's Hospital")),
    # A greeting and the name it greets, before a comma or a stop ("Hi Maria, thanks ..."), and a letter's closing
    # before a comma, with the signature that ends the text ("Best regards, John": the model, given "John, Mary" with
    # no stop, wrote "John, Mary, Mary, Mary."): written back as Spanish says them, "Hola Maria", "Saludos cordiales,
    # John". No examples: they are found only so, not in the table's test frames ("Look at X now").
    Kind("greeting", rf"(?<![\w-])(?:(?:{'|'.join(map(re.escape, sorted(GREETINGS, key=len, reverse=True)))})"
                     rf"\s(?:(?:{TITLE}\s)?{CAPITALISED}(?:\s{CAPITALISED})*|(?:{'|'.join(GREETED)})(?!\w))"
                     rf"|(?:{'|'.join(BARE_GREETINGS)})(?=\s*,))(?=\s*[,!.?])", "name", ()),
    Kind("closing", rf"(?<![\w-])(?:{'|'.join(CLOSINGS)})(?:,\s+{CAPITALISED}(?:\s+{CAPITALISED})*\.?$|(?=,))", "name", ()),
    # A form of address before a name, kin or rank ("Aunt Linda", "Queen Elizabeth"), or a mountain's or lake's word
    # ("Mt. Fuji"), which the model read as pieces of a name or lost: written back as Spanish says it, "la tía
    # Linda", "la reina Elizabeth", "el monte Fuji".
    Kind("address", rf"(?<![\w-])(?:{'|'.join(map(re.escape, ADDRESS))})\s{CAPITALISED}(?:\s(?!I\b){CAPITALISED})*"
                    rf"|(?<![\w-])(?<!,\s)(?:{'|'.join(GRANDPARENTS)})(?![\w-])(?!\s[A-ZÀ-ÖØ-Þ])(?!\s*,)",
         "name", ("Aunt Linda", "Uncle Bob", "Grandma Rose Miller", "Queen Elizabeth II", "Pope Francis", "Mt. Fuji",
                  "Grandpa")),
    # A family by its name in the plural ("The Hendersons invited us" came out "El viernes a Hendersons nos invitó",
    # "the Garcias" "la Garcias"), when rare (`wanted`), and a couple by their title: "los Hendersons", "los Sres.
    # Tanaka".
    Kind("family", rf"(?<![\w-])(?:Mr\.?\s(?:and|&)\sMrs\.?\s{CAPITALISED}(?:\s{CAPITALISED})*|[Tt]he\s{CAPITALISED}s)"
                   r"(?![\w'’-])(?!\s+[A-ZÀ-ÖØ-Þ])", "pair", ("the Hendersons", "Mr. and Mrs. Tanaka")),
    # What a number or code names, "order number", "verification code" (`NUMBER_NAMES`), as Spanish says it.
    Kind("number_name", rf"(?<![\w-])(?i:{'|'.join(NUMBER_NAMES)})(?![\w-])", "place", ("order number", "zip code")),
    # A rough count opening a sentence (`ROUGHLY`): mid-sentence the model says "alrededor de 200" itself. With
    # millions too ("Nearly 1.5 million people watched the final." came out "El miedo de 1.5 millones de ver a la
    # final."), not before another scale nor a share ("About 3 out of 4").
    Kind("rough", rf"(?:^|(?<=[.!?]\s))(?:{'|'.join(ROUGHLY)})\s{CURRENCY}?\d+(?:[.,]\d+)*"
                  rf"(?:\smillion|%|\s?(?:{UNITS})(?![\w/°]))?"
                  r"(?![\w%:/-]|[.,]\d|\s+(?:(?:hundred|thousand|million|billion|trillion|dozen)s?|out\s+of)\b)",
         "number", ()),
    Kind("title", rf"\b(?:(?:{'|'.join(TITLES)})\.?|{'|'.join(OFFICES)})\s{CAPITALISED}(?:\s{CAPITALISED})*", "name",
         ("Dr. Okonkwo", "Mrs. Smith", "Prof. Ada Lovelace", "Judge Rodriguez", "Detective Sarah Lund")),
    # Emoji (with skin tones, joined sequences and flags) are no text for the model, which writes words for them
    # ("I love this song 😊." -> "… canción de internos"): they are taken out and put back by position, no stand-in.
    Kind("symbol", rf"{EMOJI}(?:\s*{EMOJI})*", None, ("😊", "👍🏽", "❤️", "🇪🇸", "👩‍💻", "❤️❤️", "🎉 🎂")),
    # Initials with full stops ("N.Y."), which the model read letter by letter ("the U.K." came out "los Estados Unidos
    # el K.", now a country's): protected as names are, when rare.
    Kind("initials", INITIALS, "place", ("N.Y.", "D.C.", "A.B.C.")),
    # An everyday noun the corpus barely shows, in Spanish, behind a noun of its gender and number
    # (`translator.text.nouns`; "printer" came out "printer", "blender" "el blender"): a sentence's first word too
    # ("Recipes"), no name.
    *(Kind(pool, nouns.pattern(pool), pool, ()) for pool in nouns.STAND_INS),
    # A verb in "-ed" or "-ing" the corpus barely shows, behind a regular verb of the same form
    # (`translator.text.verbs`: "muttered" came out "muttered").
    *(Kind(pool, verbs.pattern(pool), pool, ()) for pool in verbs.STAND_INS),
    Kind("name", NAME, "name",
         ("Acme Widget", "José Álvarez", "Jean-Luc Picard", "Rio de Janeiro", "Leonardo da Vinci", "Sarah O'Connor")),
)
_PATTERN = re.compile("|".join(f"(?P<k{i}>{kind.pattern})" for i, kind in enumerate(KINDS)))
_OWNED = re.compile(r"['’]s\s")
# A greeting, a closing or a call and its comma, opening a sentence: a name after them is spoken to (`addressed`).
_CALLED = re.compile(rf"(?:^|[{SENTENCE_END}]\s)(?:{'|'.join(map(re.escape, (*GREETINGS, *CLOSINGS, *CALLS)))}),$")
# Labels that end a place's name too, after a capitalised word that opens no sentence: "San Francisco Bay 2 miles
# away" came out "San Francisco el andén 2 millas", "City Hall 3 pm" is no hall numbered 3.
_NAME_ENDING = re.compile(r"(?:Bay|Hall)\s")
_NAME_BEFORE = re.compile(rf"(?<![{SENTENCE_END}])\s[A-Z][\w'’.-]*\s$")
# A verb that moves a day to another: "moved from Tuesday to Thursday" is no range of weekdays.
_MOVED = re.compile(r"(?i)\b(?:mov|chang|switch|postpon|reschedul|push|shift|delay|swap|bump)\w*")
# Kinds protected whatever the corpus counts; a number when of two digits or more, a name when rare (see `wanted`).
ALWAYS = {"url", "email", "handle", "path", "quoted_title", "written_date", "day", "street", "war", "country_body",
          "country", "measure", "numbered", "century", "decade", "part", "label", "greeting", "closing", "address",
          "range", "time", "phone", "date", "serial", "code", "etc", "title", "symbol", "number_name", "rough",
          "weekdays", "days", "vitamin", "po_box", "grade", "discount", "school_year"}
# Spans first left to the model (`tried`): a sentence holding one is decoded with them as written too, and that
# translation is kept when each of them is still in it (`kept_by_model`): a time, "at 2:30" -> "a las dos y media"
# (as the corpus writes it), a written date or a unit in words in the model's own Spanish, a number with a separator,
# "2,000 books" -> "2.000 libros" (as Spanish writes it), and a plain number the corpus shows often.
SEPARATORS = str.maketrans(",.", ".,")
# The feminine of what the model writes before a number: a feminine noun in its place takes it.
FEMININE_OF = {"el": "la ", "un": "una ", "mucho": "mucha "}
HOURS = ("una", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce")


class Span(NamedTuple):
    """A piece of the source, `text[start:end]`, of `kind`, to come out as `value`."""

    start: int
    end: int
    kind: str
    value: str


def save_word_counts(directory, english):
    """Writes how often each word (as `WORD` splits them, case kept) occurs in `english`."""
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


def is_acronym(word):
    """Whether `word` is in capitals, of two letters or more ("WHO", "NATO")."""
    return len(word) > 1 and word.isupper()


def is_rare(word, counts):
    """A number of two or more digits, or a name, that `counts` says was seen fewer than `MIN_COUNT` times.

    A capitalised word that `counts` holds in lower case is a word, not a name; one in capitals is an acronym,
    whatever the word it spells ("WHO" came out as "who").

    >>> counts = {"the": 9, "wipe": 1, "Africa": 8, "30": 5, "who": 9}
    >>> [is_rare(w, counts) for w in ("Olusegun", "The", "Wipe", "Africa", "olusegun", "2016", "30", "7", "WHO")]
    [True, False, False, False, False, True, False, False, True]
    """
    if word.isdigit():
        return len(word) > 1 and counts.get(word, 0) < MIN_COUNT  # the model copies single digits
    if not word[0].isupper() or (counts.get(word.lower(), 0) and not is_acronym(word)):
        return False
    return counts.get(word, 0) < MIN_COUNT


def known_plural(word, counts):
    """Whether capitalised `word` is the plural of a word `counts` holds in lower case ("Applications are due",
    opening a sentence), or of a people ("Christians", "Germans", "Englishmen") or an acronym ("UFOs") it shows
    `MIN_COUNT` times or more: the model says them as Spanish does ("cristianos", "los ovnis"), where behind a
    name's stand-in they came out as written ("Ellos son Christians.").

    >>> counts = {"application": 1, "German": 48, "English": 425, "UFO": 9, "jam": 3, "Hay": 1, "car": 9}
    >>> [known_plural(w, counts) for w in ("Applications", "Germans", "Englishmen", "UFOs", "James", "Hayes", "Carmen")]
    [True, True, True, True, False, False, False]
    """
    if word.endswith("men") and counts.get(word[:-3], 0) >= MIN_COUNT:  # "English" + "men"; "Carmen" is no cars
        return True
    # An "-es" only after the sounds that take one ("Churches"): "James" is no plural of "jam".
    for ending, singular in (("men", "man"), ("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("ses", "s"), ("xes", "x"),
                             ("s", "")):
        base = word[:-len(ending)] + singular
        if word.endswith(ending) and (counts.get(base.lower()) or counts.get(base, 0) >= MIN_COUNT and (
                base.endswith("an") or is_acronym(base))):
            return True
    return False


def wanted(kind, text, counts):
    """Whether a match of `kind` (its `text`) is protected, given the corpus `counts`."""
    if kind in ALWAYS:
        return True
    if kind == "number":
        return not text.isdigit() or len(text) > 1
    if kind in LISTED:  # its English: a word the model learned is left to it
        return counts.get(text.lower(), 0) < nouns.MAX_COUNT
    if kind == "family":  # a couple by their title, or a plural of no word ("the Cats") nor people ("the Romanians")
        if text.startswith(COUPLE_TITLE):
            return True
        plural = text.split()[-1]
        if counts.get(plural.lower()) or counts.get(plural[:-1].lower()) or plural.endswith("ans"):
            return False
        # that the corpus never shows ("the Alps", "the Thames" it does), or shows beside its name ("Smith").
        return not counts.get(plural) or bool(counts.get(plural[:-1]))
    if kind == "institution":
        # Not a feast, which the model says as Spanish does: "Valentine's Day" -> "el día de San Valentín".
        place = _OWNED.split(text)[-1]
        return place not in ("Day", "Eve") and any(counts.get(word.lower()) and not is_acronym(word)
                                                   for word in WORD.findall(place))
    return any(is_rare(word, counts) for word in WORD.findall(text))  # a name


def tried(span, counts):
    """Whether `span` is first left to the model: a time on the 24-hour clock or without "am"/"pm" (which the
    model may say in words), a date with its month's name, a unit in words or a vitamin (which it may write in
    Spanish itself), an everyday noun (`translator.text.nouns`: the model says many of them right, and kept when its
    Spanish is there), a street of words the corpus knows ("Main Street", which the model mostly copies), a number
    with a separator ("2,000", "3.14"), or a plain number of two digits or more that `counts` (the corpus)
    show often, which the model mostly copies but now and then changes (a single digit is a span only once
    the model got one wrong, `garbling.number_spans`). A time with "p.m." comes out as written ("a las 7 p.m.").

    >>> spans = [Span(0, 4, kind, value) for kind, value in (("time", "2:30"), ("time", "7 p.m"), ("number", "2,000"),
    ...                                                     ("number", "150"), ("number", "1999"), ("number", "$20"),
    ...                                                     ("number", "3"), ("vitamin", "vitamina C"),
    ...                                                     ("noun_f", "receta"))]
    >>> [tried(span, {"150": 9, "3": 9}) for span in spans]
    [True, False, True, True, False, False, False, True, True]
    """
    if span.kind in LISTED:
        return True
    if span.kind == "time":
        return bool(re.fullmatch(r"[\d:]+", span.value))
    if span.kind in ("written_date", "measure", "vitamin"):
        return True
    if span.kind == "street":  # of words the model knows ("Main Street"); not with a number ("a las 1600 …")
        return not any(word.isdigit() or is_rare(word, counts) for word in re.findall(r"\w+", span.value))
    return span.kind == "number" and (bool(re.search(r"\d[.,]\d", span.value))
                                      or len(span.value) > 1 and span.value.isdigit() and not is_rare(span.value, counts))


def ways(spans, counts):
    """The spans to protect in each way of decoding a text, first choice first: without those `tried` (when
    there are any), then all of them.

    >>> [[s.value for s in way] for way in ways([Span(0, 4, "time", "2:30"), Span(8, 11, "number", "$20")], {})]
    [['$20'], ['2:30', '$20']]
    """
    left = [span for span in spans if not tried(span, counts)]
    return [left, spans] if len(left) < len(spans) else [spans]


def spoken_time(value):
    """The clock time `value` as Spanish says it in words, as `(regular expression of the hour said with any ending,
    the ending it must have)`, or None: hours 1 to 12 on the hour, a quarter past, half past or a quarter to, as the
    corpus spells them ("a las dos y media").

    >>> pattern, ending = spoken_time("2:30")
    >>> [m[1] == ending for m in re.finditer(pattern, "a las dos y media, no a las dos")], spoken_time("10:05")
    ([True, False], None)
    """
    match = re.fullmatch(r"(\d{1,2}):(00|15|30|45)", value)
    if not match or not 1 <= int(match[1]) <= 12:
        return None
    hour, minutes = int(match[1]), match[2]
    if minutes == "45":
        hour = hour % 12 + 1
    said = ("la " if hour == 1 else "las ") + HOURS[hour - 1]
    ending = {"00": "", "15": " y cuarto", "30": " y media", "45": " menos cuarto"}[minutes]
    return rf"(?<!\w){said}((?: y cuarto| y media| menos cuarto)?)(?!\w)", ending


def spanish_date(written):
    """A date written with its month's name (a `written_date` span) as Spanish writes it: day, month, year.

    >>> spanish_date("March 3, 1998"), spanish_date("4th of August"), spanish_date("Sept. 9")
    ('3 de marzo de 1998', '4 de agosto', '9 de septiembre')
    >>> spanish_date("the twenty first of May, 1990"), spanish_date("Fourth of July"), spanish_date("March of 2027")
    ('21 de mayo de 1990', '4 de julio', 'marzo de 2027')
    """
    month = next(i for i, name in enumerate(MONTHS) if re.search(rf"\b{name[:3]}", written))
    in_words = re.search(DAY_WORD, written)
    numbers = [str(int(digits)) for digits in re.findall(r"\d+", written)]
    if in_words:
        day = [str(ORDINAL_DAYS.index(re.sub(r"\s", "-", in_words[0].lower())) + 1)]
    else:  # a day in digits, or none before a year ("March 2027")
        day = [numbers.pop(0)] if numbers and len(numbers[0]) <= 2 else []
    return " de ".join([*day, MESES[month], *numbers])


def spanish_calendar(translation, source):
    """`translation` with the months `source` names as a time, and its weekdays, that the model copied in English
    ("He came back last August." -> "Él volvió la última August."; "The museum is closed on Tuesdays." -> "… con
    Tuesdays."; the corpus shows most of them a few times only) in Spanish.

    >>> spanish_calendar("Hay 31 días en December; June es mi amiga.", "There are 31 days in December; June is my friend.")
    'Hay 31 días en diciembre; June es mi amiga.'
    >>> spanish_calendar("Cierra con Tuesdays y Sunday.", "It is closed on Tuesdays and Sunday.")
    'Cierra con martes y domingo.'
    """
    for match in MONTH_AS_TIME.finditer(source):
        month = match[1] or match[2]
        translation = re.sub(rf"(?<!\w){month}(?!\w)", MESES[MONTHS.index(month)], translation)
    for match in WEEKDAY.finditer(source):
        day = DIAS[WEEKDAYS.index(match[1])]
        # "lunes" to "viernes" are their own plurals.
        translation = re.sub(rf"(?<!\w){match[0]}(?!\w)", day + ("s" if match[2] and not day.endswith("s") else ""),
                             translation)
    return translation


def spanish_century(written):
    """A century written with an ordinal in digits or words as Spanish writes it, in Roman numerals.

    >>> spanish_century("19th century"), spanish_century("21st century"), spanish_century("twenty first century")
    ('siglo XIX', 'siglo XXI', 'siglo XXI')
    """
    return "siglo " + roman(ordinal_value(written.rsplit(None, 1)[0]))


def ordinal_value(ordinal):
    """The value of an ordinal up to the thirty-first, in digits or words.

    >>> ordinal_value("14th"), ordinal_value("Fourteenth"), ordinal_value("twenty first")
    (14, 14, 21)
    """
    if ordinal[0].isdigit():
        return int(ordinal[:-2])
    return ORDINAL_DAYS.index(re.sub(r"\s+", "-", ordinal.lower())) + 1


def roman(number):
    """`number` in Roman numerals (up to 399)."""
    letters = ""
    for value, numeral in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"),
                           (1, "I")):
        count, number = divmod(number, value)
        letters += numeral * count
    return letters


def spanish_decade(written):
    """A decade as Spanish writes it: of four digits, "la década de 1990"; of two, "los años 80"; its early, middle
    or late years "a principios", "a mediados", "a finales de" it ("in" and all). "The 1800s" is a century.

    >>> spanish_decade("the 1990s"), spanish_decade("The '80s"), spanish_decade("in the early 2000s")
    ('la década de 1990', 'los años 80', 'a principios de la década de 2000')
    >>> spanish_decade("the 1800s"), spanish_decade("the late 1800s"), spanish_decade("the sixties")
    ('el siglo XIX', 'finales del siglo XIX', 'los años 60')
    """
    in_words = re.search("|".join(DECADES), written)
    digits = str(20 + 10 * DECADES.index(in_words[0])) if in_words else re.search(r"\d+", written)[0]
    if len(digits) == 2:
        decade = f"los años {digits}"
    elif digits.endswith("00") and digits != "2000":
        decade = f"el siglo {roman(int(digits[:2]) + 1)}"
    else:
        decade = f"la década de {digits}"
    part = re.search(r"early|mid|late", written)
    if part:
        part = {"early": "principios", "mid": "mediados", "late": "finales"}[part[0]]
        decade = f"{'a ' if re.match('[Ii]n', written) else ''}{part} de {decade}".replace("de el ", "del ")
    return decade


def spanish_part(written):
    """The early, middle or late part of a year, month or century as Spanish says it ("in" and all).

    >>> spanish_part("in mid-2026"), spanish_part("late March"), spanish_part("Early May, 2027")
    ('a mediados de 2026', 'finales de marzo', 'principios de mayo de 2027')
    >>> spanish_part("in the late nineteenth century"), spanish_part("the early 20th century")
    ('a finales del siglo XIX', 'principios del siglo XX')
    """
    part = {"early": "principios", "mid": "mediados", "late": "finales"}[re.search(r"(?i)early|mid|late", written)[0].lower()]
    month = next((mes for month, mes in zip(MONTHS, MESES) if month in written), None)
    year = re.search(r"\d{4}", written)
    century = re.search(rf"{ORDINAL_DAY}\s+century", written)
    when = (f"del {spanish_century(century[0])}" if century
            else "de " + " de ".join(said for said in (month, year and year[0]) if said))
    return ("a " if re.match(r"[Ii]n\s", written) else "") + f"{part} {when}"


def spanish_war(written):
    """A world war by its number as Spanish says it, with its article.

    >>> spanish_war("World War I"), spanish_war("World War II")
    ('la Primera Guerra Mundial', 'la Segunda Guerra Mundial')
    """
    return f"la {'Segunda' if written.endswith('II') else 'Primera'} Guerra Mundial"


def spanish_label(written):
    """A label with its Spanish noun and article (`LABELS`, `SIGNED_LABELS`), or the word before it in its place.

    >>> spanish_label("Room 214"), spanish_label("page 5"), spanish_label("Flight AA 2417")
    ('la habitación 214', 'la página 5', 'el vuelo AA 2417')
    >>> spanish_label("Order #45821"), spanish_label("our invoice INV-7"), spanish_label("The order # 88-12")
    ('el pedido n.º 45821', 'nuestra factura INV-7', 'el pedido n.º 88-12')
    """
    words = written.split()
    before = words.pop(0).lower() if words[0].lower() in LABEL_DETERMINERS else None
    labels = {**LABELS, **SIGNED_LABELS}
    if " ".join(words[:2]).capitalize() in labels:  # "conference room"
        words[:2] = [" ".join(words[:2])]
    article, noun = labels[words[0].capitalize()].split(" ", 1)
    if before:
        article = LABEL_DETERMINERS[before][article == "la"]
    number = re.sub(r"^#\s?", "n.º ", " ".join(words[1:]))
    return f"{article} {noun} {number}"


def spanish_title(written):
    """A title Spanish says its way (`SPANISH_TITLES`) and its name, with the article; others as written.

    >>> spanish_title("Mr. Tanaka"), spanish_title("Ms Li"), spanish_title("Dr. Okonkwo")
    ('el Sr. Tanaka', 'la Sra. Li', 'Dr. Okonkwo')
    """
    title, name = written.split(" ", 1)
    said = SPANISH_TITLES.get(title.rstrip("."))
    return f"{said} {name}" if said else written


def spanish_family(written):
    """A family by its name in the plural, or a couple by their title, as Spanish says them, with the article.

    >>> spanish_family("The Hendersons"), spanish_family("Mr. and Mrs. Tanaka")
    ('los Hendersons', 'los Sres. Tanaka')
    """
    if written.startswith("Mr"):
        return COUPLE_TITLE + " " + re.split(r"Mrs\.?\s", written, maxsplit=1)[1]
    return f"los {written.split()[-1]}"


def spanish_rough(written):
    """A rough count as Spanish says it (`ROUGHLY`), a percentage with its article, millions in Spanish (`find` puts
    "de" after them before a noun they count).

    >>> spanish_rough("About 200"), spanish_rough("Nearly 20%"), spanish_rough("Around 5 km"), spanish_rough("Almost 2 million")
    ('alrededor de 200', 'casi el 20%', 'alrededor de 5 km', 'casi 2 millones')
    """
    word, number = written.split(" ", 1)
    said = ROUGHLY[word]
    if number.endswith("%"):
        said = said + "l" if said.endswith(" de") else said + " el"
    number = re.sub(r"\smillion$", " millón" if number.startswith("1 ") else " millones", number)
    return f"{said} {number}"


def spanish_greeting(written):
    """A greeting (`GREETINGS`) and the name or group (`GREETED`) it greets, as Spanish says them.

    >>> spanish_greeting("Hi everyone"), spanish_greeting("Hi there"), spanish_greeting("Good morning Anna")
    ('Hola a todos', 'Hola', 'Buenos días Anna')
    >>> spanish_greeting("Hi Mr. Tanaka"), spanish_greeting("Dear Mrs. Li")
    ('Hola Sr. Tanaka', 'Estimada Sra. Li')
    """
    said = re.sub(rf"(?<=\s)({'|'.join(SPANISH_TITLES)})\.?(?=\s)", lambda title: SPANISH_TITLES[title[1]][3:],
                  said_first(written, GREETINGS))
    greeting, _, group = said.rpartition(" ")
    return f"{greeting} {GREETED[group]}".rstrip() if group in GREETED else said


def said_first(written, phrases):
    """`written` with the longest of `phrases` (English to Spanish) that it begins with said in Spanish: a form of
    address before a name, with its article (`ADDRESS`), a greeting before the name it greets (`GREETINGS`), a letter's
    closing before its signature (`CLOSINGS`).

    >>> said_first("Aunt Linda", ADDRESS), said_first("Grandpa Joe Smith", ADDRESS), said_first("Grandma", ADDRESS)
    ('la tía Linda', 'el abuelo Joe Smith', 'la abuela')
    >>> said_first("Queen Elizabeth II", ADDRESS), said_first("Auntie May", ADDRESS)
    ('la reina Elizabeth II', 'la tía May')
    >>> said_first("Hi Maria", GREETINGS), said_first("Good morning Anna Li", GREETINGS)
    ('Hola Maria', 'Buenos días Anna Li')
    >>> said_first("Dear Maria", GREETINGS), said_first("Dear Mr. Lopez", GREETINGS), said_first("Dear Mrinal", GREETINGS)
    ('Hola Maria', 'Estimado Sr. Lopez', 'Hola Mrinal')
    >>> said_first("Best regards, John Smith", CLOSINGS), said_first("Regards", CLOSINGS)
    ('Saludos cordiales, John Smith', 'Saludos')
    """
    english = max((english for english in phrases
                   if written.startswith(english) and not written[len(english):len(english) + 1].isalnum()), key=len)
    return phrases[english] + written[len(english):]


def spanish_amount(written):
    """A number as written, but "percent" and "minus" as Spanish says them.

    >>> spanish_amount("3.9 percent"), spanish_amount("Minus 12"), spanish_amount("$20"), spanish_amount("$900/month")
    ('3.9 por ciento', 'menos 12', '$20', '$900/mes')
    >>> spanish_amount("$139 per year"), spanish_amount("20 € a person"), spanish_amount("$3.89 a gallon")
    ('$139 al año', '20 € por persona', '$3.89 por galón')
    """
    written, period = _per_period(written)
    return re.sub(r"\s(?:percent|per\s?cent)$", " por ciento", re.sub(f"^{MINUS}", "menos ", written)) + period


def _per_period(written):
    """`written` without its period or unit after it (`PER_PERIOD`), and that as Spanish says it ("" if none).

    >>> _per_period("$900/month"), _per_period("35 miles per gallon"), _per_period("$20")
    (('$900', '/mes'), ('35 miles', ' por galón'), ('$20', ''))
    """
    match = re.search(rf"(?:/|\s(?:a|an|per)\s)({'|'.join(PERIODS)})$", written)
    if not match:
        return written, ""
    return written[:match.start()], "/" + PERIODS[match[1]][0] if match[0][0] == "/" else " " + PERIODS[match[1]][1]


def spanish_measure(written):
    """A number and its unit in words as Spanish says them; "square" and "cubic" after the unit, agreeing with it.

    >>> spanish_measure("4.5 kilograms"), spanish_measure("1 foot"), spanish_measure("3 square miles")
    ('4.5 kilogramos', '1 pie', '3 millas cuadradas')
    >>> spanish_measure("minus 5 degrees"), spanish_measure("2 cubic meters"), spanish_measure("35 miles per gallon")
    ('menos 5 grados', '2 metros cúbicos', '35 millas por galón')
    """
    written, period = _per_period(written)
    number, *shape, unit = written.rsplit(" ", 2) if re.search(r"\s(?:square|cubic)\s", written) else written.rsplit(" ", 1)
    spanish = UNIT_WORDS[unit]
    if shape:
        adjective = {"square": "cuadrad", "cubic": "cúbic"}[shape[0]] + ("a" if re.search("as?$", spanish) else "o")
        spanish += " " + adjective + ("s" if spanish.endswith("s") else "")
    return f"{spanish_amount(number)} {spanish}{period}"


def spanish_numbered(written):
    """A number after "No." or "#" as Spanish abbreviates "número".

    >>> spanish_numbered("No. 5"), spanish_numbered("#1")
    ('n.º 5', 'n.º 1')
    """
    return "n.º " + re.search(r"\d+", written)[0]


def spanish_day(written):
    """A day of the month written as an ordinal ("14th", "fourteenth", `DAY`) as Spanish says it, the bare number in
    digits, and "of every month" with it ("the 1st of every month" came out "el 1 de mes").

    >>> spanish_day("14th"), spanish_day("Twenty first"), spanish_day("1st of every month")
    ('14', '21', '1 de cada mes')
    >>> spanish_day("last Monday of each month"), spanish_day("2nd Tuesday of every month"), spanish_day("first Friday of the month")
    ('último lunes de cada mes', 'segundo martes de cada mes', 'primer viernes del mes')
    """
    day, weekday, month = re.fullmatch(rf"(.+?)(?:\s+({'|'.join(WEEKDAYS)}))?(?:\s+of\s+(the|every|each)\s+month)?",
                                       written).groups()
    of_month = {None: "", "the": " del mes"}.get(month, " de cada mes")
    if weekday:
        return f"{'último' if day == 'last' else spanish_ordinal(ordinal_value(day))} {DIAS[WEEKDAYS.index(weekday)]}{of_month}"
    return str(ordinal_value(day)) + of_month


def spanish_school_year(written):
    """A school year ("3rd grade") as Spanish writes it, the ordinal in digits or words as the source writes it.

    >>> spanish_school_year("3rd grade"), spanish_school_year("Fifth grade"), spanish_school_year("12th grade")
    ('3.er grado', 'quinto grado', '12.º grado')
    """
    ordinal = written.split()[0]
    year = ordinal_value(ordinal)
    if not ordinal[0].isdigit():
        return f"{spanish_ordinal(year)} grado"
    return f"{year}.{'er' if year in (1, 3) else 'º'} grado"


def spanish_days(written):
    """Days of the month from one to another (`DAYS_RANGE`, `DATES_RANGE`) as Spanish says them: a month the source
    leaves out after the second day is the first's, said once.

    >>> spanish_days("from the 1st to the 14th"), spanish_days("From the third to the twenty-first of June")
    ('del 1 al 14', 'del 3 al 21 de junio')
    >>> spanish_days("from July 1 to July 15"), spanish_days("Dec. 24 to Jan. 2, 2026"), spanish_days("July 4-6, 2025")
    ('del 1 de julio al 15 de julio', 'del 24 de diciembre al 2 de enero de 2026', 'del 4 al 6 de julio de 2025')
    """
    if re.match(rf"(?:[Ff]rom\s+)?(?:{MONTH})\b", written):
        first, last = re.split(DAYS_APART, written, maxsplit=1)
        month_once = last[0].isdigit() and not re.search(r"\d{4}", first)
        if last[0].isdigit():
            last = re.search(rf"\b(?:{MONTH})", first)[0] + " " + last
        first = spanish_date(first)
        return f"del {first.split()[0] if month_once else first} al {spanish_date(last)}"
    first, last = (ordinal_value(day) for day in re.findall(ORDINAL_DAY, written))
    month = re.search(rf"\b(?:{MONTH})\b", written)
    return f"del {first} al {last}" + (f" de {spanish_date(month[0])}" if month else "")


def spanish_weekdays(written):
    """Weekdays from one to another as Spanish says them.

    >>> spanish_weekdays("Monday to Friday"), spanish_weekdays("from Tuesday-Sunday")
    ('de lunes a viernes', 'de martes a domingo')
    """
    first, last = (DIAS[WEEKDAYS.index(day)] for day in re.findall("|".join(WEEKDAYS), written))
    return f"de {first} a {last}"


def spanish_clock(written):
    """A time as written, but "o'clock" and "sharp" as Spanish says them.

    >>> spanish_clock("8 o'clock"), spanish_clock("7:45 pm"), spanish_clock("10am sharp")
    ('8 en punto', '7:45 pm', '10am en punto')
    """
    return re.sub(r"\s*(?:o['’]clock|sharp)$", " en punto", written)


def spanish_range(written):
    """A range, ratio or score with "to", or a share with "in", as Spanish says it.

    >>> spanish_range("4 to 1"), spanish_range("1 in 10"), spanish_range("2-for-1")
    ('4 a 1', '1 de cada 10', '2x1')
    """
    return re.sub(r"-for-", "x", re.sub(r"\s+in\s+", " de cada ", re.sub(r"\s+to\s+", " a ", written)))


# The kinds of span that come out as Spanish writes them, not as written: each kind's writer.
IN_SPANISH = {"number": spanish_amount, "measure": spanish_measure, "written_date": spanish_date,
              "numbered": spanish_numbered, "day": spanish_day, "war": spanish_war,
              "vitamin": lambda written: "vitamina " + written.split()[1], "century": spanish_century,
              "discount": lambda written: written.split("%")[0].rstrip() + "% de descuento",
              "decade": spanish_decade, "part": spanish_part, "label": spanish_label, "time": spanish_clock, "range": spanish_range,
              "title": spanish_title, "weekdays": spanish_weekdays, "days": spanish_days, "family": spanish_family,
              "rough": spanish_rough, "school_year": spanish_school_year,
              "number_name": lambda written: NUMBER_NAMES[written.lower()],
              "country": lambda written: COUNTRIES[written.split()[-1]],
              "address": functools.partial(said_first, phrases=ADDRESS),
              "greeting": spanish_greeting, **dict.fromkeys(nouns.STAND_INS, nouns.spanish),
              **dict.fromkeys(verbs.STAND_INS, lambda written: verbs.VERBS[written.lower()]),
              "closing": functools.partial(said_first, phrases=CLOSINGS)}


def either_separators(number):
    """A regular expression of `number` as written or with its separators swapped, as Spanish writes them.

    >>> bool(re.fullmatch(either_separators("8,849.5"), "8.849,5")), bool(re.fullmatch(either_separators("12"), "12"))
    (True, True)
    """
    return "|".join(map(re.escape, sorted({number, number.translate(SEPARATORS)})))


def sums_as_written(translation, source):
    """`translation` with each sum of `source` that the model wrote its own way, its sign set apart or its separators
    swapped ("$70,000" -> "$ 70.000", "$70.000"), written as `source` writes it: otherwise no sum `kept_by_model`
    for the spaced one, so the sentence was decoded again behind a stand-in, which lost a word ("for the first time"
    -> "tiempo"), and the other a sum changed in form.

    >>> sums_as_written("Le pegó $ 70.000 por primera vez; costó $1.000.", "It hit $70,000 for the first time; it cost $1,000.")
    'Le pegó $70,000 por primera vez; costó $1,000.'
    """
    for amount in set(re.findall(rf"[{SIGNS}]\d+(?:[.,]\d+)*", source)):
        sign, number = amount[0], amount[1:]
        translation = re.sub(rf"(?<!\w){re.escape(sign)}\s*(?:{either_separators(number)})(?!\w|[.,]\d)", lambda _, amount=amount: amount,
                             translation)
    return translation


def kept_by_model(translation, spans):
    """Whether `translation` holds each of `spans` as written, or a time in words (`spoken_time`, its minutes not
    written after it), exactly as many times as `spans` hold its value: a name repeated, or an hour said twice, is
    the model's garbling.

    >>> kept_by_model("Llámame a las dos y media.", [Span(11, 15, "time", "2:30")])
    True
    >>> kept_by_model("Nos vemos a las dos y media y a las dos.", [Span(11, 15, "time", "2:30")])
    False
    >>> kept_by_model("Se mudó de las dos y 00 a las tres.", [Span(11, 15, "time", "2:00")])
    False
    >>> kept_by_model("Nací el 4 de julio de julio.", [Span(0, 3, "written_date", "4 de julio")])
    False
    >>> kept_by_model("Habla Bulgarian con Bulgarian.", [Span(10, 19, "name", "Bulgarian")])
    False
    """
    for value, times in collections.Counter(span.value for span in spans).items():
        kind = next(span.kind for span in spans if span.value == value)
        # Spanish writes "2,000" as "2.000" and "3.14" as "3,14"; the corpus' translations do.
        written = {value, value.translate(SEPARATORS)} if kind in ("number", "measure") else {value}
        # An everyday noun may open the sentence ("Receta …"); a verb is its stem in any form ("murmuró").
        case = re.IGNORECASE if kind in nouns.STAND_INS else 0
        found = sum(len(re.findall(rf"(?<![\w.,]){re.escape(form)}(?![\w]|[.,]\d)", translation, case))
                    for form in written) if kind not in verbs.STAND_INS else len(verbs.forms(value).findall(translation))
        # A date said with its month twice ("el 4 de julio de julio") is no date the source says.
        month = next((month for month in MESES if month in value.split()), None) if kind == "written_date" else None
        if month and re.search(rf"{re.escape(value)}\s+de\s+{month}(?!\w)", translation, re.IGNORECASE):
            return False
        spoken = spoken_time(value) if kind == "time" else None
        if spoken:
            said = list(re.finditer(spoken[0], translation, re.IGNORECASE))
            # Its minutes written after it as well ("a las diez y media: 30", "a las dos y 00") are a number the
            # source does not say.
            if any(match[1] != spoken[1] or re.match(rf"[\s:]*(?:y\s+)?{value[-2:]}(?!\d)", translation[match.end():])
                   for match in said):
                return False
            found += len(said)
        if found != times:
            return False
    return True


def find(text, counts, glossary_spans=()):
    """The spans of `text` to come out unchanged, in order: `Span`s of `KINDS`, and `glossary_spans`
    (`(start, end, spanish)`, which win where they overlap and come out as `spanish`).

    >>> counts = {}
    >>> [(s.kind, s.value) for s in find("Dr. Okonkwo paid $1,200 at 10:30 to acme.com", counts)]
    [('title', 'Dr. Okonkwo'), ('number', '$1,200'), ('time', '10:30'), ('path', 'acme.com')]
    >>> [s.value for s in find("Email jane.doe@example.com", counts, [(0, 5, "Escribe a")])]
    ['Escribe a', 'jane.doe@example.com']
    """
    spans = [Span(start, end, "glossary", spanish) for start, end, spanish in glossary_spans]
    taken = [(s.start, s.end) for s in spans]
    for match in _matches(text, counts):
        kind = KINDS[int(match.lastgroup[1:])].name
        pieces = _names(match, counts) if kind == "name" else [match.span()]
        if kind in ("name", "title", "address", "street"):
            pieces = [(start, abbreviated(text, end)) for start, end in pieces]
        for start, end in pieces:
            value = IN_SPANISH.get(kind, str)(text[start:end])
            if not wanted(kind, text[start:end] if kind in LISTED else value, counts) or any(a < end and start < b for a, b in taken):
                continue
            if kind in nouns.STAND_INS and nouns.as_verb(text, start, end) or kind in verbs.STAND_INS and verbs.as_noun(text, start, end):
                continue
            # A capitalised word alone that is a plural the corpus knows is none ("Christians"); among others it is a
            # name's ("General Motors", "Bill Gates").
            if kind == "name" and match.group() == value and known_plural(value, counts):
                continue
            # A sentence's first word that the corpus has seen ("Help!", seen only capitalised) may be no name; in
            # capitals, it is an acronym ("NASA's Artemis II mission" came out "… misión de NA …").
            if (kind == "name" and " " not in value and counts.get(value) and opens_sentence(text, start)
                    and not is_acronym(value)):
                continue
            if kind == "title" and value != text[start:end] and addressed(text, start, end):
                value = value.split(" ", 1)[1]  # "Gracias, Sr. Tanaka": no article before one spoken to or named
            if kind == "rough" and value.endswith(("millón", "millones")) and counts_noun(text[end:]):
                value += " de"  # "Casi 2 millones de personas"
            spans.append(Span(start, end, kind, value))
            taken.append((start, end))
    return joined(text, sorted(spans))


def addressed(text, start, end):
    """Whether the name at `text[start:end]` is spoken to, opening the sentence before a comma, after a comma at its
    end or after a greeting, a closing or a call (`CALLS`) and a comma, or said as a name, after "named" or "called"
    ("a cat named Mr. Whiskers"); not between two commas after other words, a name set beside another ("My boss, Mr.
    Li, is strict").

    >>> addressed("Thank you, Mr. Li.", 11, 17), addressed("Mr. Li, sit down.", 0, 6), addressed("I met Mr. Li.", 6, 12)
    (True, True, False)
    >>> addressed("A cat named Mr. Li.", 12, 18), addressed("My boss, Mr. Li, is strict.", 9, 15)
    (True, False)
    >>> addressed("Thanks, Mr. Li, see you.", 8, 14)
    True
    """
    before, after = text[:start].rstrip(), text[end:].lstrip()
    return (bool(re.search(r"\b(?:named|called)$", before)) or opens_sentence(text, start) and after[:1] in ("", ",")
            or before.endswith(",") and (not after or after[0] in ".!?" or bool(_CALLED.search(before))))


def _matches(text, counts):
    """The matches of `KINDS` in `text`, but for a place named for its owner that is none (`wanted`: "Tom's Honda"):
    the matches on each side of its "'s" instead ("Mr. Smith", "Olusegun"); for a plural that is no family ("The
    Beatles", which the corpus shows) or a family after the first (its stand-in is one of a kind: "The Lakers beat the
    Celtics"), the matches within it ("Beatles", a name); for "version" after a name (capitalised, no word the corpus
    knows in lower case), its number ("Chrome version 120": Spanish says no "la versión" there); and no weekdays of a
    day moved from one to another ("moved from Tuesday to Thursday", which "de martes a jueves" would make a range).

    >>> [(s.kind, s.value) for s in find("Mr. Smith's Honda and St. Mary's Hospital", {"and": 9, "hospital": 9})]
    [('title', 'el Sr. Smith'), ('name', 'Honda'), ('institution', "St. Mary's Hospital")]
    >>> [(s.kind, s.value) for s in find("The Lakers beat the Celtics and the Alps", {"beat": 9, "and": 9, "Alps": 3})]
    [('family', 'los Lakers'), ('name', 'Celtics'), ('name', 'Alps')]
    >>> [(s.kind, s.value) for s in find("Use version 3.2, not Chrome version 120.", {"use": 9, "not": 9})]
    [('label', 'la versión 3.2'), ('name', 'Chrome'), ('number', '120')]
    >>> find("It moved from Tuesday to Friday.", {"it": 9, "moved": 9, "from": 9, "to": 9})
    []
    """
    families = 0
    for match in _PATTERN.finditer(text):
        kind = KINDS[int(match.lastgroup[1:])].name
        if kind == "institution" and not wanted(kind, match.group(), counts):
            owned = _OWNED.search(text, match.start(), match.end())
            yield from _PATTERN.finditer(text, match.start(), owned.start())
            yield from _PATTERN.finditer(text, owned.end(), match.end())
        elif kind == "family" and (families or not wanted(kind, spanish_family(match.group()), counts)):
            yield from _PATTERN.finditer(text, match.start() + 1, match.end())
        elif kind == "label" and match.group().startswith("version") and _after_a_name(text, match.start(), counts):
            yield from _PATTERN.finditer(text, match.start() + len("version"), match.end())
        elif kind == "label" and _NAME_ENDING.match(match.group()) and _NAME_BEFORE.search(text, 0, match.start()):
            yield from _PATTERN.finditer(text, match.start() + len(match.group().split()[0]), match.end())
        elif kind != "weekdays" or not _MOVED.search(text, 0, match.start()):
            families += kind == "family"
            yield match


def _after_a_name(text, start, counts):
    """Whether the word before `text[start:]` is a name: capitalised, and no word the corpus `counts` in lower case.

    >>> _after_a_name("Use Chrome version 120", 11, {"use": 9}), _after_a_name("Use version 120", 4, {"use": 9})
    (True, False)
    """
    before = re.search(r"(\S+)\s+$", text[:start])
    return bool(before) and before[1][0].isupper() and not counts.get(before[1].lower())


def amount(span):
    """Whether `span` is a number led by its currency or sign ("€2.4", "-5"), which names no version of what comes
    before it ("Android 14"): "fined Google €2.4 billion", joined as one name, came out "… a Google €2.4.", the
    billion lost."""
    return span.kind == "number" and not span.value[0].isdigit()


def joined(text, spans):
    """`spans` with neighbours that only spaces part made one, of the first one's kind: the model reads two
    stand-ins side by side as one thing and may glue them ("Android 14" -> "John 45" -> "John5"). A span whose
    value is not its text (a glossary's term, a written date), and an emoji (no stand-in), stays alone, but for what
    a number names, whose number joins it ("tracking number 1Z999" -> "número de seguimiento 1Z999").

    >>> [s.value for s in find("After Android 14 call +1 (415) 555-0132 at 10:30", {"after": 9, "call": 9})]
    ['Android 14', '+1 (415) 555-0132', '10:30']
    >>> [s.value for s in find("Check tracking number 1Z999AA1 now", {"check": 9, "now": 9})]
    ['número de seguimiento 1Z999AA1']
    """
    merged = []
    for span in spans:
        last = merged[-1] if merged else None
        if not last or text[last.end:span.start].strip() or "symbol" in (last.kind, span.kind) or amount(span):
            merged.append(span)
        elif last.kind == "number_name":  # "the tracking number 1Z999…": what it names and the number, one span
            merged[-1] = Span(last.start, span.end, last.kind, f"{last.value} {span.value}")
        elif last.value == text[last.start:last.end] and span.value == text[span.start:span.end]:
            merged[-1] = Span(last.start, span.end, last.kind, text[last.start:span.end])
        else:
            merged.append(span)
    return merged


def abbreviated(text, end):
    """Where a name ending at `end` of `text` ends with its full stop, when a lower-case word follows it: the stop
    of an abbreviation ("Jr.", "Inc."), which ends no sentence (`translator.text.segments`) and which the model, given a
    stand-in and a full stop, reads as one ("Martin Luther King Jr. was a leader." -> "… Jr. Fui un líder.").

    >>> [s.value for s in find("Martin Luther King Jr. was a leader. Ask Kim. Ok.", {"ask": 9, "ok": 9, "leader": 99})]
    ['Martin Luther King Jr.', 'Kim']
    >>> [s.value for s in find("Dr. Martin Luther King Jr. gave a speech.", {"gave": 9})]
    ['Dr. Martin Luther King Jr.']
    >>> [s.value for s in find("Meet me on Oak St. at noon.", {"meet": 9, "me": 9, "on": 9, "at": 9, "noon": 9})]
    ['Oak St.']
    """
    return end + 1 if re.match(r"\.\s+[a-z]", text[end:]) else end


def _names(match, counts):
    """The names in a run of capitalised words: the runs between words the corpus knows in lower case
    ("The", "Games", "Airport"), which the model translates; a company's whole, but for an article before it
    ("Apple Inc.": the model spelled "Apple" anew, "Aplele a Inc.").

    >>> counts = {"the": 9, "games": 9, "and": 9, "apple": 9}
    >>> [s.value for s in find("The Olympic Games and Acme Widget", counts)]
    ['Olympic', 'Acme Widget']
    >>> [s.value for s in find("The Apple Inc. shares fell.", counts)]
    ['Apple Inc.']
    >>> [s.value for s in find("Nguyen Van Minh and Acme Apple", {**counts, "van": 9})]
    ['Nguyen Van Minh', 'Acme']
    """
    words = list(re.finditer(r"\S+", match.group()))
    if words[-1].group() in COMPANIES:
        first = 1 if len(words) > 2 and words[0].group() in ("The", "A", "An") else 0
        return [(match.start() + words[first].start(), match.end())]
    known = [bool(counts.get(word.group().lower())) and not is_acronym(word.group()) for word in words]
    # A known word between two words of a name is the name's ("Nguyen Van Minh" came out "Nguyen Vas a Minh", "Anna
    # Rose Miller" would say "Rose").
    known = [was and not (0 < i < len(words) - 1 and not known[i - 1] and not known[i + 1]) for i, was in enumerate(known)]
    names, start, end = [], None, None
    for word, is_known in zip(words, known):
        if re.fullmatch(PARTICLES, word.group()):
            continue  # inside a name: the pattern only takes one between capitalised words
        if is_known:
            if start is not None:
                names.append((start, end))
            start = None
            continue
        start = match.start() + word.start() if start is None else start
        end = match.start() + word.end()
    if start is not None:
        names.append((start, end))
    return names


def is_fragment(text, spans):
    """Whether `text` holds no letter outside `spans`: nothing for the model to translate ("2", "(555-0142)").

    A rare name does not count as a span here: a one-word sentence ("Help!") may be a word the corpus
    only shows capitalised, and a name alone goes to the model as a stand-in all the same.

    >>> is_fragment("2", []), is_fragment("See 555-0142.", [Span(4, 12, "phone", "555-0142")])
    (True, False)
    >>> is_fragment("Help!", [Span(0, 4, "name", "Help")])
    False
    """
    covered = set()
    for span in spans:
        if span.kind != "name":
            covered.update(range(span.start, span.end))
    return not any(c.isalpha() for i, c in enumerate(text) if i not in covered)


def protect(text, spans, shift=0):
    """`text` with each of `spans` replaced by a stand-in, and the stand-ins' meanings `{stand_in: Span}`.

    Stand-ins already in the text are not used; a span beyond the last free
    stand-in of its pool stays as written (and `restore` still checks it).
    `shift` starts each pool that many stand-ins later ("Mary", "37", "Denver" for 1).
    A span of a kind without stand-ins (an emoji) is taken out, for `restore` to put back by position.

    >>> protect("Olusegun has 250 cats, Tom has 3.", [Span(0, 8, "name", "Olusegun"), Span(13, 16, "number", "250")])
    ('John has 45 cats, Tom has 3.', {'John': Span(start=0, end=8, kind='name', value='Olusegun'), \
'45': Span(start=13, end=16, kind='number', value='250')})
    >>> protect("Printers need a book.", [Span(0, 8, "nouns_f", "impresoras")])
    ('The tables need a book.', {'tables': Span(start=0, end=8, kind='nouns_f', value='impresoras')})
    """
    # A stand-in's names and numbers are no other's: "Tom and Mary" stands for a family, so "Tom" for no name beside it.
    used = set(WORD.findall(text))
    free = {pool: iter(stand_ins[shift:] + stand_ins[:shift]) for pool, stand_ins in STAND_INS.items()}
    meanings, pieces, at = {}, [], 0
    for span in spans:
        if pool_of(span) is None:
            pieces.append(text[at:span.start].rstrip())
            at = span.end
            continue
        stand_in = next((s for s in free[pool_of(span)] if used.isdisjoint(_named(s))), None)
        if stand_in is None:
            continue
        used.update(_named(stand_in))
        # A noun's stand-in opens a sentence as the noun did ("Recipe: …" -> "Table: …"); a plural with "the", which
        # Spanish says there ("Spiders scare me." came out "Arañas me asusta."; "The tables …" -> "Las mesas …").
        shown = stand_in
        if stand_in.islower() and text[span.start].isupper():
            shown = "The " + stand_in if span.kind in nouns.PLURALS else stand_in.capitalize()
        pieces += [text[at:span.start], shown]
        meanings[stand_in] = span
        at = span.end
    return ("".join(pieces) + text[at:]).strip(), meanings


def _named(stand_in):
    """The names and numbers in any of the `written_forms` of `stand_in` (not its "and" or "y").

    >>> sorted(_named("Tom and Mary")), _named("45")
    (['Mary', 'María', 'Tom', 'Tomás'], {'45'})
    """
    return {word for word in WORD.findall(" ".join(written_forms(stand_in))) if not word.islower() or stand_in.islower()}


def written_forms(stand_in):
    """The ways a translation may write `stand_in`: as it is, or as the corpus' Spanish writes it (`SPANISH_FORMS`).

    >>> written_forms("Mary"), written_forms("45")
    (('Mary', 'María'), ('45',))
    """
    return (stand_in, *SPANISH_FORMS.get(stand_in, ()))


def pool_of(span):
    """The stand-in pool of a span: its kind's (None for an emoji: no stand-in), or for a glossary span, numbers
    for a number, else names."""
    if span.kind == "glossary":
        return "number" if span.value.replace(",", "").replace(".", "").isdigit() else "name"
    return next(kind.stand_in for kind in KINDS if kind.name == span.kind)


def _insert(translation, token, relative):
    """`translation` with `token` put before the word at `relative` (0 to 1) of its length; at the end, before
    the final punctuation.

    >>> _insert("Tiene gatos.", "250", 0.5), _insert("Tiene gatos.", "250", 1.0)
    ('Tiene 250 gatos.', 'Tiene gatos 250.')
    """
    words = translation.split()
    at = round(relative * len(words))
    if at < len(words):
        return " ".join(words[:at] + [token] + words[at:])
    last = words[-1] if words else ""
    stem = last.rstrip(".!?…»\"')")
    return " ".join(words[:-1] + [stem, token + last[len(stem):]] if stem else words[:-1] + [token + last])


def restore(translation, source, spans, meanings):
    """`translation` with every span of `source` in it exactly once, as its `value`, and notes on repairs.

    Stand-ins (`meanings`, from `protect`), in any of their `written_forms`, are
    replaced by their spans; one repeated is kept once, nearest its relative place in the source; one
    dropped, or a span left as written that the model lost, is put back at the
    relative word position it had in the source. An emoji, which `protect` took out, comes back first if it
    opened the source, else last (before the final punctuation), without a note. A month or weekday the model
    copied in English comes out in Spanish (`spanish_calendar`).

    >>> spans = [Span(0, 8, "name", "Olusegun"), Span(13, 16, "number", "250")]
    >>> meanings = {"John": spans[0], "45": spans[1]}
    >>> restore("John tiene 45 gatos.", "Olusegun has 250 cats.", spans, meanings)
    ('Olusegun tiene 250 gatos.', [])
    >>> restore("John tiene gatos, John.", "Olusegun has 250 cats.", spans, meanings)
    ('Olusegun tiene 250 gatos,.', ["'John' came out 2 times: one kept", "'250' was put back by position"])
    >>> restore("Juan tiene 45 gatos.", "Olusegun has 250 cats.", spans, meanings)
    ('Olusegun tiene 250 gatos.', [])
    """
    notes = []
    source_words = set(WORD.findall(source))
    length = max(len(source.split()), 1)
    stand_in_of = {id(span): stand_in for stand_in, span in meanings.items()}
    for span in spans:
        relative = (len(source[:span.start].split()) + 0.5) / length  # the middle of the span's word
        if pool_of(span) is None:  # an emoji: where it has no word to follow, first; else last, a comment on it all
            relative = 1.0 if source[:span.start].strip() else 0.0
        token = stand_in_of.get(id(span), source[span.start:span.end])
        if span.kind in verbs.STAND_INS and id(span) in stand_in_of:
            translation = _verb_kept(translation, token, source[span.start:span.end], notes)
            continue
        forms = written_forms(token) if id(span) in stand_in_of else (token,)
        found = list(re.finditer(rf"(?<!\w)(?:{'|'.join(map(re.escape, forms))})(?!\w)", translation))
        # The model may glue letters or digits to the stand-in ("45" -> "455", "John" -> "John5"): a word holding it
        # that the source does not hold is the stand-in, changed, alone or beside a copy ("a las 45 de las 455");
        # left there, it would be a changed number.
        glued = [match for match in re.finditer(rf"[^\W_]*{re.escape(token)}[^\W_]*", translation)
                 if match.group() != token and match.group() not in source_words and match.group() not in meanings
                 ] if id(span) in stand_in_of else []
        found, keep = sorted(found + glued, key=lambda match: match.start()), 0
        if len(found) > 1:
            notes.append(f"'{token}' came out {len(found)} times: one kept")
            words_before = [len(translation[:m.start()].split()) / max(len(translation.split()), 1) for m in found]
            keep = min(range(len(found)), key=lambda i: abs(words_before[i] - relative))
        elif glued:
            notes.append(f"'{glued[0].group()}' was read as '{span.value}'")
        for i in reversed(range(len(found))):  # from the end: what is cut or replaced moves nothing before it
            if i != keep:
                translation = _cut(translation, found[i].start(), found[i].end())
            elif found[i].group() != token:
                translation = translation[:found[i].start()] + token + translation[found[i].end():]
        if not found:
            if pool_of(span) is not None:  # an emoji was taken out on purpose
                notes.append(f"'{span.value}' was put back by position")
            translation = _insert(translation, token, relative)
    # Stand-ins are written back last, all at once, so that a span's text is never read as another's stand-in.
    span_of = {form: span for stand_in, span in meanings.items() if span.kind not in verbs.STAND_INS
               for form in written_forms(stand_in)}
    if span_of:
        pattern = re.compile("|".join(rf"(?<!\w){re.escape(form)}(?!\w)" for form in span_of))
        translation = pattern.sub(lambda match: _cased(span_of[match.group()], source, translation, match.start()),
                                  translation)
    for stand_in, span in meanings.items():
        if span.kind in verbs.STAND_INS:
            translation = verbs.rewrite(translation, stand_in, span.value)
    # A span that ends with a full stop ("9 a.m.") before the model's closing one reads one: not "a las 9 a.m..".
    for value in {span.value for span in spans if span.value.endswith(".")}:
        translation = translation.replace(value + ".", value)
    # A span left as written whose value is Spanish (a glossary's term, a written date) is put in Spanish last, with a
    # capital where it opens the sentence written with one ("Tracking number: 1Z999." -> "Número de seguimiento: …").
    rewritten = {source[s.start:s.end]: s.value for s in spans
                 if id(s) not in stand_in_of and s.value != source[s.start:s.end] and s.kind not in verbs.STAND_INS}
    for written, spanish in rewritten.items():
        capital = spanish[:1].upper() + spanish[1:] if written[:1].isupper() else spanish
        translation = re.sub(rf"(?<!\w){re.escape(written)}(?!\w)",
                             lambda m, spanish=spanish, capital=capital: capital if opens_sentence(m.string, m.start())
                             else spanish, translation)
    # Spanish says "el" before a day ("nació el 3 de marzo", "el 15/03/2024"), a percentage ("el 80 por ciento", "al 20%
    # de descuento") and a phone number ("llámame al 555-0199"); before their stand-in, a number, the model wrote an
    # article of hours, reading it as one ("se mudó a las 12 de diciembre" -> "al 12 de diciembre", "la batería está a
    # las 80 por ciento" -> "al 80", "antes de los 15" -> "antes del 15"; not "todos los 4 de julio"), and "en" or "en
    # el" before a day ("llega en la 11 de enero" -> "el 11 de enero"; "en el 80 por ciento de los casos" is Spanish).
    days = {span.value for span in spans
            if span.kind == "day" or span.kind in ("written_date", "date") and span.value[0].isdigit()}
    # A weekday by its place in the month is one day too, said "el" whatever the source's preposition ("se encuentra
    # con los primer jueves del mes").
    monthly = {span.value for span in spans if span.kind == "day" and not span.value[0].isdigit()}
    on_days = monthly | {span.value for span in spans
                         if span.value in days and re.search(r"\b[Oo]n\s+(?:the\s+)?$", source[:span.start])}
    for value in monthly:
        translation = re.sub(rf"(?<!\w)([Ll])os (?={re.escape(value)})", lambda m: ("E" if m[1] == "L" else "e") + "l ",
                             translation)
    phones = {span.value for span in spans if span.kind == "phone"}
    numbers = phones | {span.value for span in spans if span.value.endswith((" por ciento", "%")) or span.kind == "discount"}
    for value in days | numbers:
        whole = rf"{re.escape(value)}(?!\w|[.,]\d)"  # a day's "14" is no "145"
        translation = re.sub(rf"(?<!\w)([Aa]|[Dd]e) l(?:as?|os) (?={whole})", r"\1l ", translation)
        translation = re.sub(rf"(?<!\w)([Ll])as? (?={whole})", lambda m: ("E" if m[1] == "L" else "e") + "l ", translation)
        if value in days:  # and "el" after a preposition: "pospuesto a 3 de octubre" -> "al 3 de octubre"
            translation = re.sub(rf"(?<!\w)([Ee])n(?: (?:el|los))? (?={whole})", r"\1l ", translation)
            if value in on_days:  # but a day the source says "on" is "el" alone ("se casaron a 12 de junio", "con")
                translation = re.sub(rf"(?<!\w)(?:[Aa]l?|[Pp]or(?: el)?|[Cc]on(?: el)?) (?={whole})",
                                     lambda m: "El " if m[0][0].isupper() else "el ", translation)
            translation = re.sub(rf"(?<!\w)([Aa]|[Dd]e) (?={whole})", r"\1l ", translation)
            translation = re.sub(rf"(?<!\w)([Pp]ara|[Hh]asta|[Dd]esde|[Pp]or) (?={whole})", r"\1 el ", translation)
        elif value in phones:  # and "a" alone is "al" before a phone ("Llama a +44 20 7946 0958" -> "Llama al …")
            translation = re.sub(rf"(?<!\w)([Aa]) (?={whole})", r"\1l ", translation)
    # A month and its year take no article: "hasta las marzo de 2027" -> "hasta marzo de 2027".
    for month in {span.value for span in spans if span.kind == "written_date" and not span.value[0].isdigit()}:
        translation = re.sub(rf"(?<!\w)([Ll])(?:as?|os) ({re.escape(month[0])})(?={re.escape(month[1:])})",
                             lambda m: m[2].upper() if m[1] == "L" else m[2], translation)
    # A sum takes none: "la cuenta llegó a las ¥3,000" -> "a ¥3,000"; a measure takes no hour's ("pon el termostato a
    # las 68°F" -> "a 68°F", "hierve a las 100 grados" -> "a 100 grados"; "a los 5 km de aquí" is Spanish).
    sums = {span.value: "l(?:as?|os)" for span in spans if re.search(rf"[{SIGNS}]|\b(?:{CODES})\b", span.value)}
    measures = {span.value: "las?" for span in spans
                if span.kind == "measure" or span.kind == "number" and re.search(rf"\d\s?(?:{UNITS})$", span.value)}
    # Nor a score or range past any hour ("beat the Celtics 112 to 104" -> "a las 112 a 104").
    scores = {span.value: "las?" for span in spans if span.kind == "range" and int(re.search(r"\d+", span.value)[0]) > 24}
    for value, article in {**measures, **scores, **sums}.items():
        translation = re.sub(rf"(?<!\w)([Aa]) {article} (?={re.escape(value)})", r"\1 ", translation)
    # Nor a number after "número" ("The bus number 42" came out "El autobús número de a las 42").
    for value in {span.value for span in spans if span.kind == "number"}:
        translation = re.sub(rf"(?<!\w)([Nn]úmero) (?:de )?(?:a )?l(?:as?|os) (?={re.escape(value)}(?!\w))", r"\1 ",
                             translation)
    # Nor a number past any hour that counts nothing after it: a year ("hasta las 1975." -> "hasta 1975."), "in" one
    # said "en" ("llegó a las 1620." -> "llegó en 1620.").
    for span in spans:
        if span.kind == "number" and span.value.isdigit() and int(span.value) > 24:
            said_in = re.search(r"\b[Ii]n\s+$", source[:span.start])
            translation = re.sub(rf"(?<!\w)([Aa]|[Hh]asta|[Dd]esde|[Pp]ara) las? "
                                 rf"(?={span.value}(?![\w.,]\d)(?!\s*[^\W\d]))",
                                 lambda m, said_in=said_in: ("En " if m[1] == "A" else "en ") if said_in and m[1] in "Aa"
                                 else m[1] + " ", translation)
    # The part of a year or month takes no article ("para las finales de 2024"), and with its "a" ("in mid-2026": "a
    # mediados de 2026") no preposition of the model's either ("mover a las a principios de 2025"); nor weekdays from
    # one to another with their "de" ("abierta el de lunes a viernes"), nor days ("desde las del 1 al 14").
    for value in {span.value for span in spans if span.kind in ("part", "weekdays", "days")}:
        before = (r"(?:[Aa]|[Ee]n|[Dd]e|[Dd]esde|[Pp]ara)(?: (?:el|l(?:as?|os)))?|[Ee]l|[Dd]el|[Aa]l|[Ll](?:as?|os)"
                  if value.startswith(("a ", "de ", "del ")) else r"[Ll](?:as?|os)")
        translation = re.sub(rf"(?<!\w)(?:{before}) ({re.escape(value)})",
                             lambda m: m[1][0].upper() + m[1][1:] if opens_sentence(m.string, m.start()) else m[1], translation)
    # A label, form of address, war, family, title or country Spanish says comes with its article ("la habitación 214",
    # "la tía Linda", "el Sr. Tanaka", "la ONU"), a rough count with none ("alrededor de 200"): the model's before its
    # stand-in goes ("ve a la 45", "del 45", "El 45% de los estudiantes", "El la ONU y la UE firmaron …").
    for label in {span.value for span in spans if span.kind in ("label", "address", "war", "family", "rough")
                  or span.kind in ("title", "country") and span.value.startswith(("el ", "la "))}:
        def with_its_article(match, label=label):
            article, contracted = match[1], match[2]
            if contracted:  # "del 45" -> "de el andén 9", which `spanish.articles` contracts again
                return f"{contracted} {label}"
            return label[0].upper() + label[1:] if article[0].isupper() else label
        translation = re.sub(rf"(?<!\w)(?:([Ee]l|[Ll]as?|[Ll]os|[Uu]nas?|[Uu]n)|([Dd]e|[Aa])l) {re.escape(label)}(?!\w)",
                             with_its_article, translation)
    # A century is masculine and takes its article: "vivimos en las siglo XXI" -> "en el siglo XXI", "una casa de siglo
    # XIX" -> "del siglo XIX".
    for century in {span.value for span in spans if span.kind == "century"}:
        translation = re.sub(rf"(?<!\w)(?:([Ee])l|([Ll])(?:as?|os)|([Dd]e|[Aa])(?: l(?:as?|os))?) (?={re.escape(century)}(?!\w))",
                             lambda m: f"{m[3]}l " if m[3] else ("E" if (m[1] or m[2]).isupper() else "e") + "l ", translation)
    # Hours are feminine and take their article: "aterriza a los 6:45 p.m.", "a 4 en punto", "hasta el 7 p.m.", "del 7
    # p.m." -> "a las ...", "hasta las ...", "de las ..."; an hour the source says "by" is one to be done by, "para las"
    # ("send me the PDF by 4 o'clock" came out "… el PDF por 4 en punto").
    deadlines = {span.value for span in spans if span.kind == "time" and re.search(r"\b[Bb]y\s+$", source[:span.start])}
    for hour in {span.value for span in spans if span.kind == "time"}:
        article = "la" if re.match(r"0?1\b", hour) else "las"
        if hour in deadlines:
            translation = re.sub(rf"(?<!\w)([Pp])or (?:las? )?(?={re.escape(hour)}(?!\w))", rf"\1ara {article} ",
                                 translation)

        def feminine(match, article=article):
            los, a, el, de = match.groups()
            if a or de:
                return f"{a or de + 'e'} {article} "
            return (article.capitalize() if (los or el).isupper() else article) + " "
        translation = re.sub(rf"(?<!\w)(?:([Ll])os|([Aa])|([Ee])l|([Dd])el) (?={re.escape(hour)}(?!\w))", feminine,
                             translation)
    # A vitamin is feminine: the model, given a number in its place, wrote a masculine word before it ("mucho 45",
    # "para el 45") or none opening a sentence ("45 es bueno para ti.").
    for vitamin in {span.value for span in spans if span.kind == "vitamin"}:
        translation = re.sub(rf"(?<!\w)(?:([Ee]l|[Uu]n|[Mm]ucho)|([Dd]e|[Aa])l) (?={re.escape(vitamin)}(?!\w))",
                             lambda m: f"{m[2]} la " if m[2] else FEMININE_OF[m[1].lower()].capitalize()
                             if m[1][0].isupper() else FEMININE_OF[m[1]], translation)
        translation = re.sub(rf"(?<!\w){re.escape(vitamin[0].upper() + vitamin[1:])}(?!\w)",
                             lambda m, vitamin=vitamin: "La " + vitamin if opens_sentence(m.string, m.start()) else m[0],
                             translation)
    # A stand-in read as an age ("The score was 45 at halftime." -> "El score era 45 años …"): "años" after a span
    # that is no count ("2-1", "A12", "$20") and a source that says no year or age goes.
    if not re.search(r"(?i)\b(?:years?|old|ages?|aged)\b", source):
        for value in {span.value for span in spans if not span.value.isdigit()}:
            translation = re.sub(rf"(?<!\w)({re.escape(value)}) años(?!\w)", r"\1", translation)
    # A span after a comma in the source stays parted from what comes before it: "45, 37" came out "45,37" ("el edificio
    # 4,la habitación 12", "a las 6:45,la puerta B22", the time left to the model); an "of" the model copied between two
    # spans is Spanish's "de" ("16 GB of RAM" came out "16 GB of RAM").
    for span in spans:
        if source[:span.start].endswith(", "):
            translation = re.sub(rf"(?<=[^\s,]),(?={re.escape(span.value)})", ", ", translation)
    for first, second in zip(spans, spans[1:]):
        translation = translation.replace(f"{first.value} of {second.value}", f"{first.value} de {second.value}")
    return spanish_calendar(quoted(translation, source, spans), source), notes


def quoted(translation, source, spans):
    """`translation` with each title `source` quotes (kind "quoted_title") in its quotes, where they are all the quotes
    the source holds: the model put them around another word or lost one.

    >>> spans = [Span(10, 19, "quoted_title", "Star Wars")]
    >>> quoted('Le encanta "películas" Star Wars.', 'He loves "Star Wars" movies.', spans)
    'Le encanta películas "Star Wars".'
    >>> quoted('¿Leíste " Star Wars?', 'Did you read "Star Wars"?', spans)
    '¿Leíste "Star Wars"?'
    """
    titles = [span.value for span in spans if span.kind == "quoted_title"]
    if not titles or source.count('"') != 2 * len(titles):
        return translation
    translation = re.sub(r" {2,}", " ", translation.replace('"', ""))
    for title in titles:
        translation = re.sub(rf"(?<!\w){re.escape(title)}(?!\w)", lambda m: f'"{m[0]}"', translation, count=1)
    return translation


def _verb_kept(translation, stand_in, english, notes):
    """`translation` where the verb `english` was behind `stand_in`: as it is where the model conjugated the stand-in
    (`restore` writes the verb's stem on it last); with `english`, passed through, where it copied the stand-in; and
    where it left the stand-in out, as it is, with a note (put back in English, a verb reads as a word garbled:
    "uvas packed en una caja")."""
    if verbs.forms(verbs.SAID[stand_in]).search(translation):
        return translation
    copied = re.search(rf"(?<!\w){stand_in}(?!\w)", translation, re.IGNORECASE)
    if copied:
        return translation[:copied.start()] + english + translation[copied.end():]
    notes.append(f"'{english}' was left out")
    return translation


def _cased(span, source, translation, at):
    """`span`'s value as written at `at` of `translation`: a value that is Spanish, not the source's text ("seis"
    for "six"), takes a capital where it opens the sentence, as the model wrote its stand-in there."""
    value = span.value
    if value != source[span.start:span.end] and opens_sentence(translation, at):
        return value[:1].upper() + value[1:]
    return value


def _cut(translation, start, end):
    """`translation` without `translation[start:end]` and the space before it."""
    return (translation[:start].rstrip() + translation[end:]).strip() if start else translation[end:].lstrip()
