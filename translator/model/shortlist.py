"""The vocabulary shortlist: the Spanish pieces a batch's translations may use, so that a step scores only those.

Every decoding step projects each row onto the whole vocabulary (7,700
pieces), takes its log-softmax and, with a beam, its best pieces: on a CPU
about half of a beam step's time. Yet an English sentence's translation
draws on few of them. A batch's candidates are

- the `FREQUENT` most frequent Spanish pieces of the training split (articles, verbs, punctuation...),
- for each English piece of the batch, the `PER_PIECE` Spanish pieces most often found in the
  translations of training sentences that have it (other than those frequent ones): where a rare
  word's translation comes from,
- the batch's own pieces, when the vocabulary is shared: names, numbers and stand-ins are copied,
- padding, `[UNK]`, `[start]` and `[end]`,

about 4,600 of the 7,700 for a batch of 256 test sentences of like length (3,300 for 64). The loops of
`decoding` score those alone and map their choices back to vocabulary ids.

The table is made from the training split when a model directory is written
(`training.train.write_model`) and kept there as `shortlist.tsv`: a first line, a tab
and the frequent pieces; then one line per English piece, a tab, its
likely translations; pieces are separated by spaces. A model directory
without it decodes over the whole vocabulary.
"""

from pathlib import Path

import numpy as np
import tensorflow as tf

from translator.errors import UsageError

FILE = "shortlist.tsv"
# Chosen on the validation split (bench/RESULTS.md): beam-4 BLEU 46.08 against 46.10 over the whole
# vocabulary, batches of 64 test sentences scoring 4,270 pieces on average; greedy decoding of 2,000 test
# sentences over the whole vocabulary chose a piece outside them 5 times in 18,771.
FREQUENT = 1000
PER_PIECE = 50


def count_pairs(source_ids, target_ids, vocab_size):
    """Over sentence pairs of ids, `(pairs, counts)`: each `source * vocab_size + target` of pieces found in
    one pair (each piece once a sentence, padding and `[UNK]` left out), and in how many pairs."""
    keys = []
    for source, target in zip(np.asarray(source_ids), np.asarray(target_ids)):
        source, target = np.unique(source[source > 1]), np.unique(target[target > 1])
        keys.append((source.astype(np.int64)[:, None] * vocab_size + target[None, :]).ravel())
    return np.unique(np.concatenate(keys or [np.zeros(0, np.int64)]), return_counts=True)


def build(source_ids, target_ids, vocab_size, frequent=FREQUENT, per_piece=PER_PIECE):
    """The shortlist of training pairs of ids (`(pairs, length)` each): `(always, likely)`, the ids of the
    `frequent` most frequent target pieces (by the number of sentences that have them), ascending, and for
    each source id the up to `per_piece` target ids (other than `always`) most often found in the
    translations of its sentences, most often first (ties to the lower id).

    >>> always, likely = build([[5, 2], [5, 3]], [[4, 6], [4, 7]], 8, frequent=1, per_piece=2)
    >>> always.tolist(), likely
    ([4], {2: [6], 3: [7], 5: [6, 7]})
    """
    pieces = [np.unique(t[t > 1]) for t in np.asarray(target_ids)]
    sentences = np.bincount(np.concatenate(pieces).astype(np.int64), minlength=vocab_size)
    always = np.sort(np.argsort(-sentences, kind="stable")[:min(frequent, np.count_nonzero(sentences))])
    pairs, counts = count_pairs(source_ids, target_ids, vocab_size)
    keep = ~np.isin(pairs % vocab_size, always)
    pairs, counts = pairs[keep], counts[keep]
    source, target = pairs // vocab_size, pairs % vocab_size
    # A source piece's sentences are the same for all its targets: their counts order them as their shares do.
    order = np.lexsort((target, -counts, source))
    source, target = source[order], target[order]
    rank = np.arange(len(source)) - np.searchsorted(source, source)
    likely = {}
    for piece, chosen in zip(source[rank < per_piece].tolist(), target[rank < per_piece].tolist()):
        likely.setdefault(piece, []).append(chosen)
    return always, likely


