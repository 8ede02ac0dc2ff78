"""Training speed: our pipeline against the keras.io example, on the same machine and batch size.

Both models train on the same sentences, vectorised by one word-level
`TextPipeline` (the example's 20 source / 21 target slots). Ours then batches
by length (`translator.training.batches.make_dataset`); the example pads every batch to
the full length (`bench.keras_example.make_dataset`). What counts is real
(non-padding) target tokens per second: padding is work that teaches nothing.
"""

import time
from pathlib import Path

import keras
import numpy as np
import tensorflow as tf

from bench import keras_example
from translator import model_dir
from translator.config import Config, preset
from translator.devices import resolve_auto
from translator.text.pipeline import TextPipeline
from translator.training.batches import make_dataset, vectorize
from translator.training.training_model import compiled_model

BATCH_SIZE = 64
GPU_BATCH_SIZE = 512
SPEEDUP_TARGET = 3.0
FLOP_FORMULA = (
    "training FLOPs per step = 6 x (encoder non-embedding params x source tokens "
    "+ decoder and output-layer params x target tokens), tokens counted with padding; "
    "attention's length-squared terms left out"
)
NO_GPU = "no GPU available on this machine: GPU training throughput not measured"
# --quick: the same architectures shrunk (8 heads kept, so the example's
# key_dim=embed_dim still makes its attention 8x ours). One layer each way:
# tracing a train step costs seconds per layer, and --quick is for tests.
QUICK_SIZES = {"embed_dim": 32, "latent_dim": 64, "num_encoder_layers": 1, "num_decoder_layers": 1}


def matmul_peak(size=2048, repeats=5):
    """The machine's float32 matrix-multiply rate (FLOP/s): best of `repeats` numpy matmuls."""
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((size, size), dtype=np.float32) for _ in range(2))
    a @ b  # warm-up: thread pool start, page faults
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - start)
    return 2 * size**3 / best


def epoch_batches(dataset):
    """One epoch of a dataset as a list of numpy batches, so data loading stays out of the timings."""
    return [keras.tree.map_structure(lambda t: t.numpy(), batch) for batch in dataset]


def time_steps(model, batches, steps, warmup, seed=0):
    """Times `steps` training steps on batches drawn at random from one epoch, after `warmup` steps.

    Warm-up batches are of different shapes: Keras traces the train step
    again for a second shape and then generalises it, so bucketed batches
    cause no tracing inside the timed steps. With one warm-up step (--quick)
    only batches of its shape are timed, for the same reason.
    """
    by_shape = {}
    for batch in batches:
        by_shape.setdefault(batch[1].shape, batch)
    warm = list(by_shape.values())[:warmup]
    warm += [batches[0]] * (warmup - len(warm))
    if warmup < 2:
        batches = [batch for batch in batches if batch[1].shape == warm[0][1].shape]
    rng = np.random.default_rng(seed)
    timed = [batches[i] for i in rng.choice(len(batches), steps, replace=len(batches) < steps)]
    for x, y in warm:
        model.train_on_batch(x, y)
    start = time.perf_counter()
    for x, y in timed:
        model.train_on_batch(x, y)  # returns the loss as a number: the step has finished
    seconds = time.perf_counter() - start
    return {
        "steps": steps,
        "seconds": seconds,
        "real_target_tokens": int(sum(np.count_nonzero(y) for _, y in timed)),
        "source_slots": int(sum(x["encoder_inputs"].size for x, _ in timed)),
        "target_slots": int(sum(y.size for _, y in timed)),
    }


def summarize(timing, params, peak):
    """Rates, padding share and achieved FLOP/s (see FLOP_FORMULA) from `time_steps`' counts.

    `peak` is the matmul rate of the same device, or None where there is none to compare with.
    """
    flops = 6 * (params["encoder"] * timing["source_slots"] + params["decoder"] * timing["target_slots"])
    achieved = flops / timing["seconds"]
    return {
        **timing,
        "steps_per_s": timing["steps"] / timing["seconds"],
        "real_target_tokens_per_s": timing["real_target_tokens"] / timing["seconds"],
        "target_padding_share": 1 - timing["real_target_tokens"] / timing["target_slots"],
        "params_per_source_token": params["encoder"],
        "params_per_target_token": params["decoder"],
        "flops_per_step": flops / timing["steps"],
        "achieved_flops_per_s": achieved,
        "share_of_matmul_peak": achieved / peak if peak else None,
    }


