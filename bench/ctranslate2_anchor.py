"""Section 5, an outside yardstick: CTranslate2 decoding the same weights on the same sentences.

CTranslate2 is a C++ inference engine for Transformers, quick on CPUs. The
model directory is converted to its format (post-norm layers, learned
positions, no embedding scaling, the project's vocabularies and special
tokens), its greedy tokens are checked against ours in float32 (the
conversion exact) and as timed, and then both engines
decode the same sentences' token ids, greedy and beam 4, with CTranslate2's
weights in float32 and in int8. Each engine is timed as it runs best on a
CPU: ours as `translator translate` runs it (no XLA, batches of its default
size, a batch per core plus
one, each operation on one core: `devices.decoding_batches`, which must
come before TensorFlow starts, so the section runs in a process of its
own; bfloat16 layers where the CPU multiplies bfloat16, the model's
shortlist where it has one); CTranslate2 in both of its layouts (one batch at a time on every
core, or a batch per core on one core each) and with batches of 64 sentences or of ours, its figure the
fastest (64 is its best here: larger batches were slower, bench/RESULTS.md). Text
in and out is not timed: sentences are tokenised once, by the project's
pipeline, for both.

This is a yardstick for the benchmark, not a second engine in the product:
nothing in `translator` uses it. Importing it needs `ctranslate2` (the `bench`
extra); `python -m bench` skips the section without it.
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import ctranslate2
import numpy as np
from ctranslate2.specs.transformer_spec import TransformerSpec
from keras import ops

from bench import child_environment
from bench.decoding import id_batches, ours
from translator.defaults import BATCH_SIZE, DEFAULT_BEAM, LENGTH_PENALTY
from translator.devices import bfloat16_decoding, cores, decoding_batches
from translator.tokens import END, START, UNK
from translator.translate import Translator

# CTranslate2's batch sizes, besides ours (`BATCH_SIZE`).
THEIR_BATCH_SIZES = (64, BATCH_SIZE)
# `decoding.beam_decode`'s defaults, which `Translator` decodes with. The same
# numbers do not make the same search: ours divides every candidate's
# log-probability by the GNMT penalty ((5 + length) / 6) ** 0.6 at every step,
# [end] counted in the length; CTranslate2 picks candidates by log-probability
# alone and divides only finished hypotheses by length ** 0.6, [end] not
# counted, stopping once `beam_size` have finished. The work per sentence is
# alike; a few outputs differ, and the table says how many.
COMPUTE_TYPES = ("float32", "int8")
MATCH_SENTENCES, TIMED_SENTENCES = 100, 2000
# --quick: checks that everything runs; its figures mean nothing.
QUICK_MATCH_SENTENCES, QUICK_TIMED_SENTENCES = 10, 2 * BATCH_SIZE
# Greedy outputs of ours as timed (bfloat16 layers on some CPUs) that must equal CTranslate2 float32's: its
# int8 keeps 95 in 100 of ours, the share a faster number format is allowed to change.
SAME_TOKENS_SHARE = 0.95


def _numpy(variable):
    return np.asarray(ops.convert_to_numpy(variable), np.float32)


def _projection(layer, inputs=1):
    """A Keras `Dense`/`EinsumDense` as CTranslate2's `(out, in)` weight and bias.

    The kernel's first `inputs` axes are the input: an attention's query,
    key and value kernels are `(embed, heads, head_size)`, its output kernel
    `(heads, head_size, embed)`; heads flatten head-major on both sides.
    """
    kernel = _numpy(layer.kernel)
    weight = kernel.reshape(int(np.prod(kernel.shape[:inputs])), -1).T
    return np.ascontiguousarray(weight), _numpy(layer.bias).reshape(-1)


def _set_linear(spec, *projections):
    """One CTranslate2 linear layer; several projections of the same input are stacked (its fused q/k/v)."""
    weights, biases = zip(*projections, strict=True)
    spec.weight = np.concatenate(weights)
    spec.bias = np.concatenate(biases)


def _set_norm(spec, norm):
    spec.gamma, spec.beta = _numpy(norm.gamma), _numpy(norm.beta)


def _set_attention(spec, attention, norm, self_attention):
    query, key, value = (_projection(dense) for dense in (attention._query_dense, attention._key_dense,
                                                          attention._value_dense))
    if self_attention:
        _set_linear(spec.linear[0], query, key, value)
    else:
        _set_linear(spec.linear[0], query)
        _set_linear(spec.linear[1], key, value)
    _set_linear(spec.linear[-1], _projection(attention._output_dense, inputs=2))
    # Post-norm: CTranslate2 applies this norm after the residual sum, as our layers do.
    _set_norm(spec.layer_norm, norm)


def _set_feed_forward(spec, feed_forward, norm):
    inner, outer = feed_forward.layers
    _set_linear(spec.linear_0, _projection(inner))
    _set_linear(spec.linear_1, _projection(outer))
    _set_norm(spec.layer_norm, norm)


def _set_embedding(spec, token_spec, embedding):
    """Token and position tables (ours are not scaled by sqrt(embed_dim)); returns the token table."""
    token_spec.weight = table = _numpy(embedding.token_embeddings.embeddings)
    spec.scale_embeddings = False
    # Row i is position i on both sides: the decoder's [start] is at position 0.
    spec.position_encodings.encodings = _numpy(embedding.position_embeddings.embeddings)
    return table


def model_spec(translator):
    """The `TransformerSpec` of a `Translator`'s model: same weights, vocabularies and special tokens."""
    model, pipeline, config = translator.model, translator.pipeline, translator.config
    if config.positional != "learned":
        raise ValueError(f"only learned positions are converted, not {config.positional!r}")
    spec = TransformerSpec.from_config((config.num_encoder_layers, config.num_decoder_layers), config.num_heads,
                                       pre_norm=False)
    _set_embedding(spec.encoder, spec.encoder.embeddings[0], model.source_embedding)
    for layer_spec, layer in zip(spec.encoder.layer, model.encoder_layers, strict=True):
        _set_attention(layer_spec.self_attention, layer.self_attention, layer.attention_norm, self_attention=True)
        _set_feed_forward(layer_spec.ffn, layer.feed_forward, layer.feed_forward_norm)
    target_table = _set_embedding(spec.decoder, spec.decoder.embeddings, model.target_embedding)
    for layer_spec, layer in zip(spec.decoder.layer, model.decoder_layers, strict=True):
        _set_attention(layer_spec.self_attention, layer.self_attention, layer.self_attention_norm,
                       self_attention=True)
        _set_attention(layer_spec.attention, layer.cross_attention, layer.cross_attention_norm,
                       self_attention=False)
        _set_feed_forward(layer_spec.ffn, layer.feed_forward, layer.feed_forward_norm)
    if model.logits is None:  # tied: the output projection is the target table plus a bias
        spec.decoder.projection.weight = target_table
        spec.decoder.projection.bias = _numpy(model.logits_bias)
    else:
        _set_linear(spec.decoder.projection, _projection(model.logits))
    # Keras' LayerNormalization epsilon is 1e-3, not CTranslate2's default: left
    # at that, 13 of the shipped model's first 100 greedy outputs differed.
    spec.config.layer_norm_epsilon = float(model.encoder_layers[0].attention_norm.epsilon)
    spec.config.unk_token = UNK
    spec.config.bos_token = spec.config.decoder_start_token = START
    spec.config.eos_token = END
    # Whole vocabularies, padding "" at 0 and [UNK] at 1 included, so token ids are ours.
    spec.register_source_vocabulary(pipeline.source_vocabulary)
    spec.register_target_vocabulary(pipeline.target_vocabulary)
    return spec


