"""Keras `fit` on several workers (`MultiWorkerMirroredStrategy`): two fixes Keras 3 lacks.

Keras 3.15 on TensorFlow 2.21 cannot `fit` any model on several workers:

1. Before the first step it averages the first batch over all replicas
   (`strategy.reduce`) only to learn its shapes. The multi-worker reduce takes
   no nested structure, such as a dict of inputs (keras-team/keras#20329), and
   the workers' batches differ in shape anyway. Here each worker builds from
   its own batch.
2. After every step it averages each log over the workers with
   `strategy.reduce("MEAN", value, axis=0)`, which fails on the scalars every
   model logs: "Invalid reduction dimension 0 for input with 0 dimensions"
   (tensorflow/tensorflow#72388). Here, on several workers, each log gets a
   leading axis of one, so that reduction is the mean over the workers.

On one device, or several devices of one machine, nothing changes.
"""

import tensorflow as tf
from keras import ops


def spans_workers(strategy):
    """Whether `strategy` has replicas in other processes (where Keras takes the path of fix 2)."""
    return isinstance(strategy, tf.distribute.MultiWorkerMirroredStrategy) and (
        strategy.num_replicas_in_sync > len(strategy.extended.worker_devices)
    )


class MultiWorkerFit:
    """Mixin for a `keras.Model` subclass, listed before it: `class M(MultiWorkerFit, keras.Model)`."""

    def _maybe_symbolic_build(self, iterator=None, data_batch=None):
        strategy = self._distribute_strategy
        if iterator is not None and strategy is not None:
            for _, _, batches in iterator:
                data_batch = tf.nest.map_structure(
                    lambda value: strategy.experimental_local_results(value)[0], next(batches)
                )
                break
            iterator = None
        return super()._maybe_symbolic_build(iterator=iterator, data_batch=data_batch)

    def train_step(self, data):
        return self._per_worker(super().train_step(data))

    def test_step(self, data):
        return self._per_worker(super().test_step(data))

    def _per_worker(self, logs):
        if not spans_workers(self.distribute_strategy):
            return logs
        return {name: ops.reshape(value, (1,)) for name, value in logs.items()}
