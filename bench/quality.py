"""`python -m bench.quality`: each quality lever against the previous model, on the same test split.

Every row translates the leak-free test split (each distinct English sentence
once) and the shipped names-and-numbers set, and reports BLEU and chrF (one
reference, sacrebleu defaults), the copy rate, the invented-word rate and the
decoding speed. A row is a model directory, optionally with other weights
loaded into it (an epoch of the training run, or the mean of the last epochs),
a beam size, whether names and numbers are swapped for stand-ins
(`translator.text.placeholders`; the shipped model's rows, and with
`--without-placeholders` those rows again without) and whether beam
hypotheses are re-ranked (`translator.text.rerank`: against invented words, then
by the beam's consensus; with `--without-rerank` the shipped model's beam rows
again without either, with `--without-consensus` again against invented words
only). Results go to `bench/quality.json` and a markdown table.

    python -m bench.quality --model saved_models/en-es --run runs/en-es \\
        --baseline runs/baseline-en-es --beams 1,4,6 --without-placeholders
"""

import argparse
import csv
import json
from pathlib import Path

from translator.defaults import DEFAULT_MODEL, quiet_tensorflow

quiet_tensorflow()

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "quality.json"


RERANKINGS = ("off", "invented words", "invented words, consensus")


def rows_to_measure(model, run, baseline, beams, average_last=5, without_placeholders=False, without_rerank=False,
                    without_consensus=False):
    """`(label, model directory, weight files or None, beam, placeholders, rerank)` for every row of the table.

    Several weight files are averaged (see `translator.training.selection.average_weights`); `rerank` is one
    of `RERANKINGS`.
    """
    off, lexicon, everything = RERANKINGS
    rows = []
    if baseline:
        rows += [(f"previous model, beam {beam}", baseline, None, beam, False, off) for beam in beams]
    if run:
        from translator.training import selection

        with (Path(run) / "history.csv").open() as handle:
            history = list(csv.DictReader(handle))
        by_loss = min(range(len(history)), key=lambda i: float(history[i]["val_loss"])) + 1
        by_bleu = max(range(len(history)), key=lambda i: float(history[i]["val_bleu"])) + 1
        name = Path(run).name
        for epoch, why in ((by_loss, "best validation loss"), (by_bleu, "best validation BLEU")):
            weights = [Path(run) / selection.EPOCH_FILE.format(epoch)]
            rows.append((f"{name}, epoch {epoch} ({why}), beam 1", model, weights, 1, False, off))
        last = selection.epoch_weights(run, average_last)
        rows.append((f"{name}, mean of the last {len(last)} epochs, beam 1", model, last, 1, False, off))
    if model:
        for beam in beams:
            rerank = everything if beam > 1 else off
            if without_placeholders:
                rows.append((f"{model}, beam {beam}, no placeholders", model, None, beam, False, rerank))
            if without_rerank and beam > 1:
                rows.append((f"{model}, beam {beam}, no re-ranking", model, None, beam, True, off))
            if without_consensus and beam > 1:
                rows.append((f"{model}, beam {beam}, re-ranked against invented words only", model, None, beam, True,
                             lexicon))
            rows.append((f"{model}, beam {beam}", model, None, beam, True, rerank))
    return rows


def load_translator(directory, weights, jit_compile, placeholders, rerank=RERANKINGS[-1]):
    from translator.training import selection
    from translator.translate import Translator

    translator = Translator.load(directory, jit_compile=jit_compile, placeholders=placeholders,
                                 consensus=rerank == RERANKINGS[2])
    if rerank == RERANKINGS[0]:
        translator.lexicon = None
    if weights:
        selection.average_weights(translator.model, weights)
    return translator


def training_seconds(directory):
    from translator import model_dir

    return model_dir.read_metrics(directory).get("training", {}).get("train_seconds")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default=DEFAULT_MODEL, help='the shipped model ("" to skip it)')
    parser.add_argument("--run", help="the training run directory of --model (per-epoch weights)")
    parser.add_argument("--baseline", help="a model directory to compare against")
    parser.add_argument("--beams", default="1,4", help="beam sizes to measure, comma-separated")
    parser.add_argument("--data", help="the corpus (default: as `translator data` finds it)")
    parser.add_argument("--limit", type=int, help="score only the first N test pairs (smoke runs)")
    parser.add_argument("--xla", action="store_true", help="decode with XLA (faster on a long run)")
    parser.add_argument("--without-placeholders", action="store_true",
                        help="also measure the shipped model without name and number stand-ins")
    parser.add_argument("--without-rerank", action="store_true",
                        help="also measure the shipped model's beam rows without re-ranking the hypotheses")
    parser.add_argument("--without-consensus", action="store_true",
                        help="also measure the shipped model's beam rows re-ranked against invented words only")
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT))
    args = parser.parse_args(argv)

    from translator.evaluation import evaluate

    test_pairs, _, known, _ = evaluate.load_eval_pairs(data_path=args.data)
    test_pairs = test_pairs[: args.limit]
    beams = [int(b) for b in args.beams.split(",")]
    results = []
    rows = rows_to_measure(args.model, args.run, args.baseline, beams, without_placeholders=args.without_placeholders,
                           without_rerank=args.without_rerank, without_consensus=args.without_consensus)
    for label, directory, weights, beam, placeholders, rerank in rows:
        print(f"\n{label}", flush=True)
        translator = load_translator(directory, weights, args.xla, placeholders, rerank)
        result = evaluate.evaluate(translator, test_pairs, beam_size=beam, known_words=known, examples=0)
        results.append({
            "row": label, "model": str(directory), "weights": [str(w) for w in weights or []], "beam": beam,
            "placeholders": placeholders, "rerank": rerank, "bleu": result["bleu"], "chrf": result["chrf"],
            "copy_rate": result["copy_rate"], "heldout_copy_rate": result["heldout_copy_rate"],
            "invented_word_rate": result["invented_word_rate"], "sentences_per_second": result["sentences_per_second"],
            "training_seconds": training_seconds(directory), "bleu_signature": result["bleu_signature"],
            "copy_failures": result["copy_failures"], "invented_words": result["invented_words"],
        })
    Path(args.output).write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(f"\n{len(test_pairs):,} test pairs; written to {args.output}\n")
    print("| row | BLEU | chrF | copy rate | held-out copy rate | invented words | sentences/s | training |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in results:
        hours = f"{r['training_seconds'] / 3600:.2f} h" if r["training_seconds"] else ""
        print(f"| {r['row']} | {r['bleu']:.2f} | {r['chrf']:.2f} | {r['copy_rate']:.1f}% | {r['heldout_copy_rate']:.1f}% "
              f"| {r['invented_word_rate']:.2f}% | {r['sentences_per_second']:.0f} | {hours} |")


if __name__ == "__main__":
    main()
