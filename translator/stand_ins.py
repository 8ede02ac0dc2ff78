"""The repair policy of a model trained without placeholders: real-word stand-ins, checked and retried.

Such a model never saw a placeholder token, so what must come out unchanged
(`translator.text.verbatim` finds it) goes through as words it knows and
copies ("John", "45", "Boston"), tracked through its Spanish and written
back; a translation that garbled a number, a name or a word is decoded again
with more passed through. `Translator` inherits `StandIns` and calls
`stand_in_repairs` for a batch when its model was trained without typed
placeholders (a model trained with them goes through `translator.repairs`).
The policy is the ordered `STAGES`; each reads and writes a `Batch`.
"""

from dataclasses import dataclass, field

from translator.defaults import DEFAULT_BEAM
from translator.text import garbling, name_forms, spanish, spelling, verbatim
from translator.text.words import WORD


def alone(words):
    """The texts that translate each of `words` alone: "The word." and the bare word (`StandIns.said_alone`)."""
    return [f"The {word}." for word in words] + list(words)


@dataclass
class Batch:
    """The texts of one batch on their way through the stages."""
    texts: list
    glossaries: list
    beam_size: int
    spans: list = field(default_factory=list)  # each text's `verbatim.Span`s
    keep: list = field(default_factory=list)  # each text's spans' values and source words, which no repair may reuse
    restored: list = field(default_factory=list)  # each text's `(translation, notes)` so far
    outputs: list = field(default_factory=list)  # each text's final translation