def flop_parameters(model):
    """Our non-embedding parameters touched per source token (encoder) and per target token (the rest).

    The output projection counts on the target side, also when it is the tied embedding matrix.
    """

    def count(weights):
        return sum(int(keras.ops.size(w)) for w in weights)

    projection = model.logits.weights if model.logits is not None else [
        model.shared_embedding.embeddings, model.logits_bias]
    return {
        "encoder": count(w for layer in model.encoder_layers for w in layer.weights),
        "decoder": count(w for layer in model.decoder_layers for w in layer.weights) + count(projection),
    }


def ours_speed(config, source_ids, target_ids, steps, warmup, peak):
    batches = epoch_batches(make_dataset(source_ids, target_ids, config.batch_size, shuffle=True, seed=config.seed))
    model = compiled_model(config, resolve_auto(config.jit_compile))  # as `translator.training.train.train` compiles it
    result = summarize(time_steps(model, batches, steps, warmup), flop_parameters(model), peak)
    return {**result, "steps_per_epoch": len(batches)}


def example_speed(config, source_ids, target_ids, steps, warmup, peak):
    # The example shuffles its pairs before splitting them, so its batches mix
    # lengths; the corpus (and so our split) runs from short to long sentences.
    order = np.random.default_rng(config.seed).permutation(len(source_ids))
    batches = epoch_batches(keras_example.make_dataset(source_ids[order], target_ids[order], config.batch_size))
    # The example sizes both vocabularies (and its output layer) with one
    # vocab_size: 15000 on the full corpus, as its TextVectorization learns.
    vocab_size = max(config.source_vocab_size, config.target_vocab_size)
    model = keras_example.build_transformer(
        config.sequence_length, vocab_size, config.embed_dim, config.latent_dim, config.num_heads
    )
    with keras_example.quiet_mask_warning():
        timing = time_steps(model, batches, steps, warmup)
    return {**summarize(timing, keras_example.flop_parameters(model), peak), "vocab_size": vocab_size}


def learn_pipeline(config, pairs):
    english, spanish = zip(*pairs, strict=True)
    return TextPipeline.adapt(config, english, spanish)


def compare_with_example(train_pairs, steps, warmup, peak, quick):
    """Section 2's head-to-head: the `reference` preset through our pipeline versus the keras.io example."""
    config = preset("reference", **(QUICK_SIZES if quick else {}))
    pipeline = learn_pipeline(config, train_pairs)
    config = config.replace(
        source_vocab_size=len(pipeline.source_vocabulary), target_vocab_size=len(pipeline.target_vocabulary)
    )
    source_ids, target_ids = vectorize(pipeline, train_pairs)
    ours = ours_speed(config, source_ids, target_ids, steps, warmup, peak)
    example = example_speed(config, source_ids, target_ids, steps, warmup, peak)
    speedup = ours["real_target_tokens_per_s"] / example["real_target_tokens_per_s"]
    return {
        "ours_reference": ours,
        "keras_example": example,
        "speedup_real_target_tokens": speedup,
        "speedup_target": SPEEDUP_TARGET,
        "speedup_pass": speedup >= SPEEDUP_TARGET,
    }


def default_setup(train_pairs, default_model, quick):
    """The `default` preset with its vocabulary: the trained model's if there is one, else learned here."""
    saved = Path(default_model) / model_dir.CONFIG_FILE
    sizes = QUICK_SIZES if quick else {}
    if saved.is_file():
        trained = Config.from_json(saved)
        pipeline = TextPipeline.load(default_model, trained)
        config = preset(
            "default", source_vocab_size=trained.source_vocab_size,
            target_vocab_size=trained.target_vocab_size, **sizes,
        )
        return config, pipeline, f"vocabulary of {default_model}"
    config = preset("default", source_vocab_size=6000, target_vocab_size=6000, **sizes)
    return config, learn_pipeline(config, train_pairs), "vocabulary learned here (no trained model found)"


def epoch_seconds(default_model, steps_per_epoch, steps_per_s):
    """One epoch's wall time: measured by the training run if its metrics are there, else estimated."""
    history = model_dir.last_run(default_model).get("history", [])
    seconds = [row["seconds"] for row in history if "seconds" in row]
    if seconds:
        return float(np.mean(seconds)), f"measured by training (validation included): mean of {len(seconds)} epochs in {default_model}/metrics.json"
    return steps_per_epoch / steps_per_s, f"estimated: {steps_per_epoch} steps per epoch / {steps_per_s:.2f} steps/s"


