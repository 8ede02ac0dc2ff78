"""What a run or a measurement ran on, recorded beside its figures (metrics.json, bench/results.json).

No TensorFlow here: `ids_training` records its machine on backends without it.

Example:

    machine_record(accelerator="GPU", tensorflow=tf.__version__)
"""

import os
import platform

import keras


def machine_record(**extra):
    """The platform, processor, CPU count, Python and Keras versions and backend, and `extra` fields."""
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "keras": keras.__version__,
        "backend": keras.backend.backend(),
        **extra,
    }
