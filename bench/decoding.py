"""Decoding speed: the keras.io example's loop against our cached loop, on one model.

(a) `recompute_greedy`: the example's loop, which runs the encoder and the
    decoder over the whole prefix again for every token, from Python;
(b) `Translator.greedy_ids`: the compiled loop with cached encoder output and
    key/value caches, one sentence at a time;
(c) `Translator.translate` on many sentences, in batches.

(a) and (b) both go from token ids to token ids, so their ratio compares the
loops alone; (b) is also given end to end (text in, text out) for reference.
(b) and (c) are measured with the loop compiled by XLA (the targets) and as a
plain TensorFlow graph (what the command line runs on a CPU by default), each
after warm-up: XLA compiles once per batch shape, and a first pass that
includes those compiles is reported beside the steady figure.
"""

import statistics
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import tensorflow as tf

from translator.model.recompute import recompute_greedy
from translator.translate import Translator

LATENCY_SPEEDUP_TARGET = 50.0
THROUGHPUT_TARGET = 500.0  # sentences/s
BATCH_SIZES = (64, 256)
# Quoted for scale, not measured here.
APERTIUM_NOTE = "rule-based Apertium eng-spa: ~1,500 short sentences/s on the same 2 cores (quoted, not measured)"


def timed(function):
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def source_ids(translator, sentence):
    return tf.cast(translator.pipeline.source(tf.constant([sentence])), tf.int32)


def id_batches(translator, sentences, size=None):
    """Source ids in batches of `size` (default: the translator's), sorted by length as `Translator.translate`
    sorts them: whatever the size, the sentences come in the same order."""
    size = size or translator.batch_size
    ids = translator.pipeline.source(tf.constant(sentences)).numpy().astype(np.int32)
    order = np.argsort(np.count_nonzero(ids, axis=1), kind="stable")
    ids = ids[order]
    return [ids[start:start + size] for start in range(0, len(ids), size)]


def ours(translator, batches, beam_size):
    """Our compiled loop, ids to ids, batches decoded in parallel threads as `Translator.translate` does."""
    decode = translator.ids_function(beam_size)
    with ThreadPoolExecutor(translator.parallel_batches) as pool:
        return list(pool.map(lambda batch: decode(tf.constant(batch))[0].numpy(), batches))


def example_loop_seconds(translator, sentences):
    """Per-sentence seconds of the example's loop (after one untimed sentence: eager start-up)."""
    ids = [source_ids(translator, s) for s in sentences]
    start, end = translator.pipeline.start_id, translator.pipeline.end_id

    def decode(one):
        return recompute_greedy(translator.model, one, translator.max_length, start, end)

    with warnings.catch_warnings():
        # Keras warns that the first step's self-attention is a softmax over
        # one key; with a one-token prefix that is exactly right.
        warnings.filterwarnings("ignore", message=".*softmax over axis.*")
        decode(ids[0])
        return [timed(lambda one=one: decode(one)) for one in ids]


def greedy_seconds(translator, sentences, warmup=3):
    """Per-sentence seconds of our compiled loop, ids to ids, after `warmup` calls (tracing)."""
    ids = [source_ids(translator, s) for s in sentences]
    for one in ids[:warmup]:
        translator.greedy_ids(one)[0].numpy()
    return [timed(lambda one=one: translator.greedy_ids(one)[0].numpy()) for one in ids]


def translate_seconds(translator, sentences):
    """Per-sentence seconds of `translate`, text to text (vectorising and detokenising included)."""
    translator.translate(sentences[:1])
    return [timed(lambda s=s: translator.translate([s])) for s in sentences]


def throughput(translator, sentences, batch_size):
    """Sentences per second of batched `translate`: `(steady, first_pass)`.

    The first pass traces (and under XLA compiles) every batch shape these
    sentences need; the steady figure is a second pass over the same sentences.
    """
    # One translator for every batch size: the first pass prepares whatever new shapes a size needs.
    first = timed(lambda: translator.translate(sentences, batch_size=batch_size))
    steady = timed(lambda: translator.translate(sentences, batch_size=batch_size))
    return len(sentences) / steady, len(sentences) / first


