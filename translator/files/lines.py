"""Lines of text read from bytes one at a time, and files written whole or not at all.

Input is read as bytes and decoded line by line, so one line that is not
UTF-8 spoils only itself, not the lines around it: it is decoded with U+FFFD
replacement characters and its `Line` says where its first bad byte is.
Lines are read lazily, so however large a file, memory holds one line (and
lines over `MAX_LINE_BYTES` are passed over, not held).
"""

import contextlib
import dataclasses
import itertools
import os
import tempfile
from pathlib import Path

BOM = b"\xef\xbb\xbf"
# No sentence is this long: a longer line is a file with no newlines, or not text. Past it a
# line is not read into memory, and translating it would hold the model for minutes (the
# default model translates 100 kB of text in about 7 s on a 2-core CPU).
MAX_LINE_BYTES = 100_000
SKIP_CHUNK = 1 << 20


class FileError(OSError):
    """A file could not be read or written; the message names it and says why, in one line."""


@dataclasses.dataclass(frozen=True)
class Line:
    """One input line, decoded, without its line ending.

    `problem` says what was wrong with its bytes ("is not valid UTF-8 at
    ...") and `repair` what `text` holds instead ("bad bytes replaced with
    U+FFFD"); both are None for a good line.
    """

    number: int
    text: str
    problem: str | None = None
    repair: str | None = None


def open_input(path):
    """Opens `path` for reading bytes; a missing or unreadable file is a `FileError`."""
    try:
        return open(path, "rb")
    except OSError as error:
        raise FileError(f"cannot read {path}: {error.strerror}") from None


def decode(raw, number=1, offset=0):
    """One line's bytes (no line ending) as a `Line`; `offset` is where the line starts in its input.

    Bytes that are not UTF-8 become U+FFFD; NUL bytes become spaces (a NUL
    glues the words around it into one unknown word).
    """
    problems, repairs = [], []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        text = raw.decode("utf-8", errors="replace")
        problems.append(
            f"is not valid UTF-8 at byte offset {error.start} of the line ({offset + error.start:,} of the input)"
        )
        repairs.append("bad bytes replaced with U+FFFD")
    if "\0" in text:
        text = text.replace("\0", " ")
        problems.append("holds NUL bytes")
        repairs.append("NUL bytes replaced with spaces")
    if not problems:
        return Line(number, text)
    return Line(number, text, " and ".join(problems), ", ".join(repairs))


def read_lines(stream, source="input", max_bytes=MAX_LINE_BYTES):
    """Yields every line of the binary `stream` as a `Line`, reading lazily; closes `stream` at the end.

    Lines end at "\\n"; a "\\r" before it (CRLF) is dropped, as is a UTF-8
    byte order mark at the start; the last line needs no newline. A line
    longer than `max_bytes` (its line ending included) is read past in
    chunks, never held whole, and yields an empty `Line` with a problem.
    A read that fails is a `FileError` naming `source`.
    """
    with stream:
        offset = 0
        for number in itertools.count(1):
            raw = _read(stream.readline, max_bytes + 1, source)
            if not raw:
                return
            start, size = offset, len(raw)
            if size > max_bytes:  # overlong: read past the rest of it without keeping it
                while raw and not raw.endswith(b"\n"):
                    raw = _read(stream.readline, SKIP_CHUNK, source)
                    size += len(raw)
                offset += size
                yield Line(number, "", f"is {size:,} bytes long, over the limit of {max_bytes:,}", "left out")
                continue
            offset += size
            if number == 1 and raw.startswith(BOM):
                raw, start = raw[len(BOM):], start + len(BOM)
            yield decode(raw.removesuffix(b"\n").removesuffix(b"\r"), number, start)


def _read(read, size, source):
    """`read(size)` (a stream's `read` or `readline`); a failure is a `FileError` naming `source`."""
    try:
        return read(size)
    except OSError as error:
        raise FileError(f"cannot read {source}: {error.strerror or error}") from None


@contextlib.contextmanager
def writing(name):
    """Turns a failed write in the block (a full disk, a closed pipe) into one `FileError` naming `name`."""
    try:
        yield
    except FileError:
        raise
    except OSError as error:
        raise FileError(f"cannot write {name}: {error.strerror or error}") from None


def writable_target(path):
    """The file that writing `path` replaces (through a symbolic link: the file, keeping the link);
    a `FileError` if its folder is missing."""
    target = Path(os.path.realpath(path))
    if not target.parent.is_dir():
        raise FileError(f"cannot write {path}: there is no folder {target.parent}")
    return target


def count_lines(path, block=1 << 20):
    """The number of lines of the file at `path` (a last line without a newline counts), read a block at a time."""
    count, last = 0, b"\n"
    with open_input(path) as stream:
        while data := _read(stream.read, block, path):
            count, last = count + data.count(b"\n"), data[-1:]
    return count + (last != b"\n")


@contextlib.contextmanager
def written_whole(path):
    """Yields a text file whose content replaces `path` only if the block ends without an error.

    It is a temporary file beside `path`, renamed over it at the end (an
    atomic replace), or removed on any error: `path` is never left half
    written. A `path` that exists and is not a regular file (/dev/stdout,
    /dev/full, a pipe) cannot be replaced and is written directly.
    """
    if Path(path).exists() and not Path(path).is_file():
        with writing(path), open(path, "w", encoding="utf-8") as handle:
            yield handle
        return
    target = writable_target(path)
    with writing(path):
        descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    try:
        with writing(path), open(descriptor, "w", encoding="utf-8") as handle:
            yield handle
        # mkstemp makes the file private (0600); give it the mode a plain open() would have.
        os.chmod(temporary, target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~umask())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def umask():
    """The process' file mode creation mask (reading it means setting it: set back at once)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
