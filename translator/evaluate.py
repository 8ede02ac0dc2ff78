"""BLEU and chrF (sacrebleu) of a model on the test split or any file of pairs; copy and invented-word rates."""

import time
from collections import defaultdict

import keras
import sacrebleu

from translator import data, model_dir, quality


def translate_all(translator, english, beam_size=1, batch_size=2048, glossary=None):
    """Translates a list of sentences (with `glossary`, see `translator.glossary`), with a Keras progress bar.

    Chunks are large so the translator can sort each by length into batches
    of similar sentences; the bar advances once a chunk.
    """
    progress = keras.utils.Progbar(len(english), unit_name="sentence")
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


def evaluate(translator, pairs, beam_size=1, examples=10, known_words=None, glossary=None):
    """Scores `translator` on `pairs`; returns the scores, timing and example translations.

    The main scores take each pair on its own, one reference each, as the
    corpus gives them. Many English sentences have several Spanish
    translations, of which one output can match only one: `multi_reference`
    also scores each distinct source once against all of its references.
    `copy_rate` comes from the shipped names-and-numbers set, and, given the
    training corpus' Spanish `known_words`, `invented_word_rate` from the
    translations of `pairs` (see `translator.quality`). With the user's
    `glossary`, `pairs` are translated with it, and `user_glossary` says how
    many sources hold one of its terms and the share of those that keep them all.
    """
    english = [source for source, _ in pairs]
    references = [target for _, target in pairs]
    sources = list(dict.fromkeys(english))  # each distinct source is translated once
    started = time.perf_counter()
    translated = dict(zip(sources, translate_all(translator, sources, beam_size=beam_size, glossary=glossary)))
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
    if glossary is not None:
        result["user_glossary"] = glossary_scores(translated, glossary)
    if known_words is not None:
        invented, total = quality.invented_words([translated[s] for s in sources], sources, known_words)
        result["invented_word_rate"] = round(100 * len(invented) / max(total, 1), 2)
        result["invented_words"] = sorted(set(invented))[:50]
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


def glossary_scores(translated, glossary):
    """Of the sources (keys of `translated`) that hold a term of `glossary`: their number, and the percentage
    whose translation keeps every term (`quality.glossary_rate`)."""
    holding = [source for source in translated if glossary.matches(source)]
    rate = quality.glossary_rate([translated[source] for source in holding], holding, glossary)
    return {"sentences": len(holding), "rate": round(100 * rate, 1)}


def load_eval_pairs(pairs_file=None, data_path=None, columns=None):
    """The pairs to score (a user's file of pairs, else the corpus' leak-free test split) and their name.

    Also returns the Spanish words of the training split, for the invented-word
    rate, or None when a user's file is scored and the corpus is not at hand.
    """
    splits = data.load_splits(data_path) if not pairs_file or data.corpus_is_local(data_path) else None
    known = quality.known_words(spanish for _, spanish in splits["train"]) if splits else None
    if pairs_file:
        pairs, _ = data.parse_pairs(data.read_lines(pairs_file), source=str(pairs_file), columns=columns)
        return pairs, str(pairs_file), known
    return splits["test"], "test split", known


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
    ]
    if "user_glossary" in result:
        user = result["user_glossary"]
        rows.append(f"your glossary's terms kept: {user['rate']:.1f}% of the {user['sentences']:,} sentences holding one")
    if "invented_word_rate" in result:
        rows.append(f"words found nowhere in the training Spanish (nor copied): {result['invented_word_rate']:.2f}%")
    rows.append(f"{result['sentences_per_second']:.0f} sentences/s\n")
    for example in result["examples"]:
        rows.append(f"  EN  {example['english']}\n  REF {example['reference']}\n  OUT {example['translation']}\n")
    return "\n".join(rows)


def run(model_path, pairs_file=None, data_path=None, columns=None, beam_size=1, jit_compile=None, placeholders=True,
        glossary=None):
    from translator.translator import Translator

    translator = Translator.load(model_path, jit_compile=jit_compile, placeholders=placeholders)
    pairs, name, known = load_eval_pairs(pairs_file, data_path, columns)
    result = {"data": name, "placeholders": placeholders,
              **evaluate(translator, pairs, beam_size=beam_size, known_words=known, glossary=glossary)}
    model_dir.update_metrics(model_path, evaluation=result)
    return result
