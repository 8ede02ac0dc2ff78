"""Dynamic batching with load shedding: concurrent requests gathered into batches and decoded in threads.

Requests that arrive within `batch_timeout_ms` of each other are decoded
together, as TF Serving does: one decoder call for many sentences costs little
more than for one, so under load throughput grows with the batch instead of
requests queueing one by one.

Under overload the queue does not grow without end, and cheap requests are not
stuck behind expensive ones. Work is measured in sentences x beam (`work`):

- one request may cost at most `max_request_work` (`TooMuchWork`, a 413), and a
  batch as much;
- the queue is taken cheapest request first (oldest first among equals), and one
  decoder thread is kept for light batches (`LIGHT_BATCH_WORK`): so a short
  sentence waits neither for the documents queued before it nor for those being
  decoded, only for a light batch at most;
- a request is refused at once (`Overloaded`: the server answers 503 with
  Retry-After) when the work that would go before it would take longer than
  `deadline_s` at the speed decoded so far, or when it does not fit in
  `max_queue_work` even after pushing out costlier queued requests (refused too);
- a request still queued `deadline_s` after it arrived is refused and dropped.

    >>> work(["Hi.", "Where is the station?"], beam=4)
    8
"""

import asyncio
import contextlib
import functools
import math
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from translator.defaults import PARALLEL_BATCHES

# Wait at most this long for company, and no longer than this many sentences.
BATCH_TIMEOUT_MS = 5.0
MAX_BATCH_SIZE = 64
# A gathered batch is decoded sorted by length, this many sentences at a time, two at
# a time: requests arrive in random lengths, and one batch of them would run until its
# longest sentence ends. `python -m bench.load_test` measures the choice.
DECODE_BATCH_SIZE = 16

# The server's limits, in units of work: one sentence decoded with a beam of one.
# A request may cost 256: 64 sentences (the most a request holds) at the default beam 4,
# 16 at beam 16, so every request the default beam allows stays allowed, and the widest
# beam is for a few sentences, not for a whole document.
MAX_REQUEST_WORK = 256
# A batch of at most this much work is light: one decoder thread takes only light batches,
# so a short request never waits for a heavy one. 32: 8 sentences at beam 4, 2 at beam 16,
# a fraction of a heavy batch (bench/RESULTS.md, "Overload").
LIGHT_BATCH_WORK = 32
# Queued work refused beyond: 8 of the largest requests, a bound on memory and on what
# the deadline has to drop. The shipped model on 2 busy CPU cores decodes 35 to 90 units a
# second (beam 16 to 4), so the deadline refuses sooner there; on a GPU the queue is the bound.
MAX_QUEUE_WORK = 2048
# A request that would wait longer than this in the queue is refused, at once when the
# speed so far predicts it, else when the time is up: its client would rather retry than
# wait, and a minute-long silence is worse than a quick 503.
QUEUE_DEADLINE_S = 5.0
# A text longer than this is split into several sentences (the shipped model reads 24
# tokens, ~100 characters), each decoded: `work` counts them.
CHARS_PER_SENTENCE = 100


def work(texts: list[str], beam: int) -> int:
    """The decoding work of `texts` at `beam`: sentences (one per 100 characters begun) x beam; at least 1."""
    sentences = sum(max(1, math.ceil(len(text) / CHARS_PER_SENTENCE)) for text in texts)
    return max(1, sentences) * beam


class TooMuchWork(ValueError):
    """One request costs more than `max_request_work`: it would hold the model for long alone."""


