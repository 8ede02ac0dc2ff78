"""The HTTP server: a JSON API, a one-page UI and dynamic batching.

    POST /translate   {"text": "..."} or {"texts": [...]}, optional "beam"
                      -> {"translations": [...], "model": "...", "ms": 12.3}
    POST /attention   {"text": "..."} -> {"source": [...], "target": [...], "weights": [[...]]}
    GET  /health      {"status": "ok", "model": "..."}
    GET  /            the page (self-contained: no CDN, no external fonts)
    GET  /docs        OpenAPI docs (FastAPI's Swagger UI, which does load from a CDN)

Requests that arrive within `batch_timeout_ms` of each other are decoded
together, as TF Serving does: one decoder call for 16 sentences costs little
more than for one, so under load throughput grows with the batch instead of
requests queueing one by one. A gathered batch is sorted by length and
decoded `DECODE_BATCH_SIZE` sentences at a time, so short sentences do not
wait for the longest. Every error is `{"error": "..."}`, never a
stack trace.
"""

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.exceptions import HTTPException

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
MAX_BEAM = 8

# Limits: generous for people, small enough that one request cannot hold the
# model for long or exhaust memory.
MAX_BODY_BYTES = 64 * 1024
MAX_SENTENCES = 64
MAX_CHARS = 1000

# Batching: wait at most this long for company, and no longer than this many sentences.
BATCH_TIMEOUT_MS = 5.0
MAX_BATCH_SIZE = 64
# A gathered batch is decoded sorted by length, this many sentences at a time, two at
# a time: requests arrive in random lengths, and one batch of them would run until its
# longest sentence ends. Load test, 32 clients, 20 s runs: 16 gave 286-356 sentences/s,
# 8 gave 271-281, 32 gave 239-247 and 64 (one batch) 228-268.
DECODE_BATCH_SIZE = 16


class TranslateRequest(BaseModel):
    # Strict: "beam": "2" or "text": 5 is a client bug worth reporting, not guessing at.
    # Forbid extras: a typo such as "txt" must not silently translate nothing.
    model_config = ConfigDict(strict=True, extra="forbid")

    text: str | None = Field(None, description="one text to translate")
    texts: list[str] | None = Field(None, description="several texts, translated in one batch")
    beam: int = Field(1, ge=1, le=MAX_BEAM, description="beam size; 1 is greedy decoding")

    @model_validator(mode="after")
    def exactly_one_input(self):
        if (self.text is None) == (self.texts is None):
            raise ValueError('give exactly one of "text" (a string) or "texts" (a list of strings)')
        return self

    def inputs(self) -> list[str]:
        return [self.text] if self.text is not None else list(self.texts)


class TranslateResponse(BaseModel):
    translations: list[str]
    model: str
    ms: float


class AttentionRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    text: str


class AttentionResponse(BaseModel):
    sentence: str = Field(description="the sentence the weights belong to (the first of the text)")
    source: list[str]
    target: list[str]
    weights: list[list[float]] = Field(description="one row per target token, one column per source token")


