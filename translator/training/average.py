"""One model directory from several: the element-wise mean of their weights.

Models trained one from another (`translator train --from`) stay in the same
basin of the loss, so the mean of their weights is a model too, and usually a
better one than each: the same effect as the mean of a run's last epochs
(`selection`), across runs. Models trained apart from different random
starts do not average: their hidden units are in different orders.

Example:

    average(["saved_models/en-es", "runs/out/en-es-longer"], "saved_models/en-es-mean")
"""

import shutil
from pathlib import Path

from translator import model_dir
from translator.config import ARCHITECTURE_FIELDS, Config
from translator.errors import UsageError
from translator.files import outputs
from translator.model import shortlist
from translator.text import name_forms, rerank, verbatim
from translator.text.pipeline import TextPipeline
from translator.training import selection


def check_compatible(directories):
    """Raises `ValueError` naming the first directory whose architecture or vocabularies differ from the first's."""
    first = directories[0]
    config = Config.from_json(Path(first) / model_dir.CONFIG_FILE)
    for other in directories[1:]:
        theirs = Config.from_json(Path(other) / model_dir.CONFIG_FILE)
        differ = sorted(f for f in ARCHITECTURE_FIELDS if getattr(config, f) != getattr(theirs, f))
        if differ:
            raise UsageError(f"{other} is not built like {first} ({', '.join(differ)} differ): "
                             "only models of one architecture average")
        for name in (TextPipeline.FILES["source"], TextPipeline.FILES["target"]):
            if (Path(first) / name).read_bytes() != (Path(other) / name).read_bytes():
                raise UsageError(f"{other} has other vocabularies than {first} ({name} differs): "
                                 "average only models trained one from another (`train --from`)")


def average(directories, output, overwrite=False):
    """Writes to `output` a model directory whose weights are the mean of `directories`' models.

    Vocabularies, word counts, shortlist, names and config (its `name` set to the output's) are
    the first directory's; metrics.json says which models were averaged.
    An existing `output` is refused unless `overwrite`, and replaced whole.
    """
    directories = [Path(d) for d in directories]
    if len(directories) < 2:
        raise UsageError("averaging needs two model directories or more")
    outputs.refuse_existing(output, overwrite)  # before the minutes of loading
    model, pipeline, config = model_dir.load(directories[0])  # also says clearly what is wrong with a bad directory
    for directory in directories[1:]:
        model_dir.load(directory)
    check_compatible(directories)
    selection.average_weights(model, [d / model_dir.MODEL_FILE for d in directories])

    # Each part's whole training record (itself an average's, perhaps): the lineage stays traceable.
    trained = [model_dir.read_metrics(d).get("training", {}) for d in directories]
    with outputs.new_directory(output, overwrite) as folder:
        model_dir.save(folder, model, pipeline, config.replace(name=Path(output).name))
        for name in (verbatim.WORDS_FILE, rerank.LEXICON_FILE, shortlist.FILE, name_forms.FILE):
            if (directories[0] / name).is_file():
                shutil.copyfile(directories[0] / name, folder / name)
        averaged = [{"model": str(d), **t} for d, t in zip(directories, trained)]
        model_dir.update_metrics(folder, training={"averaged": averaged})
    return Path(output)