class Overloaded(Exception):
    """A request refused for lack of room or time: retry after `retry_after` seconds."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(eq=False)
class Job:
    """One request in the queue: what to decode, how, and where its result goes."""

    texts: list[str]
    beam: int
    work: int
    future: asyncio.Future
    glossary: object = None  # the request's `translator.text.glossary.Glossary`, or None
    expiry: asyncio.TimerHandle | None = field(default=None, repr=False)


class Batcher:
    """Gathers concurrent requests into batches, decoded by `parallel_batches` threads.

    `translate(texts, beam_size, glossary=[...])` (one glossary or None per
    text, see `translator.text.glossary`) runs in `self.executor`, off the event loop,
    so requests keep arriving (and queueing for the next batch) while a batch
    decodes. A new batch is gathered only when a decoder thread is free, so
    under load batches grow instead of queueing. Two threads rather than one:
    the decoding loop's small per-step operations leave the cores idle in
    between, and a second batch fills them (as TF Serving's `num_batch_threads`).
    Other model work (the attention endpoint) goes through the same executor.
    A batch holds one beam size (each is its own compiled graph). The limits
    and the order requests are taken in: the module's docstring.
    """

    def __init__(self, translate: Callable, max_batch_size=MAX_BATCH_SIZE, batch_timeout_ms=BATCH_TIMEOUT_MS,
                 parallel_batches=PARALLEL_BATCHES, max_queue_work=MAX_QUEUE_WORK, deadline_s=QUEUE_DEADLINE_S,
                 max_request_work=MAX_REQUEST_WORK):
        self.translate = translate
        self.parallel_batches = parallel_batches
        self.executor: ThreadPoolExecutor | None = None
        self.max_batch_size = max_batch_size
        self.batch_timeout = batch_timeout_ms / 1000
        self.max_queue_work = max_queue_work
        self.deadline_s = deadline_s
        # A request larger than the whole queue could never be taken.
        self.max_request_work = min(max_request_work, max_queue_work)
        self.batches = 0  # decoder calls so far: tests and benchmarks read it
        self.sentences = 0
        self.refused = 0  # requests refused: no room, no time, or pushed out of the queue
        # Seconds during which at least one batch was decoding: the rest of the time the
        # model waited for requests (HTTP round trips, the gathering timeout).
        self.decoding_seconds = 0.0
        self._decoding_now = 0
        self._decoding_since = 0.0
        # The work of the batches decoded so far and the sum of their durations: the speed.
        self.work_done = 0
        self.batch_seconds = 0.0
        self.queue: deque[Job] = deque()  # in arrival order
        self.queued_work = 0
        self.decoding_requests = 0
        self.heavy_batches = 0  # decoding now, over LIGHT_BATCH_WORK
        self.changed: asyncio.Event | None = None  # a request arrived or a batch ended
        self.worker: asyncio.Task | None = None
        self.free: asyncio.Semaphore | None = None  # decoder threads not busy
        self.decoding: set[asyncio.Task] = set()

    def start(self):
        self.executor = ThreadPoolExecutor(max_workers=self.parallel_batches, thread_name_prefix="decoder")
        self.changed = asyncio.Event()
        self.free = asyncio.Semaphore(self.parallel_batches)
        self.worker = asyncio.create_task(self._run())

    async def stop(self):
        for task in [self.worker, *self.decoding]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.worker = None
        while self.queue:
            self._take(self.queue[0]).future.cancel()
        if self.executor is not None:
            self.executor.shutdown(wait=False)
            self.executor = None

    @property
    def saturated(self) -> bool:
        """True when a request of the largest size allowed would be refused now."""
        return self._refusal(self.max_request_work) is not None

    def seconds_per_unit(self) -> float:
        """Decoding seconds per unit of work so far, the decoder threads side by side; 0.0 before any batch."""
        return self.batch_seconds / self.work_done / self.parallel_batches if self.work_done else 0.0

    def retry_after(self) -> int:
        """Whole seconds the queue's work takes at the speed so far; at least 1."""
        return max(1, math.ceil(self.queued_work * self.seconds_per_unit()))

    def _refusal(self, cost: int) -> str | None:
        """Why a request of `cost` would be refused now; None if it would be queued."""
        wait = sum(job.work for job in self.queue if job.work <= cost) * self.seconds_per_unit()
        if wait > self.deadline_s:
            return (f"the server is saturated: the requests before this one would take about {wait:.0f} s, "
                    f"longer than the {self.deadline_s:g} s a request may wait")
        costlier = sum(job.work for job in self.queue if job.work > cost)
        if self.queued_work - costlier + cost > self.max_queue_work:
            return (f"the server is saturated ({self.queued_work} units of work queued, the limit is "
                    f"{self.max_queue_work})")
        return None

    def _refuse(self, job: Job, reason: str):
        self._take(job)
        self.refused += 1
        job.future.set_exception(Overloaded(f"{reason}: try again later", self.retry_after()))

    async def submit(self, texts: list[str], beam: int, glossary=None) -> list[str]:
        """Queues `texts` (with their `glossary`, or None); returns their translations once their batch is decoded.

        Raises `TooMuchWork` for a request over `max_request_work`, and
        `Overloaded` when it is refused (see the module's docstring).
        """
        if self.worker is None:
            raise RuntimeError("the batcher is not running (use the app inside its lifespan)")
        cost = work(texts, beam)
        if cost > self.max_request_work:
            raise TooMuchWork(f"{len(texts)} text(s) at beam {beam} are {cost} units of work (sentences x beam): "
                              f"the limit is {self.max_request_work} per request; send fewer texts or a smaller beam")
        reason = self._refusal(cost)
        if reason:
            self.refused += 1
            raise Overloaded(f"{reason}: try again later", self.retry_after())
        while self.queued_work + cost > self.max_queue_work:
            # The costliest, newest first: `_refusal` made sure they free enough room.
            costliest = max(reversed(self.queue), key=lambda job: job.work)
            self._refuse(costliest, "the server is saturated: cheaper requests took this one's place in the queue")
        loop = asyncio.get_running_loop()
        job = Job(list(texts), beam, cost, loop.create_future(), glossary)
        job.expiry = loop.call_later(self.deadline_s, self._expire, job)
        self.queue.append(job)
        self.queued_work += cost
        self.changed.set()
        try:
            return await job.future
        except asyncio.CancelledError:  # the client went away: its work leaves the queue
            if job in self.queue:
                self._take(job)
            raise

    def _take(self, job: Job) -> Job:
        self.queue.remove(job)
        self.queued_work -= job.work
        job.expiry.cancel()
        return job

    def _expire(self, job: Job):
        if job in self.queue and not job.future.done():
            self._refuse(job, f"the server is saturated: the request waited {self.deadline_s:g} s in the queue")

    def _batch_work(self) -> int:
        """The most work the batch gathered now may hold: light while heavy batches hold every other decoder."""
        if self.parallel_batches > 1 and self.heavy_batches >= self.parallel_batches - 1:
            return LIGHT_BATCH_WORK
        return self.max_request_work

    async def _gather(self) -> list[Job]:
        """Waits for a request that fits, takes the cheapest, then the cheapest of its beam until the timeout or a
        full batch: `max_batch_size` sentences or `_batch_work()` units of work.
        """
        while not any(job.work <= self._batch_work() for job in self.queue):
            self.changed.clear()
            await self.changed.wait()
        limit = self._batch_work()
        jobs = [self._take(min(self.queue, key=lambda job: job.work))]
        beam, size, cost = jobs[0].beam, len(jobs[0].texts), jobs[0].work
        deadline = time.monotonic() + self.batch_timeout
        while True:
            for job in sorted((job for job in self.queue if job.beam == beam), key=lambda job: job.work):
                if size >= self.max_batch_size or cost + job.work > limit:
                    return jobs
                jobs.append(self._take(job))
                size += len(job.texts)
                cost += job.work
            remaining = deadline - time.monotonic()
            if size >= self.max_batch_size or remaining <= 0:
                return jobs
            self.changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)

    async def _run(self):
        loop = asyncio.get_running_loop()
        while True:
            await self.free.acquire()
            jobs = await self._gather()
            heavy = sum(job.work for job in jobs) > LIGHT_BATCH_WORK
            self.heavy_batches += heavy
            task = asyncio.create_task(self._decode(loop, jobs, heavy))
            self.decoding.add(task)
            task.add_done_callback(self.decoding.discard)

    async def _decode(self, loop, jobs: list[Job], heavy: bool):
        texts = [text for job in jobs for text in job.texts]
        glossaries = [job.glossary for job in jobs for _ in job.texts]
        self.batches += 1
        self.sentences += len(texts)
        self.decoding_requests += len(jobs)
        started = time.perf_counter()
        if not self._decoding_now:
            self._decoding_since = started
        self._decoding_now += 1
        try:
            outputs = await loop.run_in_executor(
                self.executor, functools.partial(self.translate, texts, jobs[0].beam, glossary=glossaries))
        except Exception as error:  # every waiting request gets the failure, the worker lives on
            for job in jobs:
                if not job.future.done():
                    job.future.set_exception(error)
            return
        finally:
            self._decoding_now -= 1
            if not self._decoding_now:
                self.decoding_seconds += time.perf_counter() - self._decoding_since
            self.decoding_requests -= len(jobs)
            self.heavy_batches -= heavy
            self.changed.set()
            self.free.release()
        self.work_done += sum(job.work for job in jobs)
        self.batch_seconds += time.perf_counter() - started
        start = 0
        for job in jobs:
            # A client that went away has a cancelled future; skip it.
            if not job.future.done():
                job.future.set_result(outputs[start:start + len(job.texts)])
            start += len(job.texts)
