"""The `Transformer` as training fits it: its numeric precision, optimizer, loss and metrics.

Example:

    mixed, jit = training_model.set_precision(config, "GPU")
    model = training_model.compiled_model(config, jit)
"""

import keras

from translator.devices import resolve_auto
from translator.model.transformer import Transformer
from translator.training.losses import MaskedAccuracy, MaskedCrossEntropy
from translator.training.multi_worker import MultiWorkerFit
from translator.training.optimizer import make_optimizer


class TrainingTransformer(MultiWorkerFit, Transformer):
    """The `Transformer` as training fits it, on one device or several workers (see `translator.training.multi_worker`).

    Only its weights are saved: the model directory holds a plain `Transformer`.
    """


def set_precision(config, device):
    """Sets Keras' global mixed precision policy as `config` asks on `device` ("CPU", "GPU" or "TPU");
    returns whether mixed precision and XLA are on (`auto`: on a GPU or TPU)."""
    mixed = resolve_auto(config.mixed_precision, device)
    if mixed:
        keras.mixed_precision.set_global_policy("mixed_bfloat16" if device == "TPU" else "mixed_float16")
    return mixed, resolve_auto(config.jit_compile, device)


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
