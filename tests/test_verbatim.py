"""Spans that must come through unchanged: found, swapped for stand-ins before decoding, written back after; and what
the model still garbled (`translator.text.garbling`), found in its translation and decoded again."""

from pathlib import Path

import pytest

from translator import cli
from translator.defaults import DEFAULT_BEAM, DEFAULT_MODEL
from translator.text import garbling, nouns, numbers, verbatim, verbs
from translator.text.spanish import is_form, lost_weekdays, tidied
from translator.text.verbatim import Span
from translator.text.words import WORD
from translator.translate import Translator

# Word counts of a training corpus: "wipe" is rare but a word, "Angela" a name seen too seldom.
COUNTS = {**dict.fromkeys(["Tom", "John", "the", "has", "cats", "is", "in", "lives", "where", "and", "look", "now",
                           "at", "here", "my", "connection", "The", "I", "saw", "paid", "to", "games", "he",
                           # Words the model never saw are translated alone (`garbling.guessed`): these are no such words.
                           "flew", "last", "week", "love", "this", "song", "eighth", "thanks", "took", "trip", "days",
                           # Nouns that make a place of a name with "'s" (the "institution" kind).
                           "hospital", "pizza", "day", "parade"], 9),
          # Nouns and verbs of the lists (`translator.text.nouns`, `translator.text.verbs`) seen often enough to be left
          # to the model.
          **dict.fromkeys(["owner", "pin", "blocked"], nouns.MAX_COUNT),
          "wipe": 1, "Angela": 2, "Africa": 7, "30": 9, "Christian": 8, "English": 425, "application": 1,
          "car": 9, "general": 9, "motor": 9}


class Glossary:
    """A stand-in for a glossary: every occurrence of each English term must come out as its Spanish."""

    def __init__(self, terms):
        self.terms = terms

    def matches(self, text):
        found = []
        for english, spanish in self.terms.items():
            start = text.find(english)
            while start != -1:  # str.find: -1 when not found
                found.append((start, start + len(english), spanish))
                start = text.find(english, start + len(english))
        return sorted(found)


def values(text, counts=COUNTS):
    return [(span.kind, span.value) for span in verbatim.find(text, counts)]


@pytest.mark.parametrize("text", ["Call extension 4402 now.", "Please call extension 4402 now."])
def test_a_label_in_lower_case_after_a_verb_that_goes_to_it_opening_the_sentence_or_not(text):
    counts = {"Call": 9, "call": 9, "Please": 9, "please": 9, "now": 9}
    assert [(span.kind, span.value) for span in verbatim.find(text, counts)] == [("label", "la extensión 4402")]


@pytest.mark.parametrize("text, names", [
    ("Help is here.", []),  # a first word the corpus has seen (only capitalised) may be no name
    ("NASA's mission is here.", ["NASA"]),  # but in capitals it is an acronym, rare as the corpus shows it
])
def test_a_first_word_the_corpus_has_seen_is_a_name_only_in_capitals(text, names):
    counts = {"Help": 2, "NASA": 2, "mission": nouns.MAX_COUNT, "is": 9, "here": 9}
    assert [span.value for span in verbatim.find(text, counts)] == names


@pytest.mark.parametrize("kind, example", [(kind.name, example) for kind in verbatim.KINDS for example in kind.examples])
def test_every_example_of_the_table_is_found_whole_as_its_kind(kind, example):
    for text in (f"{example} is here", f"Look at {example} now", f"Look at {example}."):
        assert [(span.kind, text[span.start:span.end]) for span in verbatim.find(text, COUNTS)] == [(kind, example)], text


@pytest.mark.parametrize("kind, example", [(kind.name, example) for kind in verbatim.KINDS for example in kind.examples])
def test_every_example_of_the_table_comes_back_from_behind_its_stand_in(kind, example):
    # As the model would write it: its stand-in after "a las", the hour's article the model puts before a number.
    text = f"Look at {example} now"
    spans = verbatim.find(text, COUNTS)
    protected, meanings = verbatim.protect(text, spans)
    output, _ = verbatim.restore(protected.replace("Look at ", "Mira a las "), text, spans, meanings)
    assert spans[0].value in output


@pytest.mark.parametrize("text, expected", [
    ("Where is Tom?", []),  # well-known words, capitalised or not, stay with the model
    ("The cats", []),  # a capitalised first word that the corpus knows in lower case
    ("Tom has 3 cats", []),  # one digit: the model copies it
    ("Tom has 30 dogs", [("number", "30")]),  # a number the corpus knows too (first left to the model: `tried`)
    ("Tom has 1999 cats", [("number", "1999")]),
    ("Wipe the cats, Angela.", [("name", "Angela")]),  # "wipe" is a word, not a name
    ("Tom and Angela in Africa.", [("name", "Angela")]),  # a name seen often is the model's
    ("Angela is here.", []),  # a first word the corpus has seen may be a word seen only capitalised
    ("Olusegun is here.", [("name", "Olusegun")]),  # one it has never seen is a name
    ("The Acme Widget is here", [("name", "Acme Widget")]),  # the first word is no part of the name
    ("I saw the 1st and 2nd", []),  # ordinals are words, not codes
    ("He saw the Olympic Games", [("name", "Olympic")]),  # a word known in lower case is the model's, even in a name
    ("Has Dr. Adeyemi come?", [("title", "Dr. Adeyemi")]),  # a name run stops before a title
    ("Judge Rodriguez ruled.", [("title", "Judge Rodriguez")]),  # an office before a name, kept with it
    ("He lives in Rio de Janeiro", [("name", "Rio de Janeiro")]),  # a particle between names is part of the name
    ("Look at Angela de la casa", [("name", "Angela")]),  # but not one after the last
    ("He saw Mr. Smith's dog", [("title", "el Sr. Smith")]),  # an apostrophe is part of a name only before a capital
    ("He saw Mr. Smith's Honda", [("title", "el Sr. Smith"), ("name", "Honda")]),  # no place: no noun after the "'s"
    ("Look, Mrs. Angela.", [("title", "Sra. Angela")]),  # spoken to: no article
    ("Tom met Doctor Angela", [("title", "Doctor Angela")]),  # an office whose gender the word does not give
    ("Tom met Father Angela", [("address", "el padre Angela")]),  # a priest, not "my father"
    ("Tom met the Hendersons", [("family", "los Hendersons")]),  # a family by its name in the plural
    ("Tom saw the Cats", []),  # a plural the corpus knows in lower case: no name
    ("Tom saw the Dallas Cowboys", [("name", "Dallas Cowboys")]),  # a name's first word ending in "s"
    ("My cat, Mr. Angela, is here", [("title", "el Sr. Angela")]),  # set beside another name: not spoken to
    ("Thanks, Mr. Angela, look", [("closing", "Gracias"), ("title", "Sr. Angela")]),  # thanked: spoken to
    ("Tom is here Monday to Friday", [("weekdays", "de lunes a viernes")]),  # weekdays from one to another
    ("Tom has version 4.2", [("label", "la versión 4.2")]),  # "version" in lower case after any word
    ("Tom has Angela version 120", [("name", "Angela"), ("number", "120")]),  # but a name's: "Angela versión 120"
    ("Tom moved it from Monday to Friday", []),  # a day moved: no range
    ("Tom met Mr. and Mrs. Angela", [("family", "los Sres. Angela")]),  # a couple by their title
    ("Tom lost the order number", [("number_name", "número de pedido")]),  # what a number names
    ("Tom has tracking number 1Z999AA1", [("number_name", "número de seguimiento 1Z999AA1")]),  # with its number
    ("About 200 cats are here", [("rough", "alrededor de 200")]),  # a rough count opening a sentence
    ("Nearly 20% of cats", [("rough", "casi el 20%")]),  # a percentage with its article
    ("Tom has about 200 cats", [("number", "200")]),  # mid-sentence the model's
    ("Hi Mr. Angela, look", [("greeting", "Hola Sr. Angela")]),  # a greeting before a title
    ("He saw St. Angela's Hospital", [("institution", "St. Angela's Hospital")]),  # a place named for a saint
    ("He saw Angela's Day", [("name", "Angela")]),  # a feast is the model's ("Valentine's Day")
    ("Tom has 3 kg", [("number", "3 kg")]),  # a unit makes one digit a span: the model may drop it
    ("Tom is here at 6 p.m. and 9 p.m.", [("time", "6 p.m."), ("time", "9 p.m")]),  # the last stop ends the sentence
    ("Tom No. 5 is here", [("numbered", "n.º 5")]),  # "No." before a number is no part of a name
    ("Tom came on the 14th at 6 p.m. here", [("day", "14"), ("time", "6 p.m.")]),  # a day of the month, said bare
    ("Tom pays by the 1st of every month", [("day", "1 de cada mes")]),  # "every" said ("el 1 de mes" otherwise)
    ("Tom pays on the first of every month", [("day", "1 de cada mes")]),  # in words: a day, before "of every month"
    ("Tom is here on the last Monday of each month", [("day", "último lunes de cada mes")]),  # a weekday of the month
    ("Tom is here the 2nd Friday of the month", [("day", "segundo viernes del mes")]),  # after any "the"
    ("Tom is at number 14", [("label", "el número 14")]),
    ("Tom calls on the 14th about it", [("day", "14")]),
    ("Tom came on the 2nd floor", []),  # an ordinal before a noun is no day
    ("Tom is in Chapter IV now", [("label", "el capítulo IV")]),  # a label's number in Roman numerals
    ("Tom saw Grandma today", [("address", "la abuela")]),  # a grandparent called as by a name
    ("Grandma, Tom is here", [("name", "Grandma")]),  # not when called: a name as any other
    ("Tom read Part I.", [("label", "la parte I")]),
    ("Tom took bus 27 home", [("label", "el autobús 27")]),  # in lower case after a verb of travel
    ("Tom's license plate is 7ABC123", [("number_name", "número de matrícula"), ("code", "7ABC123")]),  # masculine
    ("Tom flies with Iberia, flight IB 6251, seat 23C", [("name", "Iberia"), ("label", "el vuelo IB 6251"),
                                                           ("label", "el asiento 23C")]),  # a capital in the number
    ("Tom sat with seat 23 mates", [("number", "23")]),  # in lower case after another word, only then
    ("Tom was in part I think", []),  # "I" a pronoun
    ("Tom is in conference room B now", [("label", "la sala de conferencias B")]),  # a letter alone, any word before
    ("Tom takes Vitamin C", [("vitamin", "vitamina C")]),  # a vitamin's letter, no article
    ("Tom needs vitamin B12", [("vitamin", "vitamina B12")]),
    ("Tom is at gate D now", [("label", "la puerta D")]),
    ("Tom is past terminal D now", [("label", "la terminal D")]),  # in lower case after any word: the letter no word
    ("Tom parks in section A near it", [("label", "la sección A")]),  # "A" where no article can be
    ("Tom got a B+ and an A- now", [("grade", "B+"), ("grade", "A-")]),  # a letter grade with its sign
    ("Tom writes C++ and C#", [("code", "C++"), ("code", "C#")]),  # no grade
    ("Tom got 20% off it", [("discount", "20% de descuento")]),  # a share off a price
    ("Tom is 20% off its peak", [("number", "20%")]),  # off a mark: no discount
    ("Tom wrote to P.O. Box 12 now", [("po_box", "P.O. Box 12")]),  # no label "Box 12"
    ("Tom is in Hall C now", [("label", "la sala C")]),
    ("Tom is in locker 17 now", [("label", "la taquilla 17")]),
    ("Tom is at 555-0199 ext. 12 now", [("phone", "555-0199 ext. 12")]),  # a phone number with its extension
    ("Tom is at ext. 2231 now", [("label", "la ext. 2231")]),  # an extension alone
    ("Tom is at extn 2231 now", [("number", "2231")]),  # no label's full stop but a full stop
    ("Tom parks in section A car", [("name", "A")]),  # "A" an article: no label
    ("Tom met the room B's owner", [("name", "B")]),  # no letter alone: no label
    ("Tom was the 3rd.", []),  # nor one after no preposition
    ("Tom is from the 19th century", [("century", "siglo XIX")]),  # in Roman numerals, as Spanish writes it
    ("Tom is from the twelfth century", [("century", "siglo XII")]),  # in words too
    ("Tom lived in the late 19th century", [("part", "a finales del siglo XIX")]),  # a century's part
    ("Tom is out from the 1st to the 14th in here", [("days", "del 1 al 14")]),  # days from one to another
    ("Tom is out from the third to the ninth of June", [("days", "del 3 al 9 de junio")]),  # any ordinal
    ("Tom moved from the third to the fifth floor", []),  # an ordinal before a noun is no day
    ("Tom is out from July 1 to July 15", [("days", "del 1 de julio al 15 de julio")]),  # dates with their month
    ("Tom is out Dec. 24 to Jan. 2, 2026", [("days", "del 24 de diciembre al 2 de enero de 2026")]),
    ("Tom is out June 5 to 10 in here", [("days", "del 5 al 10 de junio")]),  # the month said once, as the source does
    ("Tom is out July 5 to 10 PM", [("written_date", "5 de julio"), ("time", "10 PM")]),  # no day before an hour
    ("Tom saw June 5 to 10 cats", [("written_date", "5 de junio"), ("number", "10")]),  # nor before a noun
    ("Tom is in 3rd grade", [("school_year", "3.er grado")]),  # a school year, not a mark
    ("Tom is in first grade now", [("school_year", "primer grado")]),  # in words, as the source says it
    ("Tom got a 3rd grader", []),  # no school year but "grade" itself
    ("Tom leaves from bay 14", [("label", "el andén 14")]),
    ("Tom is at City Hall 3 now", [("name", "City")]),  # a label that ends a name is the name's
    ("Tom left. Hall 3 is open", [("label", "la sala 3")]),  # but not after a word that opens a sentence
    ("Tom added 2 1/2 cups", [("serial", "2 1/2")]),  # a whole number with its fraction
    ("Tom has a 1:100 map", [("serial", "1:100")]),  # a ratio whose second number is no time's minutes
    ("Tom won 4 to 1", [("range", "4 a 1")]),  # a score, a ratio or a range, "to" written as Spanish says it
    ("Tom is out from 10 p.m. to 2 a.m. now", [("range", "10 p.m. a 2 a.m.")]),  # two times, the last "a.m." or "p.m."
    ("Tom pays $2,300/month", [("number", "$2,300/mes")]),  # a sum by the month, the period in Spanish
    ("Tom pays $1,950 a month", [("number", "$1,950 al mes")]),  # "a", "an" or "per" before the period
    ("Tom pays 20 € per person", [("number", "20 € por persona")]),  # the sign after the sum, a space between
    ("Tom is in 3 pm–5 pm now", [("range", "3 pm–5 pm")]),  # two times with a dash: as written
    ("Tom is at 555.123.4567 now", [("phone", "555.123.4567")]),  # a phone number with dots
    ("Tom came in the 1990s", [("decade", "la década de 1990")]),  # a decade, with its "the"
    ("Tom loved the sixties", [("decade", "los años 60")]),  # in words
    ("Tom loved the sixties and seventies", [("decade", "los años 60"), ("decade", "los años 70")]),  # "and" for "the"
    ("Tom is in his 30s", []),  # an age, no decade
    ("Tom loves 1980s songs", []),  # before a noun, which Spanish says first
    ("Tom loves the 1980s songs", []),  # with its "the" too
    ("The 1980s saw Tom", [("decade", "la década de 1980")]),  # a verb after it
    ("Tom came on the tenth of May", [("written_date", "10 de mayo")]),  # a day in words
    ("Tom came until the fourteenth and after the twenty-first", [("day", "14"), ("day", "21")]),  # alone, from the 11th
    ("Tom came on the tenth", []),  # up to the tenth an ordinal in words is often no day: left to the model
    ("Tom came on May the twenty first", [("written_date", "21 de mayo")]),
    ("Tom came second of all", []),  # an ordinal before no month
    ("Tom ran 5 miles", [("measure", "5 millas")]),  # a unit in words
    ("Tom was the #1 here", [("numbered", "n.º 1")]),
    ("Look at Africa Chapter 12", [("label", "el capítulo 12")]),  # a label ends a run of capitalised words
    ("Tom is in room 214", [("label", "la habitación 214")]),  # in lower case after a preposition
    ("Tom paid Invoice #2231", [("label", "la factura n.º 2231")]),  # "#" and a number
    ("Tom shipped your order #58213", [("label", "tu pedido n.º 58213")]),  # the word before it said in its place
    ("Tom will pay the invoice INV-2024-0042", [("label", "la factura INV-2024-0042")]),  # a code
    ("Tom said Order 5 now", [("name", "Order")]),  # "Order" numbers only before "#" or a code
    ("Tom told Uncle Sam I said hello", [("address", "el tío Sam")]),  # kin before a name, no "I" after
    ("Tom met Pope Francis", [("address", "el papa Francis")]),  # a rank before a name
    ("Hi Angela, thanks.", [("greeting", "Hola Angela")]),  # a greeting and the name it greets
    ("Good morning Tom Lee!", [("greeting", "Buenos días Tom Lee")]),
    ("Dear Mrs. Li, hi", [("greeting", "Estimada Sra. Li")]), ("Dear Mr Lee,", [("greeting", "Estimado Sr. Lee")]),
    ("Dear Anna,", [("greeting", "Hola Anna")]), ("Dear Mrinal,", [("greeting", "Hola Mrinal")]),  # a gender not given
    ("Hi everyone, look", [("greeting", "Hola a todos")]), ("Hi there!", [("greeting", "Hola")]),  # a group
    ("Hi, Tom is here", [("greeting", "Hola")]),  # greeting no one
    ("Tom ate at McDonald's yesterday", [("business", "McDonald's")]),  # a shop named for its owner, whole
    ("Tom saw Olusegun's cats", [("name", "Olusegun")]),  # before a noun: a name's possessive
    ("Tom went to John's.", []),  # a name the corpus knows: the owner's home
    ("Tom is Olusegun's.", [("name", "Olusegun")]), ("Tom caught some Z's", [("name", "Z")]),  # his; a letter's plural
    ("Tom said Hello Tom is here", [("name", "Hello Tom")]),  # no comma nor stop after: no greeting, a rare name
    ("Kind regards, Angela", [("closing", "Saludos cordiales, Angela")]),  # a closing and the signature ending the text
    ("Best wishes, the cats.", [("closing", "Un saludo")]),  # a closing before a comma
    ("Tom R&D grew", [("code", "R&D")]),  # no run of capitalised words reaches into a name with "&"
    ("Tom shuts at 9 p.m., daily", [("time", "9 p.m.")]),  # "p.m."'s full stop before a comma
    ("Stephen King and Burger King", [("name", "Stephen King"), ("name", "Burger King")]),  # a rank in a name
    ("Tom saw 1 in 10 cats", [("range", "1 de cada 10")]),  # a share
    ("Tom went to the U.N.O. and the E.U.", [("initials", "U.N.O."), ("country", "la UE")]),  # initials, when rare
    ("Tom went to the U.S. and the U.K.", [("country", "Estados Unidos"), ("country", "el Reino Unido")]),
    ("Tom ran 2 in 5 minutes", []),  # no share before a unit of time
    ("Tom left the room 15 minutes ago", [("number", "15")]),  # but not after "the"
    ("Tom is here from 9:00 to 11:30", [("time", "9:00"), ("time", "11:30")]),  # times are spans of their own
    # A capitalised word alone that is the plural of a word or a people the corpus knows: no name.
    ("Tom saw Christians and Englishmen", []), ("Applications are due", []),
    ("Tom saw Smiths", [("name", "Smiths")]), ("Tom met Carmen", [("name", "Carmen")]),  # no plurals it knows
    ("Tom saw General Motors", [("name", "Motors")]),  # beside a capitalised word, a name's
    # A country by its initials, with its "the", as Spanish says it; not before a noun it qualifies.
    ("Tom is in the US now", [("country", "Estados Unidos")]), ("The UN met", [("country", "la ONU")]),
    ("Tom left the U.K.", [("country", "el Reino Unido")]), ("The EU passed it", [("country", "la UE")]),
    ("The UK left the EU", [("country", "el Reino Unido"), ("country", "la UE")]),  # a verb with no "-ed"
    ("The office in the U.K. opens at 9", [("country", "el Reino Unido")]),
    ("Tom is a US citizen", [("name", "US")]), ("Tom saw USAF planes", [("name", "USAF")]),
    ("Tom saw the UN Security Council", [("country_body", "UN Security Council")]),  # one of its bodies, whole
    ("The US Navy sent a ship", [("country_body", "US Navy")]),  # not cut after "The" as a name
    ("The WHO declared it over", [("country", "la OMS")]), ("The IMF cut it", [("country", "el FMI")]),  # bodies of nations
    ("Tom fined Google €2.4 billion", [("name", "Google"), ("number", "€2.4")]),  # an amount joins no name
    ("Tom likes Android 14", [("name", "Android 14")]),  # but a version does
    ('Tom read "The Old Man and the Sea"', [("quoted_title", "The Old Man and the Sea")]),  # a title in quotes
    ('Tom said "hello" and "good night"', []),  # words in lower case: no title
])
def test_rare_names_and_numbers_of_two_digits_or_more_are_protected(text, expected):
    assert values(text) == expected


