"""Values that the command line, the server, the benchmarks and the tests must agree on, each set once.

Imports nothing heavy: the command line reads it before TensorFlow is imported.
"""

import os

DEFAULT_MODEL = "saved_models/en-es"
# `translator serve`: this machine only, unless asked otherwise.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
# The widest beam a user may ask for, on the command line and in the HTTP API.
MAX_BEAM = 16
# Beam search by default: on the test split the shipped model scores 46.47 BLEU
# with beam 4 and 45.61 greedy (bench/RESULTS.md); --beam 1 is greedy, and faster.
DEFAULT_BEAM = 4
# GNMT's length penalty exponent: ((5 + length) / 6) ** LENGTH_PENALTY divides a hypothesis' log-probability.
LENGTH_PENALTY = 0.6
# Sentences a `Translator` decodes together. A decoding step is many small operations whose cost is mostly
# their launch on a CPU: 256 sentences a batch translated 2,000 test sentences 1.3 times as fast as 64 at
# beam 4 and 1.6 times greedy, and 300 of them faster in two batches than in three of 100 (bench/RESULTS.md).
BATCH_SIZE = 256
# Batches a `Translator` decodes at once, in threads, unless told otherwise (see `devices.decoding_batches`).
PARALLEL_BATCHES = 2
# TensorFlow's C++ log level: 3 keeps its start-up notes (CUDA probing, oneDNN) off stderr.
TF_LOG_LEVEL = "3"


def quiet_tensorflow():
    """Sets `TF_LOG_LEVEL` unless the user chose a level; only works before TensorFlow is imported."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", TF_LOG_LEVEL)