class Batcher:
    """Gathers concurrent requests into batches, decoded by `parallel_batches` threads.

    `translate(texts, beam_size)` runs in `self.executor`, off the event loop,
    so requests keep arriving (and queueing for the next batch) while a batch
    decodes. A new batch is gathered only when a decoder thread is free, so
    under load batches grow instead of queueing. Two threads rather than one:
    the decoding loop's small per-step operations leave the cores idle in
    between, and a second batch fills them (as TF Serving's `num_batch_threads`).
    Other model work (the attention endpoint) goes through the same executor.
    """

    def __init__(self, translate: Callable, max_batch_size=MAX_BATCH_SIZE, batch_timeout_ms=BATCH_TIMEOUT_MS,
                 parallel_batches=2):
        self.translate = translate
        self.parallel_batches = parallel_batches
        self.executor: ThreadPoolExecutor | None = None
        self.max_batch_size = max_batch_size
        self.batch_timeout = batch_timeout_ms / 1000
        self.batches = 0  # decoder calls so far: tests and benchmarks read it
        self.sentences = 0
        # Seconds during which at least one batch was decoding: the rest of the time the
        # model waited for requests (HTTP round trips, the gathering timeout).
        self.decoding_seconds = 0.0
        self._decoding_now = 0
        self._decoding_since = 0.0
        self.queue: asyncio.Queue | None = None
        self.worker: asyncio.Task | None = None
        self.free: asyncio.Semaphore | None = None  # decoder threads not busy
        self.decoding: set[asyncio.Task] = set()

    def start(self):
        self.executor = ThreadPoolExecutor(max_workers=self.parallel_batches, thread_name_prefix="decoder")
        self.queue = asyncio.Queue()
        self.free = asyncio.Semaphore(self.parallel_batches)
        self.worker = asyncio.create_task(self._run())

    async def stop(self):
        for task in [self.worker, *self.decoding]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.worker = None
        if self.executor is not None:
            self.executor.shutdown(wait=False)
            self.executor = None

    async def submit(self, texts: list[str], beam: int) -> list[str]:
        """Queues `texts`; returns their translations once their batch is decoded."""
        if self.worker is None:
            raise RuntimeError("the batcher is not running (use the app inside its lifespan)")
        future = asyncio.get_running_loop().create_future()
        await self.queue.put((texts, beam, future))
        return await future

    async def _gather(self):
        """Waits for one request, then for more until the timeout or the batch is full."""
        items = [await self.queue.get()]
        size = len(items[0][0])
        deadline = time.monotonic() + self.batch_timeout
        while size < self.max_batch_size:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            try:
                item = await asyncio.wait_for(self.queue.get(), remaining)
            except asyncio.TimeoutError:
                break
            items.append(item)
            size += len(item[0])
        return items

    async def _run(self):
        loop = asyncio.get_running_loop()
        while True:
            await self.free.acquire()
            items = await self._gather()
            # Beam sizes are separate compiled graphs, so each beam size is its own batch.
            by_beam: dict[int, list] = {}
            for item in items:
                by_beam.setdefault(item[1], []).append(item)
            for n, (beam, group) in enumerate(by_beam.items()):
                if n:
                    await self.free.acquire()
                task = asyncio.create_task(self._decode(loop, beam, group))
                self.decoding.add(task)
                task.add_done_callback(self.decoding.discard)

    async def _decode(self, loop, beam, group):
        texts = [text for item in group for text in item[0]]
        self.batches += 1
        self.sentences += len(texts)
        if not self._decoding_now:
            self._decoding_since = time.perf_counter()
        self._decoding_now += 1
        try:
            outputs = await loop.run_in_executor(self.executor, self.translate, texts, beam)
        except Exception as error:  # every waiting request gets the failure, the worker lives on
            for _, _, future in group:
                if not future.done():
                    future.set_exception(error)
            return
        finally:
            self._decoding_now -= 1
            if not self._decoding_now:
                self.decoding_seconds += time.perf_counter() - self._decoding_since
            self.free.release()
        start = 0
        for item_texts, _, future in group:
            # A client that went away has a cancelled future; skip it.
            if not future.done():
                future.set_result(outputs[start:start + len(item_texts)])
            start += len(item_texts)


class BodyLimit:
    """ASGI middleware: 413 for a request body over `max_bytes`, counted as it streams in; 400 for one not UTF-8.

    Content-Length can be absent (chunked) or lie, so the body is read and
    counted here, then replayed to the app. JSON is UTF-8 (RFC 8259); other
    bytes would reach FastAPI's JSON parser, whose answer names no cause.
    """

    def __init__(self, app, max_bytes):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            return await self.app(scope, receive, send)
        too_large = JSONResponse(
            {"error": f"request body too large: the limit is {self.max_bytes} bytes"}, status_code=413
        )
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            return await too_large(scope, receive, send)
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.max_bytes:
                return await too_large(scope, receive, send)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as error:
            not_utf8 = JSONResponse({"error": f"the request body is not UTF-8 (byte {error.start})"}, status_code=400)
            return await not_utf8(scope, receive, send)
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: wait for the disconnect, as the server would

        await self.app(scope, replay, send)


