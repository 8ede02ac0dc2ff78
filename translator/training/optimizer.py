"""The optimizer and its learning-rate schedule, for every way of training.

No TensorFlow here: training from token ids (`translator.training.ids.fit`) runs
this on any Keras backend.
"""

import keras

from translator.errors import UsageError


@keras.saving.register_keras_serializable(package="translator")
class WarmupInverseSqrt(keras.optimizers.schedules.LearningRateSchedule):
    """Linear warm-up to `peak` over `warmup_steps`, then decay as 1/sqrt(step) ("Attention is all you need")."""

    def __init__(self, peak, warmup_steps):
        self.peak = peak
        self.warmup_steps = warmup_steps

    def __call__(self, step):
        step = keras.ops.cast(step, "float32") + 1.0
        warmup = float(self.warmup_steps)
        return self.peak * keras.ops.minimum(step / warmup, keras.ops.sqrt(warmup / step))

    def get_config(self):
        return {"peak": self.peak, "warmup_steps": self.warmup_steps}


def make_optimizer(config):
    rate = config.learning_rate
    if config.warmup_steps:
        rate = WarmupInverseSqrt(config.learning_rate, config.warmup_steps)
    if config.optimizer == "adamw":
        return keras.optimizers.AdamW(rate, weight_decay=config.weight_decay, beta_2=0.98, clipnorm=1.0)
    if config.optimizer == "adam":
        return keras.optimizers.Adam(rate, beta_2=0.98, clipnorm=1.0)
    if config.optimizer == "rmsprop":
        return keras.optimizers.RMSprop(rate)
    raise UsageError(f"unknown optimizer {config.optimizer!r}: use adamw, adam or rmsprop")
