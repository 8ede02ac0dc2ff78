"""Which devices this process has, and the choices that follow from it.

Training and inference ask the same question ("is there a GPU or TPU?") to
resolve their `auto` settings, so it lives here once.
"""

import json
import os
from pathlib import Path

import tensorflow as tf

from translator.errors import UsageError


def accelerator():
    """"TPU", "GPU" or "CPU": the best kind of device TensorFlow sees."""
    if tf.config.list_logical_devices("TPU"):
        return "TPU"
    return "GPU" if tf.config.list_logical_devices("GPU") else "CPU"


def resolve_auto(setting, device=None):
    """A switch that is True, False or None (auto: on with a GPU or TPU, off on a CPU alone).

    Keras resolves `jit_compile="auto"` the same way on TensorFlow: on a CPU,
    XLA's compile time rarely pays for itself in one run.
    """
    return setting if setting is not None else (device or accelerator()) != "CPU"


def choose_strategy():
    """TPU if there is one, several GPUs or workers if there are, else the default (one device).

    Several workers: `TF_CONFIG` names a cluster of two or more machines (a
    "chief" and "worker"s, or "worker"s alone, whose first is the chief) and
    this machine's task in it, as TensorFlow documents. Call this before any
    other TensorFlow work: a multi-worker strategy must configure the runtime
    before it starts.
    """
    if os.environ.get("TPU_NAME") or Path("/dev/accel0").exists():
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        return tf.distribute.TPUStrategy(resolver)
    try:
        cluster = json.loads(os.environ.get("TF_CONFIG") or "{}").get("cluster", {})
    except (ValueError, AttributeError):
        raise UsageError(f"TF_CONFIG is not a JSON object: {os.environ['TF_CONFIG']!r}") from None
    if len(cluster.get("chief", [])) + len(cluster.get("worker", [])) > 1:
        return tf.distribute.MultiWorkerMirroredStrategy()
    if len(tf.config.list_logical_devices("GPU")) > 1:
        return tf.distribute.MirroredStrategy()
    return tf.distribute.get_strategy()
