"""English given to the model as its corpus writes it: American spellings, straight quotes, words for abbreviations, no
capitals."""

import pytest

from tests.test_verbatim import speaking
from translator.text import spelling

COUNTS = {"where": 9, "Where": 1, "Tom": 9, "tom": 1, "I": 9, "love": 9, "is": 9, "here": 9, "color": 9, "Color": 2,
          "theater": 9, "center": 9, "realize": 9, "analyzed": 9, "traveled": 9, "defense": 9, "program": 9, "gray": 1,
          "colorize": 3, "pediatric": 2}


@pytest.mark.parametrize("british, american", [
    ("colour", "color"), ("Colour", "Color"), ("COLOUR", "COLOR"),  # capitals kept
    ("theatre", "theater"), ("centres", "centres"),  # a spelling the corpus does not show either stays
    ("realise", "realize"), ("analysed", "analyzed"), ("travelled", "traveled"), ("defence", "defense"),
    ("programme", "program"), ("paediatric", "pediatric"),
    ("grey", "gray"),  # a word of its own; seen once is more than never
    ("colourise", "colorize"),  # two rules
    ("Colourpop", "Colourpop"),  # no rule makes it a word the corpus shows
])
def test_a_british_spelling_becomes_the_american_one_the_corpus_shows(british, american):
    assert spelling.american(f"Tom is here: {british}.", COUNTS) == f"Tom is here: {american}."


def test_a_word_the_corpus_shows_is_left_as_it_is():
    assert spelling.american("Tom is here: colour.", {**COUNTS, "colour": 5}) == "Tom is here: colour."


@pytest.mark.parametrize("typed, written", [
    ("Tom’s here…", "Tom's here..."), ("‘colour’", "'color'"), ("“Tom”", '"Tom"'),
])
def test_curly_quotes_and_the_ellipsis_sign_are_written_as_the_corpus_writes_them(typed, written):
    assert spelling.as_the_corpus(typed, COUNTS) == written


@pytest.mark.parametrize("typed, written", [
    ("Where r u?", "Where are you?"), ("BTW, thx", "By the way, thanks"),  # chat, capitalised where typed so
    ("E.g. Tom, i. e. me.", "For example Tom, that is me."),  # Latin, with or without a space
    ("Press R or U.", "Press R or U."), ("Make a u-turn.", "Make a u-turn."),  # a key or a letter, not a word
    ("Tom is gonna go.", "Tom is going to go."), ("Tom is wanna go.", "Tom is wanna go."),  # seen often enough: kept
    ("ok, Tom", "OK, Tom"),  # a word the corpus writes in capitals only
    ("See example.com/u/r or u@r.com", "See example.com/u/r or u@r.com"),  # in an address
    ("Coke vs. Pepsi, approx. 40 cans", "Coke against Pepsi, about 40 cans"),  # "vs." read as a sentence's end
    ("Tom is 10 mins late, 2 hrs", "Tom is 10 minutes late, 2 hours"),  # units of time, as chat writes them
    ("Fix the A/C. A/C is on", "Fix the air conditioner. Air conditioner is on"),  # an acronym's capitals
    ("~3 hours, around ~$40", "About 3 hours, around $40"), ("Go to ~/notes", "Go to ~/notes"),  # "~" before a number
])
def test_abbreviations_the_corpus_does_not_write_are_given_in_its_words(typed, written):
    counts = {**COUNTS, "wanna": 9, "gonna": 4, "OK": 9, "U": 9}  # "U" of "U.S." is no "u"
    assert spelling.american(spelling.spelled_out(typed, counts), counts) == written


def test_the_model_is_given_the_american_spelling_and_straight_quotes(tiny_translator, monkeypatch):
    decoded = speaking(tiny_translator, monkeypatch, {'Tom is here: "color".': 'Tom está aquí: "color".'})
    monkeypatch.setattr(tiny_translator, "word_counts", COUNTS)
    monkeypatch.setattr(tiny_translator, "lexicon", {"tom", "está", "aquí", "color"})
    assert tiny_translator.translate("Tom is here: “colour”.") == 'Tom está aquí: "color".'
    assert decoded == [['Tom is here: "color".']]


def test_the_model_is_given_a_number_joined_to_a_unit_after_its_noun(tiny_translator, monkeypatch):
    decoded = speaking(tiny_translator, monkeypatch, {"Tom took a trip of 3 days.": "Tom hizo un viaje de 3 días."})
    monkeypatch.setattr(tiny_translator, "lexicon", {"tom", "hizo", "un", "viaje", "de", "días"})
    assert tiny_translator.translate("Tom took a 3-day trip.") == "Tom hizo un viaje de 3 días."
    assert decoded == [["Tom took a trip of 3 days."]]