def test_a_family_and_a_name_beside_it_stand_behind_stand_ins_that_share_no_word():
    text = "Olusegun met the Hendersons and Angela"
    protected, meanings = verbatim.protect(text, verbatim.find(text, COUNTS))
    assert protected == "John met Tom and Mary and Mike"  # "Mary" is taken
    assert [span.value for span in meanings.values()] == ["Olusegun", "los Hendersons", "Angela"]
    # A stand-in's name in the text: the family stays as written.
    assert verbatim.protect("Tom met the Hendersons", verbatim.find("Tom met the Hendersons", COUNTS))[0] == \
        "Tom met the Hendersons"


@pytest.mark.parametrize("source, model, expected", [
    # Two people stand in: the verb agrees with the family.
    ("The Hendersons invited us.", "Tom y Mary nos invitaron.", "Los Hendersons nos invitaron."),
    ("Mr. and Mrs. Angela invited us.", "Tom y Mary nos invitaron.", "Los Sres. Angela nos invitaron."),
    ("Tom saw Mr. Angela.", "Tom vio a John.", "Tom vio al Sr. Angela."),  # the article contracted after "a"
    ("Look, Mr. Angela.", "Mira, John.", "Mira, Sr. Angela."),  # spoken to: none
    ("About 200 cats are here.", "El 45 gatos están aquí.", "Alrededor de 200 gatos están aquí."),  # the model's goes
    ("Tom lost the order number.", "Tom perdió el Texas.", "Tom perdió el número de pedido."),
    ("Tom has 16 GB of RAM.", "Tom tiene 45 of John.", "Tom tiene 16 GB de RAM."),  # an "of" copied between spans
    ("Tom is here from Monday to Friday.", "Tom está aquí el Texas.", "Tom está aquí de lunes a viernes."),
])
def test_families_titles_rough_counts_and_what_numbers_name_come_back_as_spanish_says_them(
        tiny_translator, monkeypatch, source, model, expected):
    protected, _ = verbatim.protect(source, verbatim.find(source, {**COUNTS, "lost": 9, "order": 9, "number": 9}))
    speaking(tiny_translator, monkeypatch, {protected: model})
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "lost": 9, "order": 9, "number": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {word.lower() for word in WORD.findall(model)})
    assert tiny_translator.translate(source) == expected


def test_a_plural_the_corpus_shows_is_a_family_only_when_it_shows_the_name_too():
    # "the Alps" and "the Thames" the corpus shows, and no "Alp": places, names as any other; "the Smiths" it shows,
    # and "Smith".
    counts = {**COUNTS, "Alps": 3, "Smiths": 1, "Smith": 4}
    assert values("Tom saw the Alps", counts) == [("name", "Alps")]
    assert values("Tom saw the Smiths", counts) == [("family", "los Smiths")]


def test_one_family_a_sentence_the_others_names():
    # One stand-in of two people: "The Lakers beat the Celtics" came out "Los Lakers los Celtics golpean las celtics".
    assert values("Tom saw the Hendersons and the Garcias") == [("family", "los Hendersons"), ("name", "Garcias")]


@pytest.mark.parametrize("text", ["Nearly 2 thousand cats", "About 2 million billion cats", "About 3 out of 4 cats",
                                  "About 5:30 the cats"])
def test_no_rough_count_before_a_scale_but_millions_a_share_or_a_time(text):
    assert "rough" not in [kind for kind, _ in values(text)]


@pytest.mark.parametrize("text, value", [
    ("Nearly 2 million cats came", "casi 2 millones de"),  # "de" before the noun counted
    ("Nearly 2 million watched it", "casi 2 millones"),  # not before a verb
    ("About 1 million of them came", "alrededor de 1 millón"),
])
def test_a_rough_count_of_millions_says_them_in_spanish(text, value):
    assert ("rough", value) in values(text)


def test_a_text_of_spans_only_opens_with_a_capital_where_the_source_does(recording):
    translator, decoded = recording
    # No word for the model: the spans are written as they are, the Spanish one opening the text with its capital.
    assert translator.translate("Tracking number: 1Z999AA1.") == "Número de seguimiento: 1Z999AA1."
    assert decoded == []


def test_a_unit_after_a_number_is_no_word_of_a_name_garbled():
    assert garbling.garbled_names("Tiene 16 GB de RAM.", "He has 16 GB of RAM.", {}) == []
    assert garbling.garbled_names("Juega a Call de Duty.", "She plays Call of Duty.", {}) == ["Call of Duty"]


def test_an_acronym_is_a_name_whatever_word_it_spells():
    # "The WHO declared a pandemic" came out "La pandemic declaraba …": "WHO" read as "who".
    assert values("Tom saw the WHO report", {**COUNTS, "who": 9, "report": 9}) == [("name", "WHO")]


def test_initials_whose_letters_the_corpus_knows_are_left_to_the_model():
    # Letters the corpus knows ("D", "C") are left to the model; "U.K." came out "los Estados Unidos el K.".
    assert values("Tom went to the D.C. and the N.Y.", {**COUNTS, "D": 9, "C": 9}) == [("initials", "N.Y.")]


def test_a_label_is_no_label_before_a_unit_of_time():
    counts = {**COUNTS, "Exercise": 9}
    assert values("Exercise 30 minutes a day", counts) == [("number", "30")]
    assert values("Exercise 30 is hard", counts) == [("label", "el ejercicio 30")]


LEXICON = {"el", "la", "bloqueó", "mi", "conexión", "red", "está", "aquí", "tiene", "gatos"}


@pytest.mark.parametrize("translation, repaired", [
    ("El fuegal bloqueó mi conexión.", "El firewall bloqueó mi conexión."),  # invented: the rare source word
    ("El bloqueó mi conexión.", "El bloqueó mi conexión."),  # nothing invented, nothing changed
    ("El fuegal bloqueó mi conexión grapa.", "El firewall bloqueó mi conexión grapa."),  # one source word, used once
    ("El cortafuegos bloqueó mi conexión.", "El cortafuegos bloqueó mi conexión."),  # a glossary's Spanish stays
])
def test_an_invented_word_is_replaced_by_the_rare_source_word_at_its_place(translation, repaired):
    source = "The firewall blocked my connection."
    assert garbling.repair_invented(translation, source, LEXICON, COUNTS, keep=["cortafuegos"]) == repaired


@pytest.mark.parametrize("source, translation, repaired", [
    ("My vet saw the firewall.", "Mi vetert vio el fuegal.", "Mi vet vio el firewall."),  # each its own word
    ("My vet saw the firewall.", "Mi vet vio el vetert.", "Mi vet vio el firewall."),  # "vet" is written already
    ("Vets saw the firewall.", "Vetsos vieron el fuegal.", "Vets vieron el firewall."),  # opening: its capital
])
def test_an_invented_word_that_begins_with_a_source_word_is_replaced_by_that_word(source, translation, repaired):
    # "vet" is a word the corpus shows, too often for a rare word, too seldom for the model to know it: it spelled on.
    counts = {**COUNTS, "My": 9, "vet": 9, "Vets": 9, "saw": 9}
    assert garbling.repair_invented(translation, source, LEXICON | {"mi", "vio", "vieron"}, counts) == repaired


def test_an_invented_word_is_not_replaced_by_a_span_written_back_already():
    counts = {"Her": 9, "her": 9, "is": 9}
    assert garbling.repair_invented("Su coderado ZIP es 45.", "Her ZIP code is 45.", {"su", "es"}, counts,
                                    keep=["ZIP", "45"]) == "Su code ZIP es 45."


def test_an_invented_word_is_not_replaced_by_a_word_of_a_span_written_back_in_spanish(tiny_translator, monkeypatch):
    speaking(tiny_translator, monkeypatch, {"45, disco was king.": "45, descono era rey."})
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "disco": nouns.MAX_COUNT, "was": 9, "king": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", {"era", "rey"})
    assert tiny_translator.translate("In the late seventies, disco was king.") == "A finales de los años 70, descono era rey."


def test_the_translator_repairs_invented_words(recording, monkeypatch):
    translator, _ = recording
    monkeypatch.setattr(translator, "lexicon", LEXICON)
    monkeypatch.setattr(translator, "word_counts", COUNTS)
    monkeypatch.setattr(translator, "decode_as_written", lambda texts, beam_size=1: ["El fuegal bloqueó mi conexión."])
    assert translator.translate("The firewall blocked my connection.") == "El firewall bloqueó mi conexión."


@pytest.mark.parametrize("source, translation, restored", [
    ("Tom fell to 3.9 percent.", "Tom cayó a 45.", "Tom cayó a 3.9 por ciento."),  # "percent" as Spanish says it
    ("Tom fell to minus 12 degrees.", "Tom cayó a 45.", "Tom cayó a menos 12 grados."),  # the sign kept, in Spanish
    ("Minus 12 degrees is cold.", "45 hace frío.", "Menos 12 grados hace frío."),
    ("Tom has 3 gallons.", "Tom tiene 45.", "Tom tiene 3 galones."),  # a unit in words, in Spanish
    ("Tom has 70 square meters.", "Tom tiene 45.", "Tom tiene 70 metros cuadrados."),
    ("Tom is at 80 percent.", "Tom está a las 45.", "Tom está al 80 por ciento."),  # masculine, no hour
    ("Tom saw 15 percent come.", "Tom vio las 45 venir.", "Tom vio el 15 por ciento venir."),
    ("Tom got 20% off.", "Tom llegó a las 45.", "Tom llegó al 20% de descuento."),  # a discount's too
    ("Tom works in 80 percent of cases.", "Tom funciona en el 45 de los casos.", "Tom funciona en el 80 por ciento de los casos."),
])
def test_a_percentage_a_number_below_zero_and_a_unit_come_back_as_spanish_says_them(source, translation, restored):
    spans = verbatim.find(source, COUNTS)
    assert verbatim.restore(translation, source, spans, verbatim.protect(source, spans)[1])[0] == restored


@pytest.mark.parametrize("translation, restored", [
    ("Tom nació en 45.", "Tom nació el 3 de marzo de 1998."),  # a day takes "el" in Spanish
    ("En 45 nació Tom.", "El 3 de marzo de 1998 nació Tom."),
    ("Tom vive en Lima desde el 45.", "Tom vive en Lima desde el 3 de marzo de 1998."),  # another "en" stays
    ("Tom nació a las 45.", "Tom nació el 3 de marzo de 1998."),  # the stand-in read as an hour
    ("Tom nació en el 45.", "Tom nació el 3 de marzo de 1998."),
    ("Tom nació en la 45.", "Tom nació el 3 de marzo de 1998."),
    ("Tom nació con las 45.", "Tom nació el 3 de marzo de 1998."),  # "on" said "con"
    ("Tom nació a la 45.", "Tom nació el 3 de marzo de 1998."),
    ("Las 45 nació Tom.", "El 3 de marzo de 1998 nació Tom."),
    ("Tom viene todos los 45.", "Tom viene todos los 3 de marzo de 1998."),  # a plural of its own
    ("Tom nació a 45.", "Tom nació el 3 de marzo de 1998."),  # "on": "el" alone
    ("Tom nació por 45.", "Tom nació el 3 de marzo de 1998."),
])
def test_a_written_date_comes_back_in_spanish_after_el(translation, restored):
    source = "Tom was born on March 3, 1998."
    spans = verbatim.find(source, COUNTS)
    assert verbatim.restore(translation, source, spans, verbatim.protect(source, spans)[1])[0] == restored


@pytest.mark.parametrize("translation, restored", [
    ("Tom vino a 45.", "Tom vino al 3 de marzo de 1998."),  # after a preposition, its "el"
    ("Tom vino a las 45.", "Tom vino al 3 de marzo de 1998."),
    ("Tom vive aquí desde 45.", "Tom vive aquí desde el 3 de marzo de 1998."),
])
def test_a_written_date_after_a_preposition_takes_el(translation, restored):
    source = "Tom came by March 3, 1998."
    spans = verbatim.find(source, COUNTS)
    assert verbatim.restore(translation, source, spans, verbatim.protect(source, spans)[1])[0] == restored


