"""`python -m bench --model saved_models/en-es [--quick]`: every speed figure, on the same machine.

Runs decoding, training speed against the keras.io example,
GPU training (when there is a GPU), a serving load test and an overload
scenario, CTranslate2 on
the same weights (when the `bench` extra is installed) and the
`translate --file` command as a user runs it, on the same machine, writes
everything to `bench/results.json` and prints a table.
`--quick` runs tiny sizes, for tests and smoke runs: its figures mean nothing.
"""

import argparse
import datetime
import json
import os
import random
import sys
from pathlib import Path

from translator.defaults import DEFAULT_MODEL, quiet_tensorflow

# TensorFlow's start-up chatter is noise in a report.
quiet_tensorflow()

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "results.json"
LOAD_TEST_CLIENTS, LOAD_TEST_SECONDS = 32, 30.0
QUICK_LOAD_TEST_CLIENTS, QUICK_LOAD_TEST_SECONDS = 4, 3.0
# The overload scenario's sizes are its module's; --quick: heavy clients, small clients, seconds, warm-up.
QUICK_OVERLOAD = {"heavy_clients": 2, "small_clients": 1, "seconds": 3.0, "warm_up": 1.0}
# --quick: a slice of the corpus is enough to exercise every path.
QUICK_PAIRS = {"train": 2000, "val": 0, "test": 200}
QUICK_NEWS = 40


def machine_info():
    import numpy as np
    import tensorflow as tf

    from translator.machine import machine_record

    return machine_record(
        # Another process busy on the same cores would slow every figure: say so.
        load_average_at_start=os.getloadavg() if hasattr(os, "getloadavg") else None,
        gpus=[device.name for device in tf.config.list_physical_devices("GPU")],
        tensorflow=tf.__version__,
        numpy=np.__version__,
    )


def english_sentences(pairs, seed=0):
    """The distinct English sides, shuffled with a fixed seed.

    The corpus runs from short sentences to long ones: the first few thousand
    alone would flatter every speed. (The test split repeats a sentence once
    per translation, hence distinct.)
    """
    sentences = list(dict.fromkeys(english for english, _ in pairs))
    random.Random(seed).shuffle(sentences)
    return sentences


def load_test(model_path, sentences, decoding_result, quick):
    """Section 4, skipped with the reason when the load tester or the server's packages are missing."""
    clients, seconds = (QUICK_LOAD_TEST_CLIENTS, QUICK_LOAD_TEST_SECONDS) if quick else (
        LOAD_TEST_CLIENTS, LOAD_TEST_SECONDS)
    try:
        from bench.load_test import run_load_test

        # --quick only checks that it runs: without XLA it skips a minute of compiling.
        result = dict(run_load_test(model_path, clients=clients, seconds=seconds, sentences=sentences,
                                    jit_compile=not quick))
    except ImportError as error:  # bench/load_test.py not there, or fastapi/uvicorn not installed
        return {"skipped": True, "reason": f"load test skipped: {error}"}
    # A server batches requests from many clients, so it should keep at least
    # half of what batched translation does with no HTTP in the way.
    target = decoding_result["sentences_per_s"]["batch_64"] / 2
    return {
        "skipped": False, "clients": clients, "seconds": seconds, **result,
        "sentences_per_s_target": target, "sentences_per_s_pass": result["sentences_per_s"] >= target,
    }


def load_test_rows(result):
    if result["skipped"]:
        return [(result["reason"], "", "", "skipped")]
    direct = result["without_http"]
    return [
        (f"requests/s ({result['clients']} clients, {result['seconds']:.0f} s)", f"{result['requests_per_s']:,.1f}",
         "", ""),
        ("latency p50 / p99", f"{result['p50_ms']:.0f} / {result['p99_ms']:.0f} ms", "", ""),
        ("errors", f"{result['errors']} of {result['requests']}", "", ""),
        ("mean batch size; server CPU cores busy", f"{result['mean_batch_size']:.1f}; {result['server_cpu_cores']:.1f}",
         "", ""),
        ("share of the time a batch was decoding", f"{result['decoding_share']:.0%}", "", ""),
        ("same clients without HTTP (batcher only): sentences/s", f"{direct['sentences_per_s']:,.0f}", "", ""),
        ("    mean batch size; share decoding",
         f"{direct['mean_batch_size']:.1f}; {direct['decoding_share']:.0%}", "", ""),
        ("sentences/s", f"{result['sentences_per_s']:,.0f}", f">= {result['sentences_per_s_target']:,.0f}",
         "PASS" if result["sentences_per_s_pass"] else "MISS"),
    ]


