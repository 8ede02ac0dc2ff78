"""The HTTP API: translations, the page, attention, dynamic batching, load shedding, limits and errors."""

import asyncio
import http.client
import json
import re
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from types import SimpleNamespace

import pytest

fastapi = pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from translator.defaults import MAX_BEAM  # noqa: E402
from translator.model_dir import ModelDirError  # noqa: E402
from translator.serving import server  # noqa: E402
from translator.serving.batcher import DECODE_BATCH_SIZE, MAX_QUEUE_WORK, Batcher, Overloaded  # noqa: E402


class FakeTranslator:
    """Upper-cases instead of translating, and records every batch: fast tests of the plumbing."""

    config = SimpleNamespace(name="fake")

    def __init__(self, delay=0.0, error=None):
        self.calls = []
        self.glossaries = []
        self.batch_sizes = []
        self.delay = delay
        self.error = error

    def translate(self, texts, beam_size=1, batch_size=None, glossary=None):
        self.calls.append((list(texts), beam_size))
        self.glossaries.append(glossary)
        self.batch_sizes.append(batch_size)
        time.sleep(self.delay)
        if self.error:
            raise self.error
        return [text.upper() for text in texts]


@pytest.fixture(scope="module")
def client(tiny_translator):
    with TestClient(server.create_app(tiny_translator)) as client:
        yield client


def limited_client(translator=None, **options):
    """A client on the fake translator with small limits, so each one is cheap to cross."""
    options = {"max_body_bytes": 2000, "max_sentences": 3, "max_chars": 50, **options}
    return TestClient(server.create_app(translator or FakeTranslator(), **options))


# Translations on the tiny model.


def test_translates_one_text(client, tiny_translator):
    response = client.post("/translate", json={"text": "Tom is here."})
    assert response.status_code == 200
    body = response.json()
    assert body["translations"] == [tiny_translator.translate("Tom is here.")]
    assert body["translations"][0]
    assert body["model"] == "tiny"
    assert isinstance(body["ms"], float) and body["ms"] > 0


def test_translates_a_list_in_order(client, tiny_translator):
    texts = ["Tom is here.", "Where is Mary?", "I have a dog."]
    response = client.post("/translate", json={"texts": texts})
    assert response.status_code == 200
    assert response.json()["translations"] == tiny_translator.translate(texts)


def test_empty_text_translates_to_empty(client):
    assert client.post("/translate", json={"text": ""}).json()["translations"] == [""]
    translations = client.post("/translate", json={"texts": ["  ", "Help!"]}).json()["translations"]
    assert translations[0] == "" and translations[1]
    assert client.post("/translate", json={"texts": []}).json()["translations"] == []


def test_beam_search(client, tiny_translator):
    response = client.post("/translate", json={"text": "I see Mary.", "beam": 3})
    assert response.status_code == 200
    assert response.json()["translations"] == [tiny_translator.translate("I see Mary.", beam_size=3)]


def test_health(client):
    body = client.get("/health").json()
    assert body["status"] == "ok" and body["model"] == "tiny"
    assert body["queue"] == {"work": 0, "requests": 0, "max_work": MAX_QUEUE_WORK, "decoding_requests": 0}


