"""BLEU and chrF of a model on the test split (or any file of pairs), with sacrebleu."""

import time

import keras
import sacrebleu

from translator import data, model_dir


def translate_all(translator, english, beam_size=1, batch_size=2048):
    """Translates a list of sentences, with a Keras progress bar.

    Chunks are large so the translator can sort each by length into batches
    of similar sentences; the bar advances once a chunk.
    """
    progress = keras.utils.Progbar(len(english), unit_name="sentence")
    outputs = []
    for start in range(0, len(english), batch_size):
        outputs += translator.translate(english[start:start + batch_size], beam_size=beam_size)
        progress.update(len(outputs))
    return outputs


def score(hypotheses, references):
    """Corpus BLEU and chrF: cased, sacrebleu's default tokenisation, references as written."""
    bleu = sacrebleu.metrics.BLEU()
    chrf = sacrebleu.metrics.CHRF()
    return {
        "bleu": round(bleu.corpus_score(hypotheses, [references]).score, 2),
        "chrf": round(chrf.corpus_score(hypotheses, [references]).score, 2),
        "bleu_signature": str(bleu.get_signature()),
        "chrf_signature": str(chrf.get_signature()),
    }


def evaluate(translator, pairs, beam_size=1, examples=10):
    """Scores `translator` on `pairs`; returns the scores, timing and example translations."""
    english = [source for source, _ in pairs]
    references = [target for _, target in pairs]
    started = time.perf_counter()
    hypotheses = translate_all(translator, english, beam_size=beam_size)
    seconds = time.perf_counter() - started
    result = score(hypotheses, references)
    result.update(
        sentences=len(pairs),
        beam_size=beam_size,
        seconds=round(seconds, 1),
        sentences_per_second=round(len(pairs) / seconds, 1),
        examples=[
            {"english": e, "reference": r, "translation": h}
            for e, r, h in list(zip(english, references, hypotheses))[:examples]
        ],
    )
    return result


def load_eval_pairs(pairs_file=None, data_path=None, columns=None):
    """The pairs to score: a user's file of pairs, else the corpus' leak-free test split."""
    if pairs_file:
        pairs, _ = data.parse_pairs(data.read_lines(pairs_file), source=str(pairs_file), columns=columns)
        return pairs, str(pairs_file)
    return data.load_splits(data_path)["test"], "test split"


def report(result, name):
    print(f"\n{name}: {result['sentences']:,} sentences, beam {result['beam_size']}")
    print(f"BLEU {result['bleu']:.2f}   {result['bleu_signature']}")
    print(f"chrF {result['chrf']:.2f}   {result['chrf_signature']}")
    print(f"{result['sentences_per_second']:.0f} sentences/s\n")
    for example in result["examples"]:
        print(f"  EN  {example['english']}\n  REF {example['reference']}\n  OUT {example['translation']}\n")


def run(model_path, pairs_file=None, data_path=None, columns=None, beam_size=1):
    from translator.decoding import Translator

    translator = Translator.load(model_path)
    pairs, name = load_eval_pairs(pairs_file, data_path, columns)
    result = evaluate(translator, pairs, beam_size=beam_size)
    report(result, name)
    model_dir.update_metrics(model_path, evaluation={"data": name, **result})
    return result