def _error(status, message):
    return JSONResponse({"error": message}, status_code=status)


def _describe(errors) -> str:
    """Pydantic's error list as one readable line: `texts.1: Input should be a valid string`."""
    parts = []
    for error in errors:
        if error.get("type") == "json_invalid":
            return "the request body is not valid JSON"
        if error.get("type") == "missing" and tuple(error.get("loc", ())) == ("body",):
            return 'the request body is empty: send a JSON object such as {"text": "Hello."}'
        where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
        message = error.get("msg", "invalid").removeprefix("Value error, ")
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts) or "invalid request"


def _add_error_handlers(app):
    @app.exception_handler(RequestValidationError)
    async def invalid(request, error):
        return _error(422, _describe(error.errors()))

    @app.exception_handler(HTTPException)
    async def http_error(request, error):
        return _error(error.status_code, str(error.detail))

    @app.exception_handler(Exception)
    async def unexpected(request, error):
        # The traceback goes to the server log (Starlette re-raises after this), never to the client.
        return _error(500, f"internal server error ({type(error).__name__}); see the server log")


def _check_limits(texts, max_sentences, max_chars):
    if len(texts) > max_sentences:
        raise HTTPException(413, f"too many texts: {len(texts)}, the limit is {max_sentences} per request")
    for index, text in enumerate(texts):
        which = f"text {index}" if len(texts) > 1 else "the text"
        if len(text) > max_chars:
            raise HTTPException(413, f"{which} is {len(text)} characters long: the limit is {max_chars} per text")
        # A JSON escape can spell half of a surrogate pair ("\\ud800"): valid JSON, but no character.
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:
            raise HTTPException(400, f"{which} holds an unpaired surrogate (\\u{ord(text[error.start]):04x})") from None


def create_app(
    translator,
    model_name=None,
    max_body_bytes=MAX_BODY_BYTES,
    max_sentences=MAX_SENTENCES,
    max_chars=MAX_CHARS,
    max_batch_size=MAX_BATCH_SIZE,
    batch_timeout_ms=BATCH_TIMEOUT_MS,
) -> FastAPI:
    """The app around a loaded `Translator`. Use it inside its lifespan (`with TestClient(app)`)."""
    model_name = model_name or translator.config.name
    batcher = Batcher(
        lambda texts, beam: translator.translate(texts, beam_size=beam, batch_size=DECODE_BATCH_SIZE),
        max_batch_size=max_batch_size,
        batch_timeout_ms=batch_timeout_ms,
    )

    @contextlib.asynccontextmanager
    async def lifespan(app):
        batcher.start()
        yield
        await batcher.stop()

    app = FastAPI(title="English to Spanish translator", lifespan=lifespan)
    app.state.batcher = batcher
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    _add_error_handlers(app)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def page():
        return PAGE

    @app.get("/health")
    async def health():
        return {"status": "ok", "model": model_name}

    @app.post("/translate", response_model=TranslateResponse)
    async def translate(request: TranslateRequest):
        started = time.perf_counter()
        texts = request.inputs()
        _check_limits(texts, max_sentences, max_chars)
        translations = await batcher.submit(texts, request.beam)
        return {"translations": translations, "model": model_name, "ms": (time.perf_counter() - started) * 1000}

    @app.post("/attention", response_model=AttentionResponse)
    async def attention(request: AttentionRequest):
        _check_limits([request.text], 1, max_chars)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(batcher.executor, _attention, translator, request.text)

    return app


def _attention(translator, text):
    """The cross-attention of the first sentence of `text` (the heatmap shows one sentence)."""
    _, pieces, _ = translator.segments([text])
    if not pieces:
        return {"sentence": "", "source": [], "target": [], "weights": []}
    source, target, weights = translator.attention(pieces[0])
    return {"sentence": pieces[0], "source": source, "target": target, "weights": weights.astype(float).round(4).tolist()}


