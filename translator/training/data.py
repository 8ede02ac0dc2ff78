"""Find, verify, parse, de-duplicate and split the English-Spanish corpus.

The corpus is the Tatoeba sentence pairs packaged by manythings.org/anki
(CC-BY 2.0): `spa-eng/spa.txt`, one `English<TAB>Spanish` pair a line.
"""

import hashlib
import logging
import os
import unicodedata
import zipfile
import zlib
from pathlib import Path

import keras

from translator.errors import UsageError
from translator.files import lines

logger = logging.getLogger(__name__)

CORPUS_URL = "http://storage.googleapis.com/download.tensorflow.org/data/spa-eng.zip"
CORPUS_FILENAME = "spa-eng.zip"
CORPUS_MEMBER = "spa-eng/spa.txt"
# sha256 of spa-eng/spa.txt inside the canonical archive (118,964 pairs).
CORPUS_SHA256 = "6ec60e212f812ee3430f7568ea6f33b6fb080e32193c5952e8da0ee8ba45574c"
DATA_ENV = "TRANSLATOR_DATA"
DEFAULT_CACHE = Path(__file__).resolve().parents[2] / "data"
SPLITS = ("train", "val", "test")


class DataError(UsageError):
    """The corpus is missing, corrupt or malformed; the message says where."""


def find_corpus(path=None, cache_dir=DEFAULT_CACHE, url=CORPUS_URL):
    """Returns the path of the corpus, looking in order at:

    1. `path`, a user's own corpus (`.zip`, `.txt` or `.tsv`), taken as it is;
    2. the `TRANSLATOR_DATA` environment variable, likewise;
    3. `cache_dir/spa-eng.zip`, the canonical archive downloaded earlier;
    4. a fresh download of the canonical archive into `cache_dir`.

    The canonical archive (3 and 4) is checked against its sha256.
    """
    for given, source in ((path, "path"), (os.environ.get(DATA_ENV), DATA_ENV)):
        if given:
            given = Path(given).expanduser()
            if not given.is_file():
                raise DataError(f"corpus not found: {given} (from {source})")
            return given
    cache_dir = Path(cache_dir)
    cached = cache_dir / CORPUS_FILENAME
    if not cached.is_file():
        cache_dir.mkdir(parents=True, exist_ok=True)
        try:
            keras.utils.get_file(
                fname=CORPUS_FILENAME, origin=url, cache_dir=str(cache_dir), cache_subdir="."
            )
        except Exception as error:
            cached.unlink(missing_ok=True)
            raise DataError(
                f"could not download {url} ({error}); with no network, point "
                f"{DATA_ENV} or --data at a local spa-eng.zip"
            ) from None
    try:
        verify_canonical(cached)
    except DataError:
        cached.unlink(missing_ok=True)
        raise
    return cached


def corpus_is_local(path=None, cache_dir=DEFAULT_CACHE):
    """Whether `find_corpus` would find the corpus without downloading it."""
    return bool(path or os.environ.get(DATA_ENV) or (Path(cache_dir) / CORPUS_FILENAME).is_file())


def verify_canonical(zip_path):
    try:
        with zipfile.ZipFile(zip_path) as archive:
            digest = hashlib.sha256(archive.read(CORPUS_MEMBER)).hexdigest()
    except (zipfile.BadZipFile, KeyError) as error:
        raise DataError(f"{zip_path} is not the canonical spa-eng.zip ({error}); removed it") from None
    if digest != CORPUS_SHA256:
        raise DataError(
            f"checksum mismatch for {CORPUS_MEMBER} in {zip_path}: sha256 {digest}, "
            f"expected {CORPUS_SHA256}; removed it, run again to download afresh"
        )


def read_lines(path):
    """The lines of a corpus file (plain text, or the one text member of a zip), decoded lazily.

    Yields `translator.files.lines.Line`s, one line in memory at a time; a missing
    file or a zip without one text member is an error at once.
    """
    path = Path(path)
    if path.suffix != ".zip":
        return lines.read_lines(lines.open_input(path), source=str(path))
    try:
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.endswith((".txt", ".tsv"))]
            names = [n for n in names if not n.endswith("_about.txt")]
            if CORPUS_MEMBER in names:
                names = [CORPUS_MEMBER]
            if len(names) != 1:
                raise DataError(f"{path}: expected one .txt/.tsv file of pairs inside, found {names}")
            # The member keeps the archive's file open after the archive is closed.
            return _checked(lines.read_lines(archive.open(names[0]), source=f"{path}:{names[0]}"), path)
    except zipfile.BadZipFile:
        raise DataError(f"{path} is not a readable zip archive") from None