def convert(translator, output_dir):
    """Writes the CTranslate2 model of `translator`'s model to `output_dir` (float32 weights)."""
    spec = model_spec(translator)
    spec.validate()
    spec.optimize()
    os.makedirs(output_dir, exist_ok=True)
    spec.save(str(output_dir))
    return output_dir


def layouts():
    """CTranslate2's two ways of using the cores: `(intra_threads, inter_threads)`, the threads one batch is
    computed on and the batches computed at once."""
    return {"one batch on every core": (cores(), 1), "a batch per core": (1, cores())}


def load(directory, compute_type, layout=None):
    """A CTranslate2 translator in one of `layouts` (default: the first)."""
    intra_threads, inter_threads = layout or layouts()["one batch on every core"]
    return ctranslate2.Translator(str(directory), device="cpu", compute_type=compute_type,
                                  intra_threads=intra_threads, inter_threads=inter_threads)


def token_batches(translator, batches):
    """The same batches as vocabulary strings, padding dropped: CTranslate2's input."""
    vocabulary = translator.pipeline.source_vocabulary
    return [[[vocabulary[i] for i in row if i] for row in batch] for batch in batches]


def theirs(engine, batches, beam_size, max_length, parallel_batches=1):
    """CTranslate2 on the same batches, stopping as ours does, `parallel_batches` at a time (in threads: it
    computes outside Python's lock).

    At most `max_length` tokens, [end] included; [end] may come first (its
    default minimum length is 1).
    """
    def translate(batch):
        return engine.translate_batch(batch, beam_size=beam_size, length_penalty=LENGTH_PENALTY,
                                      max_decoding_length=max_length, min_decoding_length=0)

    with ThreadPoolExecutor(parallel_batches) as pool:
        return list(pool.map(translate, batches))


