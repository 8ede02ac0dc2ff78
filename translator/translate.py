"""`Translator`: English text in, readable Spanish out, around a trained model.

It loads a model directory, cuts long texts into pieces the model can take
(`segments`), decodes the pieces in batches of similar lengths in parallel
threads (`decoding`) and turns the ids back into text. What must come through
unchanged is the repair policy's: `translator.repairs` (typed placeholders)
for a model trained on them, `translator.stand_ins` (real-word stand-ins) for
one trained without.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import tensorflow as tf
from keras import ops

from translator import model_dir, repairs
from translator.defaults import BATCH_SIZE, PARALLEL_BATCHES
from translator.devices import resolve_auto
from translator.errors import UsageError
from translator.model import decoding, masks, shortlist
from translator.model.ensemble import Ensemble, check_same_text, members
from translator.model.transformer import in_bfloat16
from translator.stand_ins import StandIns
from translator.text import name_forms, rerank, segments, spelling, verbatim


class Translator(StandIns):
    """English in, readable Spanish out.

    Args:
        model, pipeline, config: what `model_dir.load` returns (`Translator.load` does it); the model
            may be an `ensemble.Ensemble`.
        batch_size: sentences decoded together.
        jit_compile: compile the decoding loop with XLA: True, False, or None
            (auto: on with a GPU or TPU). On a CPU, XLA decodes one sentence
            at a time faster but compiles for a while per batch shape, and a
            batch job gains nothing from it (`devices.decoding_batches`).
        parallel_batches: batches decoded at the same time, in threads (a command that only translates
            chooses it with `devices.decoding_batches`).
        placeholders: swap what must come through unchanged (URLs, numbers,
            rare names...) for stand-ins before decoding and back after (see
            `translator.text.verbatim`); False gives those spans to the model as
            written (glossary spans still get stand-ins).
        word_counts: the training corpus' English word counts, for
            `verbatim` (`Translator.load` reads them from the model
            directory); default: each vocabulary token counts as well known.
        lexicon: the training corpus' Spanish words: with a beam, a
            hypothesis that invents fewer words outside them is preferred
            (see `translator.text.rerank`), and a word of the translation found
            neither in them nor in the source is replaced by the source's
            rare word at its place (`garbling.repair_invented`).
            `Translator.load` reads them from the model directory; None skips both.
        name_forms: how the corpus' Spanish says each English name it shows
            often (`translator.text.name_forms`), for telling a name said its way
            ("Europe" -> "Europa") from one lost; `Translator.load` reads the
            model directory's. None: only names Spanish writes as English does.
        consensus: with a beam, choose the hypothesis the beam's others
            agree with most (minimum Bayes risk, see `translator.text.rerank`);
            False keeps the best-scoring one.
        shortlist: a `shortlist.Shortlist`: each batch chooses among the
            Spanish pieces likely for it, not the whole vocabulary (faster,
            without XLA; see `translator.model.shortlist`). `Translator.load` reads
            the model directory's; None or False: the whole vocabulary.
        bfloat16: decode with the model's layers computing in bfloat16
            (`model.in_bfloat16`): faster on a CPU that multiplies bfloat16
            in hardware (`devices.bfloat16_decoding` says when), slower on others.

    Example, with the model this repository ships:

    >>> from translator.defaults import DEFAULT_MODEL
    >>> translator = Translator.load(DEFAULT_MODEL)
    >>> translator.translate("Where is the train station?")
    '¿Dónde está la estación de tren?'
    """

    def __init__(self, model, pipeline, config, batch_size=BATCH_SIZE, jit_compile=None, parallel_batches=PARALLEL_BATCHES,
                 placeholders=True, word_counts=None, lexicon=None, consensus=True, shortlist=None, bfloat16=False,
                 name_forms=None):
        if bfloat16:
            model = Ensemble(list(map(in_bfloat16, members(model)))) if isinstance(model, Ensemble) else in_bfloat16(model)
        self.model = model
        self.pipeline = pipeline
        self.config = config
        self.batch_size = batch_size
        self.max_length = config.sequence_length
        self.jit_compile = resolve_auto(jit_compile)
        self.parallel_batches = parallel_batches
        self.lexicon = lexicon
        self.name_forms = name_forms
        self.consensus = consensus
        self.placeholders = placeholders
        self.shortlist = shortlist or None
        self.word_counts = word_counts or verbatim.vocabulary_counts(pipeline.source_vocabulary)
        # A model trained on typed placeholders has its spans protected and repaired by `translator.repairs`; one
        # trained without them, by real-word stand-ins (`verbatim`) and the checks of `garbling`.
        self.typed = config.placeholders > 0
        self.known = repairs.Known(frozenset(word.lower() for word in pipeline.source_vocabulary if word.isalpha()),
                                   frozenset(name_forms or ()))
        self._id_functions = {}
        self._text_functions = {}
        self._said_alone = {}  # English word -> the model's translation of it alone (`said_alone`)
        # Batches decode in threads: the first to need a graph makes and traces it while the others wait (two that
        # met it at once each made and traced one: seconds of a short job).
        self._making = threading.RLock()
        self.greedy_ids = self.ids_function(beam_size=1)
        # Traced once, here, before threads call it (see `_making`): run eagerly, the ragged text ops cost
        # milliseconds per call. Without autograph, as `decoding.decoding_graph`'s functions: nothing here branches
        # on a tensor.
        self._count_tokens = tf.function(
            pipeline.source_lengths, input_signature=[tf.TensorSpec([None], tf.string)], autograph=False,
        )
        self._count_tokens.get_concrete_function()

    @classmethod
    def load(cls, directory, ensemble=(), **kwargs):
        """The translator of the model in `directory`; with `ensemble`, more model directories decoded with it
        as one (`translator.model.ensemble`). The word lists and the shortlist are `directory`'s."""
        model, pipeline, config = model_dir.load(directory)
        kwargs = {"word_counts": verbatim.load_word_counts(directory), "lexicon": rerank.load_lexicon(directory),
                  "name_forms": name_forms.load_table(directory),
                  **kwargs}
        if "shortlist" not in kwargs:
            kwargs["shortlist"] = shortlist.load_table(directory, pipeline)
        if ensemble:
            directories = [directory, *ensemble]
            others = [model_dir.load(other) for other in ensemble]
            check_same_text(directories, [pipeline, *(o[1] for o in others)], [config, *(o[2] for o in others)])
            model = Ensemble([model, *(o[0] for o in others)])
        return cls(model, pipeline, config, **kwargs)

    def ids_function(self, beam_size=1, all_beams=False):
        """The `decoding.decoding_graph` of this model for `beam_size` (and `all_beams`), built once."""
        key = (beam_size, all_beams)
        with self._making:
            if key not in self._id_functions:
                self._id_functions[key] = decoding.decoding_graph(
                    self.model, self.pipeline.start_id, self.pipeline.end_id, self.max_length,
                    beam_size=beam_size, jit_compile=self.jit_compile, all_beams=all_beams, shortlist=self.shortlist,
                )
            return self._id_functions[key]

    def text_function(self, beam_size=1, all_beams=False):
        """The whole of translation as one graph: strings `(batch,)` in, strings out.

        Vectorisation, decoding, the copying of source words for `[UNK]` and
        detokenisation run without returning to Python, which matters for
        single sentences, where the decoding itself takes little time.
        The exported SavedModel serves this same function. With
        `all_beams`, every beam's hypothesis and its score: `(strings,
        scores)`, `beam_size` of each a text, best first.
        """
        key = (beam_size, all_beams)
        with self._making:
            if key not in self._text_functions:
                pipeline, decode = self.pipeline, self.ids_function(beam_size, all_beams)

                def translate(texts):
                    tokens, attended, *scores = decode(tf.cast(pipeline.source(texts), tf.int32))
                    if not all_beams:
                        return pipeline.detokenize_copying(texts, tokens, attended)
                    return pipeline.detokenize_copying(tf.repeat(texts, beam_size), tokens, attended), scores[0]

                function = tf.function(
                    translate, input_signature=[tf.TensorSpec([None], tf.string, name="texts")], autograph=False
                )
                # Traced here, once: a call that met the trace in another thread counted as one that traced, and
                # TensorFlow warned of retracing that never happened.
                function.get_concrete_function()
                self._text_functions[key] = function
            return self._text_functions[key]

    def warm_up(self, max_batch_size=None, beam_size=1):
        """Prepares every batch shape up to `max_batch_size` sentences, so no caller waits for a compile.

        Without XLA one call traces the graph, which serves any shape. With
        XLA each of `decoding.padded_shapes` is compiled once. Returns the
        number of shapes.
        """
        self.translate("Hello.", beam_size)
        if not self.jit_compile:
            return 1
        shapes = decoding.padded_shapes(max_batch_size or self.batch_size, self.max_length)
        with ThreadPoolExecutor(self.parallel_batches) as pool:
            decode = self.ids_function(beam_size, all_beams=self.reranks(beam_size))
            list(pool.map(lambda shape: decode(tf.ones(shape, tf.int32)), shapes))
        return len(shapes)

    def decode_batch(self, texts, beam_size=1, glossaries=None):
        """Translates a list of texts that each fit the model; returns `(translations, notes)`, lists of each.

        `glossaries` gives each text's glossary (or None): see `translate`. What must come out unchanged is
        protected, checked and repaired by the model's policy: `translator.repairs` for a model trained on typed
        placeholders, else `StandIns.stand_in_repairs`.
        """
        if self.typed:
            return repairs.run(texts, self.hypotheses, self.choose_one, beam_size, glossaries, self.known,
                               self.placeholders)
        return self.stand_in_repairs(texts, beam_size, glossaries)

    def reranks(self, beam_size):
        """Whether a search of `beam_size` ends by choosing among its hypotheses (`translator.text.rerank`)."""
        return beam_size > 1 and (self.lexicon is not None or self.consensus)

    def decode_as_written(self, texts, beam_size=1):
        """The translation of each of `texts` as the model reads it: the hypothesis `choose_one` keeps."""
        return [hypotheses[self.choose_one(hypotheses, scores, text)]
                for text, (hypotheses, scores) in zip(texts, self.hypotheses(texts, beam_size))]

    def hypotheses(self, texts, beam_size=1):
        """`(hypotheses, scores)` of each of `texts`: the beam's translations, best first, and their scores; with
        no reranking (`reranks`), only the best, scored 0."""
        if not self.reranks(beam_size):
            translations = self.text_function(beam_size)(tf.constant(texts, tf.string))
            return [([s.decode("utf-8")], [0.0]) for s in translations.numpy()]
        translations, scores = self.text_function(beam_size, all_beams=True)(tf.constant(texts, tf.string))
        translations, scores = translations.numpy(), scores.numpy()
        return [([s.decode("utf-8") for s in translations[i * beam_size:(i + 1) * beam_size]],
                 list(scores[i * beam_size:(i + 1) * beam_size])) for i in range(len(texts))]

    def choose_one(self, hypotheses, scores, text):
        """The index of the hypothesis of `text` to keep: `rerank.choose`'s of a beam's (`hypotheses` gives a
        search that does not rerank only one)."""
        if len(hypotheses) == 1:
            return 0
        return rerank.choose(hypotheses, scores, text, self.lexicon, self.consensus)

    def token_counts(self, texts):
        """How many source tokens each text becomes (before truncation), in one batched call."""
        return self._count_tokens(tf.constant(texts, tf.string)).numpy()

    def pieces(self, texts):
        """`segments.split` for this model: `(owners, pieces, sizes)` of pieces that fit it as they are
        decoded, their spans behind stand-ins: a number or a web address written in many tokens is one
        stand-in, and a sentence that fits with it is not cut in two, nor a span of a sentence that does not."""
        if self.typed:
            return segments.split(texts, self.decoded_token_counts, self.max_length,
                                  lambda sentence: [span[:2] for span in repairs.find_spans(sentence, self.known)])
        return segments.split(texts, self.decoded_token_counts, self.max_length,
                              lambda sentence: [(span.start, span.end) for span in self.spans(sentence)])

    def decoded_token_counts(self, texts):
        """How many tokens each text is decoded in: its first way of protecting (`verbatim.ways`) leaves the
        most spans as written, so the other ways' texts are no longer. A glossary's terms (each text's own,
        not known here) only ever shorten it."""
        if self.typed:
            return self.token_counts([repairs.protected(text, self.known)[0] for text in texts])
        return self.token_counts([verbatim.protect(text, verbatim.ways(self.spans(text), self.word_counts)[0])[0] for text in texts])

    def translate(self, texts, beam_size=1, batch_size=None, glossary=None):
        """Translates one string (returns str) or a list of strings (returns a list).

        Empty or blank text gives "". Text is split at its sentence ends (a
        sentence still too long for the model at its semicolons, colons or
        commas, else between words, with a logged warning), each piece is
        translated, and the pieces are joined. Pieces are sorted
        by length and decoded `batch_size` at a time (default: the
        translator's).

        `glossary` is None, one glossary for every text, or a list of one (or
        None) per text: an object whose `.matches(text)` gives `(start, end,
        spanish)` spans of `text` that must come out as `spanish`.
        """
        return self.translate_with_notes(texts, beam_size, batch_size, glossary)[0]

    def translate_with_notes(self, texts, beam_size=1, batch_size=None, glossary=None):
        """`translate`, and for each text a list of notes on protected spans that had to be repaired.
        A note names a span that the model dropped or repeated and that was
        put back or kept once ("'8,336,817' was put back by position").
        """
        if beam_size < 1:
            raise UsageError(f"beam size must be at least 1, got {beam_size}")
        single = isinstance(texts, str)
        texts = [texts] if single else texts
        if not self.typed:
            # A text in capitals is read, cut into sentences and spans, as the corpus would write it ("WHERE IS
            # TOM?"), abbreviations it does not write in its words ("Btw" is no name), and a number joined to a unit
            # before a noun noun first ("a 55-inch TV" -> "a TV of 55 inches", where "55 inches" is a measure).
            texts = [spelling.nouns_first(spelling.spelled_out(spelling.uncapitalised(text, self.word_counts), self.word_counts))
                     for text in texts]
        glossaries = glossary if isinstance(glossary, (list, tuple)) else [glossary] * len(texts)
        owners, pieces, sizes = self.pieces(texts)
        # Batches of similar lengths: short sentences do not wait for long ones.
        order = sorted(range(len(pieces)), key=lambda i: (sizes[i], len(pieces[i])))
        batch_size = batch_size or self.batch_size
        batches = [order[start:start + batch_size] for start in range(0, len(order), batch_size)]
        outputs = [""] * len(pieces)
        notes = [[] for _ in texts]
        # Batches decode in parallel threads (TensorFlow releases the GIL): one batch's
        # loop alone leaves the cores idle between its small per-step ops.
        with ThreadPoolExecutor(self.parallel_batches) as pool:
            decoded = pool.map(lambda batch: self.decode_batch(
                [pieces[i] for i in batch], beam_size, [glossaries[owners[i]] for i in batch]), batches)
            for batch, (batch_outputs, batch_notes) in zip(batches, decoded):
                for i, output, piece_notes in zip(batch, batch_outputs, batch_notes):
                    outputs[i] = output
                    notes[owners[i]] += piece_notes
        results = segments.join(owners, outputs, len(texts))
        return (results[0], notes[0]) if single else (results, notes)

    def attention(self, text):
        """Cross-attention of the greedy translation of one sentence.

        Returns `(source_tokens, target_tokens, weights)`, weights of shape
        `(len(target_tokens), len(source_tokens))` from the last decoder layer,
        averaged over heads: row i says which source tokens target token i looked at.
        Of an ensemble, the first model's attention on the ensemble's translation.
        """
        model = members(self.model)[0]
        source_ids = tf.cast(self.pipeline.source(tf.constant([text])), tf.int32)
        tokens, _ = self.greedy_ids(source_ids)
        tokens = [int(t) for t in tokens.numpy()[0] if t]
        if self.pipeline.end_id in tokens:
            tokens = tokens[: tokens.index(self.pipeline.end_id) + 1]
        prefix = ops.convert_to_tensor([[self.pipeline.start_id] + tokens[:-1]], "int32")
        encoded = model.encode(source_ids, training=False)
        _, scores = model.decode(prefix, encoded, masks.padding_mask(source_ids), return_attention_scores=True)
        source = [int(i) for i in source_ids.numpy()[0] if i]
        weights = ops.convert_to_numpy(ops.mean(scores[-1][0], axis=0))[:, : len(source)]
        source_tokens = [self.pipeline.source_vocabulary[i] for i in source]
        target_tokens = [self.pipeline.target_vocabulary[i] for i in tokens]
        return source_tokens, target_tokens, weights
