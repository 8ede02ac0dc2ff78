"""BLEU and chrF (sacrebleu) of a model on the test split or any file of pairs; copy, spans-intact and invented-word
rates, and the rare-words set's (see `translator.evaluation.quality`); and, given the further pairs' folder
(`translator.training.mix`), the same model on sets of other domains: newstest2012 (news) and the held-out slices of
the further sources (software manuals, other prose), with the sentence-break and untranslated-word shares
(`translator.evaluation.quality`)."""

import logging
import os
import time
from collections import defaultdict

import sacrebleu

from translator import model_dir
from translator.defaults import PARALLEL_BATCHES
from translator.evaluation import quality
from translator.files.progress import Progress
from translator.text import nouns, rerank
from translator.training import data, mix

logger = logging.getLogger(__name__)

# The out-of-domain sets, as the report names them, and their keys in `mix.evaluation_sets`.
DOMAINS = {"newstest2012": "dev", "heldout_manuals": "heldout_manuals", "heldout_prose": "heldout_prose"}


def translate_all(translator, english, beam_size=1, batch_size=2048, show_progress=False, glossary=None):
    """Translates a list of sentences (with `glossary`, see `translator.text.glossary`), with a progress bar on
    standard error if `show_progress`.

    Chunks are large so the translator can sort each by length into batches
    of similar sentences; the bar advances once a chunk.
    """
    progress = Progress(len(english), "sentence", shown=show_progress)
    outputs = []
    for start in range(0, len(english), batch_size):
        outputs += translator.translate(english[start:start + batch_size], beam_size=beam_size, glossary=glossary)
        progress.update(len(outputs))
    return outputs


def score(hypotheses, reference_streams):
    """Corpus BLEU and chrF: cased, sacrebleu's default tokenisation, references as written.

    `reference_streams` is a list of reference lists, one entry per hypothesis
    in each; `None` where a sentence has fewer references than others.
    """
    bleu = sacrebleu.metrics.BLEU()
    chrf = sacrebleu.metrics.CHRF()
    return {
        "bleu": round(bleu.corpus_score(hypotheses, reference_streams).score, 2),
        "chrf": round(chrf.corpus_score(hypotheses, reference_streams).score, 2),
        "bleu_signature": str(bleu.get_signature()),
        "chrf_signature": str(chrf.get_signature()),
    }