def run(model_path, sentences, quick=False):
    """Section 1: returns a dict of every figure. `sentences` are English test sentences."""
    translator = Translator.load(model_path, jit_compile=True)
    graph = Translator(translator.model, translator.pipeline, translator.config, jit_compile=False)
    example_count, latency_count, batch_count = (2, 5, 200) if quick else (10, 20, 2000)
    example = example_loop_seconds(translator, sentences[:example_count])
    greedy = greedy_seconds(translator, sentences[:latency_count])
    greedy_graph = greedy_seconds(graph, sentences[:latency_count])
    end_to_end = translate_seconds(translator, sentences[:latency_count])
    rates, first_pass = {}, {}
    for size in BATCH_SIZES:
        rates[size], first_pass[size] = throughput(translator, sentences[:batch_count], size)
    graph_rate, _ = throughput(graph, sentences[:batch_count], BATCH_SIZES[0])
    # The speedup compares the two loops on the same sentences: the first of the latency set.
    speedup = statistics.median(example) / statistics.median(greedy[: len(example)])
    best = max(rates, key=rates.get)
    return {
        "example_loop": {"sentences": len(example), "median_ms": statistics.median(example) * 1e3,
                         "seconds": example},
        "greedy_one_sentence": {"sentences": len(greedy), "median_ms": statistics.median(greedy) * 1e3,
                                "seconds": greedy},
        "greedy_one_sentence_without_xla": {"sentences": len(greedy_graph),
                                            "median_ms": statistics.median(greedy_graph) * 1e3},
        "translate_one_sentence": {"sentences": len(end_to_end), "median_ms": statistics.median(end_to_end) * 1e3},
        "latency_speedup": speedup,
        "latency_speedup_target": LATENCY_SPEEDUP_TARGET,
        "latency_speedup_pass": speedup >= LATENCY_SPEEDUP_TARGET,
        "batched_sentences": min(batch_count, len(sentences)),
        "sentences_per_s": {f"batch_{size}": rate for size, rate in rates.items()},
        "first_pass_sentences_per_s": {f"batch_{size}": rate for size, rate in first_pass.items()},
        "sentences_per_s_without_xla": {f"batch_{BATCH_SIZES[0]}": graph_rate},
        "best_batch_size": best,
        "throughput": rates[best],
        "throughput_target": THROUGHPUT_TARGET,
        "throughput_pass": rates[best] >= THROUGHPUT_TARGET,
        "apertium_note": APERTIUM_NOTE,
    }


def table_rows(result):
    """(metric, value, target, verdict) rows for the printed table."""

    def verdict(passed):
        return "PASS" if passed else "MISS"

    rows = [
        (f"(a) example's loop, one sentence (median of {result['example_loop']['sentences']})",
         f"{result['example_loop']['median_ms']:.1f} ms", "", ""),
        (f"(b) our greedy loop (XLA), one sentence (median of {result['greedy_one_sentence']['sentences']})",
         f"{result['greedy_one_sentence']['median_ms']:.1f} ms", "", ""),
        ("    same, without XLA", f"{result['greedy_one_sentence_without_xla']['median_ms']:.1f} ms", "", ""),
        ("    same with XLA, text to text (translate)", f"{result['translate_one_sentence']['median_ms']:.1f} ms",
         "", ""),
        (f"speedup (a) / (b), on (a)'s {result['example_loop']['sentences']} sentences",
         f"{result['latency_speedup']:.1f}x", f">= {LATENCY_SPEEDUP_TARGET:g}x",
         verdict(result["latency_speedup_pass"])),
    ]
    for name, rate in result["sentences_per_s"].items():
        size = int(name.split("_")[1])
        best = size == result["best_batch_size"]
        rows.append((
            f"(c) batched translate (XLA), batch {size} ({result['batched_sentences']} sentences)",
            f"{rate:,.0f} sentences/s",
            f">= {THROUGHPUT_TARGET:g}/s" if best else "",
            verdict(result["throughput_pass"]) if best else "",
        ))
        rows.append(("    first pass, compiling included", f"{result['first_pass_sentences_per_s'][name]:,.0f} sentences/s",
                     "", ""))
    for name, rate in result["sentences_per_s_without_xla"].items():
        rows.append((f"    without XLA, batch {name.split('_')[1]}", f"{rate:,.0f} sentences/s", "", ""))
    rows.append((APERTIUM_NOTE, "", "", ""))
    return rows