def test_page_is_self_contained(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    # The page and every file it links to, all served from here.
    linked = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)""", response.text)
    assert sorted(linked) == ["/static/app.js", "/static/style.css"]
    files = {path: client.get(path) for path in linked}
    assert all(file.status_code == 200 for file in files.values())
    assert "javascript" in files["/static/app.js"].headers["content-type"]
    assert files["/static/style.css"].headers["content-type"].startswith("text/css")
    page = "\n".join([response.text, *(file.text for file in files.values())])
    for element in ('<textarea id="source"', '<label for="source"', 'id="translate"', 'id="show-attention"',
                    '<label for="show-attention"', "/attention", "ctrlKey"):
        assert element in page
    # Nothing fetched from elsewhere: no remote scripts, styles, fonts or images.
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "@import" not in page and "url(" not in page


def test_missing_page_file_is_a_json_404(client):
    assert error_of(client.get("/static/nothing.js"), 404)


def test_docs(client):
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/translate", "/attention", "/health"} <= set(paths)


def test_attention(client):
    response = client.post("/attention", json={"text": "Tom is here."})
    assert response.status_code == 200
    body = response.json()
    assert body["sentence"] == "Tom is here."
    assert body["source"] and body["target"]
    assert len(body["weights"]) == len(body["target"])
    for row in body["weights"]:
        assert len(row) == len(body["source"])
        assert sum(row) == pytest.approx(1.0, abs=0.02)  # softmax rows over the real source tokens


def test_attention_of_empty_text(client):
    body = client.post("/attention", json={"text": " "}).json()
    assert body == {"sentence": "", "source": [], "target": [], "weights": []}


# Dynamic batching.


def test_batcher_decodes_concurrent_requests_together():
    fake = FakeTranslator()

    async def main():
        batcher = Batcher(fake.translate, batch_timeout_ms=50)
        batcher.start()
        results = await asyncio.gather(*(batcher.submit([f"s{i}", f"t{i}"], 1) for i in range(10)))
        await batcher.stop()
        return results, batcher.batches

    results, batches = asyncio.run(main())
    assert batches == 1 and len(fake.calls) == 1
    # Each request gets its own slice of the batch, in order.
    assert results == [[f"S{i}", f"T{i}"] for i in range(10)]


def test_batcher_respects_max_batch_size_and_beams():
    fake = FakeTranslator()

    async def main():
        batcher = Batcher(fake.translate, max_batch_size=4, batch_timeout_ms=50)
        batcher.start()
        requests = [batcher.submit([f"s{i}"], 1 + i % 2) for i in range(10)]
        results = await asyncio.gather(*requests)
        await batcher.stop()
        return results

    results = asyncio.run(main())
    assert results == [[f"S{i}"] for i in range(10)]
    for texts, beam in fake.calls:
        # One beam size per decoder call, and never more than a full batch.
        assert {int(text[1:]) % 2 + 1 for text in texts} == {beam}
        assert len(texts) <= 4
    assert sum(len(texts) for texts, _ in fake.calls) == 10


def test_batcher_decodes_a_second_batch_while_the_first_runs():
    running, peak, spans = [0], [0], []

    def slow_translate(texts, beam_size, glossary):
        running[0] += 1
        peak[0] = max(peak[0], running[0])
        started = time.perf_counter()
        time.sleep(0.3)
        spans.append((started, time.perf_counter()))
        running[0] -= 1
        return texts

    async def main():
        batcher = Batcher(slow_translate, batch_timeout_ms=1)
        batcher.start()
        first = asyncio.ensure_future(batcher.submit(["a"], 1))
        await asyncio.sleep(0.1)  # the first batch is decoding now
        second = await batcher.submit(["b"], 1)
        results = [await first, second]
        await batcher.stop()
        return results, batcher.decoding_seconds

    results, decoding_seconds = asyncio.run(main())
    assert results == [["a"], ["b"]]
    assert peak[0] == 2  # the second request did not wait for the first batch to end
    # Time with a batch decoding counts the overlap once: the union of the two calls, not their sum.
    union = max(end for _, end in spans) - min(start for start, _ in spans)
    assert union - 0.01 <= decoding_seconds <= union + 0.1 < sum(end - start for start, end in spans)


def test_batcher_survives_a_failed_batch():
    fake = FakeTranslator(error=RuntimeError("boom"))

    async def main():
        batcher = Batcher(fake.translate, batch_timeout_ms=1)
        batcher.start()
        with pytest.raises(RuntimeError, match="boom"):
            await batcher.submit(["a"], 1)
        fake.error = None
        result = await batcher.submit(["b"], 1)
        await batcher.stop()
        return result

    assert asyncio.run(main()) == ["B"]


def test_concurrent_http_requests_share_batches():
    fake = FakeTranslator(delay=0.05)
    count = 16
    responses = [None] * count
    with limited_client(fake, batch_timeout_ms=200) as client:

        def send(i):
            responses[i] = client.post("/translate", json={"text": f"sentence {i}"})

        threads = [threading.Thread(target=send, args=(i,)) for i in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        batches = client.app.state.batcher.batches
    assert [r.json()["translations"] for r in responses] == [[f"SENTENCE {i}"] for i in range(count)]
    assert batches < count
    assert max(len(texts) for texts, _ in fake.calls) > 1
    # A gathered batch is decoded sorted by length, in short batches (see DECODE_BATCH_SIZE).
    assert set(fake.batch_sizes) == {DECODE_BATCH_SIZE}


# Limits and bad input: a clear JSON error, never a stack trace.


def error_of(response, status):
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and isinstance(body["error"], str)
    assert "Traceback" not in body["error"]
    return body["error"]


def test_body_too_large():
    with limited_client() as client:
        message = error_of(client.post("/translate", json={"text": "x" * 3000}), 413)
    assert "2000 bytes" in message


def test_chunked_body_too_large():
    # No Content-Length: the limit must still hold while the body streams in.
    chunks = (b'{"text": "' + b"x" * 500, *(b"x" * 500 for _ in range(5)), b'"}')
    with limited_client() as client:
        response = client.post("/translate", content=iter(chunks), headers={"content-type": "application/json"})
    assert "2000 bytes" in error_of(response, 413)


def test_chunked_body_under_the_limit_is_fine():
    chunks = (b'{"text": ', b'"hello"}')
    with limited_client() as client:
        response = client.post("/translate", content=iter(chunks), headers={"content-type": "application/json"})
    assert response.json()["translations"] == ["HELLO"]


def test_too_many_texts():
    with limited_client() as client:
        message = error_of(client.post("/translate", json={"texts": ["a", "b", "c", "d"]}), 413)
    assert "limit is 3" in message


def test_text_too_long():
    with limited_client() as client:
        assert "limit is 50" in error_of(client.post("/translate", json={"text": "x" * 51}), 413)
        assert "text 1" in error_of(client.post("/translate", json={"texts": ["ok", "x" * 51]}), 413)
        assert "limit is 50" in error_of(client.post("/attention", json={"text": "x" * 51}), 413)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('{"text": "unterminated', "not valid JSON"),
        ("", "empty"),
        ('["a list"]', "object"),
        ('{"text": 5}', "text"),
        ('{"text": null}', "exactly one"),
        ('{"texts": "not a list"}', "texts"),
        ('{"texts": ["ok", 7]}', "texts.1"),
        ('{"text": "a", "texts": ["b"]}', "exactly one"),
        ("{}", "exactly one"),
        ('{"txt": "typo"}', "txt"),
        ('{"text": "a", "beam": 0}', "beam"),
        (f'{{"text": "a", "beam": {MAX_BEAM + 1}}}', "beam"),
        ('{"text": "a", "beam": "2"}', "beam"),
        ('{"text": "a", "beam": 1.5}', "beam"),
        ('{"text": "a", "beam": true}', "beam"),
    ],
)
def test_bad_translate_requests(body, expected):
    with limited_client() as client:
        response = client.post("/translate", content=body, headers={"content-type": "application/json"})
    assert expected in error_of(response, 422)


def test_the_widest_beam_the_command_line_takes_is_served():
    with limited_client() as client:
        assert client.post("/translate", json={"text": "a", "beam": MAX_BEAM}).json()["translations"] == ["A"]


def test_bad_attention_requests():
    with limited_client() as client:
        assert "text" in error_of(client.post("/attention", json={"texts": ["a"]}), 422)
        assert "text" in error_of(client.post("/attention", json={"text": 3}), 422)


def test_unknown_path_and_method_are_json():
    with limited_client() as client:
        assert error_of(client.get("/nowhere"), 404)
        assert error_of(client.get("/translate"), 405)


def test_unexpected_exception_is_a_500_without_details():
    fake = FakeTranslator(error=RuntimeError("secret internals at /home/x"))
    with TestClient(server.create_app(fake), raise_server_exceptions=False) as client:
        response = client.post("/translate", json={"text": "hello"})
        message = error_of(response, 500)
        assert "secret" not in message and "RuntimeError" in message
        # The server goes on serving.
        fake.error = None
        assert client.post("/translate", json={"text": "again"}).json()["translations"] == ["AGAIN"]


# Load shedding: a bounded queue, a deadline, a work budget per request, a graceful stop.


class GatedTranslator:
    """The tiny model behind a gate: each decoder call waits until the test opens it, so the queue fills on cue."""

    def __init__(self, translator):
        self.translator = translator
        self.config = translator.config
        self.entered = threading.Semaphore(0)  # released once per decoder call that reached the gate
        self.gate = threading.Event()

    def translate(self, texts, beam_size=1, batch_size=None, glossary=None):
        self.entered.release()
        self.gate.wait(timeout=30)
        return self.translator.translate(texts, beam_size=beam_size, batch_size=batch_size)


def in_thread(client, body):
    """Posts `body` to /translate from a thread; returns the thread and where its response will be."""
    response = {}
    thread = threading.Thread(target=lambda: response.update(r=client.post("/translate", json=body)))
    thread.start()
    return thread, response


def occupy_decoders(client, gated):
    """Two requests, each in its own batch, hold both decoder threads at the gate."""
    busy = []
    for text in ("Tom is here.", "I see Mary."):
        busy.append(in_thread(client, {"text": text, "beam": 1}))
        assert gated.entered.acquire(timeout=30)
    return busy


def wait_for(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_a_full_queue_refuses_at_once_with_retry_after(tiny_translator):
    gated = GatedTranslator(tiny_translator)
    with TestClient(server.create_app(gated, max_queue_work=4, max_request_work=2, deadline_s=60)) as client:
        batcher = client.app.state.batcher
        busy = occupy_decoders(client, gated)
        queued = [in_thread(client, {"text": text, "beam": 1}) for text in ("Help!", "I am tired.")]
        wait_for(lambda: batcher.queued_work == 2)
        # Room for one more request of the largest size: not saturated yet.
        assert client.get("/health").json()["status"] == "ok"
        queued.append(in_thread(client, {"text": "Good night.", "beam": 1}))
        wait_for(lambda: batcher.queued_work == 3)
        health = client.get("/health")
        assert health.status_code == 200
        assert health.json()["status"] == "saturated"
        assert health.json()["queue"] == {"work": 3, "requests": 3, "max_work": 4, "decoding_requests": 2}
        # Two sentences (2 units) do not fit in the 1 unit left: refused now, not after a wait.
        started = time.perf_counter()
        refused = client.post("/translate", json={"texts": ["Hi.", "Hello."], "beam": 1})
        assert time.perf_counter() - started < 2
        assert "saturated" in error_of(refused, 503)
        assert int(refused.headers["Retry-After"]) >= 1
        gated.gate.set()
        for thread, response in busy + queued:
            thread.join(timeout=30)
            assert response["r"].status_code == 200
        assert queued[0][1]["r"].json()["translations"] == [tiny_translator.translate("Help!", beam_size=1)]
        health = client.get("/health").json()
        assert health["status"] == "ok" and health["queue"]["work"] == 0 and health["refused"] == 1


def test_a_request_queued_past_its_deadline_is_refused_and_dropped(tiny_translator):
    gated = GatedTranslator(tiny_translator)
    with TestClient(server.create_app(gated, deadline_s=0.5)) as client:
        busy = occupy_decoders(client, gated)
        started = time.perf_counter()
        late = client.post("/translate", json={"text": "Where is Mary?", "beam": 1})
        waited = time.perf_counter() - started
        assert "waited 0.5 s in the queue" in error_of(late, 503)
        assert late.headers["Retry-After"].isdigit()
        assert 0.5 <= waited < 5
        assert client.get("/health").json()["queue"]["work"] == 0  # dropped from the queue
        gated.gate.set()
        for thread, response in busy:
            thread.join(timeout=30)
            assert response["r"].status_code == 200
        # It was never decoded: only the two requests that held the decoders were.
        assert client.app.state.batcher.sentences == 2


def test_one_request_may_not_cost_more_than_the_work_budget():
    with limited_client(max_sentences=64, max_chars=1000, max_body_bytes=5000, max_request_work=32) as client:
        # 16 sentences at beam 2 fit; at beam 4, 64 units.
        assert len(client.post("/translate", json={"texts": ["a"] * 16, "beam": 2}).json()["translations"]) == 16
        message = error_of(client.post("/translate", json={"texts": ["a"] * 16, "beam": 4}), 413)
        assert "64 units of work" in message and "limit is 32" in message
        # A long text counts as the sentences it will be split into: 10 of them here.
        assert "40 units" in error_of(client.post("/translate", json={"text": "x" * 1000, "beam": 4}), 413)


def test_a_client_that_goes_away_takes_its_work_out_of_the_queue():
    async def main():
        batcher = Batcher(FakeTranslator(delay=0.3).translate, parallel_batches=1, batch_timeout_ms=1)
        batcher.start()
        first = asyncio.ensure_future(batcher.submit(["a"], 1))
        await asyncio.sleep(0.1)  # decoding now; the next request queues
        gone = asyncio.ensure_future(batcher.submit(["b", "c"], 4))
        await asyncio.sleep(0.05)
        queued = batcher.queued_work
        gone.cancel()
        await asyncio.sleep(0.01)
        after = batcher.queued_work, len(batcher.queue)  # the first request is still decoding
        result = await first
        await asyncio.sleep(0.05)
        await batcher.stop()
        return queued, after, batcher.sentences, result

    # Never decoded: only the first request's sentence was.
    assert asyncio.run(main()) == (8, (0, 0), 1, ["A"])


class GatedCalls:
    """A translate function that records its calls and holds each at a gate until the test opens it."""

    def __init__(self):
        self.calls = []
        self.gate = threading.Event()

    def __call__(self, texts, beam_size, glossary=None):
        self.calls.append(list(texts))
        self.gate.wait(timeout=30)
        return [text.upper() for text in texts]


def test_cheap_requests_go_first_and_push_costly_ones_out_of_a_full_queue():
    translate = GatedCalls()

    async def main():
        batcher = Batcher(translate, parallel_batches=1, batch_timeout_ms=1, max_queue_work=8, deadline_s=60)
        batcher.start()
        running = asyncio.ensure_future(batcher.submit(["busy"], 1))
        await asyncio.sleep(0.05)  # decoding, held at the gate
        costly = [asyncio.ensure_future(batcher.submit([name], 4)) for name in ("old", "new")]
        await asyncio.sleep(0.01)
        full = batcher.queued_work
        cheap = asyncio.ensure_future(batcher.submit(["cheap"], 1))
        await asyncio.sleep(0.01)
        translate.gate.set()
        results = await asyncio.gather(running, *costly, cheap, return_exceptions=True)
        await batcher.stop()
        return full, results, batcher.refused

    full, (running, old, new, cheap), refused = asyncio.run(main())
    assert full == 8
    # The newest of the costliest made room; the cheap request, queued last, was decoded before the older one.
    assert isinstance(new, Overloaded) and "took this one's place" in str(new)
    assert (running, old, cheap) == (["BUSY"], ["OLD"], ["CHEAP"]) and refused == 1
    assert translate.calls == [["busy"], ["cheap"], ["old"]]


def test_a_short_request_does_not_wait_for_heavy_batches():
    heavy_gate = threading.Event()

    def translate(texts, beam_size, glossary=None):
        if beam_size == MAX_BEAM:
            heavy_gate.wait(timeout=30)
        return [text.upper() for text in texts]

    async def main():
        batcher = Batcher(translate, batch_timeout_ms=1)  # two decoder threads
        batcher.start()
        # Each the largest request: they cannot share a batch.
        heavy = [asyncio.ensure_future(batcher.submit([f"h{i}"] * 16, MAX_BEAM)) for i in range(2)]
        await asyncio.sleep(0.05)
        # One heavy batch decodes; the other waits although a decoder thread is free: that one is kept for light work.
        queued_heavy = batcher.queued_work
        light = await asyncio.wait_for(batcher.submit(["hi"], 4), timeout=5)
        still_queued = batcher.queued_work
        heavy_gate.set()
        results = await asyncio.gather(*heavy)
        await batcher.stop()
        return queued_heavy, light, still_queued, results

    queued_heavy, light, still_queued, results = asyncio.run(main())
    assert queued_heavy == still_queued == 16 * MAX_BEAM
    assert light == ["HI"]
    assert results == [["H0"] * 16, ["H1"] * 16]


def test_refused_at_once_when_the_work_before_it_would_outlast_the_deadline():
    translate = GatedCalls()

    async def main():
        batcher = Batcher(translate, parallel_batches=1, batch_timeout_ms=1, deadline_s=1.5)
        batcher.start()
        # The speed so far: one second a unit of work.
        batcher.work_done, batcher.batch_seconds = 10, 10.0
        running = asyncio.ensure_future(batcher.submit(["busy"], 1))
        await asyncio.sleep(0.05)
        first = asyncio.ensure_future(batcher.submit(["a"], 1))
        await asyncio.sleep(0.01)
        assert not batcher.saturated  # 1 s of work before a request, under 1.5 s
        second = asyncio.ensure_future(batcher.submit(["b"], 1))
        await asyncio.sleep(0.01)
        started = time.perf_counter()
        with pytest.raises(Overloaded, match="about 2 s") as refused:
            await batcher.submit(["c"], 1)
        waited = time.perf_counter() - started
        saturated = batcher.saturated
        translate.gate.set()
        results = await asyncio.gather(running, first, second)
        await batcher.stop()
        return waited, refused.value.retry_after, saturated, results

    waited, retry_after, saturated, results = asyncio.run(main())
    assert waited < 0.1 and retry_after == 2 and saturated
    assert results == [["BUSY"], ["A"], ["B"]]


SLOW_SERVER = """
import socket, sys, time, uvicorn
from types import SimpleNamespace
from translator.serving import server

