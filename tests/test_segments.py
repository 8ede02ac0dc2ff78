"""Long inputs cut into pieces that fit the model, and the pieces' translations joined back."""

import logging

from translator.text import segments


def count_words(strings):
    return [len(string.split()) for string in strings]


def test_sentences_end_at_stops_followed_by_space():
    assert segments.split_sentences("Hi.Tom! Is it 3.5? Yes… Fine.\n\nBye") == [
        "Hi.Tom!", "Is it 3.5?", "Yes…", "Fine.", "Bye",
    ]
    assert segments.split_sentences(" \t\n") == []


def test_a_sentence_ends_only_before_a_word_that_is_not_lower_case():
    # An abbreviation's full stop ends a sentence only when one begins after it: a cut after "Jr." made the model
    # read "was a leader." alone and write "Fui un líder." ("I was a leader").
    assert segments.split_sentences("Come at 9 a.m. and bring fruit, e.g. apples. We live in the U.S. It is big. "
                                    "Martin Luther King Jr. was born in 1929. Apple Inc. was founded. Wait… what?") == [
        "Come at 9 a.m. and bring fruit, e.g. apples.", "We live in the U.S.", "It is big.",
        "Martin Luther King Jr. was born in 1929.", "Apple Inc. was founded.", "Wait… what?"]


def pieces(sentence, max_tokens, count_tokens=count_words):
    """The pieces of one sentence, which are the sentence itself joined back: nothing is added to them, nor lost."""
    _, cut, _ = segments.split([sentence], count_tokens, max_tokens)
    assert " ".join(cut) == sentence
    return cut


def test_a_long_sentence_is_cut_at_semicolons_and_colons_before_commas_and_keeps_its_marks():
    # A full stop closing each piece but the last made one sentence of the news several ("... ate well. then, ...").
    assert pieces("One two, three four five six; seven.", 6) == ["One two, three four five six;", "seven."]
    assert pieces("The plan was simple: go north, then, at dawn, turn west.", 8) == [
        "The plan was simple:", "go north, then, at dawn, turn west."]
    # A stretch between semicolons still too long is cut at its commas.
    assert pieces("It rained, and it rained hard, all day; we stayed in.", 5) == [
        "It rained,", "and it rained hard,", "all day;", "we stayed in."]
    # A closing quote stays after its comma.
    assert pieces('He said "no," and then he left the room.', 6) == ['He said "no,"', "and then he left the room."]


def test_a_sentence_without_marks_is_cut_between_words_into_even_pieces_that_fit():
    # Filled to the limit, the first piece left the second a word or three.
    cut = pieces("We walked along the old river road to town.", 6)
    assert sorted(count_words(cut)) == [4, 5]
    assert not any(piece.endswith(".") for piece in cut[:-1])


def test_a_word_longer_than_the_limit_stays_one_piece():
    def count_letters(strings):
        return [len(string.replace(" ", "")) for string in strings]

    assert pieces("Go to Llanfairpwllgwyngyll now.", 8, count_letters) == ["Go to", "Llanfairpwllgwyngyll", "now."]


def test_a_sentence_that_fits_stays_whole_and_warns_nothing(caplog):
    texts = ["Yes, we came; we saw: we left.", "One two three. Four."]
    assert segments.split(texts, count_words, max_tokens=7)[1] == ["Yes, we came; we saw: we left.", "One two three.",
                                                                    "Four."]
    assert not [record for record in caplog.records if record.name == segments.__name__]


def test_split_remembers_each_pieces_owner_and_size_and_warns_once(caplog):
    texts = ["One. Two three.", "", "Four five, six seven eight.", "Nine ten eleven twelve thirteen."]
    owners, cut, sizes = segments.split(texts, count_words, max_tokens=4)
    assert cut == ["One.", "Two three.", "Four five,", "six seven eight.", "Nine ten", "eleven twelve thirteen."]
    assert owners == [0, 0, 2, 2, 3, 3]
    assert sizes == [1, 2, 2, 3, 2, 3]
    assert [(record.levelno, "punctuation" in record.getMessage())
            for record in caplog.records if record.name == segments.__name__] == [(logging.WARNING, True)]


def test_a_sentence_is_not_cut_inside_a_range_kept_whole():
    kept = segments.split(["One two three four five."], count_words, max_tokens=3, kept=lambda sentence: [(8, 18)])
    assert kept[1] == ["One two", "three four five."]


def test_join_undoes_split():
    texts = ["One. Two three.", "", "   ", "Four five, six seven eight."]
    owners, cut, _ = segments.split(texts, count_words, max_tokens=4)
    assert segments.join(owners, cut, len(texts)) == ["One. Two three.", "", "", "Four five, six seven eight."]
    # Pieces translated to nothing leave no double spaces.
    assert segments.join([0, 0, 0], ["a", "", "b"], 1) == ["a b"]
