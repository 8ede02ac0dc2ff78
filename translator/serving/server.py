"""The HTTP server: a JSON API and the page, around one loaded `Translator`.

    POST /translate   {"text": "..."} or {"texts": [...]}, optional "beam" and
                      "glossary": {"english term": "Spanish", ...} (see `translator.text.glossary`)
                      -> {"translations": [...], "model": "...", "ms": 12.3}
    POST /attention   {"text": "..."} -> {"source": [...], "target": [...], "weights": [[...]]}
    GET  /health      {"status": "ok" or "saturated", "model": "...", "queue": {"work": 12, "requests": 3, ...}}
    GET  /            the page, from `static/` (self-contained: no CDN, no external fonts)
    GET  /static/...  the page's script and style sheet
    GET  /docs        OpenAPI docs (FastAPI's Swagger UI, which does load from a CDN)

Translations go through a `Batcher` (dynamic batching), whose bounded queue
sheds load: a request that does not fit, or waits in it past its deadline, is
answered 503 with `Retry-After`; one request over the per-request work budget,
413. `/health` answers 200 even when saturated: the server is alive and
answers every request at once (translated or refused), and a 503 there would
make a liveness check restart a busy server, losing its queue; a load balancer
should read `"status"` or the 503s of `/translate`. SIGTERM (or Ctrl-C) stops
accepting connections, and uvicorn waits for the requests under way, queued
ones included, before the batcher stops. Every error is `{"error": "..."}`,
never a stack trace.
"""

import asyncio
import contextlib
import logging
import time
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.exceptions import HTTPException

from translator.defaults import DEFAULT_BEAM, DEFAULT_HOST, DEFAULT_PORT, MAX_BEAM
from translator.serving.batcher import (
    BATCH_TIMEOUT_MS,
    DECODE_BATCH_SIZE,
    MAX_BATCH_SIZE,
    MAX_QUEUE_WORK,
    MAX_REQUEST_WORK,
    QUEUE_DEADLINE_S,
    Batcher,
    Overloaded,
    TooMuchWork,
)
from translator.text import segments
from translator.text.glossary import Glossary, GlossaryError

logger = logging.getLogger(__name__)

# Limits: generous for people, small enough that one request cannot hold the
# model for long or exhaust memory.
MAX_BODY_BYTES = 64 * 1024
MAX_SENTENCES = 64
MAX_CHARS = 1000
# A glossary is checked and matched per request: enough terms for a document's vocabulary.
MAX_GLOSSARY_TERMS = 100
MAX_GLOSSARY_CHARS = 5000  # its English and Spanish together

# The page's files are package data (setup.cfg), so an installed package serves them too.
STATIC_PACKAGE = ("translator.serving", "static")


class TranslateRequest(BaseModel):
    # Strict: "beam": "2" or "text": 5 is a client bug worth reporting, not guessing at.
    # Forbid extras: a typo such as "txt" must not silently translate nothing.
    model_config = ConfigDict(strict=True, extra="forbid")

    text: str | None = Field(None, description="one text to translate")
    texts: list[str] | None = Field(None, description="several texts, translated in one batch")
    beam: int = Field(DEFAULT_BEAM, ge=1, le=MAX_BEAM, description="beam size; 1 is greedy decoding")
    glossary: dict[str, str] | None = Field(
        None, description='{"english term": "Spanish", ...}: each English term (whole words, any case) '
                          "comes out as its Spanish, cased like the term in the text")

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


def _glossary(terms, max_terms, max_chars):
    """The request's `glossary` as a `Glossary` (None without terms); 422 over the limits or for a bad entry."""
    if not terms:
        return None
    if len(terms) > max_terms:
        raise HTTPException(422, f"glossary has {len(terms)} terms: the limit is {max_terms} per request")
    chars = sum(len(english) + len(spanish) for english, spanish in terms.items())
    if chars > max_chars:
        raise HTTPException(422, f"glossary is {chars} characters long (English and Spanish): the limit is {max_chars}")
    try:
        return Glossary.from_mapping(terms)
    except GlossaryError as error:
        raise HTTPException(422, str(error)) from None