@pytest.mark.parametrize("source, translation, restored", [
    ("Tom is in No. 5 now.", "Tom está en el 45 ahora.", "Tom está en el n.º 5 ahora."),  # as Spanish abbreviates it
    ("Tom is in No.12 now.", "Tom está en el 45 ahora.", "Tom está en el n.º 12 ahora."),
    ("Tom said No. 5 is here.", "Tom dijo que 45 está aquí.", "Tom dijo que n.º 5 está aquí."),
    ("Tom won 4 to 1.", "Tom ganó 45.", "Tom ganó 4 a 1."),  # a score, "to" as Spanish says it
    ("Tom was #1 here.", "Tom fue 45 aquí.", "Tom fue n.º 1 aquí."),
    ("Tom met her in the 1990s.", "Tom la conoció en 45.", "Tom la conoció en la década de 1990."),  # "the" and all
    ("Tom left in the early 2000s.", "Tom se fue 45.", "Tom se fue a principios de la década de 2000."),
    ("The 80s were fun.", "45 eran divertidos.", "Los años 80 eran divertidos."),  # capitalised, opening it
    ("Tom lived here in the 1800s.", "Tom vivió aquí en 45.", "Tom vivió aquí en el siglo XIX."),  # a century
    ("Tom lives in the twenty-first century.", "Tom vive en las 45.", "Tom vive en el siglo XXI."),  # masculine
    ("The 21st century began.", "Los 45 empezó.", "El siglo XXI empezó."),
    ("Tom loves 19th century art.", "Tom ama el arte del 45.", "Tom ama el arte del siglo XIX."),
    ("Tom loves art of the 19th century.", "Tom ama el arte de 45.", "Tom ama el arte del siglo XIX."),  # "de el"
    ("Tom loves art of the 19th century.", "Tom ama el arte de las 45.", "Tom ama el arte del siglo XIX."),
    ("Tom is out from the 1st to the 14th.", "Tom está fuera de las 45.", "Tom está fuera del 1 al 14."),  # its "del"
    ("Tom is out from the 1st to the 14th.", "Tom está fuera 45.", "Tom está fuera del 1 al 14."),
    ("Tom is in Room 214.", "Tom está en 45.", "Tom está en la habitación 214."),  # a label, its Spanish article
    ("Tom is in conference room B.", "Tom está en 45.", "Tom está en la sala de conferencias B."),  # two words
    ("Tom takes vitamin C.", "Tom toma mucho 45.", "Tom toma mucha vitamina C."),  # a vitamin is feminine
    ("Tom took bus number 42.", "Tom tomó el autobús número de a las 45.", "Tom tomó el autobús número 42."),  # no hour's
    ("Tom needs vitamin C.", "Tom necesita del 45.", "Tom necesita de la vitamina C."),
    ("Vitamin C is good.", "45 es bueno.", "La vitamina C es bueno."),  # with its article opening a sentence
    ("Tom is in Room 214.", "Tom está en la 45.", "Tom está en la habitación 214."),  # the model's article goes
    ("Tom is in Room 214.", "Tom está en el 45.", "Tom está en la habitación 214."),
    ("Room 214 is here.", "La 45 está aquí.", "La habitación 214 está aquí."),
    ("Room 214 is here.", "45 está aquí.", "La habitación 214 está aquí."),
    ("Tom is in room 214.", "Tom está del 45.", "Tom está de la habitación 214."),
    ("Tom lands at 6:45 p.m.", "Tom aterriza a los 37.", "Tom aterriza a las 6:45 p.m."),  # hours are feminine
    ("Tom waits until 7 p.m.", "Tom espera hasta el 45.", "Tom espera hasta las 7 p.m."),
    ("Tom works from 7 p.m.", "Tom trabaja del 45.", "Tom trabaja de las 7 p.m."),
    ("7 p.m. is late.", "El 45 es tarde.", "Las 7 p.m. es tarde."),
    ("Tom fell to 8% today.", "Tom cayó a las 45 hoy.", "Tom cayó al 8% hoy."),  # no hour: the articles of a number
    ("Tom is at 555-0199.", "Tom está a las 45.", "Tom está al 555-0199."),
    ("Tom is at 1-800-555-0199.", "Tom está a las 45.", "Tom está al 1-800-555-0199."),
    ("Tom, call +1 (555) 123-4567.", "Tom, llama a 45.", "Tom, llama al +1 (555) 123-4567."),  # "a" alone too
    ('Tom loves "Star Wars" films.', 'A Tom le encantan "películas" John.', 'A Tom le encantan películas "Star Wars".'),
    ("The UN met Tom.", "El Texas conoció a Tom.", "La ONU conoció a Tom."),  # a country with its article: the model's goes
    ("Tom flew from the UK.", "Tom voló del Texas.", "Tom voló de el Reino Unido."),  # `spanish.articles` contracts it
    ("Tom left until March 2027.", "Tom se fue hasta 45.", "Tom se fue hasta marzo de 2027."),  # a month and year
    ("Tom left in March 2027.", "Tom se fue en 45.", "Tom se fue en marzo de 2027."),  # no day: "en" stays
    ("Tom left until March 2027.", "Tom se fue hasta las 45.", "Tom se fue hasta marzo de 2027."),  # nor an hour's
    ("March 2027 is far.", "Las 45 está lejos.", "Marzo de 2027 está lejos."),
    ("The bill came to ¥3,000.", "La cuenta llegó a las 45.", "La cuenta llegó a ¥3,000."),  # a sum takes none
    ("Tom set it to 68°F.", "Tom lo puso a las 45.", "Tom lo puso a 68°F."),  # a measure takes no hour's article
    ("Tom won 112 to 104.", "Tom ganó a las 45.", "Tom ganó a 112 a 104."),  # nor a score past any hour
    ("Tom came from 9 to 5.", "Tom vino de las 45.", "Tom vino de las 9 a 5."),  # (hours may be a range's)
    ("Tom is at 1600 Pennsylvania Avenue.", "Tom está en Texas.", "Tom está en 1600 Pennsylvania Avenue."),  # a street
    ("Tom won 2-1 today.", "Tom ganó 45 años hoy.", "Tom ganó 2-1 hoy."),  # a stand-in read as an age
    ("Tom is 2-1 years old.", "Tom tiene 45 años.", "Tom tiene 2-1 años."),  # (a source that says it)
    ("Tom came on 2024-03-15.", "Tom vino en 45.", "Tom vino el 2024-03-15."),  # a date in digits is a day
    ("Tom pays by 12/25/2024.", "Tom paga a las 45.", "Tom paga al 12/25/2024."),
    ("Tom lands on the 14th at 6.", "Tom aterriza en el 45 a las 6.", "Tom aterriza el 14 a las 6."),  # a day, bare
    ("Tom lands on the 3rd.", "Tom aterriza a las 45.", "Tom aterriza el 3."),  # "on": "el" alone
    ("Tom pays before the 15th.", "Tom paga antes de los 45.", "Tom paga antes del 15."),
    ("Tom pays by the 3rd of every month.", "Tom paga en el 45.", "Tom paga el 3 de cada mes."),  # "every" with it
    ("Tom is in the last Monday of the month.", "Tom está con los 45.", "Tom está el último lunes del mes."),
    ("Tom came on the 3rd, in 35 cars.", "Tom vino en el 45, en 37 coches.", "Tom vino el 3, en 35 coches."),  # no "35"
    ("Tom is in Ticket 3381.", "Tom está en 45.", "Tom está en el ticket 3381."),
    ("Tom, call extension 4402.", "Tom, llama a las 45.", "Tom, llama a la extensión 4402."),  # after a verb too
    ("Tom is 5 km from here.", "Tom está a los 45 de aquí.", "Tom está a los 5 km de aquí."),  # but may take "los"
    ("Tom paid USD 20 there.", "Tom pagó a los 45 allí.", "Tom pagó a USD 20 allí."),
    ("Tom comes at 8 o'clock.", "Tom viene a las 45.", "Tom viene a las 8 en punto."),
    ("Tom comes at 8 o'clock.", "Tom viene a 45.", "Tom viene a las 8 en punto."),
    ("Tom comes at 8 sharp.", "Tom viene a 45.", "Tom viene a las 8 en punto."),
    ("Tom is done by 4 o'clock.", "Tom termina por 45.", "Tom termina para las 4 en punto."),  # an hour to be done by
    ("Tom is done by 1 pm.", "Tom termina por las 45.", "Tom termina para la 1 pm."),
    ("Tom walks 4 km, by 1 pm.", "Tom camina por 45, por 37.", "Tom camina por 4 km, para la 1 pm."),  # a time alone
    ("Tom moves in early 2025.", "Tom se muda a las 45.", "Tom se muda a principios de 2025."),  # "in" said: no "a las"
    ("In mid-May Tom moves.", "En 45 Tom se muda.", "A mediados de mayo Tom se muda."),  # opening the sentence
    ("Tom is done by late 2024.", "Tom termina para las 45.", "Tom termina para finales de 2024."),  # no article
    ("Tom has a 2-for-1 deal.", "Tom tiene un 45.", "Tom tiene un 2x1."),
    ("Tom comes at 1:30 p.m.", "Tom viene a 45.", "Tom viene a la 1:30 p.m."),
    ("Tom is in Building 4, Room 12.", "Tom está en 45,37.", "Tom está en el edificio 4, la habitación 12."),
    ("Tom is here, Room 12.", "Tom está aquí,45.", "Tom está aquí, la habitación 12."),  # after no span too
    ("Your flight UA 12 is late.", "45 llega tarde.", "Tu vuelo UA 12 llega tarde."),  # with the word before it
    ("Aunt Linda sent it.", "John lo envió.", "La tía Linda lo envió."),  # kin before a name, as Spanish says it
    ("Grandpa saw Tom today.", "John vio a Tom hoy.", "El abuelo vio a Tom hoy."),  # a grandparent alone, as a name
    ("Tom fought in World War I.", "Tom luchó en la John.", "Tom luchó en la Primera Guerra Mundial."),  # no "Segunda"
    ("I saw King Olav.", "Vi al John.", "Vi a el rey Olav."),  # a rank; "al" again: `spanish.articles`
    ("Tom visited Uncle Bob.", "Tom visitó a John.", "Tom visitó a el tío Bob."),  # "al": `spanish.articles`
    ("Tom saw Grandma Rose.", "Tom vio a la John.", "Tom vio a la abuela Rose."),
    ("Tom boils it at 100 degrees.", "Tom lo hierve a las 45.", "Tom lo hierve a 100 grados."),  # a unit in words
    ("Tom ruled until 1975.", "Tom reinó hasta las 45.", "Tom reinó hasta 1975."),  # past any hour, counting nothing
    ("Tom arrived in 1620.", "Tom llegó a las 45.", "Tom llegó en 1620."),  # said "in"
    ("Tom moved to the UK.", "Tom se mudó a Texas.", "Tom se mudó a el Reino Unido."),  # "al": `spanish.articles`
    ("The EU met.", "Texas se reunió.", "La UE se reunió."),
    ("Tom fed it to the 97 cats.", "Tom se lo dio a las 45 gatos.", "Tom se lo dio a las 97 gatos."),  # what it counts
])
def test_a_number_after_no_or_a_range_comes_back_as_spanish_writes_it(source, translation, restored):
    spans = verbatim.find(source, COUNTS)
    assert verbatim.restore(translation, source, spans, verbatim.protect(source, spans)[1])[0] == restored


@pytest.mark.parametrize("translation", [
    "Tom está aquí el 45.",  # the model's own translation lost it: the stand-in's
    "Tom está aquí el 3 de marzo.",  # the model's own Spanish, as the span's value
])
def test_a_date_with_its_months_name_comes_out_as_spanish_writes_it(tiny_translator, monkeypatch, translation):
    source = "Tom is here on March 3."
    decoded = speaking(tiny_translator, monkeypatch, {source: translation, "Tom is here on 45.": "Tom está aquí el 45."})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON)
    assert tiny_translator.translate([source, "March 3"]) == ["Tom está aquí el 3 de marzo.", "3 de marzo"]
    assert decoded == [[source, "Tom is here on 45."]]  # first left to the model; the date alone is not decoded


@pytest.mark.parametrize("source, answers, placeholders, expected, second", [
    ("The train goes to San Francisco.", {"The train goes to John.": "El tren va a John."}, True,
     "El tren va a San Francisco.", [["The train goes to John."]]),
    # The user turned stand-ins off: no name passed through; the greedy translation, inventing a word, is decoded
    # again with a beam only.
    ("The train goes to San Francisco.", {}, False, "El tren va a Sanupe.", [["The train goes to San Francisco."]]),
    # A known first name beside a rare one: the run takes the rare one's place.
    ("He said Bill Olusegun won.", {"He said John won.": "Él dijo que John ganó."}, True,
     "Él dijo que Bill Olusegun ganó.", [["He said John won."]]),
    # No word invented, but a name copied in part: garbled all the same.
    ("We drove to Salt Lake City.", {"We drove to John.": "Fuimos a John."}, True, "Fuimos a Salt Lake City.",
     [["We drove to John."]]),
    ("We live in Mexico City.", {}, True, "Vivimos en la Ciudad de México.", []),  # translated whole: kept
    # A name the corpus' Spanish writes as it is, lost: changed or dropped.
    ("He quotes Lincoln.", {"He quotes John.": "Él cita a John."}, True, "Él cita a Lincoln.", [["He quotes John."]]),
    # A name the corpus' Spanish says its way ("Europa"), lost: it comes out so; said its way, kept.
    ("He lives in Europe.", {"He lives in John.": "Él vive en John."}, True, "Él vive en Europa.",
     [["He lives in John."]]),
    ("He was in Europe.", {}, True, "Él estaba en Europa.", []),
    ("Is Tom Canadian?", {}, True, "¿Tom es canadiense?", []),  # a name beside another, said its way: no garbling
    # Only the name garbled is passed through: the other, said well the model's way, is left to it.
    ("She sang at Carnegie Hall in New York.", {"She sang at John in New York.": "Ella cantó en John en Nueva York."},
     True, "Ella cantó en Carnegie Hall en Nueva York.", [["She sang at John in New York."]]),
    # A name opening the sentence, lost.
    ("Lincoln was born here.", {"John was born here.": "John nació aquí."}, True, "Lincoln nació aquí.",
     [["John was born here."]]),
    # Initials read as letters ("U. S."): passed through.
    ("He lives in the D.C. now.", {"He lives in the Texas now.": "Él vive en Texas ahora."}, True,
     "Él vive en D.C. ahora.", [["He lives in the Texas now."]]),
])
def test_a_name_the_model_knows_but_garbled_is_passed_through_in_a_second_decoding(tiny_translator, monkeypatch, source,
                                                                                   answers, placeholders, expected,
                                                                                   second):
    decoded = speaking(tiny_translator, monkeypatch, {"The train goes to San Francisco.": "El tren va a Sanupe.",
                                                      "He said Bill John won.": "Él dijo que Billaría John ganó.",
                                                      "We drove to Salt Lake City.": "Fuimos a Lake City.",
                                                      "We live in Mexico City.": "Vivimos en la Ciudad de México.",
                                                      "He quotes Lincoln.": "Él cita a los padres.",
                                                      "He lives in Europe.": "Él vive en casa.",
                                                      "He was in Europe.": "Él estaba en Europa.",
                                                      "Is Tom Canadian?": "¿Tom es canadiense?",
                                                      "She sang at Carnegie Hall in New York.":
                                                          "Ella cantó en Carnegie en Nueva York.",
                                                      "Lincoln was born here.": "El presidente nació aquí.",
                                                      "He lives in the D.C. now.": "Él vive en el D. C. ahora.",
                                                      **answers})
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "train": 9, "goes": 9, "San": 9, "Francisco": 9,
                                                         "He": 9, "said": 9, "bill": 9, "won": 9, "we": 9, "drove": 9,
                                                         "salt": 9, "lake": 9, "city": 9, "live": 9, "Mexico": 9,
                                                         "quotes": 9, "Lincoln": 9, "she": 9, "sang": 9, "at": 9,
                                                         "Carnegie": 9, "hall": 9, "in": 9, "New": 9, "York": 9,
                                                         "lives": 9, "was": 9, "Europe": 9, "D": 9, "C": 9, "born": 9,
                                                         "here": 9, "now": 9, "is": 9, "Canadian": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"tren", "va", "a", "él", "dijo", "que", "ganó", "fuimos",
                                                               "vivimos", "en", "ciudad", "de", "méxico", "cita", "los",
                                                               "padres", "lincoln", "ella", "cantó", "nueva",
                                                               "york", "vive", "casa", "estaba", "europa", "nació",
                                                               "aquí", "presidente", "ahora", "es", "canadiense"})
    monkeypatch.setattr(tiny_translator, "name_forms", {"Europe": {"europa"}, "Canadian": {"canadiense"}})
    monkeypatch.setitem(tiny_translator.pipeline.truecase, "europa", "Europa")
    monkeypatch.setattr(tiny_translator, "placeholders", placeholders)
    assert tiny_translator.translate(source) == expected
    assert decoded == [[verbatim.protect(source, verbatim.find(source, tiny_translator.word_counts))[0]], *second]


def test_stand_ins_come_back_as_the_spans_exactly():
    text = "Dr. Okonkwo paid $1,200 at 10:30 to example.org"
    spans = verbatim.find(text, COUNTS)
    protected, meanings = verbatim.protect(text, spans)
    assert protected == "John paid 45 at 37 to Texas"
    assert verbatim.restore("John pagó 45 a las 37 a Texas", text, spans, meanings) == (
        "Dr. Okonkwo pagó $1,200 a las 10:30 a example.org", [])


@pytest.mark.parametrize("text, counts", [
    ("John and Olusegun", COUNTS),
    ("Juan and Olusegun", {**COUNTS, "Juan": 9}),  # "John" as the corpus' Spanish writes it
])
def test_stand_ins_already_in_the_text_as_written_or_in_spanish_are_not_used(text, counts):
    assert verbatim.protect(text, verbatim.find(text, counts))[0] == text.split()[0] + " and Mary"


def test_a_stand_in_written_as_the_corpus_spanish_writes_it_still_stands_for_its_span():
    """The corpus writes "Mary" as "María" in one pair in six, and the model learned to: "María" is the stand-in,
    not a name to leave in the translation beside the span put back."""
    source = "My pin is XK7-44Q and Olusegun has it."
    spans = verbatim.find(source, COUNTS)
    protected, meanings = verbatim.protect(source, spans)
    assert protected == "My pin is John and Mary has it."
    assert verbatim.restore("Mi código es Juan y María lo tiene.", source, spans, meanings) == (
        "Mi código es XK7-44Q y Olusegun lo tiene.", [])
    # Once each: both forms of one stand-in are one span written twice.
    assert verbatim.restore("Mi código es Juan y John lo tiene.", source, spans, meanings)[1] == [
        "'John' came out 2 times: one kept", "'Olusegun' was put back by position"]


