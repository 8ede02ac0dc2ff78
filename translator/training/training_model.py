"""The `Transformer` as training fits it: its numeric precision, optimizer, loss and metrics.

Example:

    with training_model.precision(config, "GPU") as (mixed, jit):
        model = training_model.compiled_model(config, jit)
"""

import contextlib

import keras

from translator.devices import native_bfloat16, resolve_auto
from translator.model.transformer import Transformer
from translator.training.losses import MaskedAccuracy, MaskedCrossEntropy
from translator.training.multi_worker import MultiWorkerFit
from translator.training.optimizer import make_optimizer


class TrainingTransformer(MultiWorkerFit, Transformer):
    """The `Transformer` as training fits it, on one device or several workers (see `translator.training.multi_worker`).

    Only its weights are saved: the model directory holds a plain `Transformer`.
    """


@contextlib.contextmanager
def precision(config, device):
    """Keras' global dtype policy as `config` asks on `device` ("CPU", "GPU" or "TPU") while the block runs, the
    one before it after: yields whether mixed precision and XLA are on (XLA auto: on with a GPU or TPU).

    Mixed precision auto: on with a GPU or TPU, and on a CPU that multiplies bfloat16 in hardware, where a
    step of the `default` preset on batches of 4,096 tokens took 0.82 of float32's time (bench/RESULTS.md).
    float16 on a GPU; bfloat16 on a TPU or CPU, which would emulate float16."""
    mixed = config.mixed_precision if config.mixed_precision is not None else device != "CPU" or native_bfloat16()
    previous = keras.config.dtype_policy()
    keras.config.set_dtype_policy(("mixed_float16" if device == "GPU" else "mixed_bfloat16") if mixed else "float32")
    try:
        yield mixed, resolve_auto(config.jit_compile, device)
    finally:
        keras.config.set_dtype_policy(previous)


def compiled_model(config, jit_compile):
    """A built `Transformer`, compiled for training: the configured optimizer, masked loss and accuracy."""
    model = TrainingTransformer(config)
    model.build()
    model.compile(
        optimizer=make_optimizer(config),
        loss=MaskedCrossEntropy(config.label_smoothing),
        metrics=[MaskedAccuracy()],
        jit_compile=jit_compile,
    )
    # Its slots now, not in the first step: a step that creates variables is traced twice (seconds each).
    model.optimizer.build(model.trainable_variables)
    return model