def create_app(
    translator,
    model_name=None,
    max_body_bytes=MAX_BODY_BYTES,
    max_sentences=MAX_SENTENCES,
    max_chars=MAX_CHARS,
    max_batch_size=MAX_BATCH_SIZE,
    batch_timeout_ms=BATCH_TIMEOUT_MS,
    max_glossary_terms=MAX_GLOSSARY_TERMS,
    max_glossary_chars=MAX_GLOSSARY_CHARS,
    max_queue_work=MAX_QUEUE_WORK,
    deadline_s=QUEUE_DEADLINE_S,
    max_request_work=MAX_REQUEST_WORK,
) -> FastAPI:
    """The app around a loaded `Translator`. Use it inside its lifespan (`with TestClient(app)`)."""
    model_name = model_name or translator.config.name
    batcher = Batcher(
        lambda texts, beam, glossary: translator.translate(texts, beam_size=beam, batch_size=DECODE_BATCH_SIZE,
                                                           glossary=glossary),
        max_batch_size=max_batch_size,
        batch_timeout_ms=batch_timeout_ms,
        max_queue_work=max_queue_work,
        deadline_s=deadline_s,
        max_request_work=max_request_work,
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
    app.mount("/static", StaticFiles(packages=[STATIC_PACKAGE]), name="static")
    index = resources.files(STATIC_PACKAGE[0]).joinpath(STATIC_PACKAGE[1], "index.html").read_text(encoding="utf-8")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def page():
        return index

    @app.get("/health")
    async def health():
        return {
            "status": "saturated" if batcher.saturated else "ok",
            "model": model_name,
            "queue": {"work": batcher.queued_work, "requests": len(batcher.queue), "max_work": batcher.max_queue_work,
                      "decoding_requests": batcher.decoding_requests},
            "refused": batcher.refused,
        }

    @app.post("/translate", response_model=TranslateResponse)
    async def translate(request: TranslateRequest):
        started = time.perf_counter()
        texts = request.inputs()
        _check_limits(texts, max_sentences, max_chars)
        glossary = _glossary(request.glossary, max_glossary_terms, max_glossary_chars)
        try:
            translations = await batcher.submit(texts, request.beam, glossary)
        except TooMuchWork as error:
            return _error(413, str(error))
        except Overloaded as error:
            response = _error(503, str(error))
            response.headers["Retry-After"] = str(error.retry_after)
            return response
        return {"translations": translations, "model": model_name, "ms": (time.perf_counter() - started) * 1000}

    @app.post("/attention", response_model=AttentionResponse)
    async def attention(request: AttentionRequest):
        _check_limits([request.text], 1, max_chars)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(batcher.executor, _attention, translator, request.text)

    return app


def _attention(translator, text):
    """The cross-attention of the first sentence of `text` (the heatmap shows one sentence), as written: no
    stand-ins, so pieces that fit as written."""
    _, pieces, _ = segments.split([text], translator.token_counts, translator.max_length)
    if not pieces:
        return {"sentence": "", "source": [], "target": [], "weights": []}
    source, target, weights = translator.attention(pieces[0])
    return {"sentence": pieces[0], "source": source, "target": target, "weights": weights.astype(float).round(4).tolist()}


def run(model_path: str, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, jit_compile=None, bfloat16=False,
        **limits):
    """Loads the model once, then serves until interrupted.

    The model is loaded before the port is bound, so a missing model raises
    `ModelDirError` at once and nothing listens.
    """
    import uvicorn

    from translator.translate import Translator

    translator = Translator.load(model_path, jit_compile=jit_compile, bfloat16=bfloat16)
    # Trace (with XLA: compile every batch shape) of the default beam now, so no user waits for it.
    started = time.perf_counter()
    shapes = translator.warm_up(DECODE_BATCH_SIZE, beam_size=DEFAULT_BEAM)
    logger.info("decoding graph ready for %d batch shape(s) in %.1f s (XLA %s)",
                shapes, time.perf_counter() - started, "on" if translator.jit_compile else "off")
    app = create_app(translator, model_name=Path(model_path).name, **limits)
    batcher = app.state.batcher
    logger.info("serving %s on http://%s:%d/ (API docs at /docs); queue limit %d units of work, deadline %g s",
                model_path, host, port, batcher.max_queue_work, batcher.deadline_s)
    uvicorn.run(app, host=host, port=port, log_level="info")