def evaluate(translator, pairs, beam_size=1, examples=10, known_words=None, rare_pairs=None, show_progress=False,
             glossary=None):
    """Scores `translator` on `pairs`; returns the scores, timing and example translations.

    The main scores take each pair on its own, one reference each, as the
    corpus gives them. Many English sentences have several Spanish
    translations, of which one output can match only one: `multi_reference`
    also scores each distinct source once against all of its references.
    `copy_rate` comes from the shipped names-and-numbers set, `spans_intact` from the span sets,
    `glossary_terms` from the glossary set translated with its terms (`quality`), and, given the
    training corpus' Spanish `known_words`, `invented_word_rate` from the
    translations of `pairs` (see `translator.evaluation.quality`), and with `rare_pairs`
    too (the rare-words set) the share of their translations with an invented
    word, and their BLEU and chrF, under `rare_words`. With the user's
    `glossary`, `pairs` are translated with it, and `user_glossary` says how
    many sources hold one of its terms and the share of those that keep them all.
    """
    english = [source for source, _ in pairs]
    references = [target for _, target in pairs]
    sources = list(dict.fromkeys(english))  # each distinct source is translated once
    started = time.perf_counter()
    translated = dict(zip(sources, translate_all(translator, sources, beam_size, show_progress=show_progress,
                                                 glossary=glossary)))
    seconds = time.perf_counter() - started
    hypotheses = [translated[source] for source in english]
    result = score(hypotheses, [references])
    by_source = defaultdict(list)
    for source, reference in pairs:
        by_source[source].append(reference)
    most = max((len(refs) for refs in by_source.values()), default=0)
    streams = [[by_source[s][i] if i < len(by_source[s]) else None for s in sources] for i in range(most)]
    result["multi_reference"] = {"sources": len(sources), **score([translated[s] for s in sources], streams)}
    result["copy_failures"] = []
    for key, name in quality.COPY_SETS.items():
        copy_set = quality.load_copy_set(name)
        copies = translator.translate([english for english, _ in copy_set], beam_size=beam_size)
        result[key] = round(100 * quality.copy_rate(copies, [items for _, items in copy_set]), 1)
        result["copy_failures"] += [
            {"english": e, "translation": t} for (e, items), t in zip(copy_set, copies)
            if quality.copy_rate([t], [items]) < 1
        ]
    terms, rows = quality.load_glossary_set()
    holding = [english for english, _ in rows]
    with_terms = translator.translate(holding, beam_size=beam_size, glossary=terms)
    result["glossary_terms"] = round(100 * quality.glossary_rate(with_terms, holding, terms), 1)
    if glossary is not None:
        result["user_glossary"] = glossary_scores(translated, glossary)
    if known_words is not None:
        invented, total = rerank.invented_words([translated[s] for s in sources], sources, known_words)
        result["invented_word_rate"] = round(100 * len(invented) / max(total, 1), 2)
        result["invented_words"] = sorted(set(invented))[:50]
    if known_words is not None and rare_pairs:
        rare_english = [english for english, _ in rare_pairs]
        # Drawn from the pairs scored above (the test split): translated once, there.
        missing = [english for english in dict.fromkeys(rare_english) if english not in translated]
        translated.update(zip(missing, translate_all(translator, missing, beam_size=beam_size, glossary=glossary)))
        rare_out = [translated[english] for english in rare_english]
        result["rare_words"] = {
            "sentences": len(rare_pairs),
            "invented_share": round(100 * quality.invented_share(rare_out, rare_english, known_words), 2),
            **{k: v for k, v in score(rare_out, [[spanish for _, spanish in rare_pairs]]).items() if k in ("bleu", "chrf")},
        }
    result.update(
        sentences=len(pairs),
        beam_size=beam_size,
        seconds=round(seconds, 1),
        sentences_per_second=round(len(sources) / seconds, 1),
        examples=[
            {"english": e, "reference": r, "translation": h}
            for e, r, h in list(zip(english, references, hypotheses))[:examples]
        ],
    )
    return result


def prose_scores(outputs, sources, known=None):
    """The shares of `outputs` (percentages) with more sentence breaks than their English `sources`
    (`sentence_breaks`) and with English left untranslated (`untranslated`, the words `known` does not know,
    by default hunspell's Spanish dictionary's; left out, with the logged note, where it is missing).

    >>> prose_scores(["Los competitors. Ganan.", "La casa."], ["The competitors win.", "The house."],
    ...              known={"los", "ganan", "casa", "la"}.__contains__)
    {'sentence_breaks': 50.0, 'untranslated': 50.0}
    """
    known = known or quality.spanish_dictionary()
    return {"sentence_breaks": round(100 * quality.sentence_breaks(outputs, sources), 2),
            **({"untranslated": round(100 * quality.untranslated(outputs, sources, known), 2)} if known else {})}


def load_domain_sets(more_path=None):
    """The out-of-domain sets (`DOMAINS`: name -> pairs) from the further pairs' folder (`more_path`, else
    `$TRANSLATOR_MORE_DATA`), or None without either, logged with how to score them; a `DataError` when the
    folder given is not there (`mix.find_more`)."""
    if not more_path and not os.environ.get(mix.MORE_ENV):
        logger.info("out-of-domain sets (newstest2012, held-out manuals and prose) skipped: point --more-data or "
                    "$%s (make evaluate MORE=DIR) at the further pairs' folder to score them too", mix.MORE_ENV)
        return None
    sets = mix.evaluation_sets(more_path)
    return {name: sets[key] for name, key in DOMAINS.items()}