def test_a_dropped_stand_in_is_put_back_and_a_repeated_one_kept_once():
    source = "Olusegun has 250 cats."
    spans = verbatim.find(source, COUNTS)
    meanings = verbatim.protect(source, spans)[1]
    assert verbatim.restore("Tiene gatos.", source, spans, meanings) == (
        "Olusegun Tiene 250 gatos.", ["'Olusegun' was put back by position", "'250' was put back by position"])
    # The one kept is the one nearest the span's relative place in the source (the middle of "250" is 5/8 in).
    assert verbatim.restore("John tiene 45 gatos 45.", source, spans, meanings) == (
        "Olusegun tiene gatos 250.", ["'45' came out 2 times: one kept"])


@pytest.mark.parametrize("source, protected, model, restored", [
    # A span's own full stop before the model's closing one reads as one.
    ("Tom opens at 9 a.m. daily.", "Tom opens at 45 daily.", "Tom abre a las 45.", "Tom abre a las 9 a.m."),
    # "etc." stands behind a name, its full stop the sentence's where it ends it ("los huevos, la etuada").
    ("Tom needs bread, eggs, etc.", "Tom needs bread, eggs, John.", "Tom necesita pan, huevos, John.",
     "Tom necesita pan, huevos, etc."),
    ("Tom buys eggs, etc. at noon.", "Tom buys eggs, John at noon.", "Tom compra huevos, John al mediodía.",
     "Tom compra huevos, etc. al mediodía."),
    ("Tom is 2½ years old.", "Tom is 45 years old.", "Tom tiene 45 años.", "Tom tiene 2½ años."),  # a fraction in one sign
])
def test_a_span_ending_in_a_full_stop_is_written_back_with_one(source, protected, model, restored):
    spans = verbatim.find(source, COUNTS)
    text, meanings = verbatim.protect(source, spans)
    assert text == protected
    assert verbatim.restore(model, source, spans, meanings) == (restored, [])


def test_a_word_the_model_writes_twice_in_a_row_is_written_once(tiny_translator, monkeypatch):
    speaking(tiny_translator, monkeypatch, {"Tom is here.": "Tom está está aquí aquí aquí.",
                                            "Tom is in John.": "Tom está en John."})  # a rare name behind a stand-in
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"en"})
    assert tiny_translator.translate(["Tom is here.", "Tom is in Bora Bora."]) == ["Tom está aquí.",
                                                                                "Tom está en Bora Bora."]


def test_a_span_beyond_the_stand_ins_is_left_as_written_and_still_checked():
    names = "Aa Bb Cc Dd Ee Ff Gg"
    spans = [Span(i * 3, i * 3 + 2, "name", name) for i, name in enumerate(names.split())]
    protected, meanings = verbatim.protect(names, spans)
    assert protected == " ".join(verbatim.STAND_INS["name"]) + " Gg"
    assert verbatim.restore(protected.replace(" Gg", ""), names, spans, meanings) == (
        "Aa Bb Cc Dd Ee Ff Gg", ["'Gg' was put back by position"])


def drop_first_names(text):
    return text.replace("John ", "").replace("Mary ", "")


@pytest.fixture
def recording(tiny_translator, monkeypatch):
    """The tiny translator, with a model that echoes its input, minus every "John" and "Mary" (the first two name
    stand-ins, so that decoding again behind the next ones loses it too); what it was given is kept."""
    decoded = []

    def drop_names(texts, beam_size=1):
        decoded.append(list(texts))
        return [drop_first_names(text) for text in texts]

    monkeypatch.setattr(tiny_translator, "decode_as_written", drop_names)
    # "Nobody" seen capitalised too: echoed, it is no first word copied as a name (`garbling.first_words_as_names`).
    monkeypatch.setattr(tiny_translator, "word_counts",
                        dict.fromkeys(["is", "here", "has", "cats", "Where", "nobody", "Nobody"], 9))
    return tiny_translator, decoded


def test_a_stand_in_lost_twice_is_put_back_and_noted(recording):
    translator, decoded = recording
    out, notes = translator.decode_batch(["Olusegun is here.", "Nobody has 250 cats."])
    assert decoded == [["John is here.", "Nobody has 45 cats."], ["Mary is here."]]  # once more behind the next
    assert out == ["Olusegun is here.", "Nobody has 250 cats."]
    assert notes == [["'Olusegun' was put back by position"], []]


@pytest.mark.parametrize("answers, expected, notes", [
    ({"Mary has 37 cats.": "Mary tiene 37 gatos."}, "Olusegun tiene 250 gatos.", []),  # the next stand-ins held
    ({}, "Olusegun Tiene 250 gatos.", ["'Olusegun' was put back by position", "'455' was read as '250'"]),
])
def test_a_sentence_whose_stand_ins_needed_repairs_is_decoded_again_behind_the_next_ones(tiny_translator, monkeypatch,
                                                                                       answers, expected, notes):
    decoded = speaking(tiny_translator, monkeypatch, {"John has 45 cats.": "Tiene 455 gatos.",
                                                      "Mary has 37 cats.": "Tiene 375 gatos.", **answers})
    assert tiny_translator.translate_with_notes(["Olusegun has 250 cats."]) == ([expected], [notes])
    assert decoded == [["John has 45 cats."], ["Mary has 37 cats."]]


@pytest.mark.parametrize("translation, restored", [
    ("Tiene 455 gatos.", "Olusegun Tiene 250 gatos."),  # digits glued to the stand-in: the stand-in, changed
    ("Johnson tiene 45 gatos.", "Olusegun Johnson tiene 250 gatos."),  # a word of the source holding it is none
])
def test_a_stand_in_with_letters_or_digits_glued_to_it_is_the_stand_in_changed(translation, restored):
    source = "Olusegun has 250 cats, Johnson."
    spans = verbatim.find(source, {**COUNTS, "Johnson": 9})
    meanings = verbatim.protect(source, spans)[1]
    assert verbatim.restore(translation, source, spans, meanings)[0] == restored


@pytest.mark.parametrize("translation, restored", [
    ("Tom está aquí a las 45 de las 455.", "Tom está aquí a las de las 250."),  # a copy and one changed: the nearest
    ("Tom está aquí a las 455 de las 45.", "Tom está aquí a las de las 250."),  # kept, as the stand-in
])
def test_a_stand_in_glued_beside_a_copy_of_it_is_a_repeat_kept_once(translation, restored):
    source = "Tom is here at 250."
    spans = verbatim.find(source, COUNTS)
    meanings = verbatim.protect(source, spans)[1]
    assert verbatim.restore(translation, source, spans, meanings) == (restored, ["'45' came out 2 times: one kept"])


def test_a_sentence_that_fits_with_its_stand_ins_is_decoded_whole(recording):
    """Too long as written, short behind stand-ins: it is not cut into runs of words, whose translations
    read badly joined ("mi code es mi code. AB-1234." for "my code is AB-1234.")."""
    translator, decoded = recording
    text = "Where is https://example.com/a/b/c/d/e/f/g now?"
    assert translator.token_counts([text])[0] > translator.max_length
    out, notes = translator.translate_with_notes([text])
    assert decoded == [[verbatim.protect(text, verbatim.find(text, translator.word_counts))[0]]]  # one piece
    assert out == [text] and notes == [[]]


def test_a_piece_of_spans_and_punctuation_only_is_written_as_it_is(recording):
    translator, decoded = recording
    out, notes = translator.translate_with_notes(["Where is here? 2", "(555-0142)", "3.5%!"])
    assert decoded == [["Where is here?"]]
    assert out == ["Where is here? 2", "(555-0142)", "¡3.5%!"]  # the exclamation opened as Spanish does


def test_glossary_spans_come_out_as_their_spanish_and_win_over_detected_ones(recording):
    translator, decoded = recording
    glossary = Glossary({"Olusegun Ltd": "Olusegun S.A.", "cats": "gatos"})
    out, _ = translator.translate_with_notes(["Olusegun Ltd has cats.", "Olusegun has cats."],
                                             glossary=[glossary, None])
    assert sorted(decoded[0]) == ["John has Mary.", "John has cats."]
    assert out == ["Olusegun S.A. has gatos.", "Olusegun has cats."]


def test_glossary_spans_apply_without_placeholders(recording, monkeypatch):
    translator, decoded = recording
    monkeypatch.setattr(translator, "placeholders", False)
    assert translator.translate("Olusegun has 250 cats.", glossary=Glossary({"cats": "gatos"})) == (
        "Olusegun has 250 gatos.")
    assert decoded == [["Olusegun has 250 John."]]


def test_the_command_line_warns_naming_the_line_of_a_repaired_span(tiny_model_dir, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(Translator, "decode_as_written", lambda self, texts, beam_size=1: list(map(drop_first_names, texts)))
    (tmp_path / "in.txt").write_text("Tom is here.\nOlusegun is here.\n", encoding="utf-8")
    assert cli.main(["translate", "--model", str(tiny_model_dir), "--xla", "off", "--file", str(tmp_path / "in.txt")]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[1] == "Olusegun is here."
    assert "warning: input line 2: 'Olusegun' was put back by position" in captured.err
    assert "input line 1" not in captured.err


@pytest.mark.skipif(not (Path(DEFAULT_MODEL) / "model.keras").is_file(), reason="no shipped model")
def test_the_shipped_model_keeps_names_numbers_and_spans_it_never_saw():
    translator = Translator.load(DEFAULT_MODEL, jit_compile=False)
    sentences = ["Olusegun lives in Tegucigalpa.", "Wojciech has 250 cats.", "My friend Leilani was born in 1999.",
                 "Call me at 555-0142 tonight.", "Dr. Okonkwo will see you now.", "Visit https://example.org today.",
                 "I met a U.S. Navy sailor in Tokyo.", "Call me at +1 (555) 123-4567.", "The company fined Google €2.4 billion.",
                 'I read "The Old Man and the Sea" last summer.']
    words = [["Olusegun", "Tegucigalpa"], ["Wojciech", "250"], ["Leilani", "1999"], ["555-0142"], ["Dr. Okonkwo"],
             ["https://example.org"], ["U.S. Navy", "Tokio"], ["al +1 (555) 123-4567"],
             ["Google", "€2.4 mil millones"], ['"The Old Man and the Sea"']]
    for translation, expected in zip(translator.translate(sentences, beam_size=4), words, strict=True):
        assert all(translation.count(word) == 1 for word in expected), translation  # each once: none lost nor repeated


@pytest.mark.parametrize("time, translation, kept", [
    ("2:30", "Te veo a las dos y media.", True),  # in words, as the corpus writes it
    ("2:30", "Te veo a las 2:30.", True),  # as written
    ("7:45", "Llega a las ocho menos cuarto.", True),  # a quarter to: the next hour
    ("1:00", "Come a la una.", True),
    ("2:00", "Te veo a las dos y media.", False),  # the hour said with another ending
    ("10:30", "Nos vemos a las diez y media y a las diez.", False),  # the hour said twice
    ("2:30", "Te veo a las 2:30, a las dos y media.", False),  # the time twice
    ("2:30", "Te veo a las 2:3.", False),  # garbled
    ("10:05", "Llega a las diez y cinco.", False),  # only hours, quarters and halves are taken in words
    ("14:30", "Llega a las dos y media.", False),  # a 24-hour time said on a 12-hour clock loses the afternoon
    ("10:30", "Nos vemos a las diez y media: 30.", False),  # its minutes written after it: a stray number
    ("10:30", "Nos vemos a las diez y media con 30 personas.", True),
])
def test_a_time_left_to_the_model_is_kept_as_written_or_in_words_once(time, translation, kept):
    assert verbatim.kept_by_model(translation, [Span(0, len(time), "time", time)]) is kept


@pytest.mark.parametrize("number, translation, kept", [
    ("2,000", "Tiene 2.000 libros.", True),  # Spanish separators
    ("2,000", "Tiene 2,000 libros.", True),  # as written
    ("3.14", "Vale 3,14.", True),
    ("2,000", "Tiene 2.000 libros, 2,000.", False),  # twice
    ("8,336,817", "Son 8.336.", False),  # a part of it
    ("8,336", "Son 8.336.817.", False),  # in a longer number
    ("2,000", "Tiene 200 libros.", False),
])
def test_a_number_left_to_the_model_is_kept_as_written_or_with_spanish_separators_once(number, translation, kept):
    assert verbatim.kept_by_model(translation, [Span(0, len(number), "number", number)]) is kept


def test_a_unit_in_words_left_to_the_model_is_kept_in_spanish_with_either_separator():
    span = Span(0, 13, "measure", "4.5 kilogramos")
    assert [verbatim.kept_by_model(translation, [span]) for translation in ("Pesa 4,5 kilogramos.", "Pesa 4.5 kilogramos.",
                                                                            "Pesa 4.5 kilogra.")] == [True, True, False]


@pytest.mark.parametrize("span, first_left", [
    (Span(0, 4, "time", "2:30"), True), (Span(0, 5, "number", "2,000"), True), (Span(0, 4, "number", "3.14"), True),
    (Span(0, 4, "number", "1999"), False),  # a plain rare number: the model garbles it ("Android 14")
    (Span(0, 2, "number", "30"), True),  # one the corpus shows often: the model mostly copies it
    (Span(0, 3, "number", "$20"), False), (Span(0, 8, "name", "Olusegun"), False),
    (Span(0, 5, "time", "7 p.m"), False),  # the model writes "p.m." as a new sentence ("a las 7 p.m. Los domingos")
    (Span(0, 13, "written_date", "3 de marzo"), True),  # the model may write it in Spanish itself
    (Span(0, 13, "measure", "4.5 kilogramos"), True),
])
def test_times_numbers_with_separators_and_known_numbers_are_first_left_to_the_model(span, first_left):
    assert verbatim.tried(span, COUNTS) is first_left


def speaking(translator, monkeypatch, answers):
    """The translator with a model that answers each text from `answers` (else echoes it); what it was given is kept."""
    decoded = []

    def decode(texts, beam_size=1):
        decoded.append(list(texts))
        return [answers.get(text, text) for text in texts]

    monkeypatch.setattr(translator, "decode_as_written", decode)
    monkeypatch.setattr(translator, "word_counts", COUNTS)
    return decoded


@pytest.mark.parametrize("spoken, expected", [
    ("Te veo a las dos y media el lunes.", "Te veo a las dos y media el lunes."),  # the model's words are kept
    ("Te veo a las 2:3 el lunes.", "Te veo a las 2:30 el lunes."),  # the model garbled it: the stand-in's translation
    ("Te veo a las dos y media el martes.", "Te veo a las 2:30 el lunes."),  # or changed the day beside it
    ("Te veo a las dos y media.", "Te veo a las 2:30 el lunes."),  # or lost it
])
def test_a_time_is_first_left_to_the_model_and_protected_when_it_garbles_it(tiny_translator, monkeypatch, spoken,
                                                                           expected):
    decoded = speaking(tiny_translator, monkeypatch, {"Look here at 2:30 on Monday.": spoken,
                                                      "Look here at 45 on Monday.": "Te veo a las 45 el lunes."})
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "on": 9, "Monday": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"te", "veo", "a", "las", "dos", "y", "media", "el",
                                                              "lunes", "martes"})
    assert tiny_translator.translate("Look here at 2:30 on Monday.") == expected
    assert decoded[0] == ["Look here at 2:30 on Monday.", "Look here at 45 on Monday."]  # both ways, in one batch


@pytest.mark.parametrize("spoken, expected", [
    ("Tom pagó 2.000 y 45 aquí.", "Tom pagó 2.000 y $20 aquí."),  # the model's words are kept
    # It wrote the other stand-in twice, losing what stood between ("$45.99 for the shoes and 37 for the socks" came
    # out "$45.99 para los 37 para los 37 para los calcetines"): the translation with both behind stand-ins.
    ("Tom pagó 2.000 y 45 y 45 aquí.", "Tom pagó 2,000 y $20 acá."),
])
def test_a_number_left_to_the_model_is_protected_when_its_stand_in_beside_it_needed_repair(tiny_translator, monkeypatch,
                                                                                         spoken, expected):
    decoded = speaking(tiny_translator, monkeypatch, {"Tom paid 2,000 and 45 here.": spoken,
                                                      "Tom paid 45 and 37 here.": "Tom pagó 45 y 37 acá."})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"tom", "pagó", "y", "aquí", "acá"})
    assert tiny_translator.translate("Tom paid 2,000 and $20 here.") == expected
    assert decoded[0] == ["Tom paid 2,000 and 45 here.", "Tom paid 45 and 37 here."]  # both ways, in one batch


@pytest.mark.parametrize("model, expected", [
    ("Gira en Oak Street.", "Gira en Oak Street."),  # the model copied it
    ("Gira en Oak. Street.", "Gira en Oak Street."),  # it broke it: the stand-in's translation
])
def test_a_street_without_a_number_is_first_left_to_the_model(tiny_translator, monkeypatch, model, expected):
    decoded = speaking(tiny_translator, monkeypatch, {"Turn onto Oak Street.": model, "Turn onto Texas.": "Gira en Texas."})
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "Turn": 9, "onto": 9, "oak": 9, "street": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"gira", "en"})
    assert tiny_translator.translate("Turn onto Oak Street.") == expected
    assert decoded[0] == ["Turn onto Oak Street.", "Turn onto Texas."]  # both ways, in one batch


def test_a_full_stop_the_model_put_after_initials_inside_a_sentence_goes(tiny_translator, monkeypatch):
    source = "She flew to the U.S. last week."
    decoded = speaking(tiny_translator, monkeypatch, {source: "Ella voló a los Estados Unidos. La semana pasada."})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"ella", "voló", "a", "los", "estados", "unidos", "la",
                                                              "semana", "pasada"})
    monkeypatch.setattr(tiny_translator, "placeholders", False)  # "She" and "U.S." are rare to the test's counts
    assert tiny_translator.translate(source) == "Ella voló a los Estados Unidos la semana pasada."
    assert decoded == [[source]]


