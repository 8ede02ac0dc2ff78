"""Text in and out: standardisation, vectorisation and detokenisation.

English goes through `source` (a `TextVectorization` layer) to token ids;
Spanish goes through `target`, which wraps each sentence in `[start] ... [end]`
and is one token longer so the decoder input and its labels (the same ids
shifted by one) are both `sequence_length` long. `detokenize` turns ids back
into readable Spanish. Everything here is TensorFlow ops, so the same code runs
in `tf.data`, in eager Python and inside an exported SavedModel.
"""

import collections
from pathlib import Path

import keras
import tensorflow as tf
import tensorflow_text as tf_text
from tensorflow_text.tools.wordpiece_vocab import wordpiece_tokenizer_learner_lib

from translator.text import placeholders
from translator.text.pieces import SUFFIX
from translator.text.words import SENTENCE_END, SENTENCE_OPEN
from translator.tokens import END, PAD, START, UNK, UNK_ID

# Every character that is not a letter, digit, combining mark, space or
# apostrophe becomes a token of its own: "¿Qué?" is "¿ qué ?", so the model
# can learn Spanish punctuation instead of losing it.
SYMBOL = r"([^\pL\pN\pM\s'])"


def standardize(text, lowercase=True):
    """NFC, optionally lower-cased, control characters removed, symbols split off."""
    text = tf_text.normalize_utf8(text, "NFC")
    if lowercase:
        text = tf.strings.lower(text, encoding="utf-8")
    text = tf.strings.regex_replace(text, r"[\p{Cc}\p{Cf}]", " ")
    text = tf.strings.regex_replace(text, SYMBOL, r" \1 ")
    text = tf.strings.regex_replace(text, r"\s+", " ")
    return tf.strings.strip(text)


def standardize_target(text, lowercase=True):
    return tf.strings.join([START, standardize(text, lowercase), END], separator=" ")


def _words(text):
    return tf.strings.split(tf.convert_to_tensor(text))


def make_splitter(kind, vocabulary):
    """Returns `split(text) -> RaggedTensor[batch, words, pieces]` for standardised text.

    For `kind="word"` every word is one piece; for `"wordpiece"` words are cut
    into the longest pieces found in `vocabulary` (continuations start "##").
    """
    if kind == "word":

        def split_words(text):
            words = _words(text)
            return words.with_flat_values(tf.RaggedTensor.from_tensor(words.flat_values[:, None]))

        return split_words
    wordpiece = tf_text.FastWordpieceTokenizer(
        vocab=[UNK] + [t for t in vocabulary if t not in (PAD, UNK)],
        suffix_indicator=SUFFIX,
        token_out_type=tf.string,
        unknown_token=UNK,
        no_pretokenization=True,
    )

    def split(text):
        words = _words(text)
        return words.with_flat_values(wordpiece.tokenize(words.flat_values))

    return split


def learn_vocabulary(kind, texts, size, reserved=()):
    """The `size` most useful tokens of standardised `texts`, reserved ones first."""
    counts = collections.Counter()
    for batch in tf.data.Dataset.from_tensor_slices(texts).batch(4096):
        counts.update(w.decode("utf-8") for w in _words(batch).flat_values.numpy())
    for token in reserved:
        counts.pop(token, None)
    budget = size - 2  # TextVectorization adds the padding and [UNK] entries
    if kind == "word":
        return list(reserved) + [w for w, _ in counts.most_common(budget - len(reserved))]
    vocabulary = wordpiece_tokenizer_learner_lib.learn(
        counts, budget, reserved_tokens=list(reserved) + [UNK], joiner=SUFFIX, lower_thresh=3
    )
    return [t for t in vocabulary if t != UNK]


def learn_truecase(spanish_texts):
    """Maps a lower-cased word to the casing it has mid-sentence, where that is not lower case.

    Sentence-initial words are skipped: "Tom" and "España" are capitalised
    everywhere, "Él" only because it starts a sentence.
    """
    forms = collections.defaultdict(collections.Counter)
    cased = standardize(tf.constant(list(spanish_texts)), lowercase=False)
    for sentence in cased.numpy():
        previous = "."
        for word in sentence.decode("utf-8").split():
            if previous not in SENTENCE_END + SENTENCE_OPEN:
                forms[word.lower()][word] += 1
            previous = word
    table = {}
    for lower, counter in forms.items():
        form, count = counter.most_common(1)[0]
        if form != lower and count >= 2:
            table[lower] = form
    return table