def save_table(directory, pipeline, source_ids, target_ids, frequent=FREQUENT, per_piece=PER_PIECE):
    """Writes `FILE` into the model directory `directory`: the shortlist of training pairs as `pipeline`'s ids
    (`training.batches.vectorize`)."""
    always, likely = build(source_ids, target_ids, len(pipeline.target_vocabulary), frequent, per_piece)
    source, target = pipeline.source_vocabulary, pipeline.target_vocabulary
    lines = ["\t" + " ".join(target[i] for i in always)]
    lines += [source[piece] + "\t" + " ".join(target[i] for i in chosen) for piece, chosen in sorted(likely.items())]
    (Path(directory) / FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")


class Shortlist:
    """A model directory's shortlist, as the tensors `candidates` reads.

    Args:
        always: target ids every batch may use; padding (0), which a finished sentence extends with, is added.
        likely: dict from source id to the target ids its sentences may use.
        source_vocab_size: rows of the table (source ids without an entry get none).
        copy: whether source ids are target ids too (a shared vocabulary): the batch's own pieces are candidates.

    Example:

    >>> shortlist = Shortlist([4], {5: [6, 7]}, 8, copy=True)
    >>> shortlist.candidates(tf.constant([[5, 2, 0]])).numpy().tolist()
    [0, 2, 4, 5, 6, 7]
    """

    def __init__(self, always, likely, source_vocab_size, copy):
        width = max((len(chosen) for chosen in likely.values()), default=0)
        # Rows padded with padding, a candidate anyway.
        table = np.zeros((source_vocab_size, width), np.int32)
        for piece, chosen in likely.items():
            table[piece, : len(chosen)] = chosen
        # numpy, not tensors: made at load, tensors would shift the names TensorFlow numbers its traced functions
        # by, which XLA's compile cache keys on (a model with a table would miss the entries of one without).
        self.always = np.array(sorted({0, *always}), np.int32)
        self.table = table
        self.copy = copy

    def candidates(self, source_ids):
        """The target ids a batch of source ids `(batch, length)` may be translated with, ascending."""
        source_ids = tf.convert_to_tensor(source_ids, tf.int32)
        parts = [self.always, tf.reshape(tf.gather(self.table, source_ids), [-1])]
        if self.copy:
            parts.append(tf.reshape(source_ids, [-1]))
        # Which ids occur, counted into a row as long as the largest: `tf.unique` then a sort took about 5% of
        # a greedy batch on a CPU (14 ms of 256 sentences, bench/RESULTS.md), the counts 0.3 ms; `where` reads
        # them in order.
        present = tf.math.bincount(tf.concat(parts, axis=0)) > 0
        return tf.cast(tf.where(present)[:, 0], tf.int32)


def load_table(directory, pipeline):
    """The `Shortlist` kept in the model directory `directory`, or None if it has none.

    `[UNK]`, `[start]` and `[end]` are always candidates: the model's to choose, as without a shortlist.
    """
    path = Path(directory) / FILE
    if not path.is_file():
        return None
    source = {piece: i for i, piece in enumerate(pipeline.source_vocabulary)}
    target = {piece: i for i, piece in enumerate(pipeline.target_vocabulary)}
    try:
        first, *rest = path.read_text(encoding="utf-8").splitlines()
        always = {1, pipeline.start_id, pipeline.end_id} | {target[p] for p in first.split("\t")[1].split()}
        likely = {}
        for line in rest:
            piece, chosen = line.split("\t")
            likely[source[piece]] = [target[p] for p in chosen.split()]
    except (ValueError, KeyError, IndexError) as error:  # a line without its tab, a piece not in the vocabulary
        raise UsageError(f"{path} does not match the model's vocabularies ({error!r}): remove it to decode "
                         "over the whole vocabulary") from None
    return Shortlist(sorted(always), likely, len(source), copy=pipeline.source_vocabulary == pipeline.target_vocabulary)
