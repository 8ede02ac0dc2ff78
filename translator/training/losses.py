"""The training objective and metric, both blind to padding (id 0)."""

import keras
from keras import ops

from translator.tokens import PAD_ID

serializable = keras.saving.register_keras_serializable(package="translator")


@serializable
class MaskedCrossEntropy(keras.losses.Loss):
    """Cross-entropy of integer labels against logits, averaged over real tokens only.

    Args:
        label_smoothing: moves this much probability mass from the right token
            to all tokens evenly, so the model is not pushed to infinite confidence.

    Example:

    >>> loss = MaskedCrossEntropy()
    >>> float(loss(ops.array([[1, 0]]), ops.array([[[0.0, 9.0], [5.0, 0.0]]])))  # padding ignored
    0.0001...
    """

    def __init__(self, label_smoothing=0.0, name="masked_cross_entropy", **kwargs):
        super().__init__(name=name, **kwargs)
        self.label_smoothing = label_smoothing

    def call(self, y_true, y_pred):
        one_hot = ops.one_hot(ops.cast(y_true, "int32"), ops.shape(y_pred)[-1], dtype=y_pred.dtype)
        per_token = keras.losses.categorical_crossentropy(
            one_hot, y_pred, from_logits=True, label_smoothing=self.label_smoothing
        )
        real = ops.cast(ops.not_equal(y_true, PAD_ID), per_token.dtype)
        # One number per batch: the mean over its real tokens, so a batch of
        # short sentences does not count as much as one of long ones.
        return ops.sum(per_token * real) / ops.maximum(ops.sum(real), 1.0)

    def get_config(self):
        return {**super().get_config(), "label_smoothing": self.label_smoothing}


@serializable
class MaskedAccuracy(keras.metrics.Metric):
    """Share of real (non-padding) target tokens predicted exactly, over the whole epoch."""

    def __init__(self, name="accuracy", **kwargs):
        super().__init__(name=name, **kwargs)
        self.correct = self.add_variable((), initializer="zeros", name="correct")
        self.total = self.add_variable((), initializer="zeros", name="total")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = ops.cast(y_true, "int32")
        real = ops.not_equal(y_true, PAD_ID)
        hit = ops.logical_and(real, ops.equal(ops.cast(ops.argmax(y_pred, axis=-1), "int32"), y_true))
        self.correct.assign_add(ops.sum(ops.cast(hit, "float32")))
        self.total.assign_add(ops.sum(ops.cast(real, "float32")))

    def result(self):
        return self.correct / ops.maximum(self.total, 1.0)

    def reset_state(self):
        self.correct.assign(0.0)
        self.total.assign(0.0)