def overload(model_path, sentences, quick):
    """Section 4b: small requests while heavy ones saturate the server; skipped like section 4."""
    try:
        from bench.load_test import run_overload_test

        # --quick skips compiling; else XLA is chosen as `translator serve` chooses it.
        sizes = {**QUICK_OVERLOAD, "jit_compile": False} if quick else {}
        return {"skipped": False, **run_overload_test(model_path, sentences=sentences, **sizes)}
    except ImportError as error:
        return {"skipped": True, "reason": f"overload scenario skipped: {error}"}


def overload_rows(result):
    if result["skipped"]:
        return [(result["reason"], "", "", "skipped")]
    small, heavy, oversize = result["small"], result["heavy"], result["oversize_request"]

    def ms(value):
        return "-" if value is None else f"{value:,.0f}"

    return [
        (f"{result['heavy_clients']} clients: {result['heavy_request']['texts']} sentences at beam "
         f"{result['heavy_request']['beam']}, {result['seconds']:.0f} s", "", "", ""),
        (f"  {oversize['texts']} sentences at beam {oversize['beam']}: status, ms",
         f"{oversize['status']}, {oversize['ms']:,.0f}", "413", "PASS" if oversize["status"] == 413 else "MISS"),
        ("  share of the time saturated", f"{result['saturated_share']:.0%}", "", ""),
        ("  heavy requests refused", f"{heavy['refused']} of {heavy['requests']}", "", ""),
        (f"{result['small_clients']} clients: one short sentence at a time", "", "", ""),
        ("  answered p50 / p99 / max (ms)",
         f"{ms(small['answered_p50_ms'])} / {ms(small['answered_p99_ms'])} / {ms(small['answered_max_ms'])}",
         f"<= {result['answered_within_s'] * 1000:,.0f}", ""),
        ("  refused: share; p50 / max (ms)",
         f"{small['refused_share']:.0%}; {ms(small['refused_p50_ms'])} / {ms(small['refused_max_ms'])}",
         f"<= {result['refused_within_s'] * 1000:,.0f}", ""),
        ("  answered or refused in time, no other outcome", f"{small['requests']} requests", "all",
         "PASS" if result["small_pass"] else "MISS"),
    ]


def ctranslate2_anchor(model_path, sentences, quick):
    """Section 5, skipped with the reason when `ctranslate2` (the `bench` extra) is not installed."""
    try:
        from bench.ctranslate2_anchor import run_in_own_process
    except ImportError as error:
        return {"skipped": True, "reason": f"CTranslate2 anchor skipped: {error} (pip install -e '.[bench]')"}
    return {"skipped": False, **run_in_own_process(model_path, sentences, quick)}


def news_sentences(more_path, quick):
    """newstest2012's English (a slice with --quick) from the further pairs' folder (`--more-data`, else
    $TRANSLATOR_MORE_DATA), for speed on long sentences; None without either."""
    from translator.training import mix

    if not more_path and not os.environ.get(mix.MORE_ENV):
        return None
    sentences = [english for english, _ in mix.evaluation_sets(more_path)["dev"]]
    return sentences[:QUICK_NEWS] if quick else sentences


def ctranslate2_rows(result):
    if result["skipped"]:
        return [(result["reason"], "", "", "skipped")]
    from bench.ctranslate2_anchor import table_rows

    return table_rows(result)


def format_table(sections):
    """Plain-text table: `sections` is a list of (title, rows), each row (metric, value, target, verdict)."""
    header = ("metric", "value", "target", "result")
    rows = [row for _, section_rows in sections for row in section_rows]
    # A long note row (no value) would stretch the first column for everyone: it is left out of the widths.
    widths = [max(len(str(row[i])) for row in [header, *(r for r in rows if r[1])]) for i in range(4)]

    def line(row):
        return "  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()

    out = [line(header), line(["-" * w for w in widths])]
    for title, section_rows in sections:
        out += ["", f"[{title}]", *(line(row) for row in section_rows)]
    return "\n".join(out)


