"""Long inputs cut into pieces that fit the model, and the pieces' translations joined back."""

import logging

from translator import segments


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


def test_runs_of_words_fit_the_limit():
    assert segments.word_runs(["a", "b", "c"], [1, 1, 1], 2) == [("a b", 2), ("c", 1)]
    assert segments.word_runs(["a", "b"], [1, 1], 5) == [("a b", 2)]
    # A word over the limit cannot be cut: it stands alone.
    assert segments.word_runs(["a", "long", "b"], [1, 9, 1], 2) == [("a", 1), ("long", 9), ("b", 1)]


def runs(sentence, max_tokens):
    words = sentence.split()
    return [run for run, _ in segments.word_runs(words, [1] * len(words), max_tokens)]


def test_a_sentence_is_cut_where_its_runs_read_as_sentences():
    # Filling each run up to the limit cut "... after four years of | work." and "... due on the | 30th.".
    assert runs("It opened on May 27, 1937, after four years of work.", 9) == [
        "It opened on May 27, 1937,", "after four years of work."]
    assert runs("The total is 12 and it is due on the 30th.", 9) == ["The total is 12", "and it is due on the 30th."]
    # Not after a word that leans on the next, nor leaving a word or two alone.
    assert runs("We saw the old red barn near the big river", 7) == ["We saw the old red barn", "near the big river"]
    # Cuts at two commas cost less than one in mid-clause.
    assert runs("Tom, my brother, and Mary went to the old mill together", 8) == [
        "Tom, my brother,", "and Mary went to the old mill together"]


def test_split_keeps_fitting_sentences_whole_and_remembers_owners(caplog):
    texts = ["One. Two three.", "", "Four five six seven eight."]
    owners, pieces, sizes = segments.split(texts, count_words, max_tokens=4)
    # Each run of a sentence cut, but its last, is closed as a sentence: the model goes on writing after a run that
    # stops in mid-clause.
    assert pieces == ["One.", "Two three.", "Four five six.", "seven eight."]
    assert owners == [0, 0, 2, 2]
    assert sizes == [1, 2, 3, 2]
    assert [record.levelno for record in caplog.records if record.name == segments.__name__] == [logging.WARNING]


def test_a_sentence_is_not_cut_inside_a_range_kept_whole():
    assert segments.split(["One two three four."], count_words, max_tokens=3)[1] == ["One two.", "three four."]
    kept = segments.split(["One two three four."], count_words, max_tokens=3, kept=lambda sentence: [(4, 13)])
    assert kept[1] == ["One.", "two three.", "four."]


def test_split_warns_only_when_a_sentence_is_cut(caplog):
    segments.split(["One two three. Four."], count_words, max_tokens=3)
    assert not [record for record in caplog.records if record.name == segments.__name__]


def test_join_undoes_split():
    texts = ["One. Two three.", "", "   ", "Four five six seven eight."]
    owners, pieces, _ = segments.split(texts, count_words, max_tokens=4)
    assert segments.join(owners, pieces, len(texts)) == ["One. Two three.", "", "", "Four five six. seven eight."]
    # Pieces translated to nothing leave no double spaces.
    assert segments.join([0, 0, 0], ["a", "", "b"], 1) == ["a b"]
