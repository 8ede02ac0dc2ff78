"""Long inputs cut into pieces the model can take, and the pieces' translations joined back.

The model reads a fixed number of source tokens. A text is cut at sentence
ends; a sentence still too long is cut into runs of whole words that fit, where
they read best as sentences of their own (after a comma, before "and" or
"because"), each but the last closed with a full stop. The translations of one
text's pieces are joined with spaces, in order.
"""

import logging
import re

from translator.words import MONTHS_SHORT, SENTENCE_END, TITLES

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


# Where a sentence too long for the model is best cut: after a comma, semicolon or colon, else before a word that opens
# a clause; not after a word that leans on the next ("the", "of", "my"), nor leaving a piece of a word or two, which the
# model reads as a sentence of its own ("... después de cuatro años de | El trabajo.").
CLAUSE_OPENERS = {"and", "but", "or", "so", "because", "while", "when", "where", "which", "who", "whose", "if", "although",
                  "though", "after", "before", "until", "since", "unless", "then"}
LEANING = {"the", "a", "an", "of", "on", "in", "at", "to", "for", "with", "by", "from", "about", "into", "near", "under",
           "over", "through", "between", "without", "than", "like", "my", "your", "his", "her", "our", "their", "its",
           "this", "these", "those", "and", "or", "but", "very", "not", "no"}
CUT_AFTER_PUNCTUATION, CUT_BEFORE_CLAUSE, CUT_ELSEWHERE, CUT_AFTER_LEANING, SHORT_PIECE = 1, 2, 4, 4, 3


def cut_cost(words, at):
    """What cutting `words` before `words[at]` costs (see `CLAUSE_OPENERS`)."""
    before, after = words[at - 1], words[at]
    if before[-1] in ",;:)" or after[0] == "(":
        return CUT_AFTER_PUNCTUATION
    cost = CUT_BEFORE_CLAUSE if after.lower() in CLAUSE_OPENERS else CUT_ELSEWHERE
    return cost + (CUT_AFTER_LEANING if before.lower() in LEANING else 0)


def word_runs(words, sizes, max_tokens):
    """Consecutive `words` (of `sizes` tokens) grouped in runs of at most `max_tokens` tokens, cut where the runs read
    best as sentences of their own: the cuts of least total `cut_cost`, a run of fewer than three words costing
    `SHORT_PIECE` more.

    Returns `(run, tokens)` pairs. A word longer than `max_tokens` is a run
    of its own, which the model then truncates.

    >>> word_runs(["a", "bb", "c", "dd", "eeee"], [1, 2, 1, 2, 4], 3)
    [('a bb', 3), ('c dd', 3), ('eeee', 4)]
    >>> words = "It opened on May 27, 1937, after four years of work.".split()
    >>> [run for run, _ in word_runs(words, [1] * len(words), 9)]
    ['It opened on May 27, 1937,', 'after four years of work.']
    >>> words = "The total is 12 and it is due on the 30th.".split()
    >>> [run for run, _ in word_runs(words, [1] * len(words), 9)]
    ['The total is 12', 'and it is due on the 30th.']
    """
    # best[end]: the least cost of cutting words[:end] into runs, the last of which starts at start[end].
    best, start = [0] + [float("inf")] * len(words), [0] * (len(words) + 1)
    for end in range(1, len(words) + 1):
        used = 0
        for begin in range(end - 1, -1, -1):
            used += sizes[begin]
            if used > max_tokens and begin < end - 1:
                break
            cost = (best[begin] + (cut_cost(words, begin) if begin else 0)
                    + (SHORT_PIECE if end - begin < 3 < len(words) else 0))
            if cost < best[end]:
                best[end], start[end] = cost, begin
    runs, end = [], len(words)
    while end:
        runs.append((" ".join(words[start[end]:end]), sum(sizes[start[end]:end])))
        end = start[end]
    return runs[::-1]


def closed(run):
    """A run of words cut from a sentence, ended as a sentence: the model, which learned from whole sentences, reads
    one that stops at a comma or in mid-clause as one to go on with, and writes on ("... no estaba listo, todavía,
    todavía, todavía no estaba").

    >>> [closed(run) for run in ("When we arrived,", "It is due on Monday", "Is it?")]
    ['When we arrived.', 'It is due on Monday.', 'Is it?']
    """
    return run if run[-1] in SENTENCE_END else run.rstrip(",;:") + "."


def split(texts, count_tokens, max_tokens, kept=lambda sentence: ()):
    """Cuts `texts` into pieces of at most `max_tokens` tokens: sentences, then runs of words.

    `count_tokens(strings)` gives the number of tokens of each string, and
    `kept(sentence)` the `(start, end)` ranges of a sentence that stay whole (`whole_words`). Returns
    `(owners, pieces, sizes)`: each piece, the index of the text it came from
    and its number of tokens. Sentences cut into words are logged in one
    warning: their translations may read less well.

    >>> def count_words(strings):
    ...     return [len(string.split()) for string in strings]
    >>> split(["One two. Three four five six.", " "], count_words, max_tokens=3)
    ([0, 0, 0], ['One two.', 'Three four.', 'five six.'], [2, 2, 2])
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
            # Room for the full stop that closes each run but the last.
            runs = [run for run, _ in word_runs(words, count_tokens(words), max_tokens - 1)]
            runs = [*map(closed, runs[:-1]), runs[-1]]
            runs = list(zip(runs, count_tokens(runs)))
        for piece, piece_size in runs:
            for column, value in zip(pieces, (owner, piece, piece_size)):
                column.append(value)
    if too_long:  # one warning per call: a file of long sentences is not a screenful of them
        logger.warning("%d sentence(s) of more than the model's %d tokens (up to %d): translating them in pieces",
                       len(too_long), max_tokens, max(too_long))
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