@pytest.mark.parametrize("model, expected", [
    ("Tom tiene 30 gatos.", "Tom tiene 30 gatos."),  # the model's own translation, the number kept
    ("Tom tiene 3 gatos.", "Tom tiene 30 gatos."),  # the model changed it: the stand-in's translation
])
def test_a_number_the_corpus_knows_is_first_left_to_the_model_and_protected_when_it_changes_it(
        tiny_translator, monkeypatch, model, expected):
    decoded = speaking(tiny_translator, monkeypatch, {"Tom has 30 cats.": model, "Tom has 45 cats.": "Tom tiene 45 gatos."})
    assert tiny_translator.translate("Tom has 30 cats.") == expected
    assert decoded == [["Tom has 30 cats.", "Tom has 45 cats."]]  # both ways, in one batch


@pytest.mark.parametrize("source, names", [
    ("The game works on Windows 7.", ["Windows 7"]),  # a name with its version, one span
    ("We gave Tom 5 apples.", ["Tom"]),  # a name the corpus knows, then a count
    ("We met in Room 4 on May 5.", ["Room"]),  # a label's number no version; a date no name
])
def test_a_name_passed_through_takes_its_version_along(source, names):
    spans = garbling.name_spans(source, {"the": 9, "we": 9, "Tom": 9, "May": 9}, [])
    assert [span.value for span in spans] == names


def test_a_name_passed_through_beside_a_span_joins_it():
    # Two stand-ins side by side would reach the model, which may glue them together.
    spans = garbling.name_spans("They sell Whole Foods 365 here.", {"they": 9}, [Span(22, 25, "number", "365")])
    assert [(span.kind, span.value) for span in spans] == [("name", "Whole Foods 365")]


@pytest.mark.parametrize("source, translation, garbled", [
    ("We drove to Salt Lake City.", "Fuimos a Lake City.", ["Salt Lake City"]),  # a word of the name dropped
    ("We drove to Salt Lake City.", "Fuimos a Salt Lake City de Salt.", ["Salt Lake City"]),  # a word of it repeated
    ("We drove to Salt Lake City.", "Fuimos a Salt Lake City.", []),  # copied whole
    ("We drove to Salt Lake City.", "Fuimos a la Ciudad del Lago Salado.", []),  # translated whole, capitalised
    ("We drove to Salt Lake City.", "Fuimos a la ciudad.", ["Salt Lake City"]),  # lost whole, no name of its own
    ("We drove to Salt Lake City.", "Fuimos a Salt a Lake City.", ["Salt Lake City"]),  # copied, but split
    ("We drove to Salt Lake City.", "Fuimos a Lake City de Salt.", ["Salt Lake City"]),  # copied, out of order
    ("We flew to Rio de Janeiro.", "Volamos a Río de Janeiro.", []),  # side by side, the particle between
    ("We flew to Rio de Janeiro.", "Volamos a Río y a Janeiro.", ["Rio de Janeiro"]),
    ("Is Mary Tom's mother?", "¿Mary es la madre de Tom?", []),  # two names the corpus knows apart
    ("Mary Tom sailed.", "Mary Marles Tom navegó.", ["Mary Tom"]),  # but a capitalised word made up between
    ("Stanford University is near.", "Stanford La Universidad está cerca.", ["Stanford University"]),  # "La": restarted
    ("Stanford University is near.", "La Universidad Stanford está cerca.", []),
    ("We stay at the Portside Hotel.", "Nos quedamos en el hotel Portside.", []),  # said the Spanish way, not split
    ("Red-haired people have freckles.", "La gente pelirroja tiene pecas.", []),  # one word in two parts: no name
    ("Happy New Year to all!", "¡Feliz año a todos!", []),  # words the corpus shows capitalised: it knows the name
    ("We moved to Windows 11.", "Nos mudamos a las 11.", ["Windows"]),  # a name before its version, lost
    ("We moved to Windows 11.", "Nos mudamos a Windows 11.", []),
    ("We met in Room 214.", "Nos vimos en la habitación 214.", []),  # a label before its number, said in Spanish
    ("We gave Tom 5 apples.", "Le dimos 5 manzanas.", []),  # a name the corpus knows, left to the model
    ("We met Jean-Luc Picard.", "Conocimos a Jean-Luc Picard.", []),  # a word's parts copied are the word copied
    ("We met Jean-Luc Picard.", "Conocimos a Luc Picard.", ["Jean-Luc Picard"]),
    ("We met Tom Monday.", "Conocimos a Tom el lunes.", []),  # a weekday, said in Spanish
    ("We climbed Mt Fuji.", "Escalamos el monte Fuji.", []),  # a word the corpus knows capitalised, said its way before
    ("He plays for Manchester United.", "Él juega a Manchester.", ["Manchester United"]),  # after, it was dropped
    ("He plays for Manchester United.", "Él juega a Manchester United.", []),
    ("Is Tom Canadian?", "¿Tom es canadiense?", []),  # or said as the corpus' Spanish says it
    ("Is Tom Canadian?", "¿Tom es cantante?", ["Is Tom Canadian"]),
    # A sentence's first word the corpus rarely shows in lower case is part of the name; one it shows often is not.
    ("Fort Worth is near.", "Para el Worth está cerca.", ["Fort Worth"]),
    ("Red Worth is near.", "Rojo Worth está cerca.", []),
])
def test_a_name_copied_in_part_split_lost_whole_or_a_word_of_it_repeated_is_garbled(source, translation, garbled):
    counts = {"we": 9, "Tom": 9, "Mary": 9, "Monday": 9, "salt": 9, "lake": 9, "city": 9, "Mt": 9, "United": 9, "he": 9,
              "is": 9, "happy": 9, "New": 9, "Year": 9, "new": 90, "year": 90, "fort": 1, "red": 9, "worth": 9}
    assert garbling.garbled_names(translation, source, counts, {"Canadian": {"canadiense"}}) == garbled


@pytest.mark.parametrize("translation, lost", [
    # Names not written, more than the capitalised words written of the translation's own ("Tokio"): all are given.
    ("Él le pidió que fuera a Tokio con Tom.", ["Lincoln", "Tokyo"]),  # "Lincoln" dropped
    ("Él le pidió al detective que fuera a Tokio con Tom.", ["Lincoln", "Tokyo"]),  # changed for another word
    ("Él le pidió a Lincoln que fuera a Tokio con Tom.", []),
    ("Él le pidió a Lincoln que fuera con Tom.", ["Tokyo"]),
    ("Él le pidió a Lincoln que fuera a Tokio.", ["Tokyo", "Tom"]),
    ("Él le pidió a Japón que fuera a Tokio con Tom.", ["Lincoln", "Tokyo"]),  # a word of its own says no "Lincoln"
    ("Él le pidió a Lincoln que fuera a Tokio con Tom en fiestas. Ok.", []),  # "Christmas", "TV" and "He": no names
])
def test_a_name_the_corpus_spanish_writes_as_it_is_must_be_written(translation, lost):
    source = "He asked Lincoln to go to Tokyo with Tom at Christmas. He has TV."
    counts = {"he": 9, "He": 90, "Lincoln": 9, "lincoln": 1, "Tokyo": 9, "Tom": 9, "Christmas": 9, "TV": 9}
    lexicon = {"lincoln", "tokyo", "tom", "christmas", "tv", "he"}
    assert garbling.lost_names(translation, source, counts, lexicon) == lost


@pytest.mark.parametrize("model, retry, expected", [
    ("Tom tiene 35 gatos.", "Tom tiene 45 gatos.", "Tom tiene 3 gatos."),  # changed: every number hidden
    ("Tom tiene gatos.", "Tom tiene 45 gatos.", "Tom tiene 3 gatos."),  # dropped
    ("Tom tiene 3 gatos de 38.", "Tom tiene 45 gatos.", "Tom tiene 3 gatos."),  # one made up
    ("Tom tiene 3 3 gatos.", "Tom tiene 45 gatos.", "Tom tiene 3 gatos."),  # one written twice in a row
    ("Tom tiene 3 gatos.", None, "Tom tiene 3 gatos."),  # the model's numbers are the source's: decoded once
    ("Tom tiene tres gatos.", None, "Tom tiene tres gatos."),  # in words: no number changed
    ("Tom tiene gatos.", "Tom tiene 47 gatos.", "Tom tiene gatos."),  # a number made up is worse than one dropped
])
def test_a_translation_that_changed_or_dropped_a_number_is_decoded_again_with_every_number_behind_a_stand_in(
        tiny_translator, monkeypatch, model, retry, expected):
    # The next stand-in too, for a retry whose stand-in needed a repair (`decode_protected`'s `shift`).
    decoded = speaking(tiny_translator, monkeypatch, {"Tom has 3 cats.": model, "Tom has 45 cats.": retry,
                                                      "Tom has 37 cats.": retry})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"tres", "de"})
    assert tiny_translator.translate("Tom has 3 cats.") == expected
    assert decoded[:2] == [["Tom has 3 cats."]] + ([["Tom has 45 cats."]] if retry else [])  # the digit not tried


@pytest.mark.parametrize("model, expected", [
    ("Tom recibió la suero en febrero.", "Tom recibió la serum en enero."),  # the month changed: decoded again
    ("Tom recibió la diez en enero.", "Tom recibió la serum en enero."),  # a number made up: decoded again
    ("Tom recibió la suero en enero.", "Tom recibió la suero en enero."),  # kept: decoded once
])
def test_a_translation_that_changed_a_month_or_made_up_a_number_is_decoded_again_with_the_rare_words_passed_through(
        tiny_translator, monkeypatch, model, expected):
    decoded = speaking(tiny_translator, monkeypatch, {"Tom got the serum in January.": model,
                                                      "Tom got the John in January.": "Tom recibió la John en enero."})
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "got": 9, "January": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"recibió", "suero", "en", "enero", "febrero", "diez"})
    assert tiny_translator.translate("Tom got the serum in January.") == expected
    # Decoded once when kept ("serum", a word the model never saw, is translated alone besides: `garbling.guessed`).
    assert sum(texts[0].startswith("Tom got") for texts in decoded) == (1 if model == expected else 2)


MAKES_UP = ("We tend to make mistakes.", {"tenemos", "hacemos", "diez", "errores", "solemos", "cometer"})
LOSES_A_DAY = ("Can we do it on Monday?", {"podemos", "hacerlo", "en", "lugar", "el", "lunes"})
INVENTS = ("We tend to make mistakes.", {"tendemos", "a", "hacer", "errores", "solemos", "cometer"})


@pytest.mark.parametrize("source, lexicon, greedy, beam, expected", [
    (*MAKES_UP, "Tenemos diez errores.", "Solemos cometer errores.", "Solemos cometer errores."),  # a number made up
    (*MAKES_UP, "Tenemos diez errores.", "Hacemos diez errores.", "Tenemos diez errores."),  # the beam's too: first kept
    (*MAKES_UP, "Solemos cometer errores.", None, "Solemos cometer errores."),  # decoded once
    (*LOSES_A_DAY, "¿Podemos hacerlo en lugar?", "¿Podemos hacerlo el lunes?", "¿Podemos hacerlo el lunes?"),  # day lost
    (*LOSES_A_DAY, "¿Podemos hacerlo en lugar?", "¿Podemos hacerlo?", "¿Podemos hacerlo en lugar?"),  # the beam's too
    (*LOSES_A_DAY, "¿Podemos hacerlo el lunes?", None, "¿Podemos hacerlo el lunes?"),  # decoded once
    # A weekday said twice, where the source says it once.
    (*LOSES_A_DAY, "¿Podemos hacerlo el lunes el lunes?", "¿Podemos hacerlo el lunes?", "¿Podemos hacerlo el lunes?"),
    # A word invented that no rare word of the source can stand for.
    (*INVENTS, "Tendemos a hacer mistakos.", "Solemos cometer errores.", "Solemos cometer errores."),
    (*INVENTS, "Tendemos a hacer errores.", None, "Tendemos a hacer errores."),
])
def test_a_greedy_translation_that_makes_up_a_number_loses_or_repeats_a_weekday_or_invents_a_word_is_decoded_again(
        tiny_translator, monkeypatch, source, lexicon, greedy, beam, expected):
    decoded = []

    def decode(texts, beam_size=1):
        decoded.append(beam_size)
        return [{1: greedy, DEFAULT_BEAM: beam}[beam_size] for _ in texts]

    monkeypatch.setattr(tiny_translator, "decode_as_written", decode)
    monkeypatch.setattr(tiny_translator, "word_counts", {word: 9 for word in source[:-1].split()})
    monkeypatch.setattr(tiny_translator, "lexicon", lexicon)
    assert tiny_translator.translate(source, beam_size=1) == expected
    assert decoded == ([1, DEFAULT_BEAM] if beam else [1])


def test_a_greedy_translation_whose_invented_word_a_rare_word_stands_for_is_decoded_once(tiny_translator, monkeypatch):
    decoded = []

    def decode(texts, beam_size=1):
        decoded.append(beam_size)
        return ["Tendemos a hacer blundos." for _ in texts]

    monkeypatch.setattr(tiny_translator, "decode_as_written", decode)
    monkeypatch.setattr(tiny_translator, "word_counts", {"We": 9, "tend": 9, "to": 9, "make": 9})  # "blunders": rare
    monkeypatch.setattr(tiny_translator, "lexicon", {"tendemos", "a", "hacer"})
    assert tiny_translator.translate("We tend to make blunders.", beam_size=1) == "Tendemos a hacer blunders."
    assert decoded == [1]


@pytest.mark.parametrize("model, retry, expected", [
    ("Marriage es una cena.", "El matrimonio es una cena.", "El matrimonio es una cena."),  # copied: in lower case
    ("Marriage es una cena.", "El matrimonio es una xena.", "Marriage es una cena."),  # kept: the retry invents a word
    ("El matrimonio es una cena.", None, "El matrimonio es una cena."),  # translated: decoded once
    ("Marriage es una cena.", "Es una cena.", "Marriage es una cena."),  # kept: the retry dropped the word
    ("El Marrioso es una cena.", "El matrimonio es una cena.", "El matrimonio es una cena."),  # spelled anew
    ("La xena es una cena.", "El matrimonio es una cena.", "El matrimonio es una cena."),  # another noun invented
])
def test_a_first_word_copied_as_a_name_is_decoded_again_in_lower_case(tiny_translator, monkeypatch, model, retry,
                                                                      expected):
    decoded = speaking(tiny_translator, monkeypatch, {"Marriage is a dinner.": model, "marriage is a dinner.": retry})
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "marriage": 40, "a": 9, "dinner": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"el", "matrimonio", "es", "una", "cena"})
    assert tiny_translator.translate("Marriage is a dinner.") == expected
    assert decoded == [["Marriage is a dinner."]] + ([["marriage is a dinner."]] if retry else [])


@pytest.mark.parametrize("source, counts, copied", [
    ("Marriage is a dinner.", {"marriage": 40, "Marriage": 3}, ["Marriage"]),
    ("Marriage is a dinner.", {"marriage": 4}, []),  # a word the corpus hardly shows may be a name
    ("Bill is here.", {"bill": 30, "Bill": 20}, []),  # a name the corpus shows often too
    ("No, Marriage is a dinner.", {"marriage": 40}, []),  # not opening the sentence
    ("It is. Marriage is a dinner.", {"marriage": 40}, ["Marriage"]),  # opening the second
    ("Come is a dinner.", {"come": 40}, []),  # a Spanish word
    ("Sister Mary is a dinner.", {"sister": 40}, []),  # a name's title
])
def test_a_first_word_copied_is_one_the_corpus_writes_in_lower_case_and_no_spanish_word(source, counts, copied):
    translation = source.replace("is a dinner", "es una cena")
    assert garbling.first_words_as_names(translation, source, counts, {"come", "es", "una", "cena"}) == copied


def test_a_first_word_spelled_anew_with_a_capital_is_one_taken_for_a_name():
    counts, lexicon = {"sister": 40, "professor": 20}, {"el", "es", "una", "cena", "enseña"}
    assert garbling.first_words_as_names("Sistra Mary es una cena.", "Sister Mary is a dinner.", counts,
                                         lexicon) == ["Sister"]
    assert garbling.first_words_as_names("El Profesaror García enseña.", "Professor García teaches.", counts,
                                         lexicon) == ["Professor"]
    # A name garbled, not the word before it: the name's own check (`garbled_names`) answers for it.
    assert garbling.first_words_as_names("Sister Marilú es una cena.", "Sister Mary is a dinner.", counts, lexicon) == []


@pytest.mark.parametrize("source, given, answer, expected", [
    ("I love this song 😊.", "I love this song.", "Me encanta esta canción.", "Me encanta esta canción 😊."),
    ("🎉 🎂 Tom is here!", "Tom is here!", "¡Tom está aquí!", "🎉 🎂 ¡Tom está aquí!"),
    ("😊 Olusegun is here.", "John is here.", "John está aquí.", "😊 Olusegun está aquí."),  # never joined to a name
    ("Tom is here 📞 now.", "Tom is here now.", "Tom está aquí ahora.", "Tom está aquí ahora 📞."),  # inside: put last
    ("😊", None, None, "😊"),  # nothing to translate: not decoded
])
def test_an_emoji_never_reaches_the_model_and_comes_back_first_or_last_without_a_warning(tiny_translator, monkeypatch,
                                                                                       source, given, answer, expected):
    decoded = speaking(tiny_translator, monkeypatch, {given: answer})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"me", "encanta", "esta", "canción", "ahora"})
    assert tiny_translator.translate_with_notes([source]) == ([expected], [[]])
    assert decoded == ([[given]] if given else [])