def score_domains(translator, domain_sets, beam_size=1, glossary=None, show_progress=False, known=None):
    """Scores `translator` on each out-of-domain set (`load_domain_sets`), decoding as `evaluate` does: BLEU and
    chrF (one reference), the sentence-break and untranslated shares (`prose_scores`, with `known`) and speed."""
    known = known or quality.spanish_dictionary()  # loaded (or its absence noted) before minutes of translating
    results = {}
    for name, pairs in domain_sets.items():
        english = [source for source, _ in pairs]
        sources = list(dict.fromkeys(english))
        started = time.perf_counter()
        translated = dict(zip(sources, translate_all(translator, sources, beam_size, show_progress=show_progress,
                                                     glossary=glossary)))
        seconds = time.perf_counter() - started
        hypotheses = [translated[source] for source in english]
        scores = score(hypotheses, [[spanish for _, spanish in pairs]])
        results[name] = {
            "sentences": len(pairs),
            "bleu": scores["bleu"], "chrf": scores["chrf"],
            **prose_scores(hypotheses, english, known),
            "seconds": round(seconds, 1),
            "sentences_per_second": round(len(sources) / seconds, 1) if seconds else None,
        }
    return results


def format_domains(domains):
    """The out-of-domain scores as rows of a table.

    >>> print(format_domains({"newstest2012": {"sentences": 3000, "bleu": 20.5, "chrf": 48.25, "sentence_breaks": 1.5,
    ...                                        "sentences_per_second": 80.0}}))
    out-of-domain sets   sentences    BLEU    chrF  more sentences  untranslated  sentences/s
    newstest2012             3,000   20.50   48.25           1.50%             -           80
    """
    rows = [f"{'out-of-domain sets':<18} {'sentences':>11} {'BLEU':>7} {'chrF':>7} {'more sentences':>15} "
            f"{'untranslated':>13} {'sentences/s':>12}"]
    for name, scores in domains.items():
        untranslated = f"{scores['untranslated']:.2f}%" if "untranslated" in scores else "-"
        speed = f"{scores['sentences_per_second']:.0f}" if scores.get("sentences_per_second") is not None else "-"
        rows.append(f"{name:<18} {scores['sentences']:>11,} {scores['bleu']:>7.2f} {scores['chrf']:>7.2f} "
                    f"{scores['sentence_breaks']:>14.2f}% {untranslated:>13} {speed:>12}")
    return "\n".join(rows)


def glossary_scores(translated, glossary):
    """Of the sources (keys of `translated`) that hold a term of `glossary`: their number, and the percentage
    whose translation keeps every term (`quality.glossary_rate`)."""
    holding = [source for source in translated if glossary.matches(source)]
    rate = quality.glossary_rate([translated[source] for source in holding], holding, glossary)
    return {"sentences": len(holding), "rate": round(100 * rate, 1)}


def load_eval_pairs(pairs_file=None, data_path=None, columns=None):
    """The pairs to score (a user's file of pairs, else the corpus' leak-free test split) and their name.

    Also returns the Spanish words of the training split and of the everyday nouns, for the invented-word
    rate, or None when a user's file is scored and the corpus is not at hand;
    and the rare-words set (`quality.rare_word_pairs`) when the test split is
    scored, else None.
    """
    if pairs_file:  # read first: a file with no usable pair is reported at once, not after the corpus
        pairs, _ = data.parse_pairs(data.read_lines(pairs_file), source=str(pairs_file), columns=columns)
    splits = data.load_splits(data_path) if not pairs_file or data.corpus_is_local(data_path) else None
    # The everyday nouns' Spanish (`translator.text.nouns`) is no word the model made up, though the corpus lacks it.
    known = (rerank.known_words([*(spanish for _, spanish in splits["train"]),
                                 *(said for said, _ in nouns.NOUNS.values())])
             if splits else None)
    if pairs_file:
        return pairs, str(pairs_file), known, None
    return splits["test"], "test split", known, quality.rare_word_pairs(splits["train"], splits["test"])


