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

`--overload` runs the overload scenario instead (`run_overload_test`): heavy
clients keep the server saturated with the largest requests it takes while
small clients send one short sentence at a time; it reports how fast the
small ones are answered or refused.

    python -m bench.load_test --overload --clients 24 --seconds 60
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
from translator.defaults import DEFAULT_BEAM, DEFAULT_MODEL, MAX_BEAM

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


# The overload scenario: heavy clients each send the largest request the server takes at
# the widest beam, again and again (after the Retry-After of a refusal, as asked), while
# small clients send one short sentence at a time, a pause between them, ignoring Retry-After.
OVERLOAD_HEAVY_CLIENTS, OVERLOAD_SMALL_CLIENTS, OVERLOAD_SECONDS = 24, 2, 60.0
# Heavy clients start first: small ones are measured only once the server has had this long to fill up.
OVERLOAD_WARM_UP_S = 10.0
HEAVY_BEAM = MAX_BEAM
SMALL_TEXT, SMALL_PAUSE_S = "Hi.", 0.5
# The target: while the server is saturated, a small request is answered within the first
# or refused within the second, never left waiting longer.
ANSWERED_WITHIN_S, REFUSED_WITHIN_S = 10.0, 2.0


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


def _post_json(connection, body):
    """Posts `body` to /translate; returns `(status, seconds, retry_after)`, status "error" on a network failure."""
    started = time.perf_counter()
    try:
        connection.request("POST", "/translate", json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
    except (OSError, http.client.HTTPException) as error:
        connection.close()  # the next request opens a new connection
        return f"error: {type(error).__name__}", time.perf_counter() - started, None
    return response.status, time.perf_counter() - started, response.getheader("Retry-After")


def _overload_client(host, port, bodies, start, deadline, pause, honour_retry_after, request_timeout, outcomes):
    """Posts `bodies` in turn from `start` to `deadline`; appends `(status, seconds)` per request to `outcomes`."""
    time.sleep(max(0.0, start - time.monotonic()))
    connection = http.client.HTTPConnection(host, port, timeout=request_timeout)
    index = 0
    while time.monotonic() < deadline:
        status, seconds, retry_after = _post_json(connection, bodies[index % len(bodies)])
        index += 1
        outcomes.append((status, seconds))
        if status == 503 and honour_retry_after and retry_after:
            # The server closes a connection idle for 5 s: one that waits opens a new one after.
            connection.close()
            wait = float(retry_after)
        else:
            wait = pause
        time.sleep(max(0.0, min(wait, deadline - time.monotonic())))
    connection.close()


def drive_overload(base_url, heavy_bodies, small_body, heavy_clients, small_clients, seconds, warm_up,
                   request_timeout):
    """Heavy clients from now, small ones after `warm_up`, all until `warm_up + seconds`; returns their outcomes.

    `heavy_bodies[i]` are the requests heavy client `i` sends in turn.
    """
    address = urllib.parse.urlsplit(base_url)
    now = time.monotonic()
    heavy, small = [], []
    threads = [threading.Thread(target=_overload_client, args=(
        address.hostname, address.port, heavy_bodies[i], now, now + warm_up + seconds, 0.0, True, request_timeout,
        heavy)) for i in range(heavy_clients)]
    threads += [threading.Thread(target=_overload_client, args=(
        address.hostname, address.port, [small_body], now + warm_up, now + warm_up + seconds, SMALL_PAUSE_S, False,
        request_timeout, small)) for _ in range(small_clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return heavy, small


def outcome_summary(outcomes):
    """Counts and latencies of `(status, seconds)` outcomes: answered (200), refused (503), anything else."""
    answered = [seconds * 1000 for status, seconds in outcomes if status == 200]
    refused = [seconds * 1000 for status, seconds in outcomes if status == 503]

    def percentile(values, q):
        return float(np.percentile(values, q)) if values else None

    return {
        "requests": len(outcomes), "answered": len(answered), "refused": len(refused),
        # Anything else (a network error, a 500) is a failure of the scenario: counted, and which.
        "other": sum(status not in (200, 503) for status, _ in outcomes),
        "other_statuses": sorted({str(status) for status, _ in outcomes if status not in (200, 503)}),
        "refused_share": len(refused) / len(outcomes) if outcomes else 0.0,
        "answered_p50_ms": percentile(answered, 50), "answered_p99_ms": percentile(answered, 99),
        "answered_max_ms": max(answered, default=None),
        "refused_p50_ms": percentile(refused, 50), "refused_p99_ms": percentile(refused, 99),
        "refused_max_ms": max(refused, default=None),
    }


def run_overload_test(model_path, heavy_clients=OVERLOAD_HEAVY_CLIENTS, small_clients=OVERLOAD_SMALL_CLIENTS,
                      seconds=OVERLOAD_SECONDS, warm_up=OVERLOAD_WARM_UP_S, sentences=None, request_timeout=120.0,
                      jit_compile=None) -> dict:
    """The overload scenario on `model_path`, served as `translator serve` serves it; returns the measurements.

    Heavy requests hold as many `sentences` as the server's work budget allows at
    beam `HEAVY_BEAM`; small ones are `SMALL_TEXT` at the default beam. The server's
    saturation (what `/health` says) is sampled every 0.1 s while the small clients run.
    """
    from translator.serving import server
    from translator.serving.batcher import DECODE_BATCH_SIZE, MAX_REQUEST_WORK
    from translator.translate import Translator

    sentences = list(sentences or SENTENCES)
    per_request = MAX_REQUEST_WORK // HEAVY_BEAM
    # Each heavy client its own sentences, so no two requests are alike.
    heavy_bodies = [[{"texts": [sentences[(client * 7 + n * per_request + k) % len(sentences)]
                                for k in range(per_request)], "beam": HEAVY_BEAM} for n in range(4)]
                    for client in range(heavy_clients)]
    small_body = {"text": SMALL_TEXT}
    translator = Translator.load(model_path, jit_compile=jit_compile)
    for beam in (DEFAULT_BEAM, HEAVY_BEAM):  # before the clock starts, as `translator serve` does for its default
        translator.warm_up(DECODE_BATCH_SIZE, beam_size=beam)
    app = server.create_app(translator)
    batcher = app.state.batcher
    with background_server(app, host=HOST) as base_url, ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn")
    ) as clients_process:
        # The request of the first report, 64 sentences at beam 16: refused whole, at once.
        oversize = http.client.HTTPConnection(HOST, urllib.parse.urlsplit(base_url).port, timeout=request_timeout)
        oversize_status, oversize_seconds, _ = _post_json(
            oversize, {"texts": [sentences[k % len(sentences)] for k in range(64)], "beam": HEAVY_BEAM})
        oversize.close()
        started = time.monotonic()
        run = clients_process.submit(drive_overload, base_url, heavy_bodies, small_body, heavy_clients,
                                     small_clients, seconds, warm_up, request_timeout)
        samples = []
        while not run.done():
            if time.monotonic() - started >= warm_up:
                samples.append(batcher.saturated)
            time.sleep(0.1)
        heavy, small = run.result()
    small_summary = outcome_summary(small)
    return {
        "heavy_clients": heavy_clients, "small_clients": small_clients, "seconds": seconds, "warm_up_s": warm_up,
        "heavy_request": {"texts": per_request, "beam": HEAVY_BEAM},
        "oversize_request": {"texts": 64, "beam": HEAVY_BEAM, "status": oversize_status,
                             "ms": oversize_seconds * 1000},
        "saturated_share": sum(samples) / len(samples) if samples else 0.0,
        "heavy": outcome_summary(heavy),
        "small": small_summary,
        "answered_within_s": ANSWERED_WITHIN_S, "refused_within_s": REFUSED_WITHIN_S,
        "small_pass": bool(small) and not small_summary["other"]
        and (small_summary["answered_max_ms"] or 0) <= ANSWERED_WITHIN_S * 1000
        and (small_summary["refused_max_ms"] or 0) <= REFUSED_WITHIN_S * 1000,
    }


def run_load_test(model_path, clients=32, seconds=30.0, sentences=None, request_timeout=30.0,
                  jit_compile=True) -> dict:
    """Serves `model_path` on a free loopback port and loads it; returns the measurements.

    Stops by itself: clients stop starting requests after `seconds`, and each
    request gives up after `request_timeout`.
    """
    from translator.serving import server
    from translator.serving.batcher import DECODE_BATCH_SIZE
    from translator.translate import Translator

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
    parser.add_argument("--overload", action="store_true",
                        help="the overload scenario on the test split's sentences: --clients heavy clients, "
                             f"measured for --seconds after {OVERLOAD_WARM_UP_S:g} s of filling up")
    args = parser.parse_args(argv)
    if args.overload:
        from bench.__main__ import english_sentences
        from translator.training import data

        # Heavy requests of real sentences, as `make bench` sends: the test split's.
        sentences = english_sentences(data.load_splits()["test"])
        result = run_overload_test(args.model, heavy_clients=args.clients, seconds=args.seconds, sentences=sentences)
    else:
        result = run_load_test(args.model, clients=args.clients, seconds=args.seconds)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
