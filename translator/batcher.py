"""Dynamic batching: concurrent requests gathered into batches and decoded in threads.

Requests that arrive within `batch_timeout_ms` of each other are decoded
together, as TF Serving does: one decoder call for many sentences costs little
more than for one, so under load throughput grows with the batch instead of
requests queueing one by one.
"""

import asyncio
import contextlib
import functools
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

# Wait at most this long for company, and no longer than this many sentences.
BATCH_TIMEOUT_MS = 5.0
MAX_BATCH_SIZE = 64
# A gathered batch is decoded sorted by length, this many sentences at a time, two at
# a time: requests arrive in random lengths, and one batch of them would run until its
# longest sentence ends. `python -m bench.load_test` measures the choice.
DECODE_BATCH_SIZE = 16


class Batcher:
    """Gathers concurrent requests into batches, decoded by `parallel_batches` threads.

    `translate(texts, beam_size, glossary=[...])` (one glossary or None per
    text, see `translator.glossary`) runs in `self.executor`, off the event loop,
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

    async def submit(self, texts: list[str], beam: int, glossary=None) -> list[str]:
        """Queues `texts` (with their `glossary`, or None); returns their translations once their batch is decoded."""
        if self.worker is None:
            raise RuntimeError("the batcher is not running (use the app inside its lifespan)")
        future = asyncio.get_running_loop().create_future()
        await self.queue.put((texts, beam, future, glossary))
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
        glossaries = [item[3] for item in group for _ in item[0]]
        self.batches += 1
        self.sentences += len(texts)
        if not self._decoding_now:
            self._decoding_since = time.perf_counter()
        self._decoding_now += 1
        try:
            outputs = await loop.run_in_executor(
                self.executor, functools.partial(self.translate, texts, beam, glossary=glossaries))
        except Exception as error:  # every waiting request gets the failure, the worker lives on
            for _, _, future, _ in group:
                if not future.done():
                    future.set_exception(error)
            return
        finally:
            self._decoding_now -= 1
            if not self._decoding_now:
                self.decoding_seconds += time.perf_counter() - self._decoding_since
            self.free.release()
        start = 0
        for item_texts, _, future, _ in group:
            # A client that went away has a cancelled future; skip it.
            if not future.done():
                future.set_result(outputs[start:start + len(item_texts)])
            start += len(item_texts)