@contextlib.contextmanager
def background_server(app, host=DEFAULT_HOST):
    """Serves `app` from a thread on a free port of `host`; yields its base URL. For tests and benchmarks.

    The socket is bound here (port 0: the OS picks a free one) and handed to
    uvicorn, so there is no race between finding a port and binding it.
    """
    import uvicorn

    # IPPROTO_TCP named, not left as 0: asyncio turns Nagle's algorithm off (TCP_NODELAY)
    # only on sockets that say they are TCP, and with it on, each response waits ~40 ms
    # for the client's delayed acknowledgement.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind((host, 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def run(model_path: str, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, jit_compile=None, **limits):
    """Loads the model once, then serves until interrupted.

    The model is loaded before the port is bound, so a missing model raises
    `ModelDirError` at once and nothing listens.
    """
    import uvicorn

    from translator.decoding import Translator

    translator = Translator.load(model_path, jit_compile=jit_compile)
    # Trace (with XLA: compile every batch shape) now, so no user waits for it.
    started = time.perf_counter()
    shapes = translator.warm_up(DECODE_BATCH_SIZE)
    print(f"translator: decoding graph ready for {shapes} batch shape(s) in {time.perf_counter() - started:.1f} s "
          f"(XLA {'on' if translator.jit_compile else 'off'})")
    app = create_app(translator, model_name=Path(model_path).name, **limits)
    print(f"translator: serving {model_path} on http://{host}:{port}/ (API docs at /docs)")
    uvicorn.run(app, host=host, port=port, log_level="info")


PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>English → Spanish translator</title>
<style>
  :root { --accent: #1f5fbf; --ink: #1d1d1f; --muted: #5f6368; --line: #d0d4da; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
         color: var(--ink); background: #f6f7f9; }
  main { max-width: 46rem; margin: 2rem auto; padding: 1.5rem; background: #fff;
         border: 1px solid var(--line); border-radius: 10px; }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  label { font-weight: 600; display: block; margin-bottom: .35rem; }
  textarea { width: 100%; min-height: 7rem; padding: .6rem; font: inherit; border: 1px solid var(--line);
             border-radius: 6px; resize: vertical; }
  textarea:focus, button:focus-visible, input:focus-visible, select:focus-visible {
    outline: 3px solid #9cc0f5; outline-offset: 1px; }
  .controls { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin: .8rem 0 1.2rem; }
  .controls label { display: inline; font-weight: normal; margin: 0; }
  button { background: var(--accent); color: #fff; border: 0; border-radius: 6px; padding: .55rem 1.2rem;
           font: inherit; font-weight: 600; cursor: pointer; }
  button:disabled { opacity: .6; cursor: progress; }
  .hint { color: var(--muted); font-size: .85rem; }
  #result { min-height: 3rem; padding: .7rem; border-radius: 6px; background: #eef3fb; font-size: 1.1rem;
            white-space: pre-wrap; }
  #result.error { background: #fdecea; color: #a50e0e; }
  #meta { color: var(--muted); font-size: .85rem; margin-top: .3rem; }
  #attention { margin-top: 1.2rem; overflow-x: auto; }
  #attention svg text { font-size: 12px; fill: var(--ink); }
</style>
</head>
<body>
<main>
  <h1>English → Spanish</h1>
  <form id="form">
    <label for="source">English text</label>
    <textarea id="source" name="source" placeholder="Where is the train station?"
              aria-describedby="shortcut"></textarea>
    <div class="controls">
      <button id="translate" type="submit">Translate</button>
      <span>
        <label for="beam">Beam size</label>
        <select id="beam" name="beam">
          <option value="1" selected>1 (greedy)</option><option>2</option><option>4</option><option>8</option>
        </select>
      </span>
      <span>
        <input type="checkbox" id="show-attention" name="show-attention">
        <label for="show-attention">Show attention</label>
      </span>
      <span id="shortcut" class="hint">Ctrl+Enter translates</span>
    </div>
  </form>
  <h2 class="hint" id="result-label">Spanish</h2>
  <div id="result" role="status" aria-live="polite" aria-labelledby="result-label"></div>
  <div id="meta"></div>
  <div id="attention" aria-live="polite"></div>
</main>
<script>
"use strict";
const $ = (id) => document.getElementById(id);

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  });
  let data;
  try { data = await response.json(); } catch (e) { data = {error: response.statusText}; }
  if (!response.ok) throw new Error(data.error || ("HTTP " + response.status));
  return data;
}

