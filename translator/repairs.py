"""The repair policy around a model trained on typed placeholders: protect, decode, check, retry, choose, restore,
respace.

`Translator` hands each batch of sentences to `run`, which passes one `Job`
per sentence through `STAGES`, in order; each stage reads and writes the
jobs' fields, and its docstring says what it promises the next. The model
translates (`Translator.hypotheses`); nothing here knows how.

A model trained with `Config.placeholders` has seen numbers, web and file
addresses, codes and names replaced by opaque tokens ("PHNUM2") on both sides
of its pairs, and copies such a token where its Spanish goes
(`translator.text.placeholders`). So the span finder here is the one its
training pairs were made with, and a span comes back by its token's index:
no stand-in's Spanish forms to track, no search for where it went.

>>> def copy(texts, beam_size):  # a "model" that copies its input: one hypothesis each
...     return [([text], [0.0]) for text in texts]
>>> run(["Call 555-0199 at 9."], copy)
(['Call 555-0199 at 9.'], [[]])
"""

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from translator.defaults import DEFAULT_BEAM
from translator.text import placeholders


@dataclass(frozen=True)
class Context:
    """What every stage may read: the model's `hypotheses(strings, beam_size)`, each string's hypotheses and
    their scores, best first; `choose(hypotheses, scores, string)`, the index of the one to keep (a reranking:
    `Translator.choose_one`); the job's beam size; what the model knows (`Known`, for `find_spans`); and
    whether spans other than the glossary's are protected (`all_spans`; the user may turn it off)."""
    hypotheses: object
    choose: object
    beam_size: int
    known: object
    all_spans: bool = True


@dataclass
class Job:
    """One sentence on its way through the stages."""
    text: str
    glossary: object = None  # what `Glossary.matches` is called on, or None
    spans: dict = field(default_factory=dict)  # placeholder token -> what comes out in its place
    given: str = ""  # the text as the model reads it
    hypotheses: list = field(default_factory=list)  # the model's translations of `given`, best first, tokens and all
    scores: list = field(default_factory=list)  # their scores
    faults: list = field(default_factory=list)  # for each hypothesis, its `(fault, token)`s (`faults`)
    output: str = ""  # the translation
    notes: list = field(default_factory=list)  # what the reader is told about the repairs


class Known(NamedTuple):
    """What the model knows that decides which names it is left to say: `words`, the vocabulary's whole words
    in lower case (a capital opening a sentence on one of them opens no name), and `names`, the names the
    training Spanish says its own way ("London" -> "Londres": `translator.text.name_forms`)."""
    words: frozenset = frozenset()
    names: frozenset = frozenset()


NOTHING_KNOWN = Known()


def find_spans(text, known=NOTHING_KNOWN, glossary=None):
    """The `(start, end, kind, out)` spans of `text` that must come out as `out`, left to right: the
    `glossary`'s terms (kind "GLOSSARY", out its Spanish), then, outside them, each whole-word match of
    `placeholders.SPAN` (out as written). A name is left to the model where the Spanish says it its own way
    (`Known.names`), and a capitalised word opening the text is no name where `Known.words` holds it.

    >>> find_spans("Okonkwo met Tom in London at 9:30.", Known(frozenset({"in"}), frozenset({"London"})))
    [(0, 7, 'NAME', 'Okonkwo'), (12, 15, 'NAME', 'Tom'), (29, 33, 'NUM', '9:30')]
    >>> find_spans("Is Malik here?", Known(frozenset({"is", "here"})))
    [(3, 8, 'NAME', 'Malik')]
    """
    found = [(start, end, "GLOSSARY", spanish) for start, end, spanish in (glossary.matches(text) if glossary else ())]
    for match in placeholders.SPAN.finditer(text):
        start, end, kind, out = match.start(), match.end(), match.lastgroup, match.group()
        # Not part of a longer word ("3rd", "Ph.D."): a token glued to letters is no token to the model.
        if (start and text[start - 1].isalnum()) or re.match(r"\w|[.-]\w", text[end:end + 2]):
            continue
        if kind == "NAME":
            # A name's abbreviation ("Prof. Lindqvist"): the sentence, cut at its ends before, goes on after the point.
            if re.match(r"\.\s+\w", text[end:end + 3]):
                continue
            first = out.split()[0]
            if not text[:start].strip() and first.lower() in known.words:
                start, out = start + len(first) + 1, out[len(first) + 1:]
            if not out or set(out.split()) & known.names:
                continue
        if not any(begin < end and start < finish for begin, finish, _, _ in found):
            found.append((start, end, kind, out))
    return sorted(found)


# The token each kind of span goes behind where it is not its own. The training pairs hold few addresses and codes
# that both sides write alike, so the model copies a name's token far more surely than theirs (bench/RESULTS.md,
# "Typed placeholders"); a glossary term, most often a noun, is a name to it too.
AS_TOKEN = {"GLOSSARY": "NAME", "URL": "NAME", "CODE": "NAME"}


def protected(text, known=NOTHING_KNOWN, glossary=None, all_spans=True):
    """`(given, spans)`: `text` with each of its spans (`find_spans`; with `all_spans` False, only the glossary's)
    replaced by a token (of the kind `AS_TOKEN` says), the first of a kind numbered 1, and what each token stands
    for. A kind's spans past `placeholders.MAX_INDEX` stay as written.

    >>> protected("Visit https://x.org at 9 and 10.", Known(frozenset({"visit"})))
    ('Visit PHNAME1 at PHNUM1 and PHNUM2.', {'PHNAME1': 'https://x.org', 'PHNUM1': '9', 'PHNUM2': '10'})
    """
    given, last, counts, spans = [], 0, {}, {}
    for start, end, kind, out in find_spans(text, known, glossary):
        seen = AS_TOKEN.get(kind, kind)
        if counts.get(seen, 0) == placeholders.MAX_INDEX or not (all_spans or kind == "GLOSSARY"):
            continue
        counts[seen] = counts.get(seen, 0) + 1
        token = f"PH{seen}{counts[seen]}"
        given += [text[last:start], token]
        spans[token], last = out, end
    return "".join(given) + text[last:], spans