class TextPipeline:
    """The English and Spanish vectorizers and the way back to readable Spanish.

    Args:
        kind: `"word"` or `"wordpiece"`.
        source_vocabulary, target_vocabulary: token lists, without the padding
            and `[UNK]` entries that `TextVectorization` adds itself.
        truecase: dict from lower-cased Spanish word to its usual casing.
        sequence_length: source length; the target is one token longer.
        lowercase: lower-case both sides before tokenising (else casing is kept).

    Example:

    >>> from translator.config import preset
    >>> pipeline = TextPipeline.adapt(preset("tiny"), ["What time is it?"], ["¿Qué hora es?"])
    >>> ids = pipeline.target(["¿Qué hora es?"])     # [start] ¿ qué hora es ? [end]
    >>> pipeline.detokenize(ids).numpy()[0].decode()
    '¿Qué hora es?'
    """

    def __init__(self, kind, source_vocabulary, target_vocabulary, truecase, sequence_length, lowercase=True):
        self.kind = kind
        self.sequence_length = sequence_length
        self.lowercase = lowercase
        self.truecase = dict(truecase)
        self.split_source = make_splitter(kind, source_vocabulary)
        self.split_target = make_splitter(kind, target_vocabulary)
        self.source = keras.layers.TextVectorization(
            standardize=self.standardize_source,
            split=lambda text: self.split_source(text).merge_dims(1, 2),
            output_sequence_length=sequence_length,
            vocabulary=list(source_vocabulary),
            name="source_vectorizer",
        )
        self.target = keras.layers.TextVectorization(
            standardize=lambda text: standardize_target(text, lowercase),
            split=lambda text: self.split_target(text).merge_dims(1, 2),
            output_sequence_length=sequence_length + 1,
            vocabulary=list(target_vocabulary),
            name="target_vectorizer",
        )
        self.source_vocabulary = [str(token) for token in self.source.get_vocabulary()]
        self.target_vocabulary = [str(token) for token in self.target.get_vocabulary()]
        self.start_id = self.target_vocabulary.index(START)
        self.end_id = self.target_vocabulary.index(END)
        self._target_tokens = tf.constant(self.target_vocabulary)
        self.truecase_table = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(
                tf.constant(list(self.truecase) or [""], tf.string),
                tf.constant(list(self.truecase.values()) or [""], tf.string),
            ),
            default_value="",
        )

    def standardize_source(self, text):
        return standardize(text, self.lowercase)

    @classmethod
    def adapt(cls, config, english, spanish):
        """Learns vocabularies and the truecasing table from training sentences only.

        With `config.shared_vocabulary` one vocabulary is learned from both
        languages and serves both sides, so equal pieces have equal ids. With
        `config.placeholders`, each typed placeholder is one entry of it.
        """
        english, spanish = list(english), list(spanish)
        english_text = standardize(english, config.lowercase)
        spanish_text = standardize_target(spanish, config.lowercase)
        spans = placeholders.RESERVED if config.placeholders else ()
        if config.shared_vocabulary:
            both = tf.concat([english_text, spanish_text], axis=0)
            source = target = learn_vocabulary(config.tokenizer, both, config.vocab_size, reserved=(START, END, *spans))
        else:
            source = learn_vocabulary(config.tokenizer, english_text, config.vocab_size, reserved=spans)
            target = learn_vocabulary(config.tokenizer, spanish_text, config.vocab_size, reserved=(START, END, *spans))
        truecase = learn_truecase(spanish)
        return cls(config.tokenizer, source, target, truecase, config.sequence_length, config.lowercase)

    # Saved as plain text files, so a model directory can be read without this code.
    FILES = {"source": "vocab_en.txt", "target": "vocab_es.txt", "truecase": "truecase.tsv"}

    def save(self, directory):
        directory = Path(directory)
        for side, vocabulary in (("source", self.source_vocabulary), ("target", self.target_vocabulary)):
            (directory / self.FILES[side]).write_text("\n".join(vocabulary[2:]) + "\n", encoding="utf-8")
        rows = "".join(f"{lower}\t{cased}\n" for lower, cased in sorted(self.truecase.items()))
        (directory / self.FILES["truecase"]).write_text(rows, encoding="utf-8")

    @classmethod
    def load(cls, directory, config):
        directory = Path(directory)

        def lines(name):
            return (directory / cls.FILES[name]).read_text(encoding="utf-8").splitlines()

        truecase = dict(line.split("\t") for line in lines("truecase"))
        return cls(
            config.tokenizer, lines("source"), lines("target"), truecase, config.sequence_length, config.lowercase
        )

    def source_lengths(self, texts):
        """How many pieces each of `texts` is (a tensor), however long: `source` cuts at `sequence_length`."""
        return self.split_source(self.standardize_source(tf.convert_to_tensor(texts))).merge_dims(1, 2).row_lengths()

    def source_words(self, texts):
        """The cased source word behind each position of `source(texts)`, for copying.

        A word that is neither known nor made of letters or digits (an emoji,
        a stray symbol) is given as "", so it is never copied into a translation.
        """
        cased = standardize(tf.convert_to_tensor(texts), lowercase=False)
        pieces = self.split_source(tf.strings.lower(cased, encoding="utf-8") if self.lowercase else cased)
        words = _words(cased).flat_values
        aligned = pieces.with_flat_values(tf.repeat(words, pieces.row_lengths(axis=2).flat_values))
        aligned = aligned.merge_dims(1, 2)[:, : self.sequence_length]
        aligned = aligned.to_tensor(default_value="", shape=[None, self.sequence_length])
        noise = (self.source(texts) == UNK_ID) & ~tf.strings.regex_full_match(aligned, r".*[\pL\pN].*")
        return tf.where(noise, "", aligned)

    def detokenize_copying(self, texts, ids, attended):
        """`detokenize`, each `[UNK]` replaced by the word of `texts` at its `attended` source position.

        The model writes `[UNK]` for a word it cannot spell, often a name, and
        its cross-attention points at that name in the source.
        """
        return self.detokenize(ids, unk_words=tf.gather(self.source_words(texts), attended, batch_dims=1))

    def detokenize(self, ids, unk_words=None):
        """Target ids (batch, length) to readable Spanish strings (batch,).

        Stops at the first `[end]`; drops padding and `[start]`; an `[UNK]` is
        replaced by the matching entry of `unk_words` (batch, length) when
        given, else dropped. Pieces are rejoined (the rule of `translator.text.pieces`,
        which does it without TensorFlow), names truecased, sentences
        capitalised and punctuation attached the Spanish way.
        """
        ids = tf.convert_to_tensor(ids)
        tokens = tf.gather(self._target_tokens, ids)
        if unk_words is not None:
            tokens = tf.where(ids == UNK_ID, unk_words, tokens)
        ended = tf.cumsum(tf.cast(ids == self.end_id, tf.int32), axis=1) > 0
        keep = ~ended & (ids != self.start_id) & (tokens != PAD) & (tokens != UNK)
        text = tf.strings.reduce_join(tf.ragged.boolean_mask(tokens, keep), axis=1, separator=" ")
        text = tf.strings.regex_replace(text, r"(^| )" + SUFFIX, "")
        words = _words(text)
        words = words.with_flat_values(self._case(words))
        text = tf.strings.reduce_join(words, axis=1, separator=" ")
        return attach_punctuation(text)

    def _case(self, words):
        """Truecases the flat words of a ragged (batch, words) and capitalises sentence starts."""
        flat = words.flat_values
        known = self.truecase_table.lookup(flat)
        flat = tf.where(known != "", known, flat)
        # A word starts a sentence if it is first in its row, follows . ! ? or
        # follows an opening ¿ ¡ " that itself starts a sentence.
        n = tf.size(flat)
        starts = words.row_starts()[words.row_lengths() > 0]
        first = tf.scatter_nd(starts[:, None], tf.ones_like(starts, tf.bool), [tf.cast(n, starts.dtype)])
        first = tf.cast(first, tf.bool)

        def shifted(flags):
            return tf.concat([[False], flags[:-1]], 0) & ~first

        opener = tf.strings.regex_full_match(flat, f"[{SENTENCE_OPEN}]")
        start = first | shifted(tf.strings.regex_full_match(flat, f"[{SENTENCE_END}]"))
        start = start | (shifted(opener & start))
        head = tf.strings.upper(tf.strings.substr(flat, 0, 1, unit="UTF8_CHAR"), encoding="utf-8")
        length = tf.strings.length(flat, unit="UTF8_CHAR")
        tail = tf.strings.substr(flat, tf.ones_like(length), length, unit="UTF8_CHAR")
        return tf.where(start & ~opener, head + tail, flat)


def attach_punctuation(text):
    """'¿ qué hora es ?' -> '¿qué hora es?': Spanish spacing around punctuation."""
    text = tf.strings.regex_replace(text, r" ([.,;:!?)\]}»%…])", r"\1")
    text = tf.strings.regex_replace(text, r"([¿¡(\[{«]) ", r"\1")
    text = tf.strings.regex_replace(text, r" ?([-/]) ?", r"\1")
    text = tf.strings.regex_replace(text, r"(\d)([:.,]) (\d)", r"\1\2\3")
    text = tf.strings.regex_replace(text, r'" ([^"]*?) "', r'"\1"')
    # A mark that ends the text closes a quotation (one left unpaired above: the model opened it with another mark).
    return tf.strings.regex_replace(text, r' +"$', '"')
