"""`python -m bench.apertium --more-data DIR`: the rule-based baseline, Apertium eng-spa, on the out-of-domain sets.

Pipes the English of newstest2012 and of the held-out slices of the further
pairs (`translator.evaluation.evaluate.DOMAINS`, from `translator.training.mix.evaluation_sets`)
through `apertium -u eng-spa` (the Debian package apertium-eng-spa; `-u`: no
`*` before unknown words, which are passed through as written) and scores the
output as `translator evaluate` scores a model's: BLEU and chrF (one reference,
sacrebleu defaults, `evaluate.score`), the shares with more sentence breaks
than their source and with English left untranslated (`evaluate.prose_scores`).
Results go to `bench/apertium.json` and a markdown table.

Each set is one `apertium` process. Apertium reads a single line break as a
space inside a paragraph (it moves words across lines when it reorders them),
so each sentence is a paragraph of its own: sentences are joined with a blank
line between, and the output must hold exactly as many, blank lines between.

    nice -n 19 .venv/bin/python -m bench.apertium --more-data /work/shared/data/more
"""

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from translator.defaults import quiet_tensorflow

quiet_tensorflow()

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "apertium.json"
DIRECTION = "eng-spa"
PACKAGE = "apertium-eng-spa"


class ApertiumError(RuntimeError):
    """Apertium failed, or its output does not line up with its input."""


def apertium_lines(sentences, direction=DIRECTION, command="apertium"):
    """The translations of `sentences` (white space folded, none blank), one a sentence, from one `apertium`
    process; an `ApertiumError` if it fails or returns another number of sentences."""
    folded = [" ".join(sentence.split()) for sentence in sentences]
    if not all(folded):
        raise ApertiumError("a blank sentence would merge with its neighbours' paragraphs")
    done = subprocess.run([command, "-u", direction], input="\n\n".join(folded) + "\n", capture_output=True,
                          text=True, encoding="utf-8", check=False)
    if done.returncode:
        raise ApertiumError(f"apertium {direction} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    lines = done.stdout.rstrip("\n").split("\n")
    translations, gaps = lines[0::2], lines[1::2]
    if len(translations) != len(folded) or any(gap.strip() for gap in gaps):
        raise ApertiumError(f"apertium returned {len(lines):,} lines for {len(folded):,} sentences "
                            f"({2 * len(folded) - 1:,} expected with the blank lines between)")
    return [translation.strip() for translation in translations]


def package_version(package):
    done = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package], capture_output=True, text=True,
                          check=False) if shutil.which("dpkg-query") else None
    return done.stdout.strip() if done and done.returncode == 0 else None


def score_set(pairs, direction=DIRECTION):
    """Apertium's scores on `pairs` (each distinct English translated once), as `translator evaluate` gives a
    model's under "domains", with its BLEU and chrF signatures and a few examples."""
    from translator.evaluation import evaluate

    english = [source for source, _ in pairs]
    sources = list(dict.fromkeys(english))
    started = time.perf_counter()
    translated = dict(zip(sources, apertium_lines(sources, direction), strict=True))
    seconds = time.perf_counter() - started
    hypotheses = [translated[source] for source in english]
    scores = evaluate.score(hypotheses, [[spanish for _, spanish in pairs]])
    return {
        "sentences": len(pairs), "bleu": scores["bleu"], "chrf": scores["chrf"],
        **evaluate.prose_scores(hypotheses, english),
        "seconds": round(seconds, 1), "sentences_per_second": round(len(sources) / seconds, 1),
        "bleu_signature": scores["bleu_signature"], "chrf_signature": scores["chrf_signature"],
        "examples": [{"english": e, "reference": r, "translation": h}
                     for (e, r), h in list(zip(pairs, hypotheses, strict=True))[:5]],
    }


def table(domains):
    rows = ["| set | sentences | BLEU | chrF | more sentences | untranslated | sentences/s |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, r in domains.items():
        untranslated = f"{r['untranslated']:.2f}%" if "untranslated" in r else "-"
        rows.append(f"| {name} | {r['sentences']:,} | {r['bleu']:.2f} | {r['chrf']:.2f} | {r['sentence_breaks']:.2f}% "
                    f"| {untranslated} | {r['sentences_per_second']:.0f} |")
    return "\n".join(rows)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--more-data", metavar="DIR",
                        help="the folder of further pairs (train/*.tsv, dev/newstest2012.tsv); "
                             "default: $TRANSLATOR_MORE_DATA")
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT))
    args = parser.parse_args(argv)

    if not shutil.which("apertium"):
        print(f"bench.apertium: the apertium command is not installed (Debian, Ubuntu: apt-get install {PACKAGE})",
              file=sys.stderr)
        return 2
    listed = subprocess.run(["apertium", "-l"], capture_output=True, text=True, check=False).stdout.split()
    if DIRECTION not in listed:
        print(f"bench.apertium: apertium has no {DIRECTION} pair (apt-get install {PACKAGE})", file=sys.stderr)
        return 2

    from translator.evaluation import evaluate
    from translator.training import data, mix

    try:
        sets = mix.evaluation_sets(args.more_data)
    except data.DataError as error:
        print(f"bench.apertium: {error}", file=sys.stderr)
        return 2
    domains = {}
    for name, key in evaluate.DOMAINS.items():
        print(f"{name}: {len(sets[key]):,} pairs", flush=True)
        try:
            domains[name] = score_set(sets[key])
        except ApertiumError as error:
            print(f"bench.apertium: {name}: {error}", file=sys.stderr)
            return 2
    results = {"system": f"apertium -u {DIRECTION}", "apertium": package_version("apertium"),
               PACKAGE: package_version(PACKAGE), "domains": domains}
    Path(args.output).write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\napertium {results['apertium']}, {PACKAGE} {results[PACKAGE]}; written to {args.output}\n")
    print(table(domains))
    return 0


if __name__ == "__main__":
    sys.exit(main())