@pytest.mark.parametrize("source, model, given, answer, expected", [
    ("Tom has six cats.", "Tom tiene un gato.", "Tom has 45 cats.", "Tom tiene 45 gatos.", "Tom tiene seis gatos."),
    ("Six cats are here.", "Los gatos están aquí.", "45 cats are here.", "45 gatos están aquí.", "Seis gatos están aquí."),
    ("Seven is here.", "Seven está aquí.", "45 is here.", "El 45 está aquí.", "El siete está aquí."),  # no capital inside
    ("Tom has ninety-five cats.", "Tom tiene 90 gatos.", "Tom has 45 cats.", "Tom tiene 45 gatos.",
     "Tom tiene noventa y cinco gatos."),
    ("Tom has six cats.", "Tom tiene seis gatos.", None, None, "Tom tiene seis gatos."),  # said: decoded once
    ("Tom has three hundred cats.", "Tom tiene trescientos gatos.", None, None, "Tom tiene trescientos gatos."),
])
def test_a_number_in_words_dropped_is_decoded_again_behind_a_stand_in_and_written_in_spanish(tiny_translator, monkeypatch,
                                                                                           source, model, given, answer,
                                                                                           expected):
    decoded = speaking(tiny_translator, monkeypatch, {source: model, given: answer})
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "six": 9, "Six": 9, "are": 9, "three": 9, "hundred": 9,
                                                         "Seven": 9, "ninety": 9, "five": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"un", "gato", "seis", "siete", "los", "están", "trescientos", "noventa",
                                                               "y", "cinco"})
    assert tiny_translator.translate(source) == expected
    assert decoded == [[source]] + ([[given]] if given else [])


def test_a_number_made_up_is_a_worse_fault_than_numbers_left_out(tiny_translator, monkeypatch):
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"perros", "peces", "y"})
    source = "Tom has 3 cats, 4 dogs and 5 fish."
    made_up = tiny_translator.faults("Tom tiene 3 gatos, 4 perros y 56 peces.", source, [])
    left_out = tiny_translator.faults("Tom tiene gatos, perros y peces.", source, [])
    assert made_up > left_out  # one made up against three left out


@pytest.mark.parametrize("source, translation, changed, dropped", [
    ("It has 50 million people.", "Tiene 50 mil millones de personas.", ["50 mil millones"], ["50 million"]),  # 1,000x
    ("It has 50 million people.", "Tiene 50 millones de personas.", [], []),
    ("It earned 1.5 billion euros.", "Ganó 1.5 mil mil millones euros.", ["1.5 mil mil millones"], ["1.5 billion"]),
    ("It earned 1.5 billion euros.", "Ganó 1,5 mil millones de euros.", [], []),  # Spanish's decimal comma
    ("It earned 1.5 billion euros.", "Ganó 1.500 millones de euros.", [], []),  # Spanish's point between thousands
    ("Almost seven billion people.", "Casi mil millones de siete personas.", ["mil millones"], ["seven billion"]),
    ("Almost seven billion people.", "Casi siete mil millones de personas.", [], []),
    ("One billion people speak it.", "Una cuenta de la gente lo habla.", [], ["One billion"]),
    ("Five hundred soldiers came.", "Cinco soldados vinieron.", [], ["Five hundred"]),
    ("Five hundred soldiers came.", "Vinieron quinientos soldados.", [], []),
    ("I read three hundred pages.", "Leí trescientas páginas.", [], []),  # any gender
    ("I have fifteen hundred cows.", "Tengo quince cien vacas.", ["quince cien"], ["fifteen hundred"]),
    ("I have fifteen hundred cows.", "Tengo 1500 vacas.", [], []),
    ("The car costs twenty thousand dollars.", "El coche cuesta veinte dólares.", [], ["twenty thousand"]),
    ("The car costs twenty thousand dollars.", "El coche cuesta 20.000 dólares.", [], []),
    ("She is one hundred and two.", "Tiene ciento dos años.", [], []),  # "two" is part of the number, not one of its own
    ("She is one hundred and two.", "Tiene 102 años.", [], []),
    ("It is 50 percent.", "Es el 50 por ciento.", [], []),  # "por ciento" is a sign, not a hundred
    ("Millions of people came.", "Vinieron millones de personas.", [], []),  # no count: no number
    ("It cost a million dollars.", "Costó un millón de dólares.", [], []),
    ("Half a million people came.", "Vino medio millón de personas.", [], []),  # not "a million"
    ("Over 1,000 people came.", "Vinieron más de mil personas.", [], []),
    ("Two hundred cats, two hundred dogs.", "Doscientos gatos y perros.", [], ["two hundred"]),  # each said once
    ("Tom took thousands of pictures.", "Tom tomó mil fotos.", ["mil"], ["thousands of"]),  # a scale with no count
    ("Tom took thousands of pictures.", "Tom tomó miles de fotos.", [], []),
    ("Hundreds of people work here.", "Hundreds de gente trabaja aquí.", [], ["Hundreds of"]),  # left in English
    ("Hundreds of people work here.", "Centenares de personas trabajan aquí.", [], []),
    ("Tens of thousands of people came.", "Miles de personas vinieron.", [], ["Tens of thousands of"]),  # each word
    ("Tens of thousands of people came.", "Decenas de miles de personas vinieron.", [], []),
])
def test_a_number_with_a_scale_is_judged_by_its_value(source, translation, changed, dropped):
    assert garbling.wrong_numbers(translation, source) == (changed, dropped)


@pytest.mark.parametrize("source, translation, made_up", [
    ("We tend to make mistakes.", "Tenemos diez errores.", ["diez"]),  # a word the model barely knows read as a number
    ("Human cruelty has no limits.", "El cruel cuarenta no tiene límites.", ["cuarenta"]),
    ("We saw snow from the fourteenth to the seventeenth.", "Vimos nieve del catorce. Siete años.", ["Siete"]),
    ("Both of my parents can swim.", "Mis dos padres saben nadar.", []),  # words that say a number without being one
    ("I visit him every other day.", "Le visito cada dos días.", []),
    ("It's a quarter to three.", "Son las tres menos quince.", []),
    ("I'll be there for a week.", "Estaré allí ocho días.", []),
    ("He did it once.", "Lo hizo once.", []),  # copied, not made up: the other checks judge it
    ("I am eighty-five years old.", "Tengo ochenta y cinco años.", []),  # hyphenated
    ("I am eighty-five years old.", "Tengo ochenta y seis años.", ["ochenta y seis"]),
    ("Our train leaves at eight-thirty.", "Nuestro tren sale a las ocho treinta.", []),  # each word of a time
    ("He is in his forties.", "Tiene cuarenta y tantos.", []),  # a decade of age
    ("He left on the tenth of May.", "Se fue el diez de mayo.", []),  # an ordinal said as its number
    ("It costs 20 dollars.", "Cuesta veinte dólares.", []),  # digits
    ("Will ten thousand yen do?", "¿Sirven diez mil yenes?", []),  # a number with a scale: judged by its value
    ("I have a dog.", "Tengo un perro.", []),  # "un" is an article
])
def test_a_number_said_in_spanish_words_that_the_source_does_not_say_is_made_up(source, translation, made_up):
    assert garbling.made_up_words(translation, source) == made_up
    assert garbling.wrong_numbers(translation, source)[0] == made_up


@pytest.mark.parametrize("source, translation, dropped", [
    ("Let's rehearse the fourth scene.", "Vamos a ensayar la escena de cuatro.", ["fourth"]),  # said as a cardinal
    ("Let's rehearse the fourth scene.", "Vamos a ensayar la cuarta escena.", []),
    ("I'm in seventh heaven.", "Estoy en el séptimo cielo.", []),
    ("He finished third.", "Terminó 3.º.", []),  # in digits
    ("He left on the tenth of May.", "Se fue el diez de mayo.", []),  # a date: Spanish says the number
    ("He was born in the 19th century.", "Nació en el siglo XIX.", []),  # a century: a span in Roman numerals
    ("He left on the tenth of May.", "Se fue el pésimo de mayo.", ["tenth"]),
    ("He left on May the tenth.", "Se fue el diez de mayo.", []),
    ("About a third of it is land.", "Un tercio es tierra.", []),  # a fraction: no ordinal
    ("She tried a third time.", "Lo intentó una tercera vez.", []),  # no "of" after it: an ordinal
    ("She tried a third time.", "Lo intentó tres veces.", ["third"]),
    ("One-third of it is desert.", "Un tercio es desierto.", []),
    ("They live on Third Avenue.", "Viven en Third Avenue.", []),  # a name: the names' checks judge it
    ("Third, we eat.", "En tercer lugar, comemos.", []),  # opening the sentence, capitalised
    ("Third, we eat.", "Entonces comemos.", ["Third"]),
    ("Wait a second, at first.", "Espera un momento, al principio.", []),  # "first" and "second" say other things
    ("Room 12 is on the twelfth floor.", "La habitación 12 está en el piso suave.", ["twelfth"]),  # above ten too
    ("Room 12 is on the twelfth floor.", "La habitación 12 está en el 12.º piso.", []),  # in digits
    ("It is her twenty-first birthday.", "Es su cumpleaños de twenty-first.", ["twenty-first"]),  # copied in English
    ("They live in the twenty-first century.", "Viven en el siglo XXI.", []),  # a century: a span
    ("Twelfth Night is a comedy.", "Twelfth Night es una comedia.", []),  # before a capitalised word: a name
    ("We stay from the twelfth to the twentieth.", "Nos quedamos del 12 al 20.", []),  # days: Spanish says the number
    ("We stay from the third to the ninth of June.", "Nos quedamos del 3 al 9 de junio.", []),  # any, in a range
    ("We stay from the 1st to the 14th in May.", "Nos quedamos del 1 al 14 en mayo.", []),  # in digits
    ("We stay from the 1st to the 14th floor.", "Nos quedamos del 1 al 14 piso.", ["14th"]),  # a floor: an ordinal
])
def test_an_ordinal_in_words_must_be_said_as_an_ordinal(source, translation, dropped):
    assert garbling.wrong_numbers(translation, source) == ([], dropped)


def test_an_ages_number_joined_to_year_old_must_be_said():
    # "The nineteen-year-old won the race." came out "La nueve de años …": nineteen changed, and none of the checks saw it.
    assert garbling.wrong_numbers("Tom, de nueve años, ganó.", "Nineteen-year-old Tom won.") == (["nueve"], ["Nineteen"])
    assert garbling.wrong_numbers("Tom, de diecinueve años, ganó.", "Nineteen-year-old Tom won.") == ([], [])


@pytest.mark.parametrize("source, translation, dropped", [
    ("She drank a quarter of the bottle.", "Ella bebió una botella de la botella.", ["a quarter"]),
    ("She drank a quarter of the bottle.", "Ella bebió un cuarto de la botella.", []),
    ("One third of the money is yours.", "Uno tercer del dinero es tuyo.", ["One third"]),  # an ordinal is no fraction
    ("One third of the money is yours.", "La tercera parte del dinero es tuya.", []),
    ("Two thirds of them came.", "Vinieron dos tercios.", []),
    ("Two thirds of them came.", "Vinieron los dos.", ["Two thirds"]),
    ("One-fifth is desert.", "Una quinta parte es desierto.", []),  # joined by a hyphen: a fraction without "of"
    ("One-fifth is desert.", "One-fifth es desierto.", ["One-fifth"]),  # copied in English
    ("It's a quarter to three.", "Son las tres.", []),  # a time: no fraction
    ("Half of it is mine.", "Es mío.", []),  # a half, said in too many ways, is not checked
])
def test_a_fraction_must_be_said(source, translation, dropped):
    assert garbling.wrong_numbers(translation, source) == ([], dropped)


@pytest.mark.parametrize("source, written", [
    ("Tom has three hundred cats.", "300"),  # digits: "trescientos" would need the noun's gender
    ("Tom has twenty thousand cats.", "20.000"),
    ("Tom has 50 million cats.", "50 millones de"),  # "de" before the noun they count
    ("Tom has 1.5 billion cats.", "1500 millones de"),  # an English billion is a thousand million
    ("Tom has a billion cats.", "mil millones de"),
    ("Tom has 2 trillion cats.", "2 billones de"),  # a Spanish billón is a million million
    ("Tom has a million cats.", "un millón de"),
    ("Tom has 2.4 million.", "2,4 millones"),  # nothing counted after it, Spanish's decimal comma
    ("Tom paid $2 million to them.", "$2 millones"),  # the currency counted: no "de"
])
def test_a_number_with_a_scale_is_written_back_in_spanish(source, written):
    assert [numbers.spanish_scaled(match, source) for match in numbers.SCALED.finditer(source)] == [written]


@pytest.mark.parametrize("source, model, given, answer, expected", [
    ("Tom has 50 million cats.", "Tom tiene 45 mil millones de gatos.", "Tom has 45 cats.", "Tom tiene 45 gatos.",
     "Tom tiene 50 millones de gatos."),  # the model wrote its stand-in, "45", a thousand times too large
    ("Tom has three hundred cats.", "Tom tiene tres gatos.", "Tom has 45 cats.", "Tom tiene 45 gatos.",
     "Tom tiene 300 gatos."),
    ("Three hundred cats are here.", "Tres gatos están aquí.", "45 cats are here.", "45 gatos están aquí.",
     "300 gatos están aquí."),
    ("Tom has 50 million cats.", "Tom tiene 45 millones de gatos.", None, None, "Tom tiene 50 millones de gatos."),
    ("Tom is on the 2nd floor.", "Tom está en el piso.", "Tom is on the 45 floor.", "Tom está en el 45 piso.",
     "Tom está en el 2.º piso."),  # an ordinal dropped: decoded again behind a stand-in, written as Spanish abbreviates it
    ("Tom is on the 2nd floor.", "Tom está en la segunda planta.", None, None, "Tom está en la segunda planta."),
    ("Tom is on the 2nd floor.", "Tom está en el 2 piso.", "Tom is on the 45 floor.", "Tom está en el 45 piso.",
     "Tom está en el 2.º piso."),  # said as a count of the word after it ("el suelo de 21 piso"): decoded again
    ("Tom is on the 2nd floor.", "Tom está en el piso 2.", None, None, "Tom está en el piso 2."),  # after its noun
    ("Tom is on the 2nd floor.", "Tom está en el piso.", "Tom is on the 45 floor.", "Tom está en la 45 planta.",
     "Tom está en la 2.ª planta."),  # after a feminine determiner, the feminine
    ("Tom is on the eighth floor.", "Tom está en el ocho piso.", "Tom is on the 45 floor.", "Tom está en el 45 piso.",
     "Tom está en el octavo piso."),  # an ordinal in words said as a cardinal: a number changed; the word written
    # back is no invented word for the rare "eighth" to replace, though the corpus' Spanish lacks it
    ("Tom is in the fourth scene.", "Tom está en la cuatro escena.", "Tom is in the 45 scene.",
     "Tom está en la 45 escena.", "Tom está en la cuarta escena."),
    ("Tom is on the eighth floor.", "Tom está en el octavo piso.", None, None, "Tom está en el octavo piso."),
    ("Hundreds of cats are here.", "Hundreds de gatos están aquí.", "45 cats are here.", "45 gatos están aquí.",
     "Cientos de gatos están aquí."),  # a scale with no count, left in English
    ("Tom drank a quarter of the milk.", "Tom bebió la leche de la leche.", "Tom drank 45 of the milk.",
     "Tom bebió 45 de la leche.", "Tom bebió un cuarto de la leche."),  # a fraction dropped, written back as a noun
    ("One third of the milk is here.", "Uno tercer de la leche está aquí.", "45 of the milk is here.",
     "45 de el leche está aquí.", "Un tercio del leche está aquí."),  # capitalised, and "de el" contracted
])
def test_a_number_with_a_scale_or_an_ordinal_said_wrong_is_decoded_again_behind_one_stand_in(tiny_translator, monkeypatch, source,
                                                                              model, given, answer, expected):
    protected = source.replace("50", "45")  # a number of two digits is behind a stand-in already
    decoded = speaking(tiny_translator, monkeypatch, {protected: model, given: answer})
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "three": 9, "hundred": 9, "million": 9, "are": 9,
                                                         "on": 9, "floor": 9, "fourth": 9, "scene": nouns.MAX_COUNT, "of": 9, "Hundreds": 9,
                                                         "drank": 9, "quarter": 9, "third": 9, "milk": 9, "One": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"tres", "millones", "mil", "de", "están", "aquí", "en",
                                                               "piso", "planta", "segunda", "cuarto", "escena", "cientos",
                                                               "bebió", "leche", "un", "tercio", "del"})
    assert tiny_translator.translate(source) == expected
    assert decoded == [[protected]] + ([[given]] if given else [])


SPANISH = {"bailar", "calentó", "barato", "muestra", "convencer", "mostrar", "perro", "macho", "ruina", "capaz", "dé",
           "cuchara", "chances", "bostezar", "sacaron"}


