"""Long inputs cut into pieces the model can take, and the pieces' translations joined back.

The model reads a fixed number of source tokens. A text is cut at sentence
ends; a sentence still too long is cut after its semicolons or colons, else its
commas, else between whole words, and nothing is added to the pieces: a full
stop that the source lacks made one sentence of the news several fragments.
The translations of one text's pieces are joined with spaces, in order.
"""

import logging
import re
from itertools import pairwise

from translator.text.words import MONTHS_SHORT, SENTENCE_END, TITLES

logger = logging.getLogger(__name__)

# A sentence ends at . ! ? (or …) followed by space, but not after a title or another abbreviation written before
# names: "Dr. Okonkwo" is one name, "Mt. Fuji" one mountain, nor inside "P.O. Box"; nor after "No.", "ext." or a
# month's abbreviation before a number ("Apartment No. 5", "555-0199 ext. 12", "on Dec. 12th"); nor before a
# lower-case word, which opens no sentence: the full stop was an abbreviation's ("at 9 a.m. and then", "Martin Luther
# King Jr. was", "Apple Inc. was founded").
BEFORE_NAMES = (*TITLES, "Mt", "Ft", "Gen", "Gov", "Sen", "Capt", "Col", "Lt", "Sgt", "Rev", "P.O")
BEFORE_NUMBER = "|".join(rf"(?<=\b{word}\.)" for word in ("No", "ext", "Ext", *MONTHS_SHORT))
# Initials end a sentence only before a word that opens one ("He moved to the U.S. Then he left."): before another
# capitalised word they are part of a name ("J.K. Rowling", "the U.S. Navy"), which cut in two came out garbled ("I met a
# U.S. Navy sailor in Tokyo." -> "Me encontré con un Estados Unidos. En Tokio es el marinero en Tokio.").
OPENERS = ("I", "He", "She", "It", "We", "They", "You", "There", "Here", "This", "That", "These", "Those", "The", "A",
           "An", "My", "Your", "His", "Her", "Our", "Their", "Its", "But", "And", "So", "Then", "Now", "Also", "However",
           "What", "Why", "How", "When", "Where", "Who", "Which", "If", "In", "On", "At", "As", "For", "After", "Before",
           "Since", "While", "Today", "Yesterday", "Tomorrow", "Last", "Next", "Every", "Some", "Many", "Most", "All",
           "Please", "Yes", "No", "Thanks", "Thank", "Let", "Do", "Does", "Did", "Is", "Are", "Was", "Were", "Can",
           "Could", "Will", "Would", "Should")
SENTENCE_BREAK = re.compile(rf"(?<=[{SENTENCE_END}])" + "".join(rf"(?<!\b{re.escape(word)}\.)" for word in BEFORE_NAMES)
                            + rf"(?!(?:{BEFORE_NUMBER})\s+\d)(?!(?<=\b[A-Z]\.[A-Z]\.)\s+(?!(?:{'|'.join(OPENERS)})\b)[A-Z])"
                            + r"\s+(?![a-z])")


def split_sentences(text):
    """The sentences of `text`, its white space folded; none for blank text.

    >>> split_sentences("Hi there.  How are you?\\tFine!")
    ['Hi there.', 'How are you?', 'Fine!']
    >>> split_sentences("   ")
    []
    >>> split_sentences("Open at 9 a.m. and shut at 5 p.m. Come early. Buy eggs, etc. at noon.")
    ['Open at 9 a.m. and shut at 5 p.m.', 'Come early.', 'Buy eggs, etc. at noon.']
    >>> split_sentences("Apartment No. 5 is empty. I said no. 12 came. We met on Dec. 12th. Call ext. 12 now.")
    ['Apartment No. 5 is empty.', 'I said no.', '12 came.', 'We met on Dec. 12th.', 'Call ext. 12 now.']
    >>> split_sentences("Martin Luther King Jr. was a leader. Apple Inc. was founded in 1976.")
    ['Martin Luther King Jr. was a leader.', 'Apple Inc. was founded in 1976.']
    >>> split_sentences("Mt. Fuji was covered with snow. Gen. Grant won. Write to P.O. Box 12.")
    ['Mt. Fuji was covered with snow.', 'Gen. Grant won.', 'Write to P.O. Box 12.']
    >>> split_sentences("J.K. Rowling met a U.S. Navy sailor. He moved to the U.S. Then he left.")
    ['J.K. Rowling met a U.S. Navy sailor.', 'He moved to the U.S.', 'Then he left.']
    """
    return [sentence for sentence in SENTENCE_BREAK.split(" ".join(text.split())) if sentence]


def whole_words(sentence, kept=()):
    """`sentence` cut at its spaces, but not inside the `(start, end)` ranges of `kept`: a span of several words
    ("6 percent", "March 3, 1998", "Rio de Janeiro") cut in two would reach the model as two things it garbles.

    >>> whole_words("It is 6 percent now.", [(6, 15)])
    ['It', 'is', '6 percent', 'now.']
    """
    words, start = [], 0
    for space in re.finditer(r"\s+", sentence):
        if not any(begin < space.start() < end for begin, end in kept):
            words.append(sentence[start:space.start()])
            start = space.end()
    return [word for word in [*words, sentence[start:]] if word]