def our_tokens(translator, outputs):
    """Each sentence's target ids, up to (not including) [end]."""
    end = translator.pipeline.end_id
    rows = [row for batch in outputs for row in batch.tolist()]
    return [row[: row.index(end)] if end in row else row for row in rows]


def their_tokens(translator, outputs):
    index = {token: i for i, token in enumerate(translator.pipeline.target_vocabulary)}
    return [[index[token] for token in result.hypotheses[0]] for batch in outputs for result in batch]


def matches(left, right):
    return sum(a == b for a, b in zip(left, right, strict=True))


def throughput(decode, sentences):
    """Sentences per second of `decode()` after one untimed pass (tracing, XLA compiling); and its outputs."""
    decode()
    start = time.perf_counter()
    outputs = decode()
    return sentences / (time.perf_counter() - start), outputs


def run(model_path, sentences, quick=False):
    """Section 5: returns a dict of every figure. `sentences` are English test sentences.

    Greedy outputs are compared on the first sentences (the raw model
    outputs: no stand-ins for names and numbers, no copying for [UNK]); speed
    on the first `TIMED_SENTENCES` of them. Call it in a process that has not
    started TensorFlow (`run_in_own_process`): ours then runs as `translate` runs it.
    """
    # Two of ours: float32 over the whole vocabulary, as CTranslate2 decodes, checks the conversion token for
    # token (a shortlist changed 3 of base-2's first 100 news sentences); the timed one decodes as `translate` does.
    exact = Translator.load(model_path, jit_compile=False, parallel_batches=decoding_batches(False), shortlist=False)
    bfloat16 = bfloat16_decoding(None, jit_compile=False)
    translator = Translator.load(model_path, jit_compile=False, parallel_batches=decoding_batches(False),
                                 bfloat16=bfloat16)
    match_count, timed_count = (QUICK_MATCH_SENTENCES, QUICK_TIMED_SENTENCES) if quick else (
        MATCH_SENTENCES, TIMED_SENTENCES)
    compared, timed = sentences[:match_count], sentences[:timed_count]
    max_length = translator.max_length
    with tempfile.TemporaryDirectory() as directory:
        convert(translator, directory)
        engines = {(compute_type, name): (load(directory, compute_type, layout), layout[1])
                   for compute_type in COMPUTE_TYPES for name, layout in layouts().items()}

    batches = id_batches(translator, compared)
    their_greedy = {compute_type: their_tokens(translator, theirs(
        engines[compute_type, "one batch on every core"][0], token_batches(translator, batches), 1, max_length))
        for compute_type in COMPUTE_TYPES}
    reference = our_tokens(translator, ours(exact, batches, 1))
    greedy_match = {compute_type: matches(reference, tokens) for compute_type, tokens in their_greedy.items()}
    timed_greedy_match = matches(our_tokens(translator, ours(translator, batches, 1)), their_greedy["float32"])

    batches = id_batches(translator, timed)
    their_batches = {size: token_batches(translator, id_batches(translator, timed, size))
                     for size in sorted(set(THEIR_BATCH_SIZES))}
    rates, beam_match, by_layout, their_layout = {}, {}, {}, {}
    for beam_size in (1, DEFAULT_BEAM):
        decoding = "greedy" if beam_size == 1 else f"beam_{beam_size}"
        rate, outputs = throughput(lambda beam_size=beam_size: ours(translator, batches, beam_size), len(timed))
        rates.setdefault("ours", {})[decoding] = rate
        reference = our_tokens(translator, outputs)
        for compute_type in COMPUTE_TYPES:
            timings = {f"{name}, batches of {size}": throughput(
                lambda engine=engine, parallel=parallel, beam_size=beam_size, tokens=tokens: theirs(
                    engine, tokens, beam_size, max_length, parallel), len(timed))
                for (kind, name), (engine, parallel) in engines.items() if kind == compute_type
                for size, tokens in their_batches.items()}
            for name, (rate, _) in timings.items():
                by_layout.setdefault(compute_type, {}).setdefault(name, {})[decoding] = rate
            best = their_layout.setdefault(compute_type, {})[decoding] = max(timings, key=lambda n: timings[n][0])
            rate, outputs = timings[best]
            rates.setdefault(compute_type, {})[decoding] = rate
            if beam_size > 1:
                beam_match[compute_type] = matches(reference, their_tokens(translator, outputs))
    return {
        "ctranslate2_version": ctranslate2.__version__,
        "compared_sentences": len(compared),
        "greedy_match": greedy_match,
        "bfloat16": bfloat16,
        "timed_greedy_match": timed_greedy_match,
        "timed_sentences": len(timed),
        "batch_size": translator.batch_size,
        "beam_size": DEFAULT_BEAM,
        "length_penalty": LENGTH_PENALTY,
        "cores": cores(),
        "our_parallel_batches": translator.parallel_batches,
        "their_layout": their_layout,
        "theirs_by_layout": by_layout,
        "sentences_per_s": rates,
        "ratio": {compute_type: {decoding: rate / rates["ours"][decoding]
                                 for decoding, rate in rates[compute_type].items()}
                  for compute_type in COMPUTE_TYPES},
        "beam_match": beam_match,
    }