@pytest.mark.parametrize("word, spanish", [
    ("bailaste", True), ("quemará", False),  # a conjugation of a verb the lexicon shows ("quemar" it does not)
    ("calentaron", True),  # the lexicon shows another form of the verb, "calentó"
    ("bostecé", True), ("saquen", True), ("bostecó", False),  # a "z" or "c" written "c" or "qu" before an "e" only
    ("convencerte", True), ("mostrándolo", True), ("muéstrame", True),  # pronouns after an infinitive, gerund, imperative
    ("muestrame", False),  # an imperative takes its accent with pronouns after it
    ("baratas", True), ("perra", True),  # plural, feminine
    ("capazs", False), ("capaces", True),  # a plural "s" follows a vowel, "es" a consonant ("z" -> "ces")
    ("chanceses", False),  # no "es" after an "s"
    ("mache", False), ("ruinando", False), ("cuche", False),  # nouns make no verbs: "macho", "ruina", "cuchara"
    ("daron", False),  # a stem of three letters at least: "dé" makes no "daron" ("dieron")
    ("fregañado", False), ("colepsar", False),  # spelled from pieces
    ("sexto", True), ("Novenas", True), ("primer", True), ("segund", False),  # ordinals, which the corpus lacks in part
])
def test_a_regular_form_of_a_word_the_corpus_shows_is_spanish(word, spanish):
    assert is_form(word, SPANISH) is spanish


def test_a_regular_spanish_form_is_no_invented_word_and_keeps_its_place():
    source = "She danced until the venue closed."
    translation = "Ella bailaste hasta que el venuo cerró."
    lexicon = SPANISH | {"ella", "hasta", "que", "el", "cerró"}
    assert [m.group() for m in garbling.invented(translation, source, lexicon)] == ["venuo"]
    # Capitalised inside the sentence, a form may be a name garbled: "Bill Clinton" -> "Clinton Billaría"; opening
    # it, it is a form ("Bailaste toda la noche.").
    assert [m.group() for m in garbling.invented("Dijo que Clinton Bailaría.", "He said Bill Clinton would dance.",
                                                 lexicon | {"dijo"})] == ["Bailaría"]
    assert garbling.invented("¡Bailaste!", "You danced!", lexicon) == []
    assert garbling.repair_invented(translation, source, lexicon, {"she": 9, "danced": 2, "until": 9, "the": 9,
                                                                   "closed": 9}) == "Ella bailaste hasta que el venue cerró."


SOURCE = "The firewall blocked my connection."


@pytest.mark.parametrize("translation, far", [
    ("El fuego desclinó mi conexión.", True),  # the invented word is the verb's place, not the rare word's
    ("El fuegal bloqueó mi conexión.", False),  # it is at the rare word's place
    ("El bloqueó mi conexión.", False),  # nothing invented
])
def test_an_invented_word_far_from_every_rare_word_is_misplaced(translation, far):
    assert garbling.misplaced(translation, SOURCE, LEXICON | {"fuego"}, COUNTS) is far


def test_a_translation_garbling_another_word_is_decoded_again_with_the_rare_words_passed_through(tiny_translator,
                                                                                                  monkeypatch):
    decoded = speaking(tiny_translator, monkeypatch, {SOURCE: "El fuego desclinó mi conexión.",
                                                      "The John blocked my connection.": "El John bloqueó mi conexión.",
                                                      "The firewall is here.": "El fuegal está aquí."})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"fuego"})
    assert tiny_translator.translate([SOURCE, "The firewall is here."]) == [
        "El firewall bloqueó mi conexión.", "El firewall está aquí."]  # the second is repaired in place
    assert [sorted(texts) for texts in decoded] == [[SOURCE, "The firewall is here."], ["The John blocked my connection."]]


@pytest.mark.parametrize("beam_size, decodings", [
    (1, [["The milkman died."], ["The milk.", "The man.", "milk", "man"], ["The John died."]]),
    # With the default beam the words to translate alone ride in the first batch: known before decoding, they cost a
    # default job a tenth of its time in a small batch of their own.
    (DEFAULT_BEAM, [["The milkman died.", "The milk.", "The man.", "milk", "man"], ["The John died."]]),
])
def test_a_compound_said_as_its_first_word_alone_is_passed_through_in_a_second_decoding(tiny_translator, monkeypatch,
                                                                                         beam_size, decodings):
    # "milkman" is no word of the corpus; "milk" and "man" are. The model said "milk" alone: a lie no reader sees.
    decoded = speaking(tiny_translator, monkeypatch, {"The milkman died.": "El leche murió.", "The milk.": "La leche.",
                                                      "The man.": "El hombre.", "The John died.": "El John murió."})
    monkeypatch.setattr(tiny_translator, "_said_alone", {})  # the fixture's translator is shared: none said yet
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "The": 9, "milk": 9, "man": 9, "died": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"el", "la", "leche", "hombre", "murió"})
    assert tiny_translator.translate("The milkman died.", beam_size=beam_size) == "El milkman murió."
    assert decoded == decodings


def test_a_word_the_corpus_never_shows_said_as_the_models_guess_is_passed_through_in_a_second_decoding(
        tiny_translator, monkeypatch):
    # "placebo" is no word of the corpus, nor made of its words: the model read its pieces as "lugar", its
    # translation of the word alone too, a word no reader can tell from a right one.
    decoded = speaking(tiny_translator, monkeypatch, {"The placebo is here.": "El lugar está aquí.",
                                                      "The placebo.": "El lugar.", "placebo": "Lugar.",
                                                      "The John is here.": "El John está aquí."})
    monkeypatch.setattr(tiny_translator, "_said_alone", {})  # the fixture's translator is shared: none said yet
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"lugar"})
    assert tiny_translator.translate("The placebo is here.") == "El placebo está aquí."
    assert decoded == [["The placebo is here."], ["The placebo.", "placebo"], ["The John is here."]]


def test_a_retry_whose_only_invented_word_a_rare_word_repairs_is_kept_over_a_compound_said_as_its_first_word(
        tiny_translator, monkeypatch):
    # Decoded again with "milkman" passed through, the model invented a word for "wipe", which the repair writes back
    # in its place: counted as invented, the retry tied with the first translation and was dropped.
    decoded = speaking(tiny_translator, monkeypatch, {"The milkman saw the wipe.": "El leche vio la limpia.",
                                                      "The milk.": "La leche.", "The man.": "El hombre.",
                                                      "The John saw the wipe.": "El John vio la limpiación."})
    monkeypatch.setattr(tiny_translator, "_said_alone", {})  # the fixture's translator is shared: none said yet
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "The": 9, "milk": 9, "man": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"el", "la", "leche", "hombre", "vio", "limpia"})
    assert tiny_translator.translate("The milkman saw the wipe.") == "El milkman vio la wipe."
    assert decoded[-1] == ["The John saw the wipe."]
    # Of two translations each repaired in full, the one with fewer words to repair is the better.
    assert (tiny_translator.faults("El milkman vio la wipe.", "The milkman saw the wipe.", [])
            < tiny_translator.faults("El milkman vio la limpiación.", "The milkman saw the wipe.", []))


def test_a_greeting_or_closing_the_model_copied_comes_out_in_spanish(tiny_translator, monkeypatch):
    # "Hi Maria, thanks for your email." came out "Hi Maria, gracias por tu correo.": the greeting copied with the name.
    decoded = speaking(tiny_translator, monkeypatch, {"John, thanks.": "John, gracias."})
    assert tiny_translator.translate("Hi Angela, thanks.") == "Hola Angela, gracias."
    assert decoded == [["John, thanks."]]
    # Written back as it is, with no words for the model: Spanish opens the exclamation.
    assert tiny_translator.translate("Hey Angela!") == "¡Hola Angela!"
    # A closing and its signature, with no stop: the model, given "John, Mary", wrote "John, Mary, Mary, Mary.".
    assert tiny_translator.translate("Kind regards, Angela") == "Saludos cordiales, Angela"
    assert decoded == [["John, thanks."]]  # nothing left to decode


def test_hey_greeting_no_one_is_left_to_the_model():
    # It may call, not greet: "Hey, wait up!" is "¡Oye, aguarda!" in the corpus.
    assert values("Hey, look", {**COUNTS, "Hey": 9}) == [] and values("Hi, look", {**COUNTS, "Hi": 9}) != []


@pytest.mark.parametrize("source, model, expected", [
    ("Tom will come on Saturday.", "Tom vendrá los sábados.", "Tom vendrá el sábado."),  # one day to come
    ("Tom comes on Saturdays.", "Tom viene los sábados.", "Tom viene los sábados."),  # a habit
    ("Tom will always come on Saturday.", "Tom siempre vendrá los sábados.", "Tom siempre vendrá los sábados."),
    ("Tom turns 9 on Saturday.", "Tom gira 9 los sábados.", "Tom cumple 9 años el sábado."),  # a birthday: one day
    ("Tom came on Sunday.", "Tom vino en domingo.", "Tom vino el domingo."),  # never a bare day
    ("Tom turned 9 on Sunday.", "Tom cumplió 9 años domingo.", "Tom cumplió 9 años el domingo."),
    ("Tom works on Sunday.", "Tom trabaja de lunes a domingo.", "Tom trabaja de lunes a domingo."),  # after "a": as written
    ("Tom eats fish on Fridays.", "Tom come pescado con viernes.", "Tom come pescado los viernes."),  # a habit
    ("Tom eats fish on Fridays.", "Tom come pescado el viernes.", "Tom come pescado los viernes."),
    ("Tom eats fish on Friday.", "Tom come pescado el viernes.", "Tom come pescado el viernes."),
    ("Tom needs it by Friday.", "Tom lo necesita por viernes.", "Tom lo necesita para el viernes."),  # a deadline
    ("Tom needs it by Friday.", "Tom lo necesita por el viernes.", "Tom lo necesita para el viernes."),
    ("Tom needs it by Friday noon.", "Tom lo necesita de viernes.", "Tom lo necesita para el viernes."),
    ("Tom needs it for Sunday.", "Tom lo necesita para domingo.", "Tom lo necesita para el domingo."),  # its article
    ("Tom waits until Sunday.", "Tom espera hasta domingo.", "Tom espera hasta el domingo."),
    ("Tom leaves before Sunday.", "Tom se va antes de domingo.", "Tom se va antes del domingo."),
    ("Tom opens at 9 on Saturdays.", "Tom abre a las 9 de los sábados.", "Tom abre a las 9 los sábados."),  # a habit
    ("Tom opens at 9 on Saturdays.", "Tom abre a las 9 de sábado.", "Tom abre a las 9 los sábados."),
    ("Tom opens at 9 on Saturdays.", "Tom abre a las 9 sobre los sábados.", "Tom abre a las 9 los sábados."),
    ("Tom opens Saturdays from 9.", "Tom abre del sábado de 9.", "Tom abre los sábados de 9."),  # a habit, no "on"
    ("Tom opens Mondays to Fridays.", "Tom abre los lunes a viernes.", "Tom abre los lunes a viernes."),  # a range's
    ("Tom turns 9 next Sunday.", "Tom cumple 9 años próximo domingo.", "Tom cumple 9 años el próximo domingo."),
    ("Tom came last Sunday.", "Tom vino pasado domingo.", "Tom vino el pasado domingo."),
    ("Tom came last Sunday.", "Tom vino el pasado domingo.", "Tom vino el pasado domingo."),
    ("Tom spoke of next Sunday.", "Tom habló de próximo domingo.", "Tom habló del próximo domingo."),
    ("Tom came on Sunday evening.", "Tom vino con el domingo a la noche.", "Tom vino el domingo por la noche."),
    ("Tom ate at 7 on Friday.", "Tom comió a las 7 de viernes.", "Tom comió a las 7 el viernes."),  # one day's "el"
    ("Tom works on Sunday.", "Tom trabaja de domingo a lunes.", "Tom trabaja de domingo a lunes."),  # a range's "de"
    ("Tom came on Sunday instead.", "Tom vino en lugar de domingo.", "Tom vino en lugar de domingo."),  # one word's
    ("Tom died last Sunday night.", "Tom murió el domingo anoche.", "Tom murió el domingo anoche."),  # its part said
    ("Tom met us Sunday night.", "Tom nos vio a domingo noche.", "Tom nos vio el domingo por la noche."),  # its part
    ("Tom met us Sunday night.", "Tom nos vio el domingo.", "Tom nos vio el domingo por la noche."),  # the part lost
    ("Tom needs it by Friday afternoon.", "Tom lo necesita por la tarde.", "Tom lo necesita para el viernes por la tarde."),
])
def test_a_weekday_is_said_as_the_source_says_it_one_day_a_habit_or_a_deadline(tiny_translator, monkeypatch, source,
                                                                                 model, expected):
    speaking(tiny_translator, monkeypatch, {source: model})
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, **dict.fromkeys(WORD.findall(source), 9)})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | set(WORD.findall(model.lower())) | {"el", "sábado"})
    assert tiny_translator.translate(source) == expected


@pytest.mark.parametrize("source, translation, expected", [
    ("Send it by Friday afternoon.", "Mándalo por la tarde.", "Mándalo para el viernes por la tarde."),  # beside its part
    ("Come Friday morning.", "Por la mañana, ven.", "El viernes por la mañana, ven."),
    ("Send the report by Friday afternoon.", "Envía el informe de la tarde.", "Envía el informe para el viernes por la tarde."),
    ("Come Friday morning.", "Ven el viernes.", "Ven el viernes."),  # said: left to `weekdays`
    ("It is at 8 on Saturday, June 14.", "Es a las 8 del 14 de junio.", "Es a las 8 del sábado 14 de junio."),  # its date
    ("It is Saturday, 14 June.", "Es 14 de junio.", "Es el sábado 14 de junio."),
    ("It is Saturday, June 14.", "Es el 15 de junio.", "Es el 15 de junio."),  # no date of its own: no place for it
])
def test_a_weekday_lost_is_written_back_beside_its_part_or_date(source, translation, expected):
    assert lost_weekdays(translation, source) == expected


@pytest.mark.parametrize("source, translation, expected", [
    ("I need 200 grams of flour.", "Necesito 200 gramos harina.", "Necesito 200 gramos de harina."),  # a measure's "de"
    ("Add 2.5 liters of milk.", "Añade 2,5 litros leche.", "Añade 2,5 litros de leche."),  # Spanish separators
    ("Add 2 liters of milk.", "Añade 2 litros de leche.", "Añade 2 litros de leche."),  # said already
    ("It has a 15% discount.", "Tiene un 15% descuento.", "Tiene un 15% de descuento."),  # a share before its noun
    ("It is 15% more.", "Es un 15% más.", "Es un 15% más."),
    ("It is a 15% more.", "Es un 15% más.", "Es un 15% más."),  # no noun after it
    ("It has 15% discount.", "Tiene un 15% descuento.", "Tiene un 15% descuento."),  # no share before a noun
    ("It has a 15% off deal.", "Tiene un 15% off oferta.", "Tiene un 15% off oferta."),  # "off" no noun
    ("It is 30 cm long.", "Es 30 cm largo.", "Es 30 cm de largo."),  # a size's "de"
    ("It is 8,849 meters high.", "Es 8.849 metros altura.", "Es 8.849 metros de altura."),
    ("It is 30 cm long.", "Es 30 cm largos.", "Es 30 cm largos."),  # no size's word
    ("It is 30 feet deep.", "Es 30 pies profundo.", "Es 30 pies de profundidad."),  # a depth, a noun
    ("It is 30 cm long and 20 cm wide.", "Es 30 cm de largo y 20 cm.", "Es 30 cm de largo y 20 cm de ancho."),  # lost
    ("It is 20 m wide.", "Tiene una anchura de 20 m.", "Tiene una anchura de 20 m."),  # said before the measure
    ("It is 20 m wide, 20 m in all.", "Tiene 20 m, 20 m.", "Tiene 20 m de ancho, 20 m."),  # once, after the measure
    ("It is 20 miles or 20 m wide.", "Son 20 millas o 20 m.", "Son 20 millas o 20 m de ancho."),  # the unit whole
    ("It is 42.195 km long.", "Es 42.195 km mucho tiempo.", "Es 42.195 km de largo."),  # a length taken for a time
    ("Add 3 tablespoons of butter.", "Añade 3 cucharadas mantequilla.", "Añade 3 cucharadas de mantequilla."),
])
def test_a_measure_or_share_of_something_says_its_de(source, translation, expected):
    assert tidied(translation, source, set()) == expected


@pytest.mark.parametrize("source, translation, expected", [
    ("We eat 3 meals a day.", "Comemos 3 comidas un día.", "Comemos 3 comidas al día."),  # said word for word
    ("It gets 5,000 visits a week.", "Tiene 5.000 visitas en una semana.", "Tiene 5.000 visitas a la semana."),
    ("She works 4 days a week from home.", "Trabaja 4 días desde casa.", "Trabaja 4 días a la semana desde casa."),  # lost
    ("We eat 3 meals a day.", "Comemos 3 comidas cada día.", "Comemos 3 comidas cada día."),  # said otherwise
    ("We eat 3 meals a day in one day.", "Comemos 3 comidas un día en un día.",
     "Comemos 3 comidas un día en un día."),  # a day said twice: which "un día" is which?
    ("It costs $3 a day.", "Cuesta $3 un día.", "Cuesta $3 un día."),  # no noun counted: a sum's period is its span's
    ("I paid 10 yen a week ago.", "Pagué 10 yenes hace una semana.", "Pagué 10 yenes hace una semana."),  # no period
    ("We took Route 66 for a week.", "Tomamos la ruta 66 para una semana.", "Tomamos la ruta 66 para una semana."),
    ("It got 7 million visits a year.", "Tuvo un año de 7 millones de visitas un año.",
     "Tuvo un año de 7 millones de visitas al año."),  # the one after the count
    ("We work 9 months a year.", "Trabajamos 9 meses.", "Trabajamos 9 meses al año."),  # lost beside a period
    ("We sell 9 cars a month.", "Vendemos 9 coches los meses.", "Vendemos 9 coches los meses."),  # said otherwise
    ("It leaves every 45 minutes.", "Sale todas los 45 minutos.", "Sale cada 45 minutos."),  # "every" a count of time
    ("It leaves every two hours.", "Sale todas las dos horas.", "Sale cada dos horas."),
    ("Every 5 days, all 5 cats eat.", "Todos los 5 días, todos los 5 gatos comen.", "Cada 5 días, todos los 5 gatos comen."),
])
def test_a_count_by_the_period_is_said_as_spanish_says_it(source, translation, expected):
    assert tidied(translation, source, set()) == expected


