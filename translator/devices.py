"""Which devices this process has, and the choices that follow from it.

Training and inference ask the same question ("is there a GPU or TPU?") to
resolve their `auto` settings, so it lives here once, with the XLA policy
that follows from the answer (when `auto` compiles, and where XLA keeps what
it compiled). TensorFlow is imported only by the functions that ask it: the
command line reads this module before it parses its arguments, and `--help`
stays fast.

    >>> resolve_auto(None, device="CPU")
    False
"""

import json
import os
import tempfile
from pathlib import Path

from translator.defaults import PARALLEL_BATCHES
from translator.errors import UsageError

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


def cores():
    """The cores this process may run on (all the machine's where the system cannot say)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def decoding_batches(jit_compile):
    """How many batches a process that only translates decodes at once, in threads, with TensorFlow's threads
    set to suit: call it before anything starts TensorFlow's runtime (after, its threads stay as they are),
    `accelerator` and `resolve_auto` included. `jit_compile` is `--xla`: True, False or None (auto).

    A decoding step is many small operations (the next token of a batch's sentences). On a CPU without XLA,
    TensorFlow splits every operation across all cores by default, and for operations this small the
    splitting costs more than it saves: instead each operation runs on one core, and a batch per core,
    plus one to use a core while another batch is in Python (ranking its beams, writing text), keeps
    them all busy. On 2 cores that decoded 2,000 test sentences about 1.2 times as fast at beam 4 and
    1.6 times greedy (bench/RESULTS.md). XLA's compiled loop splits its own work across the cores and
    is slower on one, and an accelerator does the arithmetic: both keep TensorFlow's threads and
    `PARALLEL_BATCHES`.
    """
    import tensorflow as tf

    # Physical devices: asking for them does not start the runtime, as asking for logical ones does.
    if jit_compile or any(tf.config.list_physical_devices(kind) for kind in ("GPU", "TPU")):
        return PARALLEL_BATCHES
    try:
        tf.config.threading.set_intra_op_parallelism_threads(1)
    except RuntimeError:  # the runtime has started
        return PARALLEL_BATCHES
    return cores() + 1


# CPU flags of the instructions that multiply bfloat16 numbers in hardware (Linux's names for them).
BFLOAT16_FLAGS = {"avx512_bf16", "amx_bf16"}


def native_bfloat16(cpuinfo="/proc/cpuinfo"):
    """Whether this CPU multiplies bfloat16 in hardware (`BFLOAT16_FLAGS` among `cpuinfo`'s flags): there
    bfloat16 matrix products are about twice as fast as float32 ones; elsewhere they are emulated, slower.
    False where the system does not say (no `cpuinfo`: macOS, Windows).
    """
    try:
        text = Path(cpuinfo).read_text(errors="replace")
    except OSError:
        return False
    return any(BFLOAT16_FLAGS & set(line.split(":", 1)[1].split())
               for line in text.splitlines() if line.startswith("flags") and ":" in line)


def bfloat16_decoding(setting, jit_compile):
    """`--bfloat16`: True, False or None (auto: on a CPU alone that multiplies bfloat16 in hardware, without
    XLA). `jit_compile` is XLA's resolved switch.

    A GPU or TPU keeps float32 decoding: there the step is not the matrix products' arithmetic; XLA's
    compiled loop was not measured in bfloat16.
    """
    return setting if setting is not None else not jit_compile and accelerator() == "CPU" and native_bfloat16()


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