def run_benchmark(model_path=DEFAULT_MODEL, output=DEFAULT_OUTPUT, quick=False, splits=None,
                  default_model=DEFAULT_MODEL, data_path=None, against=None, more_path=None):
    """Runs every section, writes `output` (JSON) and returns `(results, table)`.

    `splits` (train/test pair lists) replaces the corpus; `default_model` is
    where the `default` preset's vocabulary and epoch times are read from;
    `against`, a checkout of another commit, is what section 6 pairs this one's default flags with;
    `more_path`, the further pairs' folder, adds CTranslate2 on newstest2012's long sentences (5b).
    """
    from bench import command_line, decoding, training
    from translator.training import data

    splits = splits or data.load_splits(data_path)
    if quick:
        # A random slice: the corpus runs from short sentences to long ones.
        splits = {name: random.Random(0).sample(pairs, min(len(pairs), QUICK_PAIRS.get(name, 0)))
                  for name, pairs in splits.items()}
    sentences = english_sentences(splits["test"])
    results = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join([Path(sys.executable).name, "-m", "bench", *sys.argv[1:]]),
        "model": str(model_path),
        "quick": quick,
        "machine": machine_info(),
    }
    results["decoding"] = decoding.run(model_path, sentences, quick)
    results["training"] = training.run(splits["train"], default_model, quick)
    results["gpu"] = training.run_gpu(splits["train"], default_model, quick)
    results["load_test"] = load_test(model_path, sentences, results["decoding"], quick)
    results["overload"] = overload(model_path, sentences, quick)
    results["ctranslate2"] = ctranslate2_anchor(model_path, sentences, quick)
    news = news_sentences(more_path, quick)
    results["ctranslate2_news"] = ctranslate2_anchor(model_path, news, quick) if news else {
        "skipped": True, "reason": "newstest2012 skipped: --more-data DIR or $TRANSLATOR_MORE_DATA (make bench MORE=DIR)"}
    results["command_line"] = command_line.run(model_path, sentences, quick, against)

    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    table = format_table([
        ("1. decoding, one model", decoding.table_rows(results["decoding"])),
        (f"2. training speed, batch {training.BATCH_SIZE}", training.table_rows(results["training"])),
        ("3. GPU", training.gpu_rows(results["gpu"])),
        ("4. serving load test", load_test_rows(results["load_test"])),
        ("4b. serving overload: small requests while the server is saturated", overload_rows(results["overload"])),
        ("5. outside anchor: CTranslate2", ctranslate2_rows(results["ctranslate2"])),
        ("5b. outside anchor on newstest2012's long sentences: CTranslate2", ctranslate2_rows(results["ctranslate2_news"])),
        ("6. translate --file, whole processes", command_line.table_rows(results["command_line"])),
    ])
    return results, table


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=DEFAULT_MODEL, help="the trained model to decode and serve with")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: checks that everything runs")
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT), help="where to write the JSON results")
    parser.add_argument("--default-model", default=DEFAULT_MODEL,
                        help="the trained `default` preset: its vocabulary and epoch times")
    parser.add_argument("--data", help="corpus path (else TRANSLATOR_DATA or the cached download)")
    parser.add_argument("--more-data", help="the further pairs' folder, for newstest2012 (else TRANSLATOR_MORE_DATA)")
    parser.add_argument("--against", help="a checkout of another commit, with its own saved_models/en-es: section 6 "
                                          "also times its default `translate --file` against this one's, in turn")
    args = parser.parse_args(argv)
    import tensorflow as tf

    # Three models each trace their train step for two batch shapes; TensorFlow's
    # "excessive retracing" warning counts them together, wrongly.
    tf.get_logger().setLevel("ERROR")
    from translator.training.data import DataError

    try:
        results, table = run_benchmark(args.model, args.output, args.quick, default_model=args.default_model,
                                       data_path=args.data, against=args.against, more_path=args.more_data)
    except DataError as error:  # no corpus: one line, as the `translator` command says it
        parser.exit(2, f"python -m bench: {error}\n")
    print(table)
    print(f"\nmachine: {results['machine']['processor']}, {results['machine']['cpu_count']} CPUs; "
          f"written to {args.output}")


if __name__ == "__main__":
    main()