@pytest.mark.parametrize("translation, expected", [
    ("Llámame después de 6 p.m.", "Llámame después de las 6 p.m."),  # an hour by the clock takes its article
    ("Abre de 9 am a 5 pm.", "Abre de las 9 am a las 5 pm."),
    ("Cierra a las 1 p.m.", "Cierra a la 1 p.m."),  # one o'clock's
    ("Cierra antes de 1:30 PM.", "Cierra antes de la 1:30 PM."),
    ("Pasó de 2:00 a 3:30, de 1:15 a las 1:30.", "Pasó de las 2:00 a las 3:30, de la 1:15 a la 1:30."),  # a clock's
    ("Son las 10 a.m. y llegó a 15 km.", "Son las 10 a.m. y llegó a 15 km."),  # an article already, or no hour
])
def test_an_hour_after_a_preposition_takes_its_article(translation, expected):
    assert tidied(translation, "Call me.", set()) == expected


@pytest.mark.parametrize("source, model, expected", [
    ("It costs about $30.", "Cuesta acerca de 45.", "Cuesta alrededor de $30."),  # a rough count, not "concerning"
    ("We talked about 3 topics.", "Hablamos acerca de 3 temas.", "Hablamos acerca de 3 temas."),  # concerning
    ("It lasts about 9 hours.", "Dura por 9 horas.", "Dura alrededor de 9 horas."),  # not "for"
    ("It lasts 2 days for about 9 hours.", "Dura 2 días por 9 horas.", "Dura 2 días alrededor de 9 horas."),
    ("It lasts 9 days for about 2 hours.", "Dura por 9 días por 2 horas.", "Dura por 9 días alrededor de 2 horas."),
    ("It carries up to 8 people.", "Lleva a las 8 personas.", "Lleva hasta 8 personas."),  # no hour's
    ("My son turns 5 tomorrow.", "Mi hijo gira 5 mañana.", "Mi hijo cumple 5 años mañana."),  # an age
    ("She turned 30.", "Ella giró a 30 años.", "Ella cumplió 30 años."),
    ("Turn 2 pages.", "Gira 2 páginas.", "Gira 2 páginas."),  # no age: something follows the number
    ("The Hendersons' dog barks.", "El perro de Hendersons ladra.", "El perro de los Hendersons ladra."),  # a family's
    ("It has 2 million users.", "Tiene dos millón de usuarios.", "Tiene dos millones de usuarios."),  # "millón" agrees
])
def test_a_rough_count_an_age_a_familys_dog_and_millions_are_said_as_spanish_says_them(tiny_translator, monkeypatch, source,
                                                                                       model, expected):
    speaking(tiny_translator, monkeypatch, {source.replace("$30", "45"): model})
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, **dict.fromkeys(WORD.findall(source), 9)})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | set(WORD.findall(expected.lower())))
    assert tiny_translator.translate(source) == expected


@pytest.mark.parametrize("source, model, expected", [
    ("Hi everyone, let's go.", "John vamos.", "Hola a todos, vamos."),  # the comma dropped after the stand-in
    ("Hi, is it open?", "John, está abierto?", "Hola, ¿está abierto?"),  # the question not opened
    ("Hi, is it open?", "John, ¿está abierto?", "Hola, ¿está abierto?"),  # as the model wrote it
    ("Hi Angela, thanks.", "John gracias.", "Hola Angela, gracias."),  # a greeting and a name
])
def test_a_greeting_keeps_its_comma_and_the_question_after_it_its_mark(tiny_translator, monkeypatch, source, model,
                                                                        expected):
    given = "John," + source.split(",", 1)[1]  # the greeting behind a name's stand-in
    speaking(tiny_translator, monkeypatch, {given: model})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"vamos", "está", "abierto", "gracias"})
    assert tiny_translator.translate(source) == expected


@pytest.mark.parametrize("model", ["Las cdoles 45 sigue fallando.", "Las ventanas 45 siguen fallando."])
def test_a_name_and_version_opening_a_sentence_spelled_anew_is_passed_through_in_a_second_decoding(tiny_translator,
                                                                                                        monkeypatch, model):
    # "Windows" is a word the corpus knows in lower case: left to the model, which invented one in its place or said
    # it as a noun.
    decoded = speaking(tiny_translator, monkeypatch, {"Windows 45 keeps crashing.": model,
                                                      "John keeps crashing.": "John sigue fallando."})
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "windows": 9, "keeps": 9, "crashing": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"las", "sigue", "fallando", "ventanas", "siguen"})
    assert tiny_translator.translate("Windows 11 keeps crashing.") == "Windows 11 sigue fallando."
    assert decoded == [["Windows 45 keeps crashing."], ["John keeps crashing."]]


@pytest.mark.parametrize("source, translation, expected", [
    ("He came back last August.", "Volvió el pasado August.", "Volvió el pasado agosto."),  # copied: Spanish
    ("There are 31 days in December.", "Hay 45 días en John.", "Hay 31 días en diciembre."),  # a rare name's span
    ("Last month was November.", "El mes pasado fue November.", "El mes pasado fue noviembre."),
    ("June is my friend.", "June es mi amiga.", "June es mi amiga."),  # a person
    ("I saw May in May.", "Vi a May en May.", "Vi a May en May."),  # "May": a verb and a name as often
])
def test_a_month_the_model_copied_in_english_comes_out_in_spanish(source, translation, expected):
    counts = {word: 9 for word in WORD.findall(source) if word != "December"}  # a month the corpus shows rarely
    spans = verbatim.find(source, counts)
    assert verbatim.restore(translation, source, spans, verbatim.protect(source, spans)[1])[0] == expected


def test_a_sum_the_model_keeps_with_its_sign_set_apart_is_kept_as_the_source_writes_it(tiny_translator, monkeypatch):
    # "$ 70.000" is the sum, written the Spanish way; decoded again behind a stand-in, the model lost "first".
    decoded = speaking(tiny_translator, monkeypatch, {"It hit $70,000 for the first time.": "Llegó a $ 70.000 por primera vez.",
                                                      "It hit 45 for the first time.": "Llegó a 45 tiempo."})
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "It": 9, "hit": 9, "for": 9, "first": 9, "time": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"llegó", "a", "por", "primera", "vez", "tiempo"})
    assert tiny_translator.translate("It hit $70,000 for the first time.") == "Llegó a $70,000 por primera vez."
    assert decoded == [["It hit $70,000 for the first time.", "It hit 45 for the first time."]]  # both ways at once


@pytest.mark.parametrize("retry, expected", [
    ("Me dio un John.", "Me dio un hourglass."),  # the rare word passed through: what the model does not know shows
    ("Me dio una hora de hora John.", "Me dio una hora."),  # no better: the stutter written once
])
def test_a_word_the_model_writes_de_itself_is_decoded_again_with_the_rare_words_passed_through(
        tiny_translator, monkeypatch, retry, expected):
    decoded = speaking(tiny_translator, monkeypatch, {"He gave me an hourglass.": "Me dio una hora de hora.",
                                                      "He gave me an John.": retry})
    monkeypatch.setattr(tiny_translator, "_said_alone", {})  # the fixture's translator is shared: none said yet
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "He": 9, "gave": 9, "me": 9, "an": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"me", "dio", "una", "un", "hora", "de"})
    assert tiny_translator.translate("He gave me an hourglass.") == expected
    # "hourglass", a word the model never saw, is translated alone too (`garbling.guessed`).
    assert decoded == [["He gave me an hourglass."], ["The hourglass.", "hourglass"], ["He gave me an John."]]


def test_the_words_of_a_compound_are_translated_alone_with_the_default_beam_in_any_job(tiny_translator, monkeypatch):
    # Greedy graphs made for a few words alone cost a beam-4 job a third of its speed; one answer for any job.
    beams = {}

    def decode(texts, beam_size=1):
        beams.update(dict.fromkeys(texts, beam_size))
        return ["El leche murió." if text == "The milkman died." else "La leche." for text in texts]

    monkeypatch.setattr(tiny_translator, "decode_as_written", decode)
    monkeypatch.setattr(tiny_translator, "_said_alone", {})  # the fixture's translator is shared: none said yet
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "The": 9, "milk": 9, "man": 9, "died": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", LEXICON | {"el", "la", "leche", "murió"})
    tiny_translator.translate("The milkman died.", beam_size=1)
    assert beams["The milkman died."] == 1
    assert beams["The milk."] == beams["milk"] == beams["man"] == DEFAULT_BEAM


@pytest.mark.parametrize("source, protected, model_output, restored", [
    # Behind a noun of its gender and number, so that the article the model writes agrees with the noun put back.
    ("The recipe is here.", "The table is here.", "La mesa está aquí.", "La receta está aquí."),
    ("The blender is here.", "The table is here.", "La mesa está aquí.", "La licuadora está aquí."),
    ("The recipes and the invoice", "The tables and the house", "Las mesas y la casa", "Las recetas y la factura"),
    ("Tom has postcards.", "Tom has tables.", "Tom tiene mesa.", "Tom tiene postales."),  # said in the singular
    ("The recipe and the invoice", "The table and the house", "La mesa y la casa", "La receta y la factura"),
    # A plural's stand-in is no singular's of the same sentence, which the model may write for it.
    ("My nephew has toddlers.", "My book has trees.", "Mi libro tiene árboles.", "Mi sobrino tiene niños pequeños."),
    # Opening a sentence as the noun did, and written back with its capital.
    # A plural opening a sentence: with "the", as Spanish says it ("Impresoras cuestan" was no Spanish).
    ("Printers cost 30 here.", "The tables cost 45 here.", "Las mesas cuestan 45 aquí.", "Las impresoras cuestan 30 aquí."),
    ("Chemistry is here.", "Table is here.", "Table está aquí.", "Química está aquí."),  # copied in English
    # A stand-in the text already holds is not used.
    ("The book and the oven", "The book and the tree", "El libro y el árbol", "El libro y el horno"),
])
def test_an_everyday_noun_the_corpus_barely_shows_comes_back_in_spanish_from_behind_a_noun_of_its_gender(
        source, protected, model_output, restored):
    spans = verbatim.find(source, {**COUNTS, "book": 30, "cost": 9})
    hidden, meanings = verbatim.protect(source, spans)
    assert hidden == protected
    assert verbatim.restore(model_output, source, spans, meanings) == (restored, [])


@pytest.mark.parametrize("translation, kept", [
    ("La receta está aquí.", True), ("Receta aquí.", True),  # the model said it in Spanish itself
    ("El recipe está aquí.", False), ("La receta y la receta.", False), ("La mesa está aquí.", False),
])
def test_an_everyday_noun_is_first_left_to_the_model_and_kept_where_it_said_its_spanish(translation, kept):
    spans = verbatim.find("The recipe is here.", COUNTS)
    assert [[span.value for span in way] for way in verbatim.ways(spans, COUNTS)] == [[], ["receta"]]
    assert verbatim.kept_by_model(translation, spans) is kept


@pytest.mark.parametrize("text, nouns_found", [
    ("Send the invoice.", ["factura"]), ("Please invoice them.", []), ("We will invoice you.", []),
    ("I want to invoice them.", []), ("Don't invoice them!", []), ("Don’t invoice them!", []),
    ("Invoice them today.", []), ("Invoices: 3 due.", ["facturas"]),
])
def test_an_everyday_noun_used_as_a_verb_is_left_to_the_model(text, nouns_found):
    assert [span.value for span in verbatim.find(text, COUNTS) if span.kind in nouns.STAND_INS] == nouns_found


def test_an_everyday_noun_the_corpus_shows_often_enough_is_left_to_the_model():
    assert verbatim.find("The recipe is here.", {**COUNTS, "recipe": nouns.MAX_COUNT}) == []
    assert [span.value for span in verbatim.find("The recipe is here.", {**COUNTS, "recipe": nouns.MAX_COUNT - 1})] == [
        "receta"]


def test_every_noun_of_the_list_has_one_spanish_and_hides_behind_stand_ins_the_model_says_one_way():
    rows = [line.split("\t") for line in nouns.NOUNS_FILE.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    assert all(len(row) in (3, 5) and row[2] in ("m", "f") for row in rows), "english, spanish, m or f[, plurals]"
    english = [row[0] for row in rows]
    assert len(english) == len(set(english)), "a noun given twice"
    assert set(nouns.SAID) == {stand_in for pool in nouns.STAND_INS.values() for stand_in in pool}
    assert not set(nouns.NOUNS) & set(nouns.SAID), "a noun of the list is a stand-in"


VERB_COUNTS = {**COUNTS, **dict.fromkeys(["he", "a", "curse", "am", "her", "like", "baby", "his", "thumb", "it",
                                         "begins", "show", "your", "pass"], 9)}


@pytest.mark.parametrize("source, protected, model_output, restored, notes", [
    # Behind a regular verb of its English form; the verb's stem written on the ending the model chose.
    ("He muttered a curse.", "He visited a curse.", "Él visitó una maldición.", "Él murmuró una maldición.", []),
    ("The baby is sucking his thumb.", "The baby is visiting his thumb.", "El bebé está visitando su pulgar.",
     "El bebé está chupando su pulgar.", []),
    # Spanish spelling: a "z" before "e" is a "c"; pronouns after it, and the accent they bring; a capital kept.
    ("I hugged her.", "I visited her.", "La visité.", "La abracé.", []),
    ("I like scribbling.", "I like visiting.", "Me gusta visitarlo.", "Me gusta garabatearlo.", []),
    ("Hug it.", "Hug it.", "Abrázalo.", "Abrázalo.", []),  # no form of the list: no span
    # Copied in English: the verb passed through. Left out by the model: so, with a note, not put back in English.
    ("He muttered a curse.", "He visited a curse.", "Él visited una maldición.", "Él muttered una maldición.", []),
    ("He muttered a curse.", "He visited a curse.", "Él una maldición.", "Él una maldición.", ["'muttered' was left out"]),
    # A reflexive verb behind a reflexive one: the model writes its pronoun, before it or after.
    ("He retired.", "He stayed.", "Él se quedó.", "Él se jubiló.", []),
    ("I like retiring.", "I like staying.", "Me gusta quedarme.", "Me gusta jubilarme.", []),
])
def test_a_verb_the_corpus_barely_shows_comes_back_in_spanish_from_behind_a_regular_verb_in_its_form(
        source, protected, model_output, restored, notes):
    spans = verbatim.find(source, {**VERB_COUNTS, "hug": 9})
    hidden, meanings = verbatim.protect(source, spans)
    assert hidden == protected
    assert verbatim.restore(model_output, source, spans, meanings) == (restored, notes)


@pytest.mark.parametrize("translation, kept", [
    ("Él murmuró una maldición.", True), ("Murmurando, él.", True), ("Él lo abrazó.", False),
    ("Él muttered una bolsa.", False), ("Murmuró y murmuró.", False),
])
def test_a_verb_is_first_left_to_the_model_and_kept_where_it_wrote_a_form_of_its_stem(translation, kept):
    spans = verbatim.find("He muttered a curse.", VERB_COUNTS)
    assert [[span.value for span in way] for way in verbatim.ways(spans, VERB_COUNTS)] == [[], ["murmur"]]
    assert verbatim.kept_by_model(translation, spans) is kept


@pytest.mark.parametrize("text, verbs_found", [
    ("I am boarding now.", ["abord"]), ("Boarding begins at 7.", []), ("Show your boarding pass.", []),
    ("We boarded. Boarding begins.", ["abord"]),  # a noun opening the second sentence
])
def test_an_ing_word_opening_a_sentence_or_after_a_determiner_is_a_noun_left_to_the_model(text, verbs_found):
    assert [span.value for span in verbatim.find(text, VERB_COUNTS) if span.kind in verbs.STAND_INS] == verbs_found


def test_a_verb_of_the_list_the_corpus_shows_often_enough_or_a_names_word_is_left_to_the_model():
    assert verbatim.find("He muttered a curse.", {**VERB_COUNTS, "muttered": verbs.MAX_COUNT}) == []
    assert verbatim.find("He joined The Muttered Band.", {**VERB_COUNTS, "joined": 9}) == [
        Span(14, 27, "name", "Muttered Band")]


def test_every_verb_of_the_list_hides_behind_stand_ins_of_its_form_that_the_model_says_one_way():
    assert set(verbs.SAID) == {stand_in for pool in verbs.STAND_INS.values() for stand_in in pool}
    assert not set(verbs.VERBS) & set(verbs.SAID), "a verb of the list is a stand-in"
    assert all(verbs.pool(stand_in) == pool for pool, stand_ins in verbs.STAND_INS.items() for stand_in in stand_ins)
    assert not set(verbs.VERBS) & set(nouns.NOUNS), "a word of both lists"


def test_an_everyday_noun_capitalised_inside_a_sentence_is_a_names_word():
    assert [(span.kind, span.value) for span in verbatim.find("Printers are at the Printer Hub.", COUNTS)] == [
        ("nouns_f", "impresoras"), ("name", "Printer Hub")]
