"""The training mix: the Tatoeba corpus and the further human-translated pairs, weighed by source.

The further pairs are a folder of `English<TAB>Spanish` files (news, Wikipedia,
dialogue, manuals, UI text, the Bible), one file a source, `train/<source>.tsv`,
and a development set, `dev/newstest2012.tsv`. Like the corpus, the folder is
never downloaded nor committed: it is found at `--more-data DIR` or the
`TRANSLATOR_MORE_DATA` environment variable.

What `load` returns beside the corpus' own splits (`data.split_pairs`):

    dev        newstest2012: news, for choosing checkpoints and levers
    heldout    a slice of every further source (by a hash of the English), never
               trained on nor tuned against: the project's own test sets,
               `heldout_manuals` (software manuals and UI) and `heldout_prose` (the rest)

No training pair shares its English (folded as `data.split_of` folds it) with
a pair of any evaluation set: the corpus' validation and test splits, the
development set, the held-out slices and the shipped test sets of
`translator/evaluation/testsets/`.

Example:

    config = preset("default")   # config.mix: {"news-2008-2011": 2, "bible-web-rv1909": 0.3, ...}
    splits, record = load(config, "spa-eng.zip", "more/")
    splits["train"], splits["dev"], splits["heldout_manuals"]
"""

import hashlib
import logging
import os
import random
from importlib import resources
from pathlib import Path

from translator.training import augment, data

logger = logging.getLogger(__name__)

MORE_ENV = "TRANSLATOR_MORE_DATA"
DEV_FILE = Path("dev") / "newstest2012.tsv"
# Sources whose held-out slice is the manuals' test set; every other source's goes to the prose one.
MANUALS = ("python-docs", "libreoffice-help", "libreoffice-ui", "gimp-manual", "gnome-help", "debian-reference",
           "debian-handbook", "debian-descriptions")
HELDOUT_FRACTION = 0.02
# The Bible's archaic Spanish is no test of today's prose.
NOT_HELD_OUT = ("bible-web-rv1909",)


def fold(english):
    """The key under which two English sentences count as the same: `data.split_of`'s folding."""
    return " ".join(data.normalize(english).lower().split())


def find_more(path=None):
    """The folder of further pairs: `path`, else `$TRANSLATOR_MORE_DATA`; a `DataError` naming what is missing."""
    given, source = (path, "--more-data") if path else (os.environ.get(MORE_ENV), MORE_ENV)
    if not given:
        raise data.DataError(f"the training mix needs the further pairs: point --more-data or {MORE_ENV} at "
                             "their folder (train/*.tsv, dev/newstest2012.tsv)")
    folder = Path(given).expanduser()
    if not (folder / "train").is_dir():
        raise data.DataError(f"{folder} (from {source}) holds no train/ folder of .tsv pair files")
    return folder


def read_pairs(path):
    """The unique pairs of one `English<TAB>Spanish` file; a `DataError` names a missing file or a malformed line."""
    path = Path(path)
    if not path.is_file():
        raise data.DataError(f"pair file not found: {path}")
    pairs, _ = data.parse_pairs(data.read_lines(path), source=str(path))
    return pairs


def is_heldout(english):
    """Whether a further pair belongs to the held-out slice: a hash of its folded English, not its order."""
    digest = hashlib.sha256(("heldout:" + fold(english)).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < HELDOUT_FRACTION


def shipped_test_english():
    """The English of the shipped test sets (`translator/evaluation/testsets/*.tsv`), folded."""
    folder = resources.files("translator.evaluation").joinpath("testsets")
    return {
        fold(line.split("\t")[0])
        for entry in folder.iterdir() if entry.name.endswith(".tsv")
        for line in entry.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")
    }


def weighed(pairs, weight, rng):
    """`pairs` `weight` times over: whole copies, then a random share for the fraction (0.3: a random 30%)."""
    whole, fraction = divmod(weight, 1)
    return list(pairs) * int(whole) + rng.sample(list(pairs), round(fraction * len(pairs)))


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def evaluation_sets(more_path=None):
    """The further pairs' evaluation sets: {"dev": newstest2012, "heldout_manuals": [...], "heldout_prose":
    [...]}, the held-out slices taken from every source of the folder (a model trained on some of them
    never saw any of these: `is_heldout` holds an English sentence out of every source alike)."""
    folder = find_more(more_path)
    sets = {"dev": read_pairs(folder / DEV_FILE), "heldout_manuals": [], "heldout_prose": []}
    for path in sorted((folder / "train").glob("*.tsv")):
        if path.stem not in NOT_HELD_OUT:
            sets["heldout_manuals" if path.stem in MANUALS else "heldout_prose"] += [
                pair for pair in read_pairs(path) if is_heldout(pair[0])]
    return sets


def load(config, data_path=None, more_path=None):
    """The splits a run of `config` trains and is scored on, and what metrics.json records of them.

    Without `config.mix`, the corpus' splits (`data.load_splits`). With it (source name -> how many times
    that source's pairs count; a source not named is left out), the further sources mixed into "train",
    with the "dev", "heldout_manuals" and "heldout_prose" sets beside; every source named must be there
    (`DataError`). `config.concatenate` adds pairs of 2 to 4 of the corpus' training pairs joined
    (`augment.concatenate`).

    Returns `(splits, record)`: `record` gives each source's file, sha256, weight and pairs, and the
    training pairs dropped as evaluation sentences.
    """
    splits = data.load_splits(data_path)
    record = {"corpus": {name: len(splits[name]) for name in data.SPLITS}}
    tatoeba = splits["train"] + augment.concatenate(splits["train"], config.concatenate, seed=config.seed)
    if not config.mix:
        return {**splits, "train": tatoeba}, record
    folder = find_more(more_path)
    files = {name: folder / "train" / f"{name}.tsv" for name in sorted(config.mix)}
    sources = {name: read_pairs(path) for name, path in files.items()}
    sets = evaluation_sets(folder)
    evaluation = {fold(english) for name in ("val", "test") for english, _ in splits[name]}
    evaluation |= {fold(english) for pairs in sets.values() for english, _ in pairs}
    evaluation |= shipped_test_english()
    dev, heldout = sets["dev"], {name: sets[name] for name in ("heldout_manuals", "heldout_prose")}
    kept = {name: [pair for pair in pairs if name in NOT_HELD_OUT or not is_heldout(pair[0])]
            for name, pairs in sources.items()}
    rng = random.Random(config.seed)
    train, dropped = [], 0
    for name, pairs in (("tatoeba", tatoeba), *kept.items()):
        clean = [pair for pair in pairs if fold(pair[0]) not in evaluation]
        dropped += len(pairs) - len(clean)
        train += clean if name == "tatoeba" else weighed(clean, config.mix[name], rng)
    rng.shuffle(train)
    logger.info("training mix: %s pairs (%d dropped as evaluation sentences); dev %s, held out: manuals %s, "
                "prose %s", f"{len(train):,}", dropped, f"{len(dev):,}", f"{len(heldout['heldout_manuals']):,}",
                f"{len(heldout['heldout_prose']):,}")
    record.update(
        sources={name: {"file": str(files[name].relative_to(folder)), "sha256": sha256(files[name]),
                        "weight": config.mix[name], "pairs": len(sources[name])} for name in files},
        dev={"file": str(DEV_FILE), "sha256": sha256(folder / DEV_FILE), "pairs": len(dev)},
        dropped_as_evaluation=dropped, train_pairs=len(train),
        heldout={name: len(pairs) for name, pairs in heldout.items()},
    )
    return {**splits, "train": train, "dev": dev, **heldout}, record
