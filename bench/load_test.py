"""Load test of the HTTP server: many concurrent clients, one sentence per request.

Starts the server on a free port of 127.0.0.1 (never anything else), runs
`clients` asyncio clients that each post single sentences in a loop until
`seconds` are up, and reports throughput and latency. Single-sentence
requests are the case dynamic batching is for: the server should decode
many of them per batch (see `mean_batch_size`).

The clients and the server share this process (the server in a thread), so
on a small machine they compete for the CPU: the numbers are a floor.

    python -m bench.load_test --model saved_models/en-es --clients 32 --seconds 30
"""

import argparse
import asyncio
import json
import time

import numpy as np

HOST = "127.0.0.1"

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


async def _client(http, url, sentences, first, deadline, latencies, failures):
    """Posts one sentence after another until the deadline; the request in flight then is the last."""
    index = first
    while time.perf_counter() < deadline:
        text = sentences[index % len(sentences)]
        index += 1
        started = time.perf_counter()
        try:
            response = await http.post(url, json={"text": text})
            ok = response.status_code == 200
        except Exception as error:  # timeouts and dropped connections count as errors, not crashes
            failures.append(type(error).__name__)
            continue
        if ok:
            latencies.append((time.perf_counter() - started) * 1000)
        else:
            failures.append(str(response.status_code))


async def _drive(base_url, clients, seconds, sentences, request_timeout):
    import httpx

    latencies, failures = [], []
    # trust_env=False: no proxy from the environment between us and the loopback server.
    async with httpx.AsyncClient(
        timeout=request_timeout, trust_env=False, limits=httpx.Limits(max_connections=clients)
    ) as http:
        started = time.perf_counter()
        deadline = started + seconds
        await asyncio.gather(*(
            _client(http, f"{base_url}/translate", sentences, i, deadline, latencies, failures)
            for i in range(clients)
        ))
        elapsed = time.perf_counter() - started
    return latencies, failures, elapsed


def run_load_test(model_path, clients=32, seconds=30.0, sentences=None, request_timeout=30.0) -> dict:
    """Serves `model_path` on a free loopback port and loads it; returns the measurements.

    Stops by itself: clients stop starting requests after `seconds`, and each
    request gives up after `request_timeout`.
    """
    from translator import server
    from translator.decoding import Translator

    sentences = list(sentences or SENTENCES)
    translator = Translator.load(model_path)
    translator.translate(sentences[:1])  # trace the graph before the clock starts
    app = server.create_app(translator)
    with server.background_server(app, host=HOST) as base_url:
        latencies, failures, elapsed = asyncio.run(_drive(base_url, clients, seconds, sentences, request_timeout))
        batcher = app.state.batcher
        batches, batched = batcher.batches, batcher.sentences
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
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="saved_models/en-es", help="model directory")
    parser.add_argument("--clients", type=int, default=32, help="concurrent clients")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to send requests")
    args = parser.parse_args(argv)
    print(json.dumps(run_load_test(args.model, clients=args.clients, seconds=args.seconds), indent=2))


if __name__ == "__main__":
    main()
