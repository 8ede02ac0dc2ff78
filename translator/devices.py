"""Which devices this process has, and the choices that follow from it.

Training and inference ask the same question ("is there a GPU or TPU?") to
resolve their `auto` settings, so it lives here once, with the XLA policy
that follows from the answer (when `auto` compiles, and where XLA keeps what
it compiled). TensorFlow is imported only by the functions that ask it: the
command line reads this module before it parses its arguments, and `--help`
stays fast.

    >>> xla_for_translating(None, XLA_MIN_BYTES, device="CPU")
    True
"""

import json
import os
import tempfile
from pathlib import Path

from translator.errors import UsageError

# `translate --xla auto` on a CPU alone: XLA from this many bytes of input (~6,000 sentences) up.
# XLA decodes faster but compiles each batch shape once, and the compile cache below keeps them
# for later runs. Whole processes on 2 cores, 8,000 test sentences: beam 4 took 68.9 s without XLA,
# 84.8 s with it on an empty cache and 65.5 s with the cache filled (greedy: 29.4, 35.7, 22.6 s);
# for 2,000 sentences the filled cache gained 1.4 s of 23.6. Shorter jobs stay off: they would
# pay the compiling and gain little.
XLA_MIN_BYTES = 200_000
XLA_CACHE_FLAG = "--tf_xla_persistent_cache_directory"


def accelerator():
    """"TPU", "GPU" or "CPU": the best kind of device TensorFlow sees."""
    import tensorflow as tf

    if tf.config.list_logical_devices("TPU"):
        return "TPU"
    return "GPU" if tf.config.list_logical_devices("GPU") else "CPU"


def resolve_auto(setting, device=None):
    """A switch that is True, False or None (auto: on with a GPU or TPU, off on a CPU alone).

    Keras resolves `jit_compile="auto"` the same way on TensorFlow: on a CPU,
    XLA's compile time rarely pays for itself in one run.
    """
    return setting if setting is not None else (device or accelerator()) != "CPU"


def xla_for_translating(setting, size, device=None):
    """`--xla` for `translate` on `size` bytes of input: True or False as set; auto (None): on with a GPU
    or TPU, and on a CPU alone from `XLA_MIN_BYTES` up, a job long enough to repay compiling."""
    if setting is None and size >= XLA_MIN_BYTES:
        return True
    return resolve_auto(setting, device)


def xla_cache_directory(environ=os.environ):
    """Where XLA's compiled decoding shapes are kept between runs: `$XDG_CACHE_HOME/translator/xla`."""
    return Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "translator" / "xla"


def xla_cache_flags(flags, directory):
    """`TF_XLA_FLAGS` value `flags` with XLA's persistent compile cache in `directory`.

    Flags the user set stay, and one that already names a cache directory
    (even an empty one, which turns the cache off) wins over ours. A
    directory that cannot be written is left out: XLA would fail every
    compile that it cannot save.
    """
    if XLA_CACHE_FLAG in flags:
        return flags
    try:
        Path(directory).mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=directory).close()
    except OSError:
        return flags
    return f"{flags} {XLA_CACHE_FLAG}={directory}".strip()


def choose_strategy():
    """TPU if there is one, several GPUs or workers if there are, else the default (one device).

    Several workers: `TF_CONFIG` names a cluster of two or more machines (a
    "chief" and "worker"s, or "worker"s alone, whose first is the chief) and
    this machine's task in it, as TensorFlow documents. Call this before any
    other TensorFlow work: a multi-worker strategy must configure the runtime
    before it starts.
    """
    import tensorflow as tf

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
