"""Load test of the HTTP server: many concurrent clients, one sentence per request.

Starts the server on a free port of 127.0.0.1 (never anything else), runs
`clients` clients (threads) that each post single sentences in a loop until
`seconds` are up, and reports throughput and latency (greedy decoding). Single-sentence
requests are the case dynamic batching is for: the server should decode
many of them per batch (see `mean_batch_size`).

The clients run in a second process; on a small machine they still compete
with the server for the same cores, so the numbers are a floor. The same
clients are then run once more without HTTP, awaiting the server's batcher
directly: the gap between the two is what HTTP costs, and the second figure
is what the batching and decoding alone allow under this load.

    python -m bench.load_test --model saved_models/en-es --clients 32 --seconds 30
"""

import argparse
import asyncio
import http.client
import json
import multiprocessing
import threading
import time
import urllib.parse
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from bench.background_server import background_server
from translator.defaults import DEFAULT_MODEL

HOST = "127.0.0.1"
# Greedy, as the batched `translate` figure the target is half of: the server's
# default beam would do four times the work per sentence and compare unlike with it.
BEAM = 1

SENTENCES = [
    "Where is the train station?",
    "I would like a cup of coffee, please.",
    "Tom is reading a book in the garden.",
    "How much does this cost?",
    "We are going to the beach tomorrow.",
    "She doesn't know what to do.",
    "Can you help me?",
    "The weather is very nice today.",
]


def _client(host, port, sentences, first, deadline, request_timeout, latencies, failures):
    """Posts one sentence after another on one keep-alive connection until the deadline."""
    connection = http.client.HTTPConnection(host, port, timeout=request_timeout)
    index = first
    while time.perf_counter() < deadline:
        body = json.dumps({"text": sentences[index % len(sentences)], "beam": BEAM})
        index += 1
        started = time.perf_counter()
        try:
            connection.request("POST", "/translate", body, {"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
        except (OSError, http.client.HTTPException) as error:  # timeouts and dropped connections are errors
            failures.append(type(error).__name__)
            connection.close()  # the next request opens a new connection
            continue
        if response.status == 200:
            latencies.append((time.perf_counter() - started) * 1000)
        else:
            failures.append(str(response.status))
    connection.close()


def drive(base_url, clients, seconds, sentences, request_timeout):
    """Runs `clients` threads to the deadline; returns `(latencies_ms, failures, elapsed_s)`.

    The standard library's blocking client, one thread and one connection per
    client: it costs the machine a fraction of what an asyncio client library
    costs per request, and that CPU would otherwise be taken from the server.
    """
    address = urllib.parse.urlsplit(base_url)
    host, port = address.hostname, address.port
    latencies, failures = [], []
    started = time.perf_counter()
    deadline = started + seconds
    threads = [
        threading.Thread(target=_client, args=(host, port, sentences, i, deadline, request_timeout, latencies, failures))
        for i in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, failures, time.perf_counter() - started


async def closed_loop(batcher, clients, seconds, sentences):
    """The same clients without HTTP: each awaits `batcher` for one sentence after another until `seconds` are up.

    Returns `(sentences translated, elapsed seconds)`.
    """
    batcher.start()
    deadline = time.perf_counter() + seconds
    translated = 0

    async def client(first):
        nonlocal translated
        index = first
        while time.perf_counter() < deadline:
            await batcher.submit([sentences[index % len(sentences)]], BEAM)
            index += 1
            translated += 1

    started = time.perf_counter()
    try:
        await asyncio.gather(*(client(i) for i in range(clients)))
    finally:
        await batcher.stop()
    return translated, time.perf_counter() - started


def run_load_test(model_path, clients=32, seconds=30.0, sentences=None, request_timeout=30.0,
                  jit_compile=True) -> dict:
    """Serves `model_path` on a free loopback port and loads it; returns the measurements.

    Stops by itself: clients stop starting requests after `seconds`, and each
    request gives up after `request_timeout`.
    """
    from translator import server
    from translator.batcher import DECODE_BATCH_SIZE
    from translator.translator import Translator

    sentences = list(sentences or SENTENCES)
    translator = Translator.load(model_path, jit_compile=jit_compile)
    translator.warm_up(DECODE_BATCH_SIZE, beam_size=BEAM)  # compile before the clock starts, as `translator serve` does
    app = server.create_app(translator)
    # The clients are other programs: they run in their own process, so their Python
    # does not share the server's interpreter lock (they still share the cores).
    with background_server(app, host=HOST) as base_url, ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn")
    ) as clients_process:
        batcher = app.state.batcher
        cpu, decoding = time.process_time(), batcher.decoding_seconds
        latencies, failures, elapsed = clients_process.submit(
            drive, base_url, clients, seconds, sentences, request_timeout
        ).result()
        cpu, decoding = time.process_time() - cpu, batcher.decoding_seconds - decoding
        batches, batched = batcher.batches, batcher.sentences
    # A fresh app's batcher: the server's batching settings, its counters at zero.
    direct = server.create_app(translator).state.batcher
    translated, direct_elapsed = asyncio.run(closed_loop(direct, clients, seconds, sentences))
    requests = len(latencies) + len(failures)
    return {
        "requests_per_s": requests / elapsed,
        "sentences_per_s": len(latencies) / elapsed,
        "p50_ms": float(np.percentile(latencies, 50)) if latencies else None,
        "p99_ms": float(np.percentile(latencies, 99)) if latencies else None,
        "errors": len(failures),
        "requests": requests,
        "clients": clients,
        "seconds": elapsed,
        "batches": batches,
        "mean_batch_size": batched / batches if batches else 0.0,
        # Of this machine's cores, how many the server kept busy: near all of them, it is compute-bound.
        "server_cpu_cores": cpu / elapsed,
        # The share of the run with a batch decoding: the rest, the model waited for requests.
        "decoding_share": decoding / elapsed,
        "without_http": {
            "sentences_per_s": translated / direct_elapsed,
            "mean_batch_size": direct.sentences / direct.batches if direct.batches else 0.0,
            "decoding_share": direct.decoding_seconds / direct_elapsed,
        },
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=DEFAULT_MODEL, help="model directory")
    parser.add_argument("--clients", type=int, default=32, help="concurrent clients")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to send requests")
    args = parser.parse_args(argv)
    print(json.dumps(run_load_test(args.model, clients=args.clients, seconds=args.seconds), indent=2))


if __name__ == "__main__":
    main()