def run_in_own_process(model_path, sentences, quick=False):
    """`run` in a new Python process (`python -m bench.ctranslate2_anchor`), whose TensorFlow starts with the
    threads that `translate` sets: a process that has started TensorFlow cannot change them."""
    with tempfile.TemporaryDirectory() as directory:
        source, output = Path(directory) / "sentences.txt", Path(directory) / "result.json"
        source.write_text("".join(sentence + "\n" for sentence in sentences), encoding="utf-8")
        command = [sys.executable, "-m", "bench.ctranslate2_anchor", str(model_path), str(source), str(output),
                   *(["--quick"] if quick else [])]
        result = subprocess.run(command, capture_output=True, text=True, env=child_environment())
        if result.returncode:
            raise RuntimeError(f"{' '.join(command)} exited with {result.returncode}: {result.stderr[-2000:]}")
        return json.loads(output.read_text(encoding="utf-8"))


def table_rows(result):
    """(metric, value, target, verdict) rows for the printed table."""
    compared, timed = result["compared_sentences"], result["timed_sentences"]
    exact = result["greedy_match"]["float32"]
    precision = ", bfloat16 layers" if result["bfloat16"] else ""
    rows = [
        (f"CTranslate2 {result['ctranslate2_version']}, same weights: greedy tokens equal to ours "
         f"({compared} sentences), float32", f"{exact}/{compared}", f"{compared}/{compared}",
         "PASS" if exact == compared else "MISS"),
        ("    int8 weights", f"{result['greedy_match']['int8']}/{compared}", "", ""),
        (f"    ours as timed{precision}, against float32", f"{result['timed_greedy_match']}/{compared}",
         f">= {SAME_TOKENS_SHARE:.0%}", "PASS" if result["timed_greedy_match"] >= SAME_TOKENS_SHARE * compared else "MISS"),
    ]
    for decoding in ("greedy", f"beam_{result['beam_size']}"):
        rows.append((f"ours (no XLA{precision}, {result['our_parallel_batches']} batches at a time), "
                     f"{decoding.replace('_', ' ')}, ids to ids, batch {result['batch_size']} ({timed} sentences)",
                     f"{result['sentences_per_s']['ours'][decoding]:,.0f} sentences/s", "", ""))
        for compute_type in COMPUTE_TYPES:
            rate, ratio = result["sentences_per_s"][compute_type][decoding], result["ratio"][compute_type][decoding]
            best = result["their_layout"][compute_type][decoding]
            rows.append((f"    CTranslate2 {compute_type}, {best}", f"{rate:,.0f} sentences/s = {ratio:.2f}x ours",
                         "", ""))
            rows += [(f"        {other}", f"{rates[decoding]:,.0f} sentences/s", "", "")
                     for other, rates in result["theirs_by_layout"][compute_type].items() if other != best]
    rows.append((f"    beam {result['beam_size']} outputs equal to ours (length normalisations differ)",
                 ", ".join(f"{compute_type} {count}/{timed}" for compute_type, count in result["beam_match"].items()),
                 "", ""))
    return rows + summary_rows(result)