@pytest.mark.parametrize("typed, given", [
    ("Tom took a 3-day trip.", "Tom took a trip of 3 days."),
    ("Tom has a twenty-year-old car.", "Tom has a car of twenty years."),  # a number in words
    ("Tom saw a one-day pass.", "Tom saw a pass of one day."),  # one: the unit in the singular
    ("Tom has an 18th-century house.", "Tom has a house of the 18th century."),  # a century, "an" before the noun
    ("Tom has a nineteenth-century desk.", "Tom has a desk of the nineteenth century."),
    ("Tom likes 20th-century art.", "Tom likes art of the 20th century."),  # no determiner
    ("Twentieth-century art is new.", "Art of the twentieth century is new."),  # opening the sentence
    ("The 19-year-old won the race.", "The person of 19 years won the race."),  # a verb before its object: no noun,
    ("The 19-year-old scored.", "The person of 19 years scored."),  # nor one in the past: an age alone, a person's
    ("Our 3-year-old is sick.", "Our child of 3 years is sick."),  # a child's up to twelve
    ("My 2-year-old loves dogs.", "My child of 2 years loves dogs."),  # a verb in "-s" after an age: no noun
    ("My 3-year-old wants to go.", "My child of 3 years wants to go."),
    ("My 4-year-old twins love dogs.", "My twins of 4 years love dogs."),  # but a plural an age goes before
    ("Our 6-year-old class sings.", "Our class of 6 years sings."),  # "-ss" no verb's
    ("The 8-year-old asked for a dog.", "The child of 8 years asked for a dog."),  # a verb before a preposition
    ("Tom is a 30-year-old unmarried man.", "Tom is a 30-year-old unmarried man."),  # no age alone: the man's
    ("Tom took a 3-day long trip.", "Tom took a 3-day long trip."),
    # A country by its initials before the noun it qualifies, and the clause's verb or a joining word after the noun.
    ("The U.S. economy grew.", "The economy of the U.S. grew."),
    ("Tom became a US citizen in 2010.", "Tom became a citizen of the US in 2010."),
    ("The EU rules are strict.", "The rules of the EU are strict."),
    ("An EU agency was set up.", "An agency of the EU was set up."),  # the article as the noun takes it
    ("The UK army officer left.", "The UK army officer left."),  # two words after it: which one it qualifies is unsure
    ("People in the U.S. work at home.", "People in the U.S. work at home."),  # after a preposition: a verb may follow
    ("The UK left the EU.", "The UK left the EU."),  # a verb after the country
    ("A U.S. Navy ship arrived.", "A ship of the U.S. Navy arrived."),  # one of its bodies, whole
    ("Tom is a US Air Force pilot.", "Tom is a pilot of the US Air Force."),
])
def test_a_number_or_century_joined_to_a_unit_or_a_country_before_a_noun_is_given_after_it(typed, given):
    assert spelling.nouns_first(typed) == given


def test_a_unit_joined_to_a_number_before_a_noun_comes_after_it_as_a_measure(tiny_translator, monkeypatch):
    # Found after the noun, "55 inches" is a measure: its unit comes back in Spanish whatever the model does with it.
    decoded = speaking(tiny_translator, monkeypatch, {"Tom has a TV of 45.": "Tom tiene una tele de 45."})
    monkeypatch.setattr(tiny_translator, "word_counts", {**COUNTS, "has": 9, "a": 9, "TV": 9, "of": 9})
    monkeypatch.setattr(tiny_translator, "lexicon", {"tom", "tiene", "una", "tele", "de"})
    assert tiny_translator.translate("Tom has a 55-inch TV.") == "Tom tiene una tele de 55 pulgadas."
    assert decoded == [["Tom has a TV of 55 inches.", "Tom has a TV of 45."]]


@pytest.mark.parametrize("typed, given", [
    ("WHERE IS TOM?", "Where is Tom?"),  # each word as the corpus writes it most; the first capitalised
    ("I LOVE THE COLOUR", "I love the color"),
    ("WHERE IS NASA?", "Where is NASA?"),  # a word the corpus lacks stays in capitals
    ("Tom is in the US or the UK.", "Tom is in the US or the UK."),  # a few in capitals: no sentence in capitals
    ("TOM IS HERE now", "Tom is here now"),  # three in four: a sentence in capitals
])
def test_a_sentence_in_capitals_is_read_in_the_corpus_case(typed, given):
    assert spelling.uncapitalised(spelling.american(typed, COUNTS), {**COUNTS, "the": 9, "us": 9, "or": 9}) == given


def test_a_sentence_in_capitals_is_read_before_its_spans_are_found(tiny_translator, monkeypatch):
    decoded = speaking(tiny_translator, monkeypatch, {"Where is Tom?": "¿Dónde está Tom?"})
    monkeypatch.setattr(tiny_translator, "word_counts", COUNTS)
    monkeypatch.setattr(tiny_translator, "lexicon", {"dónde", "está", "tom"})
    assert tiny_translator.translate("WHERE IS TOM?") == "¿Dónde está Tom?"  # no name "IS TOM" behind a stand-in
    assert decoded == [["Where is Tom?"]]