def _checked(member_lines, path):
    """A zip member's lines; damage found while reading them (a bad CRC, a broken stream) is a `DataError`."""
    try:
        yield from member_lines
    except (zipfile.BadZipFile, zlib.error) as error:
        raise DataError(f"{path} is corrupt: {error}") from None


def normalize(text):
    return unicodedata.normalize("NFC", text).strip()


def parse_pairs(corpus_lines, skip_malformed=False, source="corpus", columns=None):
    """Parses `English<TAB>Spanish[<TAB>attribution]` lines into unique pairs.

    `corpus_lines` are `translator.files.lines.Line`s (from `read_lines`). Text is
    NFC-normalised and stripped; blank lines are skipped and exact duplicate
    pairs dropped. A malformed line (wrong column count, an empty side, bytes
    that are not UTF-8 or are NUL, over `lines.MAX_LINE_BYTES` long) raises
    `DataError` naming its line number, or with `skip_malformed=True` is
    skipped and counted; input with no pair at all (empty, blank, every line
    malformed) raises `DataError`. `columns=(i, j)` reads English from column
    i and Spanish from column j of lines with any number of columns (other
    Tatoeba exports carry ids around the text).

    Returns:
        `(pairs, skipped)`: a list of `(english, spanish)` and the number of
        malformed lines skipped.
    """
    pairs, seen, skipped = [], set(), 0
    english, spanish = columns or (0, 1)
    for line in corpus_lines:
        problem = line.problem
        if problem is None:
            if not line.text.strip():
                continue
            fields = [normalize(field) for field in line.text.split("\t")]
            if columns is None and len(fields) not in (2, 3):
                problem = f"has {len(fields)} tab-separated columns, expected 2 (or 3 with attribution)"
            elif len(fields) <= max(english, spanish):
                problem = f"has {len(fields)} tab-separated columns, too few for columns {english} and {spanish}"
            elif not fields[english] or not fields[spanish]:
                problem = "has an empty English or Spanish side"
        if problem:
            if not skip_malformed:
                raise DataError(f"{source}, line {line.number} {problem} (skip such lines with --skip-malformed)")
            skipped += 1
            continue
        pair = (fields[english], fields[spanish])
        if pair not in seen:
            seen.add(pair)
            pairs.append(pair)
    if not pairs:
        note = f" ({skipped:,} malformed lines skipped)" if skipped else ""
        raise DataError(f"{source} holds no English<TAB>Spanish pair{note}")
    return pairs, skipped


def load_pairs(path=None, skip_malformed=False):
    """Finds the corpus (see `find_corpus`) and parses it. Returns `(pairs, skipped)`."""
    path = find_corpus(path)
    return parse_pairs(read_lines(path), skip_malformed=skip_malformed, source=str(path))


def split_of(english, val_fraction=0.15, test_fraction=0.15):
    """The split a source sentence belongs to, from a hash of its normalised text.

    Hashing the source, not the pair, keeps every translation of one English
    sentence in one split, so the test set never holds a sentence trained on.
    """
    key = " ".join(normalize(english).lower().split())
    bucket = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big") / 2**64
    if bucket < test_fraction:
        return "test"
    if bucket < test_fraction + val_fraction:
        return "val"
    return "train"


def split_pairs(pairs, val_fraction=0.15, test_fraction=0.15):
    """Splits pairs deterministically into `{"train": [...], "val": [...], "test": [...]}`."""
    if not (0 <= val_fraction and 0 <= test_fraction and val_fraction + test_fraction < 1):
        raise ValueError("val and test fractions must be non-negative and sum to less than 1")
    splits = {name: [] for name in SPLITS}
    for pair in pairs:
        splits[split_of(pair[0], val_fraction, test_fraction)].append(pair)
    return splits


def load_splits(path=None, skip_malformed=False):
    """The corpus, parsed and split; logs the counts (`summary`)."""
    pairs, skipped = load_pairs(path, skip_malformed=skip_malformed)
    splits = split_pairs(pairs)
    logger.info("%s", summary(splits, skipped))
    return splits


def summary(splits, skipped=0):
    """One line of counts: `corpus: 50 unique pairs: train 35, val 7, test 8`."""
    counts = ", ".join(f"{name} {len(splits[name]):,}" for name in SPLITS)
    note = f" ({skipped:,} malformed lines skipped)" if skipped else ""
    return f"corpus: {sum(len(splits[name]) for name in SPLITS):,} unique pairs{note}: {counts}"
