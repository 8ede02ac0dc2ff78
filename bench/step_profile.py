"""`python -m bench.step_profile`: where a greedy decoding step's time goes on a CPU, by part of the decoder.

Decodes test sentences as `make bench` section 5 times ours (ids to ids, in batches of the translator's
size, in parallel threads, bfloat16 layers where the CPU multiplies them), once to trace the graphs, then
again under TensorFlow's profiler. Every operation the decoding loop ran is put with the part of the
model its name says it belongs to (the decoder blocks' self-attention, cross-attention, layer norms and
feed-forward networks, the residual additions, the target embedding) or, outside the blocks, with the
loop's own work by operation type (the output projection is the loop's `MatMul`; the `Cast`, `AddV2` and
`ArgMax` beside it turn its bfloat16 products into float32 logits and choose the next token). Times are
the operations' own, summed over the threads, per decoding step of one batch; what the profiler adds
to each operation inflates them alike.

    python -m bench.step_profile [--model saved_models/en-es] [--sentences 2000]
"""

import argparse
import collections
import glob
import re
import tempfile
import time

from translator.defaults import DEFAULT_MODEL, quiet_tensorflow

quiet_tensorflow()

SENTENCES = 2000
BLOCK_PART = re.compile(r"/decoder_\d+(?:_\d+)?/(self_attention|cross_attention|feed_forward|add)(_norm)?")
BLOCK_NAMES = {"self_attention": "self-attention", "cross_attention": "cross-attention", "feed_forward": "feed-forward",
               "add": "residual additions"}
# The profiler's own events (a function run, an executor's turn) hold the operations: not counted again.
CONTAINERS = {"Run", "Process", "Record", "StartRegion", "StopRegion"}


def part(name, op_type):
    """The part of the decoder that the loop's operation `name` (of type `op_type`) belongs to.

    >>> part("while/body/_94/while/decoder_1_1/cross_attention_1/softmax_8_1/Softmax", "_MklSoftmax")
    'cross-attention'
    >>> part("while/body/_94/while/decoder_0_1/feed_forward_norm_1/moments/SquaredDifference", "SquaredDifference")
    'layer norms'
    >>> part("while/body/_94/while/MatMul", "_MklMatMul")
    'loop: MatMul'
    """
    found = BLOCK_PART.search(name)
    if found:
        return "layer norms" if found.group(2) else BLOCK_NAMES[found.group(1)]
    if "target_embedding" in name:
        return "target embedding"
    return "loop: " + op_type.removeprefix("_Mkl")


def loop_operations(trace_directory):
    """`(name, op_type, seconds)` of every operation that ran inside a decoding loop, from the profiler's trace."""
    from tensorflow.tsl.profiler.protobuf import xplane_pb2

    [path] = glob.glob(f"{trace_directory}/**/*.xplane.pb", recursive=True)
    space = xplane_pb2.XSpace()
    with open(path, "rb") as handle:
        space.ParseFromString(handle.read())
    for plane in space.planes:
        if plane.name != "/host:CPU":
            continue
        for line in plane.lines:
            for event in line.events:
                name, _, op_type = plane.event_metadata[event.metadata_id].name.rpartition(":")
                if name and "while/body" in name and op_type not in CONTAINERS:
                    yield name, op_type, event.duration_ps * 1e-12


def profile(model_path, sentences):
    """The figures: steps, sentences, wall seconds, and per part its seconds and operations."""
    from translator.devices import bfloat16_decoding, decoding_batches

    # Before TensorFlow's runtime starts: its threads set as `translate` sets them.
    parallel_batches = decoding_batches(False)
    import numpy as np
    import tensorflow as tf

    from bench.decoding import id_batches, ours
    from translator.translate import Translator

    bfloat16 = bfloat16_decoding(None, jit_compile=False)
    translator = Translator.load(model_path, jit_compile=False, parallel_batches=parallel_batches, bfloat16=bfloat16)
    batches = id_batches(translator, sentences)
    outputs = ours(translator, batches, 1)
    # Greedy decoding stops when its batch's last sentence has written [end] (or the longest allowed).
    steps = sum(int(np.count_nonzero(batch, axis=1).max()) for batch in outputs)
    with tempfile.TemporaryDirectory() as directory:
        tf.profiler.experimental.start(directory)
        start = time.perf_counter()
        ours(translator, batches, 1)
        wall = time.perf_counter() - start
        tf.profiler.experimental.stop()
        seconds, operations = collections.Counter(), collections.Counter()
        for name, op_type, duration in loop_operations(directory):
            label = part(name, op_type)
            seconds[label] += duration
            operations[label] += 1
    return {"model": str(model_path), "sentences": len(sentences), "batches": len(batches),
            "batch_size": translator.batch_size, "bfloat16": bfloat16, "steps": steps,
            "wall_seconds": wall, "parts": {name: {"seconds": seconds[name], "operations": operations[name]}
                                            for name, _ in seconds.most_common()}}


def table(result):
    steps, parts = result["steps"], result["parts"]
    total = sum(row["seconds"] for row in parts.values())
    lines = [f"{result['sentences']:,} sentences in {result['batches']} batches of up to {result['batch_size']}, "
             f"{steps} greedy steps, bfloat16 {'on' if result['bfloat16'] else 'off'}; "
             f"{result['wall_seconds']:.2f} s under the profiler",
             f"{'part':<28} {'us a step':>10} {'share':>7} {'ops a step':>11}"]
    for name, row in parts.items():
        lines.append(f"{name:<28} {row['seconds'] / steps * 1e6:>10,.0f} {row['seconds'] / total:>7.1%} "
                     f"{row['operations'] / steps:>11.1f}")
    lines.append(f"{'all':<28} {total / steps * 1e6:>10,.0f} {1:>7.1%} "
                 f"{sum(row['operations'] for row in parts.values()) / steps:>11.1f}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.step_profile", description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=DEFAULT_MODEL, help="the trained model to decode with")
    parser.add_argument("--sentences", type=int, default=SENTENCES, help="how many test sentences to decode")
    parser.add_argument("--data", help="corpus path (else TRANSLATOR_DATA or the cached download)")
    args = parser.parse_args(argv)
    from bench.__main__ import english_sentences
    from translator.training.data import DataError, load_splits

    try:
        sentences = english_sentences(load_splits(args.data)["test"])[: args.sentences]
    except DataError as error:
        parser.exit(2, f"python -m bench.step_profile: {error}\n")
    print(table(profile(args.model, sentences)))


if __name__ == "__main__":
    main()