def summary_rows(result):
    """The comparisons that matter, as ratios: ours over CTranslate2 (above 1: ours faster), and what going
    from greedy to beam search costs each engine."""
    rates, beam = result["sentences_per_s"], f"beam_{result['beam_size']}"
    ours_over = {compute_type: {decoding: 1 / ratio for decoding, ratio in result["ratio"][compute_type].items()}
                 for compute_type in COMPUTE_TYPES}
    beam_cost = ", ".join(f"{engine} {rates[engine]['greedy'] / rates[engine][beam]:.1f}x"
                          for engine in ("ours", *COMPUTE_TYPES))
    return [
        (f"ours / CTranslate2 float32, beam {result['beam_size']} (sentences/s)",
         f"{ours_over['float32'][beam]:.2f}", ">= 1", "PASS" if ours_over["float32"][beam] >= 1 else "MISS"),
        ("ours / CTranslate2 int8, greedy (sentences/s)",
         f"{ours_over['int8']['greedy']:.2f}", ">= 1", "PASS" if ours_over["int8"]["greedy"] >= 1 else "MISS"),
        ("    ours / CTranslate2 int8, beam 4; ours / CTranslate2 float32, greedy",
         f"{ours_over['int8'][beam]:.2f}; {ours_over['float32']['greedy']:.2f}", "", ""),
        (f"greedy -> beam {result['beam_size']}: time per sentence multiplied by", beam_cost, "", ""),
    ]


if __name__ == "__main__":  # run_in_own_process: MODEL SENTENCES_FILE OUTPUT_JSON [--quick]
    model, source, output = sys.argv[1:4]
    figures = run(model, Path(source).read_text(encoding="utf-8").splitlines(), quick="--quick" in sys.argv[4:])
    Path(output).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
