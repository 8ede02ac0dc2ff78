"""An output file written as the work is done, kept when it is interrupted, and continued later.

`translate --file IN --output OUT` writes `OUT.partial` chunk by chunk, in
input order: one header line that describes the job, then one translation a
line. When the job ends it becomes OUT (copied without the header, through
`lines.written_whole`: OUT is replaced whole or not at all) and is removed.
An interrupted job leaves it behind with every chunk translated so far, and
`--resume` continues it, after checking that the job is the same one (the
header: the input's size and a hash of its start, the model, the decoding
options), to an OUT byte for byte equal to an uninterrupted run's.

Example:

    with resumable("out.txt", job, resume=True) as output:
        for number, chunk in enumerate(chunks):
            if number >= output.done // CHUNK:      # done before the interruption
                output.write(translate(chunk))
"""

import contextlib
import hashlib
import json
import shutil
from pathlib import Path

from translator.errors import UsageError
from translator.files import lines

SUFFIX = ".partial"
HEADER = "#translator partial output (OUT.partial: see `translator translate --help`): "
# Enough of the input's start to tell one file from another without reading a large file whole.
HASHED_BYTES = 1 << 20
# Files are read this much at a time: memory stays small whatever their size.
BLOCK = 1 << 16


def partial_path(path):
    """Where the translations of `path` are kept until it is complete: `path` + ".partial"."""
    return Path(f"{path}{SUFFIX}")


def fingerprint(path, hashed_bytes=HASHED_BYTES):
    """A file's size and the SHA-256 of its first `hashed_bytes` (None: all of it), to recognise it again."""
    digest, left = hashlib.sha256(), hashed_bytes
    with lines.open_input(path) as stream:
        while left is None or left > 0:
            block = stream.read(BLOCK if left is None else min(BLOCK, left))
            if not block:
                break
            digest.update(block)
            left = None if left is None else left - len(block)
    return {"bytes": Path(path).stat().st_size, "sha256": digest.hexdigest()}


class Output:
    """Translations written in order: `done` lines were there before this run, `written` since."""

    def __init__(self, handle, name, done=0):
        self.handle, self.name, self.done, self.written = handle, name, done, 0

    def write(self, translations):
        """Appends one line per translation, on disk at once: an interruption keeps it."""
        with lines.writing(self.name):
            self.handle.write("".join(translation + "\n" for translation in translations))
            self.handle.flush()
        self.written += len(translations)


@contextlib.contextmanager
def resumable(path, job, resume=False):
    """Yields an `Output` into `path`'s partial file, made `path` when the block ends without an error.

    `job` (a dict that JSON can hold, with `chunk_lines`) describes the work:
    `resume` continues the partial file of the same `job` from its last whole
    chunk, and refuses one of another job; without `resume` an existing
    partial file is refused, not overwritten. Interrupted, the partial file
    is kept if it holds any translation, and the `KeyboardInterrupt` says so.
    A `path` that is not a regular file (/dev/stdout, a pipe) is written
    directly, with no partial file.
    """
    if Path(path).exists() and not Path(path).is_file():
        if resume:
            raise UsageError(f"--resume needs --output to be a file; {path} is not one")
        with lines.written_whole(path) as handle:
            yield Output(handle, str(path))
        return
    lines.writable_target(path)  # its folder exists
    partial = partial_path(path)
    header = HEADER + json.dumps(job, sort_keys=True) + "\n"
    if resume:
        done = _continuable_lines(partial, header, job)
    elif partial.exists():
        raise UsageError(f"{partial} holds an interrupted translation: continue it with --resume, or remove it")
    else:
        with lines.writing(path):
            partial.write_text(header, encoding="utf-8")
        done = 0
    with lines.writing(path):
        handle = open(partial, "a", encoding="utf-8")
    output = Output(handle, str(path), done)
    try:
        with handle:
            yield output
        with lines.written_whole(path) as final, open(partial, encoding="utf-8") as kept:
            kept.readline()  # the header
            shutil.copyfileobj(kept, final, BLOCK)
        partial.unlink()
    except BaseException as error:
        if not output.done + output.written:
            partial.unlink(missing_ok=True)  # nothing in it worth keeping
        elif isinstance(error, KeyboardInterrupt):
            raise type(error)(f"{output.done + output.written:,} lines translated are kept in {partial}; "
                              "the same command with --resume continues it") from None
        raise


def _continuable_lines(partial, header, job):
    """The lines of `partial` that a resumed `job` keeps: its whole chunks, after checking its header.

    The partial file is cut after the last whole chunk (the rest is translated
    again): decoding the same chunks as an uninterrupted run did gives the same bytes.
    """
    if not partial.is_file():
        raise UsageError(f"there is no {partial} to resume: run without --resume")
    with lines.writing(partial), open(partial, "r+b") as stream:
        stored = stream.readline(len(header.encode()) + 1)
        if stored != header.encode():
            raise UsageError(f"{partial} is not this job's: {_difference(stored, job)}")
        count, keep = 0, stream.tell()
        offset = keep
        while block := stream.read(BLOCK):
            start = 0
            while (end := block.find(b"\n", start)) != -1:
                count, start = count + 1, end + 1
                if count % job["chunk_lines"] == 0:
                    keep = offset + start
            offset += len(block)
        stream.truncate(keep)
    return count - count % job["chunk_lines"]


def _difference(stored, job):
    """What differs between the job that made a partial file (its header line, `stored`) and `job`."""
    text = stored.decode("utf-8", errors="replace")
    if not text.startswith(HEADER):
        return "it does not start with a translator header; remove it or choose another --output"
    try:
        theirs = json.loads(text[len(HEADER):])
    except ValueError:
        return "its header is damaged; remove it"
    differ = sorted(key for key in job.keys() | theirs.keys() if job.get(key) != theirs.get(key))
    return (f"it was made with another {', '.join(differ)}: resume with the same input, model and options, "
            "or remove it")