async function translate() {
  const text = $("source").value;
  const button = $("translate");
  button.disabled = true;
  $("result").classList.remove("error");
  $("result").dataset.state = "busy";
  $("result").textContent = "Translating…";
  $("meta").textContent = "";
  try {
    const data = await post("/translate", {text: text, beam: Number($("beam").value)});
    $("result").textContent = data.translations[0];
    $("result").dataset.state = "done";
    $("meta").textContent = data.model + " · " + data.ms.toFixed(0) + " ms";
    if ($("show-attention").checked) {
      showAttention(text);
    } else {
      clearAttention();
    }
  } catch (error) {
    $("result").classList.add("error");
    $("result").dataset.state = "error";
    $("result").textContent = "Error: " + error.message;
  } finally {
    button.disabled = false;
  }
}

// Attention requests can overlap (the box ticked, then a new translation): only the newest may draw.
let attentionRequests = 0;

function clearAttention() {
  attentionRequests++;
  $("attention").replaceChildren();
}

// The translation stands even if the heatmap fails: the failure is reported where the heatmap would be.
async function showAttention(text) {
  if (!text.trim()) { clearAttention(); return; }
  const request = ++attentionRequests;
  let data;
  try {
    data = await post("/attention", {text: text});
  } catch (error) {
    if (request === attentionRequests) $("attention").textContent = "Attention: " + error.message;
    return;
  }
  if (request !== attentionRequests) return;
  const caption = document.createElement("p");
  caption.className = "hint";
  caption.textContent = "Cross-attention of \u201c" + data.sentence + "\u201d: each Spanish token (row) "
                        + "and the English tokens (columns) it looked at; darker is more.";
  $("attention").replaceChildren(caption, heatmap(data));
}

// Inline SVG: Spanish (target) tokens down the left, English (source) tokens across the top,
// darker cells = more attention.
function heatmap(data) {
  const NS = "http://www.w3.org/2000/svg";
  const cell = 30, left = 110, top = 90;
  const svg = document.createElementNS(NS, "svg");
  const width = left + cell * data.source.length + 10, height = top + cell * data.target.length + 10;
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Cross-attention of '" + data.sentence + "': rows are Spanish tokens, "
                   + "columns English tokens, darker means more attention");
  const add = (name, attributes, text) => {
    const node = document.createElementNS(NS, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    svg.appendChild(node);
    return node;
  };
  const peak = Math.max(1e-6, ...data.weights.flat());
  data.source.forEach((token, j) => {
    const x = left + j * cell + cell / 2, y = top - 6;
    add("text", {x: x, y: y, transform: `rotate(-50 ${x} ${y})`}, token);
  });
  data.target.forEach((token, i) => {
    add("text", {x: left - 6, y: top + i * cell + cell / 2 + 4, "text-anchor": "end"}, token);
    data.weights[i].forEach((weight, j) => {
      const rect = add("rect", {x: left + j * cell, y: top + i * cell, width: cell - 1, height: cell - 1,
                                fill: "#1f5fbf", "fill-opacity": (0.04 + 0.96 * weight / peak).toFixed(3)});
      const title = document.createElementNS(NS, "title");
      title.textContent = `${token} ← ${data.source[j]}: ${weight.toFixed(3)}`;
      rect.appendChild(title);
    });
  });
  return svg;
}

$("form").addEventListener("submit", (event) => { event.preventDefault(); translate(); });
$("source").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); translate(); }
});
$("show-attention").addEventListener("change", () => {
  if ($("show-attention").checked && $("result").dataset.state === "done") {
    showAttention($("source").value);
  } else if (!$("show-attention").checked) {
    clearAttention();
  }
});
</script>
</body>
</html>
"""