def format_report(result):
    """The scores of `evaluate` as the command line shows them, with the example translations."""
    multi = result["multi_reference"]
    rows = [
        f"{result['data']}: {result['sentences']:,} sentences, beam {result['beam_size']}"
        + ("" if result.get("placeholders", True) else ", no placeholders"),
        f"BLEU {result['bleu']:.2f}   {result['bleu_signature']}",
        f"chrF {result['chrf']:.2f}   {result['chrf_signature']}",
        f"all references of each of the {multi['sources']:,} distinct sources: "
        f"BLEU {multi['bleu']:.2f}, chrF {multi['chrf']:.2f}",
        f"names and numbers copied verbatim: {result['copy_rate']:.1f}% "
        f"(held-out set: {result['heldout_copy_rate']:.1f}%)",
        f"protected spans intact: {result['spans_intact']:.1f}% (held-out set: {result['heldout_spans_intact']:.1f}%)",
    ]
    rows.append(f"glossary set: every term of the shipped glossary kept in {result['glossary_terms']:.1f}% of its "
                f"sentences")
    if "user_glossary" in result:
        user = result["user_glossary"]
        rows.append(f"your glossary's terms kept: {user['rate']:.1f}% of the {user['sentences']:,} sentences holding one")
    if "invented_word_rate" in result:
        rows.append(f"words found nowhere in the training Spanish (nor copied): {result['invented_word_rate']:.2f}%")
    if "rare_words" in result:
        rare = result["rare_words"]
        rows.append(f"rare-words set ({rare['sentences']:,} test sentences with a word seen < {quality.RARE_BELOW} times): "
                    f"{rare['invented_share']:.2f}% with an invented word, BLEU {rare['bleu']:.2f}, chrF {rare['chrf']:.2f}")
    rows.append(f"{result['sentences_per_second']:.0f} sentences/s\n")
    if "domains" in result:
        rows.append(format_domains(result["domains"]) + "\n")
    for example in result["examples"]:
        rows.append(f"  EN  {example['english']}\n  REF {example['reference']}\n  OUT {example['translation']}\n")
    return "\n".join(rows)


def run(model_path, pairs_file=None, data_path=None, columns=None, beam_size=1, jit_compile=None, placeholders=True,
        show_progress=False, glossary=None, ensemble=(), parallel_batches=PARALLEL_BATCHES, bfloat16=False,
        more_path=None):
    """Scores the model at `model_path` (with the models of `ensemble`, as one) on a file of pairs, or on the
    test split: only the test split's scores of the model alone without a glossary are recorded in its
    metrics.json (a user's own pairs or terms, or other models, say nothing of the model in general), with
    whether the layers computed in bfloat16 (`bfloat16`, `Translator`).

    With the further pairs' folder (`more_path`, else `$TRANSLATOR_MORE_DATA`; with a file of pairs only
    `more_path`) the out-of-domain sets are scored too, under "domains" (`score_domains`).
    """
    from translator.translate import Translator

    # Read before the model is loaded: a folder that is not there is refused at once.
    domain_sets = load_domain_sets(more_path) if pairs_file is None or more_path else None
    translator = Translator.load(model_path, ensemble=ensemble, jit_compile=jit_compile, placeholders=placeholders,
                                 parallel_batches=parallel_batches, bfloat16=bfloat16)
    pairs, name, known, rare = load_eval_pairs(pairs_file, data_path, columns)
    result = {"data": name, "placeholders": placeholders, "bfloat16": bfloat16,
              **({"ensemble": list(map(str, ensemble))} if ensemble else {}),
              **evaluate(translator, pairs, beam_size=beam_size, known_words=known, rare_pairs=rare,
                         show_progress=show_progress, glossary=glossary)}
    if domain_sets:
        result["domains"] = score_domains(translator, domain_sets, beam_size=beam_size, glossary=glossary,
                                          show_progress=show_progress)
    if pairs_file is None and glossary is None and not ensemble:
        model_dir.update_metrics(model_path, evaluation=result)
    return result