class Slow:
    config = SimpleNamespace(name="slow")

    def translate(self, texts, beam_size=1, batch_size=None, glossary=None):
        time.sleep(0.5)
        return [text.upper() for text in texts]

uvicorn.run(server.create_app(Slow()), fd=int(sys.argv[1]), log_level="warning")
"""


def get_json(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        return json.loads(connection.getresponse().read())
    finally:
        connection.close()


def test_sigterm_answers_queued_requests_then_exits(tmp_path, command_env):
    # uvicorn as `translator serve` runs it, in its own process: SIGTERM reaches its real signal handler.
    script = tmp_path / "slow_server.py"
    script.write_text(textwrap.dedent(SLOW_SERVER))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    port = sock.getsockname()[1]
    process = subprocess.Popen([sys.executable, str(script), str(sock.fileno())], pass_fds=[sock.fileno()],
                               env=command_env, stderr=subprocess.PIPE, text=True)
    sock.close()
    try:
        wait_for(lambda: get_json(port, "/health")["status"] == "ok", timeout=30)
        results = {}

        def post(beam):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("POST", "/translate", json.dumps({"text": f"beam {beam}", "beam": beam}),
                               {"Content-Type": "application/json"})
            response = connection.getresponse()
            results[beam] = (response.status, json.loads(response.read()))

        # Four beam sizes, four batches of 0.5 s, two at a time: two are still queued at SIGTERM.
        threads = [threading.Thread(target=post, args=(beam,)) for beam in (1, 2, 3, 4)]
        for thread in threads:
            thread.start()

        def all_in():
            queue = get_json(port, "/health")["queue"]
            return queue["requests"] == 2 and queue["decoding_requests"] == 2

        wait_for(all_in)
        process.send_signal(signal.SIGTERM)
        for thread in threads:
            thread.join(timeout=30)
        assert {beam: result[0] for beam, result in results.items()} == {1: 200, 2: 200, 3: 200, 4: 200}
        assert results[4][1]["translations"] == ["BEAM 4"]
        # Drained, uvicorn ends the process by the signal it caught, as a SIGTERM with no handler would.
        assert process.wait(timeout=30) == -signal.SIGTERM
        # Nothing listens any more.
        with pytest.raises(ConnectionRefusedError):
            get_json(port, "/health")
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        process.stderr.close()


def test_serve_takes_the_queue_limits(monkeypatch):
    from translator import cli

    seen = {}
    monkeypatch.setattr(server, "run", lambda *args, **kwargs: seen.update(kwargs))
    assert cli.main(["serve", "--max-queue", "100", "--deadline", "2.5"]) == 0
    assert seen["max_queue_work"] == 100 and seen["deadline_s"] == 2.5


@pytest.mark.parametrize("argv", [["--max-queue", "0"], ["--deadline", "-1"], ["--deadline", "nan"]])
def test_serve_refuses_bad_queue_limits(argv, capsys):
    from translator import cli

    with pytest.raises(SystemExit) as exit_status:
        cli.build_parser().parse_args(["serve", *argv])
    assert exit_status.value.code == 2
    assert "above 0" in capsys.readouterr().err


# run(): a missing model fails before anything listens.


def test_run_with_missing_model_raises_before_binding(tmp_path, monkeypatch):
    import uvicorn

    def must_not_serve(*args, **kwargs):
        raise AssertionError("uvicorn.run was called for a missing model")

    monkeypatch.setattr(uvicorn, "run", must_not_serve)
    with pytest.raises(ModelDirError, match="no trained model"):
        server.run(str(tmp_path / "missing"), port=8000)


# The user's glossary, per request.


def test_each_request_brings_its_own_glossary_through_the_batch():
    fake = FakeTranslator(delay=0.05)
    requests = [{"texts": ["The firewall.", "A router."], "glossary": {"firewall": "cortafuegos"}},
                {"text": "The Router.", "glossary": {"router": "enrutador"}},
                {"text": "The firewall."}]
    responses = [None] * len(requests)
    with limited_client(fake, batch_timeout_ms=300) as client:

        def send(i):
            responses[i] = client.post("/translate", json=requests[i])

        threads = [threading.Thread(target=send, args=(i,)) for i in range(len(requests))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert all(response.status_code == 200 for response in responses)
    assert len(fake.calls) == 1  # one batch, each text with its request's glossary
    by_text = list(zip(fake.calls[0][0], fake.glossaries[0]))
    assert sorted((text, repr(g and g.matches(text))) for text, g in by_text) == [
        ("A router.", "[]"), ("The Router.", "[(4, 10, 'Enrutador')]"),
        ("The firewall.", "None"), ("The firewall.", "[(4, 12, 'cortafuegos')]")]


def test_a_glossary_over_the_limits_or_bad_is_refused_with_422():
    with limited_client(max_glossary_terms=2, max_glossary_chars=40) as client:
        def post(glossary):
            return client.post("/translate", json={"text": "The firewall.", "glossary": glossary})

        assert post({"firewall": "cortafuegos", "router": "router"}).status_code == 200
        assert post({}).status_code == 200
        assert "3 terms: the limit is 2" in error_of(post({"a": "b", "c": "d", "e": "f"}), 422)
        assert "41 characters long" in error_of(post({"firewall": "cortafuegos", "x" * 21: "y"}), 422)
        assert error_of(post({"firewall": "cortafuegos", "router": " "}), 422) == (
            "glossary entry 2: the Spanish side is empty")
        assert "translated as" in error_of(post({"firewall": "cortafuegos", "Firewall": "muro"}), 422)
        assert "glossary.firewall" in error_of(post({"firewall": 5}), 422)
        assert "glossary" in error_of(post(["firewall", "cortafuegos"]), 422)


def test_the_page_sends_its_terms_box_as_the_glossary():
    with limited_client() as client:
        page, script = client.get("/").text, client.get("/static/app.js").text
    assert 'id="glossary"' in page and 'for="glossary"' in page
    assert "glossary: glossary()" in script and '$("glossary").value' in script