class StandIns:
    """The stand-in policy, as methods of `Translator` (which inherits it): they read its model's word lists
    (`word_counts`, `lexicon`, `name_forms`), its `placeholders` switch and its `decode_as_written`."""

    def stand_in_repairs(self, texts, beam_size=1, glossaries=None):
        """`(translations, notes)` of `texts` (each fits the model), through every one of `STAGES`.

        A text that is only protected spans and punctuation ("2") is written
        as it is, not decoded. Invented words are repaired
        (`garbling.repair_invented`); a translation that got a number wrong,
        garbled a name or invented a word is first decoded once more with
        more passed through (`wider_spans`), and that one kept if it has
        fewer `faults`; a greedy translation that still changes a number or
        invents a word is decoded again with the default beam.
        """
        batch = Batch(texts, glossaries or [None] * len(texts), beam_size)
        for stage in STAGES:
            stage(self, batch)
        return batch.outputs, [notes for _, notes in batch.restored]

    def protect(self, batch):
        """Sets `spans`, what must come out unchanged (only the glossary's without placeholders), and `keep`:
        their values and source words, which no repair may use again ("the seventies", written back "los años
        70", is no rare word to put for an invented one)."""
        batch.spans = [self.spans(text, glossary) for text, glossary in zip(batch.texts, batch.glossaries)]
        batch.keep = [[part for span in text_spans for part in (span.value, text[span.start:span.end])]
                      for text, text_spans in zip(batch.texts, batch.spans)]

    def decode(self, batch):
        """Sets `restored`: each text decoded behind its stand-ins and written back (`decode_protected`)."""
        # The words that may be translated alone below (`said_alone`) ride in the batch when it decodes with the
        # default beam, as they are decoded: a batch of their own, small, cost a tenth of a job.
        probes = (self.unsaid(self.alone_words(batch.texts, batch.spans))
                  if self.lexicon is not None and batch.beam_size == DEFAULT_BEAM else ())
        batch.restored = self.decode_protected(batch.texts, batch.spans, batch.beam_size, probes=probes)

    def widen(self, batch):
        """A translation that garbled something (`wider_spans`) is decoded again with more passed through, and
        kept if it has fewer `faults`. Needs the corpus' Spanish words (`lexicon`)."""
        if self.lexicon is None:
            return
        texts, spans, keep, restored = batch.texts, batch.spans, batch.keep, batch.restored
        if batch.beam_size != DEFAULT_BEAM:  # with the default beam, said in the first batch already
            self.said_alone(self.alone_words(texts, spans, [output for output, _ in restored], keep))
        wider = [self.wider_spans(text, output, text_spans, words)
                 for text, (output, _), text_spans, words in zip(texts, restored, spans, keep)]
        again = [i for i in range(len(texts)) if wider[i] != spans[i]]
        self.retry(restored, texts, keep, again, [texts[i] for i in again], [wider[i] for i in again], batch.beam_size)

    def lower_openings(self, batch):
        """A word opening a sentence that the model copied or spelled anew as if a name ("Marriage",
        "Profesaror") is given to it once more in lower case: the capital cuts it into pieces the model reads as
        a name ("M ##ar ##ria ##ge"; "marriage" is one piece). A retry of fewer words may have dropped it ("Avoid
        crossing this street" -> "Cruzando esta calle"): not kept."""
        if self.lexicon is None:
            return
        texts, restored = batch.texts, batch.restored
        copied = {i: garbling.first_words_as_names(output, texts[i], self.word_counts, self.lexicon, opening=True)
                  for i, (output, _) in enumerate(restored)}
        again = [i for i in copied if copied[i]]
        self.retry(restored, texts, batch.keep, again, [spelling.lowered(texts[i], copied[i]) for i in again],
                   [batch.spans[i] for i in again], batch.beam_size, no_fewer_words=True)

    def beam_again(self, batch):
        """A greedy translation that still says a number the source does not, changes or loses a date's day or
        month (or says it twice), or invents a word that no rare source word can stand for
        (`garbling.repair_invented`) has no other hypothesis to choose from: it is decoded with a beam, whose
        choice drops the hypotheses that make a number up or invent a word (`rerank.choose`), and kept if it has
        fewer faults."""
        if self.lexicon is None or batch.beam_size != 1:
            return
        texts, keep = batch.texts, batch.keep
        again = [i for i, (output, _) in enumerate(batch.restored) if garbling.wrong_numbers(output, texts[i], keep[i])[0]
                 or garbling.wrong_days(output, texts[i])
                 or garbling.invented(garbling.repair_invented(output, texts[i], self.lexicon, self.word_counts, keep[i]),
                                      texts[i], self.lexicon, keep[i])]
        self.retry(batch.restored, texts, keep, again, [texts[i] for i in again], [batch.spans[i] for i in again],
                   DEFAULT_BEAM)

    def tidy(self, batch):
        """Sets `outputs`: each translation with its invented words repaired (`garbling.repair_invented`) and as
        Spanish writes it (`spanish.tidied`). A text written back as it is, not decoded, opens a question or
        exclamation with its mark ("¡Hola Sam!"); a greeting keeps its comma, and what follows it its mark
        ("Hola, ¿la piscina está abierta hoy?"). Without the corpus' Spanish words, the translations as restored."""
        if self.lexicon is None:
            batch.outputs = [output for output, _ in batch.restored]
            return
        outputs = [spanish.tidied(garbling.repair_invented(output, text, self.lexicon, self.word_counts, words), text,
                                  self.lexicon) for (output, _), text, words in zip(batch.restored, batch.texts, batch.keep)]
        batch.outputs = [spanish.opening_marks(output) if verbatim.is_fragment(text, text_spans)
                         else spanish.greeted(output, text, text_spans)
                         for output, text, text_spans in zip(outputs, batch.texts, batch.spans)]

    def said_alone(self, words):
        """Translates each of `words` not translated yet alone, for `garbling.said_for_part` and `garbling.guessed`,
        which read them from `_said_alone`: as a sentence after "The" ("The milk." -> "La leche.") and bare, of which
        only the first three words count. Each gives a sense the other may miss ("The time." -> "La hora.", "time" ->
        "Tiempo tiempo …"); a bare word is no sentence to the model, which goes on to repeat what it links to the word
        ("star" -> "Se murió de hambre de hambre estrella …", the "starv" of "starvation"). With the default beam,
        whatever the job's: the same answer in any job, and no greedy graphs made for a few words in a beam job (they
        cost one a third of its speed). A job with the default beam has them said in its first batch already
        (`StandIns.decode`)."""
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


STAGES = (StandIns.protect, StandIns.decode, StandIns.widen, StandIns.lower_openings, StandIns.beam_again, StandIns.tidy)