def default_speed(train_pairs, default_model, steps, warmup, peak, quick, batch_size=BATCH_SIZE):
    config, pipeline, vocabulary = default_setup(train_pairs, default_model, quick)
    config = config.replace(batch_size=batch_size)
    result = ours_speed(config, *vectorize(pipeline, train_pairs), steps, warmup, peak)
    return {**result, "batch_size": batch_size, "vocabulary": vocabulary,
            "source_vocab_size": config.source_vocab_size, "target_vocab_size": config.target_vocab_size}


def run(train_pairs, default_model, quick=False):
    """Section 2: returns a dict of every figure."""
    steps, warmup = (3, 1) if quick else (30, 5)
    peak = matmul_peak(1024 if quick else 2048)
    result = {
        "batch_size": BATCH_SIZE,
        "timed_steps": steps,
        "warmup_steps": warmup,
        "matmul_peak_flops_per_s": peak,
        "flop_formula": FLOP_FORMULA,
        **compare_with_example(train_pairs, steps, warmup, peak, quick),
    }
    default = default_speed(train_pairs, default_model, steps, warmup, peak, quick)
    default["epoch_seconds"], default["epoch_seconds_source"] = epoch_seconds(
        default_model, default["steps_per_epoch"], default["steps_per_s"]
    )
    result["default_preset"] = default
    return result


def run_gpu(train_pairs, default_model, quick=False):
    """Section 3: the `default` preset at batch 512 on a GPU, in mixed precision as `train` runs it there."""
    if not tf.config.list_physical_devices("GPU"):
        return {"available": False, "note": NO_GPU}
    steps, warmup = (3, 1) if quick else (30, 5)
    previous = keras.mixed_precision.global_policy()
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        # No peak: numpy measures the CPU's, which says nothing about the GPU.
        result = default_speed(train_pairs, default_model, steps, warmup, None, quick, batch_size=GPU_BATCH_SIZE)
    finally:
        keras.mixed_precision.set_global_policy(previous)
    return {"available": True, "device": str(tf.config.list_physical_devices("GPU")[0].name), **result}


def table_rows(result):
    """(metric, value, target, verdict) rows for the printed table."""
    ours, example, default = result["ours_reference"], result["keras_example"], result["default_preset"]
    rows = [
        (FLOP_FORMULA, "", "", ""),
        ("matmul peak (numpy float32)", f"{result['matmul_peak_flops_per_s'] / 1e9:.1f} GFLOP/s", "", ""),
    ]
    for name, run_ in (("ours, reference preset", ours), ("keras.io example", example)):
        rows += [
            (f"{name}: real target tokens/s", f"{run_['real_target_tokens_per_s']:,.0f}", "", ""),
            (f"{name}: steps/s", f"{run_['steps_per_s']:.2f}", "", ""),
            (f"{name}: target padding", f"{run_['target_padding_share']:.0%}", "", ""),
            (f"{name}: share of matmul peak", f"{run_['share_of_matmul_peak']:.1%}", "", ""),
        ]
    speedup = result["speedup_real_target_tokens"]
    rows += [
        ("speedup, real tokens/s (ours / example)", f"{speedup:.2f}x", f">= {SPEEDUP_TARGET:g}x",
         "PASS" if result["speedup_pass"] else "MISS"),
        ("default preset: real target tokens/s", f"{default['real_target_tokens_per_s']:,.0f}", "", ""),
        ("default preset: share of matmul peak", f"{default['share_of_matmul_peak']:.1%}", "", ""),
        ("default preset: one epoch", duration(default["epoch_seconds"]), "", ""),
        (f"    {default['epoch_seconds_source']}", "", "", ""),
    ]
    return rows


def duration(seconds):
    return f"{seconds:.1f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def gpu_rows(result):
    if not result["available"]:
        return [(result["note"], "", "", "")]
    return [
        (f"default preset, batch {GPU_BATCH_SIZE}: real target tokens/s", f"{result['real_target_tokens_per_s']:,.0f}",
         "", ""),
        (f"    on {result['device']}, mixed precision", "", "", ""),
    ]