# What an over-long sentence is cut after, strongest first: a semicolon or colon, a comma, else any word. A closing
# quote or bracket stays with the mark before it ('he said "no," and left').
CUTS = [re.compile(mark + "[\"'”’)\\]]*$") for mark in ("[;:]", ",", "")]


def even_cuts(sizes, max_tokens):
    """Where to cut items of `sizes` tokens into the fewest runs of at most `max_tokens` tokens, as even as they can
    be (the least sum of squared sizes): a run of a word or two reads as a sentence of its own, and one filled to the
    limit leaves the next one short. An item over `max_tokens` is a run of its own, which the model truncates.

    Returns the runs' bounds, from 0 to `len(sizes)`.

    >>> even_cuts([1, 1, 1, 1, 1, 1, 1], 6)
    [0, 3, 7]
    >>> even_cuts([1, 9, 1], 2)
    [0, 1, 2, 3]
    """
    # best[end]: (runs, squares, start of the last run) of the best cutting of sizes[:end].
    best = [(0, 0, 0)]
    for end in range(1, len(sizes) + 1):
        options, used = [], 0
        for start in range(end - 1, -1, -1):
            used += sizes[start]
            if used > max_tokens and start < end - 1:
                break
            options.append((best[start][0] + 1, best[start][1] + used * used, start))
        best.append(min(options))
    bounds = [len(sizes)]
    while bounds[0]:
        bounds.insert(0, best[bounds[0]][2])
    return bounds


def cut(words, sizes, max_tokens, cuts=CUTS):
    """`words` (of `sizes` tokens) cut into runs of at most `max_tokens` tokens after the strongest marks that make
    them fit (`CUTS`), the fewest runs, as even as they can be (`even_cuts`). Nothing is added to a run: a full stop
    that the source lacks makes the model end a sentence there, and a long sentence came out as a string of fragments.

    >>> cut("We came early, ate well; then, at ten, we left.".split(), [1] * 10, 6)
    [['We', 'came', 'early,', 'ate', 'well;'], ['then,', 'at', 'ten,', 'we', 'left.']]
    >>> cut("It rained hard all day long.".split(), [1] * 6, 4)
    [['It', 'rained', 'hard'], ['all', 'day', 'long.']]
    """
    if sum(sizes) <= max_tokens or len(words) == 1:
        return [words]
    # A stretch between two of these marks that is still too long is cut at the next, weaker ones.
    bounds = sorted({0, len(words), *(at + 1 for at, word in enumerate(words) if cuts[0].search(word))})
    stretches = [sum(sizes[start:end]) for start, end in pairwise(bounds)]
    runs = []
    for start, end in pairwise(bounds[at] for at in even_cuts(stretches, max_tokens)):
        runs += cut(words[start:end], sizes[start:end], max_tokens, cuts[1:])
    return runs


def split(texts, count_tokens, max_tokens, kept=lambda sentence: ()):
    """Cuts `texts` into pieces of at most `max_tokens` tokens: sentences, and sentences too long cut at their
    punctuation (`cut`).

    `count_tokens(strings)` gives the number of tokens of each string, and
    `kept(sentence)` the `(start, end)` ranges of a sentence that stay whole (`whole_words`). Returns
    `(owners, pieces, sizes)`: each piece, the index of the text it came from
    and its number of tokens. Sentences that had to be cut are logged in one
    warning: their translations may read less well.

    >>> def count_words(strings):
    ...     return [len(string.split()) for string in strings]
    >>> split(["One two. Three four, five six.", " "], count_words, max_tokens=3)
    ([0, 0, 0], ['One two.', 'Three four,', 'five six.'], [2, 2, 2])
    """
    owners, sentences = [], []
    for owner, text in enumerate(texts):
        for sentence in split_sentences(text):
            owners.append(owner)
            sentences.append(sentence)
    pieces = ([], [], [])
    too_long = []
    for owner, sentence, size in zip(owners, sentences, count_tokens(sentences)):
        if size <= max_tokens:
            runs = [(sentence, size)]
        else:
            too_long.append(size)
            words = whole_words(sentence, kept(sentence))
            # Python's integers: a word of many tokens squared (`even_cuts`) overflows NumPy's.
            runs = [" ".join(run) for run in cut(words, [int(size) for size in count_tokens(words)], max_tokens)]
            runs = list(zip(runs, count_tokens(runs)))
        for piece, piece_size in runs:
            for column, value in zip(pieces, (owner, piece, piece_size)):
                column.append(value)
    if too_long:  # one warning per call: a file of long sentences is not a screenful of them
        logger.warning("%d sentence(s) of more than the model's %d tokens (up to %d): cut at their punctuation, "
                       "else between words", len(too_long), max_tokens, max(too_long))
    return pieces


def join(owners, translations, count):
    """The translations of each of `count` texts' pieces, joined with spaces; empty ones are left out.

    >>> join([0, 0, 2], ["Uno.", "Dos.", ""], 3)
    ['Uno. Dos.', '', '']
    """
    joined = [[] for _ in range(count)]
    for owner, translation in zip(owners, translations):
        if translation:
            joined[owner].append(translation)
    return [" ".join(parts) for parts in joined]
