"""`Translator`: English text in, readable Spanish out, around a trained model.

It loads a model directory, cuts long texts into pieces the model can take
(`segments`), swaps what must come through unchanged for stand-ins the model
copies (`verbatim`), decodes the pieces in batches of similar lengths in parallel
threads (`decoding`) and turns the ids back into text (`text`).
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import tensorflow as tf
from keras import ops

from translator import model_dir
from translator.defaults import BATCH_SIZE, DEFAULT_BEAM, PARALLEL_BATCHES
from translator.devices import resolve_auto
from translator.errors import UsageError
from translator.model import decoding, masks, shortlist
from translator.model.ensemble import Ensemble, check_same_text, members
from translator.model.transformer import in_bfloat16
from translator.text import garbling, name_forms, rerank, segments, spanish, spelling, verbatim
from translator.text.words import WORD


def alone(words):
    """The texts that translate each of `words` alone: "The word." and the bare word (`Translator.said_alone`)."""
    return [f"The {word}." for word in words] + list(words)


class Translator:
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

        `glossaries` gives each text's glossary (or None): see `translate`.
        A text that is only protected spans and punctuation ("2") is written
        as it is, not decoded. Invented words are repaired
        (`garbling.repair_invented`); a translation that got a number wrong,
        garbled a name or invented a word is first decoded once more with
        more passed through (`wider_spans`), and that one kept if it has
        fewer `faults`; a greedy translation that still changes a number or
        invents a word is decoded again with the default beam.
        """
        glossaries = glossaries or [None] * len(texts)
        spans = [self.spans(text, glossary) for text, glossary in zip(texts, glossaries)]
        # The words that may be translated alone below (`said_alone`) ride in the batch when it decodes with the
        # default beam, as they are decoded: a batch of their own, small, cost a tenth of a job.
        probes = (self.unsaid(self.alone_words(texts, spans))
                  if self.lexicon is not None and beam_size == DEFAULT_BEAM else ())
        restored = self.decode_protected(texts, spans, beam_size, probes=probes)
        if self.lexicon is None:
            return [output for output, _ in restored], [notes for _, notes in restored]
        # What the spans wrote back, and their source words, which no repair may use again ("the seventies", written
        # back "los años 70", is no rare word to put for an invented one).
        keep = [[part for span in text_spans for part in (span.value, text[span.start:span.end])]
                for text, text_spans in zip(texts, spans)]
        if beam_size != DEFAULT_BEAM:  # with the default beam, said in the first batch already
            self.said_alone(self.alone_words(texts, spans, [output for output, _ in restored], keep))
        wider = [self.wider_spans(text, output, text_spans, words)
                 for text, (output, _), text_spans, words in zip(texts, restored, spans, keep)]
        again = [i for i in range(len(texts)) if wider[i] != spans[i]]
        self.retry(restored, texts, keep, again, [texts[i] for i in again], [wider[i] for i in again], beam_size)
        # A word opening a sentence that the model copied or spelled anew as if a name ("Marriage", "Profesaror") is
        # given to it once more in lower case: the capital cuts it into pieces the model reads as a name ("M ##ar
        # ##ria ##ge"; "marriage" is one piece). A retry of fewer words may have dropped it ("Avoid crossing this
        # street" -> "Cruzando esta calle"): not kept.
        copied = {i: garbling.first_words_as_names(output, texts[i], self.word_counts, self.lexicon, opening=True)
                  for i, (output, _) in enumerate(restored)}
        again = [i for i in copied if copied[i]]
        self.retry(restored, texts, keep, again, [spelling.lowered(texts[i], copied[i]) for i in again],
                   [spans[i] for i in again], beam_size, no_fewer_words=True)
        # A greedy translation that still says a number the source does not, changes or loses a date's day or month
        # (or says it twice), or invents a word that no rare source word can stand for (`garbling.repair_invented`) has
        # no other hypothesis to choose from: it is decoded with a beam, whose choice drops the hypotheses that make a
        # number up or invent a word (`rerank.choose`), and kept if it has fewer faults.
        if beam_size == 1:
            again = [i for i, (output, _) in enumerate(restored) if garbling.wrong_numbers(output, texts[i], keep[i])[0]
                     or garbling.wrong_days(output, texts[i])
                     or garbling.invented(garbling.repair_invented(output, texts[i], self.lexicon, self.word_counts, keep[i]),
                                          texts[i], self.lexicon, keep[i])]
            self.retry(restored, texts, keep, again, [texts[i] for i in again], [spans[i] for i in again], DEFAULT_BEAM)
        # The translation as Spanish writes it (`spanish.tidied`). A text written back as it is, not decoded, opens a
        # question or exclamation with its mark ("¡Hola Sam!"); a greeting keeps its comma, and what follows it its
        # mark ("Hola, ¿la piscina está abierta hoy?").
        outputs = [spanish.tidied(garbling.repair_invented(output, text, self.lexicon, self.word_counts, words), text,
                                  self.lexicon) for (output, _), text, words in zip(restored, texts, keep)]
        outputs = [spanish.opening_marks(output) if verbatim.is_fragment(text, text_spans)
                   else spanish.greeted(output, text, text_spans) for output, text, text_spans in zip(outputs, texts, spans)]
        return outputs, [notes for _, notes in restored]

    def said_alone(self, words):
        """Translates each of `words` not translated yet alone, for `garbling.said_for_part` and `garbling.guessed`,
        which read them from `_said_alone`: as a sentence after "The" ("The milk." -> "La leche.") and bare, of which
        only the first three words count. Each gives a sense the other may miss ("The time." -> "La hora.", "time" ->
        "Tiempo tiempo …"); a bare word is no sentence to the model, which goes on to repeat what it links to the word
        ("star" -> "Se murió de hambre de hambre estrella …", the "starv" of "starvation"). With the default beam,
        whatever the job's: the same answer in any job, and no greedy graphs made for a few words in a beam job (they
        cost one a third of its speed). A job with the default beam has them said in its first batch already
        (`decode_batch`)."""
        new = self.unsaid(words)
        if new:
            self.heard(new, self.decode_as_written(alone(new), DEFAULT_BEAM))

    def alone_words(self, texts, spans, outputs=None, keep=None):
        """The words of `texts` to translate alone: the words of compounds, and the words the model never saw, outside
        `spans`; given the `outputs` (and each one's `keep`), only those that a translation with no invented word
        neither copies nor passes through (`garbling.guessed`: it may have said them as another word)."""
        outputs, keep = outputs or [None] * len(texts), keep or [()] * len(texts)
        return ([part for text in texts for _, *parts in garbling.compounds(text, self.lexicon, self.word_counts)
                 for part in parts if part]
                + [word.group() for text, text_spans, output, words in zip(texts, spans, outputs, keep)
                   if output is None or not garbling.invented(output, text, self.lexicon, words)
                   for word in garbling.strangers(text, self.lexicon, self.word_counts)
                   if (output is None or word.group() not in output)
                   and not any(span.start <= word.start() < span.end for span in text_spans)])

    def unsaid(self, words):
        """`words` not translated alone yet, once each."""
        return [word for word in dict.fromkeys(words) if word not in self._said_alone]

    def heard(self, words, said):
        """Keeps the translations alone of `words`, `said` (the decoded `alone(words)`)."""
        self._said_alone.update((word, f"{noun} {' '.join(bare.split()[:3])}")
                                for word, noun, bare in zip(words, said, said[len(words):]))

    def retry(self, restored, texts, keep, again, given, spans, beam_size, no_fewer_words=False):
        """Decodes `given`, the texts to try again for `texts[i]` for each `i` of `again`, with their `spans`, and
        puts each retry in `restored[i]` if it has fewer `faults` (and, with `no_fewer_words`, no fewer words)."""
        for i, (output, notes) in zip(again, self.decode_protected(given, spans, beam_size)):
            if (self.faults(output, texts[i], keep[i]) < self.faults(restored[i][0], texts[i], keep[i])
                    and (not no_fewer_words or len(WORD.findall(output)) >= len(WORD.findall(restored[i][0])))):
                restored[i] = output, notes

    def wider_spans(self, text, translation, spans, keep):
        """`spans` of `text` and the words its `translation` garbled, to pass through in a second decoding: every
        number when it changed or dropped one ("3 items" -> "35", `garbling.number_spans`), the names the model
        knows when it invented a capitalised word ("San Francisco" -> "Sanupe") or lost one ("Lincoln" dropped,
        `garbling.lost_names`; `garbling.name_spans`), else those it garbled ("Salt Lake City" -> "Lake City"), the
        initials it spelled letter by letter ("U.S." -> "U. S.", `garbling.spelled_apart`), a name and version opening
        the text when it invented a word in their place ("Windows 11" -> "Las cdoles 11", `garbling.opening_version`),
        a compound it said as its first word alone ("milkman" -> "leche", `garbling.said_for_part`) or a word it never
        saw as its guess ("thermostat" -> "terminada", `garbling.guessed`), and the rare
        words when it invented a word far from them (`garbling.misplaced`), changed a month or weekday
        (`garbling.changed_days`, `garbling.dropped_days`), said a number the source does not
        (`garbling.made_up_words`) or stuttered ("un nuevo cuarto de cuarto" for "quarterback", `spanish.stutters`).
        Without placeholders, `spans` as they are: the user asked for no stand-ins."""
        if not self.placeholders:
            return spans
        if any(garbling.wrong_numbers(translation, text, keep)):
            spans = garbling.number_spans(text, spans)
        invented = garbling.invented(translation, text, self.lexicon, keep)
        lost = garbling.lost_names(translation, text, self.word_counts, self.lexicon, self.name_forms)
        if any(word.group()[0].isupper() for word in invented) or lost:
            # A name that Spanish says its way comes out so ("London" -> "Londres"), lost or not: every name is
            # passed through.
            said = {name: its_way for name in set(WORD.findall(text))
                    if (its_way := name_forms.in_spanish(name, self.name_forms or {}, self.pipeline.truecase))}
            spans = garbling.name_spans(text, self.word_counts, spans, said=said)
        elif garbled := garbling.garbled_names(translation, text, self.word_counts, self.name_forms):
            # Only the names garbled: the others may be said well the model's way ("Nueva York").
            spans = garbling.name_spans(text, self.word_counts, spans, runs=garbled)
        if apart := garbling.spelled_apart(translation, text):
            spans = garbling.initials_spans(text, spans, apart)
        spans = garbling.opening_version(translation, text, self.lexicon, spans, keep)
        if misread := (garbling.said_for_part(translation, text, self.lexicon, self.word_counts, self._said_alone)
                       + garbling.guessed(translation, text, self.lexicon, self.word_counts, self._said_alone)):
            spans = garbling.rare_word_spans(text, self.lexicon, self.word_counts, spans, misread)
        if (garbling.misplaced(translation, text, self.lexicon, self.word_counts, keep)
                or garbling.wrong_days(translation, text)
                or garbling.made_up_words(translation, text, keep) or spanish.stutters(translation, text)):
            spans = garbling.rare_word_spans(text, self.lexicon, self.word_counts, spans)
        return spans

    def faults(self, translation, text, keep):
        """What is wrong with `translation` of `text`, worst first, for choosing between two: the numbers it changed,
        the months and weekdays it changed, the numbers, months and weekdays it dropped, the names it garbled, lost or
        said as a noun (`garbling.said_as_noun`), the words it invented that no repair mends
        (`garbling.repair_invented`), the first words it took for names (`garbling.first_words_as_names`), the parts of
        words it said for the whole, its guesses at words it never saw (`garbling.guessed`) and its stutters
        (`spanish.stutters`; counts of each), and last the words it invented: one that the repair writes back as the
        source's word is what the reader gets, no worse than a word said for the whole, but a translation with none to
        repair is better still. A number made up is worse than one left out: a second decoding may merge two stand-ins
        into one ("45 to 37" -> "47")."""
        changed, dropped = garbling.wrong_numbers(translation, text, keep)
        invented = len(garbling.invented(translation, text, self.lexicon, keep))
        repaired = garbling.repair_invented(translation, text, self.lexicon, self.word_counts, keep)
        return (len(changed), len(garbling.changed_days(translation, text)),
                len(dropped) + len(garbling.dropped_days(translation, text)),
                len(garbling.garbled_names(translation, text, self.word_counts, self.name_forms))
                + len(garbling.spelled_apart(translation, text)) + garbling.said_as_noun(translation, text)
                + len(garbling.lost_names(translation, text, self.word_counts, self.lexicon, self.name_forms)),
                len(garbling.invented(repaired, text, self.lexicon, keep))
                + len(garbling.first_words_as_names(translation, text, self.word_counts, self.lexicon))
                + len(garbling.said_for_part(translation, text, self.lexicon, self.word_counts, self._said_alone))
                + len(garbling.guessed(translation, text, self.lexicon, self.word_counts, self._said_alone))
                + len(spanish.stutters(translation, text)),
                invented)

    def decode_protected(self, texts, spans, beam_size=1, shift=0, probes=()):
        """`(translation, notes)` of each of `texts`, decoded with its `spans` (a list of `verbatim.Span`s for each)
        behind stand-ins (`verbatim.protect`, with `shift`) and written back (`verbatim.restore`). The words of
        `probes` are translated alone in the same batch (`said_alone`)."""
        # Every way of protecting each text (`verbatim.ways`) is decoded in the one batch; the first kept wins unless a
        # later one needed fewer repairs of its stand-ins ("$45.99 for the shoes and 37 for ..." came out "... para los
        # 37 para los 37 ...", the shoes lost; behind two stand-ins, "37 para los zapatos y 15 para ..."). One that
        # leaves spans to the model ("9:15") is kept when the model kept them and changed or lost no weekday or month
        # ("at 9:15 on Wednesday" came out "a las 9:15 en el jueves"; behind a stand-in, "el miércoles").
        tries = [(i, way) for i, text_spans in enumerate(spans) for way in verbatim.ways(text_spans, self.word_counts)]
        protected = [verbatim.protect(texts[i], way, shift) for i, way in tries]
        to_decode = [n for n, (i, _) in enumerate(tries) if not verbatim.is_fragment(texts[i], spans[i])]
        outputs = [texts[i] for i, _ in tries]
        # British spellings and curly quotes go to the model as its corpus writes them (`translator.text.spelling`).
        given = [spelling.as_the_corpus(protected[n][0], self.word_counts) for n in to_decode]
        decoded = self.decode_as_written(given + alone(probes), beam_size) if given or probes else []
        self.heard(probes, decoded[len(given):])
        for n, output in zip(to_decode, decoded):
            outputs[n] = verbatim.sums_as_written(output, texts[tries[n][0]])
        restored = [None] * len(texts)
        for n, (i, way) in enumerate(tries):
            if restored[i] is not None and not restored[i][1]:
                continue  # kept with no repair: no later way needs fewer
            # A fragment not decoded is its own "translation" with no stand-ins: restoring it writes its glossary terms.
            output, notes = verbatim.restore(outputs[n], texts[i], way, protected[n][1] if n in to_decode else {})
            left = [span for span in spans[i] if span not in way]
            if (verbatim.kept_by_model(output, left) and not (left and garbling.wrong_days(output, texts[i]))
                    and (restored[i] is None or len(notes) < len(restored[i][1]))):
                restored[i] = output, notes
        if shift == 0:
            # A stand-in the model dropped, repeated or changed had to be repaired, and what the model wrote in its
            # place may still be there ("en B-204 Mi"): such a sentence is decoded once more behind the next
            # stand-ins of each pool, and that translation kept if it needed fewer repairs.
            again = [i for i, (_, notes) in enumerate(restored) if notes]
            for i, retry in zip(again, self.decode_protected([texts[i] for i in again], [spans[i] for i in again],
                                                             beam_size, shift=1)):
                if len(retry[1]) < len(restored[i][1]):
                    restored[i] = retry
        return restored

    def spans(self, text, glossary=None):
        """The `verbatim.Span`s of `text` to come out unchanged: only `glossary`'s without placeholders."""
        matches = glossary.matches(text) if glossary is not None else ()
        if not self.placeholders:
            return [verbatim.Span(start, end, "glossary", spanish) for start, end, spanish in matches]
        return verbatim.find(text, self.word_counts, matches)

    def reranks(self, beam_size):
        """Whether a search of `beam_size` ends by choosing among its hypotheses (`translator.text.rerank`)."""
        return beam_size > 1 and (self.lexicon is not None or self.consensus)

    def decode_as_written(self, texts, beam_size=1):
        if not self.reranks(beam_size):
            translations = self.text_function(beam_size)(tf.constant(texts, tf.string))
            return [s.decode("utf-8") for s in translations.numpy()]
        translations, scores = self.text_function(beam_size, all_beams=True)(tf.constant(texts, tf.string))
        return self.choose(translations.numpy(), scores.numpy(), texts, beam_size)

    def choose(self, translations, scores, texts, beam_size):
        """`rerank.choose` for each text, given its `beam_size` hypotheses (bytes) and their scores, in a row."""
        chosen = []
        for i, text in enumerate(texts):
            beams = [s.decode("utf-8") for s in translations[i * beam_size:(i + 1) * beam_size]]
            chosen.append(beams[rerank.choose(beams, scores[i * beam_size:(i + 1) * beam_size], text, self.lexicon,
                                              self.consensus)])
        return chosen

    def token_counts(self, texts):
        """How many source tokens each text becomes (before truncation), in one batched call."""
        return self._count_tokens(tf.constant(texts, tf.string)).numpy()

    def pieces(self, texts):
        """`segments.split` for this model: `(owners, pieces, sizes)` of pieces that fit it as they are
        decoded, their spans behind stand-ins: a number or a web address written in many tokens is one
        stand-in, and a sentence that fits with it is not cut in two, nor a span of a sentence that does not."""
        return segments.split(texts, self.decoded_token_counts, self.max_length,
                              lambda sentence: [(span.start, span.end) for span in self.spans(sentence)])

    def decoded_token_counts(self, texts):
        """How many tokens each text is decoded in: its first way of protecting (`verbatim.ways`) leaves the
        most spans as written, so the other ways' texts are no longer. A glossary's terms (each text's own,
        not known here) only ever shorten it."""
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
        # A text in capitals is read, cut into sentences and spans, as the corpus would write it ("WHERE IS TOM?"),
        # abbreviations it does not write in its words ("Btw" is no name), and a number joined to a unit before a noun
        # noun first ("a 55-inch TV" -> "a TV of 55 inches", where "55 inches" is a measure).
        texts = [spelling.nouns_first(spelling.spelled_out(spelling.uncapitalised(text, self.word_counts), self.word_counts))
                 for text in ([texts] if single else texts)]
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