def protect(jobs, context):
    """Sets each job's `given` and `spans` (`protected`): what must come out as written, and the glossary's
    terms, behind tokens; with placeholders off (`Context.all_spans`), the glossary's terms only."""
    for job in jobs:
        job.given, job.spans = protected(job.text, context.known, job.glossary, context.all_spans)


def decode(jobs, context):
    """Sets each job's `hypotheses` and `scores`: the model's translations of its `given` with the job's beam size
    (one greedy), best first."""
    for job, (hypotheses, scores) in zip(jobs, context.hypotheses([job.given for job in jobs], context.beam_size)):
        job.hypotheses, job.scores = hypotheses, scores


def faults(output, spans):
    """What `output` did wrong with the tokens of `spans`, as `(fault, token)`: each it lost, wrote more than once
    or made up.

    >>> faults("Ve a PHURL1 PHURL1 y PHNUM2.", {"PHURL1": "x.org", "PHNUM1": "3"})
    [('lost', 'PHNUM1'), ('repeated', 'PHURL1'), ('made up', 'PHNUM2')]
    """
    written = placeholders.TOKEN.findall(output)
    return ([("lost", token) for token in spans if token not in written]
            + [("repeated", token) for token in spans if written.count(token) > 1]
            + [("made up", token) for token in dict.fromkeys(written) if token not in spans])


def check(jobs, context):
    """Sets each job's `faults`, one list per hypothesis (`faults`): empty for one that holds each of the job's
    tokens once and no other."""
    for job in jobs:
        job.faults = [faults(hypothesis, job.spans) for hypothesis in job.hypotheses]


def retry(jobs, context):
    """Decodes each job whose every hypothesis has faults once more, with a wider beam (twice the job's, at least
    the default), whose search holds more ways to say the sentence, and keeps those hypotheses (and their faults)
    if the best of them has fewer faults than the best before."""
    beam_size = max(context.beam_size * 2, DEFAULT_BEAM)
    again = [job for job in jobs if all(job.faults)]
    if not again:
        return
    for job, (hypotheses, scores) in zip(again, context.hypotheses([job.given for job in again], beam_size)):
        found = [faults(hypothesis, job.spans) for hypothesis in hypotheses]
        if min(map(len, found)) < min(map(len, job.faults)):
            job.hypotheses, job.scores, job.faults = hypotheses, scores, found


def choose(jobs, context):
    """Sets each job's `output` to one of its hypotheses with the fewest faults, the one `Context.choose` keeps
    of them, and keeps only its faults."""
    for job in jobs:
        fewest = min(map(len, job.faults))
        kept = [i for i, found in enumerate(job.faults) if len(found) == fewest]
        index = kept[context.choose([job.hypotheses[i] for i in kept], [job.scores[i] for i in kept], job.given)]
        job.output, job.faults = job.hypotheses[index], job.faults[index]


def restore(jobs, context):
    """Sets each job's `output` to the Spanish the reader gets: every token put back as its span by index, a
    token the model made up removed, and a note for each span lost or repeated. No token is left."""
    for job in jobs:
        for what, token in job.faults:
            if what != "made up":
                job.notes.append(f"'{job.spans[token]}' was {what} by the model")
        kept = placeholders.restore(job.output, job.spans)
        job.output = " ".join(placeholders.TOKEN.sub("", kept).split())


# A word of the source with punctuation inside it ("p.m.", "R&D", "3.2.1", "Ctrl+Alt+Delete"), and its parts.
JOINED = re.compile(r"\w+(?:[^\w\s]+\w+)+(?:\.(?=\s|$))?")
PARTS = re.compile(r"\w+|[^\w\s]")


def respace(jobs, context):
    """Writes each word of the source with punctuation inside it as the source does, where the output holds its
    parts in order with other spaces or capitals between them: the model's pieces carry no mark of the spaces
    their words had, and the detokeniser's guess ("p. M.", "R & D", "3.2. 1") breaks the word, and after its
    full stops starts sentences."""
    for job in jobs:
        for word in sorted(set(JOINED.findall(job.text)), key=len, reverse=True):
            spaced = r"\s*".join(map(re.escape, PARTS.findall(word)))
            job.output = re.sub(rf"(?<!\w){spaced}(?!\w)", lambda _, word=word: word, job.output, flags=re.IGNORECASE)


STAGES = (protect, decode, check, retry, choose, restore, respace)


def run(texts, hypotheses, choose=lambda hypotheses, scores, given: 0, beam_size=1, glossaries=None,
        known=NOTHING_KNOWN, all_spans=True, stages=STAGES):
    """`(translations, notes)` of `texts`, each passed through `stages` as a `Job`.

    `hypotheses` and `choose` are the model's (see `Context`); `glossaries`, one glossary (or None) per text;
    `known`, what the model knows (`find_spans`); `all_spans` False protects the glossary's terms only.
    """
    jobs = [Job(text, glossary) for text, glossary in zip(texts, glossaries or [None] * len(texts))]
    context = Context(hypotheses, choose, beam_size, known, all_spans)
    for stage in stages:
        stage(jobs, context)
    return [job.output for job in jobs], [job.notes for job in jobs]
