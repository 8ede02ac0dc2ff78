"""The HTTP API: translations, the page, attention, dynamic batching, limits and errors."""

import asyncio
import re
import threading
import time
from types import SimpleNamespace

import pytest

fastapi = pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from translator import server  # noqa: E402
from translator.batcher import DECODE_BATCH_SIZE, Batcher  # noqa: E402
from translator.defaults import MAX_BEAM  # noqa: E402
from translator.model_dir import ModelDirError  # noqa: E402


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
    assert client.get("/health").json() == {"status": "ok", "model": "tiny"}


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
