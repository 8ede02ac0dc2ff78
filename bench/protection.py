"""`python -m bench.protection`: typed placeholders against real-word stand-ins, on one model.

A model trained on typed placeholders can have its spans protected two
ways: by the tokens it was trained on, put back by index
(`translator.repairs`), or by real words it knows, tracked through its
Spanish and checked and retried by the rules made for the earlier model
(`translator.text.verbatim`, `translator.text.garbling`). Each policy
translates, with the same model and beam, the span sets (names and numbers,
spans, golden lines, and their held-out shares: the share of lines keeping
every span), the glossary set with its terms, and with `--more-data` the
out-of-domain sets (BLEU, chrF, sentence breaks, untranslated words).
Results go to `bench/protection.json` and a table.

    python -m bench.protection --model saved_models/stages/en-es/base-2 --more-data ../shared/data/more
"""

import argparse
import json
import time
from pathlib import Path

from translator.defaults import DEFAULT_BEAM, quiet_tensorflow

quiet_tensorflow()

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "protection.json"
POLICIES = {"typed placeholders": True, "real-word stand-ins": False}


def measure(translator, beam_size, domain_sets, known):
    """The span, glossary and (given `domain_sets`) out-of-domain scores of `translator`, and its seconds."""
    from translator.evaluation import evaluate, quality

    started = time.perf_counter()
    result = {}
    for key, name in quality.COPY_SETS.items():
        rows = quality.load_copy_set(name)
        copies = translator.translate([english for english, _ in rows], beam_size=beam_size)
        result[key] = round(100 * quality.copy_rate(copies, [items for _, items in rows]), 1)
    terms, rows = quality.load_glossary_set()
    holding = [english for english, _ in rows]
    result["glossary_terms"] = round(100 * quality.glossary_rate(
        translator.translate(holding, beam_size=beam_size, glossary=terms), holding, terms), 1)
    if domain_sets:
        result["domains"] = evaluate.score_domains(translator, domain_sets, beam_size, known=known)
    result["seconds"] = round(time.perf_counter() - started, 1)
    return result


def table(results):
    """The results as a markdown table, one row per policy."""
    first = next(iter(results.values()))
    columns = [key for key in first if key not in ("domains", "seconds")]
    domains = list(first.get("domains", {}))
    header = ["policy", *columns, *(f"{name} {score}" for name in domains
                                    for score in ("BLEU", "chrF", "breaks", "untranslated")), "seconds"]
    rows = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for policy, result in results.items():
        cells = [policy, *(f"{result[key]:.1f}" for key in columns)]
        for name in domains:
            scores = result["domains"][name]
            cells += [f"{scores['bleu']:.2f}", f"{scores['chrf']:.2f}", f"{scores['sentence_breaks']:.2f}%",
                      f"{scores.get('untranslated', float('nan')):.2f}%"]
        rows.append("| " + " | ".join([*cells, f"{result['seconds']:.0f}"]) + " |")
    return "\n".join(rows)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True, help="a model directory trained on typed placeholders")
    parser.add_argument("--beam", type=int, default=DEFAULT_BEAM)
    parser.add_argument("--more-data", help="the further pairs' folder: score newstest2012 and the held-out sets too")
    parser.add_argument("--domains", default="newstest2012", help="which out-of-domain sets, comma-separated")
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT))
    args = parser.parse_args(argv)

    from translator.evaluation import evaluate, quality
    from translator.translate import Translator

    translator = Translator.load(args.model, jit_compile=False)
    if not translator.typed:
        parser.error(f"{args.model} was not trained on typed placeholders: nothing to compare")
    domain_sets = None
    if args.more_data:
        wanted = args.domains.split(",")
        domain_sets = {name: pairs for name, pairs in evaluate.load_domain_sets(args.more_data).items() if name in wanted}
    known = quality.spanish_dictionary() if domain_sets else None
    results = {}
    for policy, typed in POLICIES.items():
        translator.typed = typed
        results[policy] = measure(translator, args.beam, domain_sets, known)
        print(f"{policy}: {results[policy]}", flush=True)
    Path(args.output).write_text(json.dumps({"model": args.model, "beam": args.beam, "results": results}, indent=2,
                                            ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nwritten to {args.output}\n\n{table(results)}")


if __name__ == "__main__":
    main()
