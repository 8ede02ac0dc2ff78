"""Sequence-level knowledge distillation (Kim & Rush, 2016): a teacher's translations as a student's targets.

A model trained on the translations its teacher's beam search chose learns
to put them first, so its greedy search comes near the teacher's beam, at a
fraction of the cost. Two steps, each a stage of a recipe (`recipe`):

1. the teacher translates the English of the training split (each sentence
   once; never the validation or test split) with its usual decoding, into
   `pairs.tsv`: English<TAB>Spanish lines (`teach`);
2. the student trains on those pairs, with or without the original ones
   (`training_pairs`); it is chosen and scored on the original validation and
   test splits, against real references.

The translations reach `pairs.tsv.partial` a chunk at a time (`partial`): a
stop loses at most the chunk under way, and the same call continues after
the last whole chunk.

Example:

    english = sources(data.load_splits()["train"])
    teach("runs/en-es/models/mean-27-33-39", english, "work/pairs.tsv", beam_size=4)
    student_train_pairs = training_pairs("work/pairs.tsv", originals=data.load_splits()["train"])
"""

import hashlib
import logging
import time
from pathlib import Path

from translator import model_dir
from translator.files import partial
from translator.training import data

logger = logging.getLogger(__name__)

PAIRS_FILE = "pairs.tsv"
# Sentences translated and written at a time: a stop loses under a minute of a CPU's beam search,
# and the translator has enough of them to sort into batches of one length.
CHUNK_SENTENCES = 2048


def sources(train_pairs):
    """The English of `train_pairs` to translate: each sentence once, shortest first (a chunk then holds
    sentences of similar lengths, decoded in full batches), in an order the sentences alone decide."""
    return sorted({english for english, _ in train_pairs}, key=lambda english: (len(english.split()), english))


def job(teacher, english, beam_size):
    """What makes a partial file this translation's, checked before it is continued: the teachers' weights,
    the sentences, the beam and the chunk size."""
    sentences = hashlib.sha256("\n".join(english).encode("utf-8")).hexdigest()
    return {"teacher": [partial.fingerprint(Path(one) / model_dir.MODEL_FILE, hashed_bytes=None) for one in teacher],
            "sentences": {"count": len(english), "sha256": sentences},
            "beam": beam_size, "chunk_lines": CHUNK_SENTENCES}


def teach(teacher, english, path, beam_size, jit_compile=None):
    """Writes `path`: each sentence of `english` and its translation by the model in `teacher` (a
    `Translator` with its usual decoding, `beam_size`, over the whole vocabulary: a teacher's pass is made
    once, and no `shortlist` is to rule out its choices), one pair a line, in order; `teacher` may be a list
    of model directories, an ensemble (`translator.model.ensemble`). Continues the partial file of an earlier
    call that stopped. Returns the number of sentences translated by this call."""
    from translator.translate import Translator  # TensorFlow: imported when there is work

    chunk, teacher = CHUNK_SENTENCES, [teacher] if isinstance(teacher, (str, Path)) else list(teacher)
    try:
        with partial.resumable(path, job(teacher, english, beam_size), partial.partial_path(path).exists()) as output:
            if output.done:
                logger.info("%s: %s of %s sentences translated before a stop: continuing", path, f"{output.done:,}",
                            f"{len(english):,}")
            translator = Translator.load(teacher[0], ensemble=teacher[1:], jit_compile=jit_compile, shortlist=None)
            started = time.perf_counter()
            for start in range(output.done, len(english), chunk):
                sentences = english[start:start + chunk]
                translations = translator.translate(sentences, beam_size=beam_size)
                output.write([f"{source}\t{translation}" for source, translation in zip(sentences, translations)])
                log_progress(path, output, len(english), time.perf_counter() - started)
    except KeyboardInterrupt:
        if partial.partial_path(path).exists():  # its own message names `translate --resume`
            raise KeyboardInterrupt(f"the translations done are kept in {partial.partial_path(path)}; "
                                    "the same command continues them") from None
        raise
    return output.written


def log_progress(path, output, total, seconds):
    done = output.done + output.written
    rate = output.written / seconds
    logger.info("%s: %s of %s sentences translated (%.0f%%), %.1f sentences/s, about %.0f min left", path,
                f"{done:,}", f"{total:,}", 100 * done / total, rate, (total - done) / rate / 60)


def training_pairs(path, originals=()):
    """The student's training pairs: `originals` (the corpus' training split, or none) and the teacher's pairs
    in `path`, each pair once. A sentence the teacher left untranslated (empty) is left out."""
    distilled, untranslated = data.parse_pairs(data.read_lines(path), skip_malformed=True, source=str(path))
    if untranslated:
        logger.info("%s: %s sentences the teacher left untranslated are left out", path, f"{untranslated:,}")
    return list(dict.fromkeys([*originals, *distilled]))
