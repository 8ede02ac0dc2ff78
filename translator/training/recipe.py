"""Recipes: the whole schedule of runs that makes a model, declared once as plain data.

`translator train --recipe en-es` (`make train`) makes the shipped model
`saved_models/en-es/` from the corpus: it runs the stages of `RECIPES["en-es"]`
in order. Each stage writes one model directory, `RUNS/<recipe>/models/<stage>/`;
a train stage keeps its run state in `RUNS/<recipe>/state/<stage>/`
(`run_state`), so a stop at any moment loses at most the epoch under way,
and a stage whose model directory is complete is skipped when the recipe runs
again, as is a stage that only stages already complete read (`needed`). Each
finished stage's model is also kept, its weights in bfloat16 (`keep`), in
`saved_models/stages/<recipe>/<stage>/`: committed, it is what a later run
takes instead of training the stage again (`take_committed`). The last stage's
kept model is then copied to `saved_models/<recipe>/` (or `--name`), never
over a model there without `--overwrite`; its metrics.json records the recipe
as declared and each stage's time.

A stage is a dict: its `name`, its `kind`, and what that kind reads:

    train     "preset": a preset of `config.PRESETS`, or "from": an earlier stage whose
              model it trains longer; "targets": a translate stage, whose pairs replace the
              training split ("with_original": true, join it; validation and test stay the
              corpus'); any other key overrides that `Config` field
    average   "of": earlier stages, whose models' weights it averages (`translator.training.average`)
    translate "teacher": an earlier stage whose model translates the English of the training
              split ("beam", default 4) into the stage's `pairs.tsv` (`translator.training.distill`), or a
              list of stages whose models translate it as one (`translator.model.ensemble`);
              its partial output waits in `RUNS/<recipe>/state/<stage>/`, continued after a stop

A new kind is one function `(stage, recipe_dir, output, settings)` in `KINDS`,
and the keys naming its earlier stages in `READS`.

Example:

    run("tiny", runs_dir="runs", output_dir="saved_models", data_path="pairs.tsv")
"""

import logging
import shutil
import time
from pathlib import Path

from translator import model_dir
from translator.config import Config, configure
from translator.defaults import DEFAULT_BEAM
from translator.errors import UsageError
from translator.files import outputs
from translator.training import average, data, distill, train

logger = logging.getLogger(__name__)

RECIPES = {
    # The model of the training mix (`translator.training.mix`): the default preset from new weights, each stage
    # at most about two hours on 2 CPU cores, so that one session runs one; the stages after it train on
    # from it.
    "en-es": [
        {"name": "base", "kind": "train", "preset": "default"},
        # Its validation loss still fell by 0.6 an epoch: on from the same peak, reached again after a warm-up of
        # the new optimizer, so that the rate ends at 3.5e-4 (7e-4 * sqrt(600 / 2400)), near base's last 4.5e-4; a
        # new seed deals other batches. Three epochs keep the stage inside a session with its evaluation.
        {"name": "base-2", "kind": "train", "from": "base", "epochs": 3, "learning_rate": 7e-4, "warmup_steps": 600,
         "seed": 1338},
        # Its validation loss fell by 0.33 over the three epochs (to 2.69), still 0.1 an epoch at the end: the same
        # again, other batches.
        {"name": "base-3", "kind": "train", "from": "base-2", "epochs": 3, "learning_rate": 7e-4, "warmup_steps": 600,
         "seed": 1339},
        # Its first epoch, warming up to the peak again, gained nothing (validation loss 2.690 -> 2.690; the next
        # 2.592): back only to 5e-4, soon, then down to 1.8e-4 (5e-4 * sqrt(400 / 3200)). Four epochs: from this
        # stage on, training computes in bfloat16 where the CPU multiplies it (0.82 of float32's step time).
        {"name": "base-4", "kind": "train", "from": "base-3", "epochs": 4, "learning_rate": 5e-4, "warmup_steps": 400,
         "seed": 1340},
    ],
    # Seconds on a CPU, the same kinds of stage: tests and smoke runs.
    "tiny": [
        {"name": "tiny-1", "kind": "train", "preset": "tiny", "epochs": 2},
        {"name": "tiny-2", "kind": "train", "from": "tiny-1", "epochs": 2, "seed": 2},
        {"name": "tiny-mean", "kind": "average", "of": ["tiny-1", "tiny-2"]},
        {"name": "tiny-distilled", "kind": "translate", "teacher": ["tiny-mean", "tiny-2"], "beam": 4},
        {"name": "tiny-student", "kind": "train", "from": "tiny-mean", "targets": "tiny-distilled",
         "with_original": True, "epochs": 1},
    ],
}

# Under the output directory (saved_models/): finished stages' models kept in the repository, by recipe.
STAGES_DIR = "stages"
# The kinds of stage that make a model; the last stage of a recipe is one, and so is what a model is read from.
MODEL_KINDS = ("train", "average")
# Keys of a stage that name earlier stages, and the kinds of stage each may name.
READS = {"from": MODEL_KINDS, "of": MODEL_KINDS, "teacher": MODEL_KINDS, "targets": ("translate",)}
# Keys of a train stage that are not `Config` overrides.
TRAIN_KEYS = ("name", "kind", "preset", "from", "targets", "with_original")


def train_stage(stage, recipe_dir, output, settings):
    """`translator train --preset P` or `--from STAGE`, with the stage's overrides; with "targets", on a
    translate stage's pairs (`student_pairs`)."""
    overrides = {key: value for key, value in stage.items() if key not in TRAIN_KEYS}
    start_from = recipe_dir / "models" / stage["from"] if "from" in stage else None
    config = configure(stage.get("preset"), start_from, name=output.name, **overrides,
                       mixed_precision=settings["mixed_precision"], jit_compile=settings["jit_compile"])
    splits = pairs = None  # the corpus', loaded by train.train
    if "targets" in stage:
        splits = data.load_splits(settings["data_path"])
        pairs = student_pairs(stage, recipe_dir, splits)
    train.train(config, data_path=settings["data_path"], output_dir=output.parent, runs_dir=recipe_dir / "state",
                start_from=start_from, splits=splits, train_pairs=pairs, more_path=settings["more_path"])


def student_pairs(stage, recipe_dir, splits):
    """What a train stage with "targets" learns from: that translate stage's pairs, and with "with_original"
    the corpus' training pairs too. Everything else stays the corpus' `splits`: the student is chosen and
    scored against real references, and its model's word lists (`verbatim`'s counts of English words,
    `rerank`'s Spanish words) describe the corpus, not English sentences counted twice."""
    originals = splits["train"] if stage.get("with_original") else ()
    return distill.training_pairs(recipe_dir / "models" / stage["targets"] / distill.PAIRS_FILE, originals)


def translate_stage(stage, recipe_dir, output, settings):
    """The teacher's translations of the training split's English (`distill.teach`) into `output/pairs.tsv`.

    They are made in `RUNS/<recipe>/state/<stage>/` (the stage's directory is removed when it is not
    complete), resumably, and that file is removed once the stage's directory holds them.
    """
    english = distill.sources(data.load_splits(settings["data_path"])["train"])
    teacher = [recipe_dir / "models" / name for key, name in reads(stage) if key == "teacher"]
    beam = stage.get("beam", DEFAULT_BEAM)
    made = recipe_dir / "state" / stage["name"] / distill.PAIRS_FILE
    if not made.is_file():  # else complete before a stop that came before the stage's directory was written
        made.parent.mkdir(parents=True, exist_ok=True)
        # XLA as --xla says (auto: off on a CPU, where a beam search gains nothing from it).
        distill.teach(teacher, english, made, beam, settings["jit_compile"])
    with outputs.new_directory(output, overwrite=True) as folder:
        shutil.copyfile(made, folder / distill.PAIRS_FILE)
        model_dir.update_metrics(folder, translation={"teacher": [str(path) for path in teacher], "beam": beam,
                                                      "sentences": len(english)})
    made.unlink()


def average_stage(stage, recipe_dir, output, settings):
    """`translator average` of earlier stages' models."""
    average.average([recipe_dir / "models" / name for name in stage["of"]], output)


KINDS = {"train": train_stage, "average": average_stage, "translate": translate_stage}


def reads(stage):
    """The earlier stages `stage` reads, as (key, stage name) pairs."""
    for key in READS:
        earlier = stage.get(key, [])
        yield from ((key, name) for name in ([earlier] if isinstance(earlier, str) else earlier))


def needed(recipe, recipe_dir):
    """The names of the stages to run or find done: the last one, and what every needed stage that is not done
    reads. A stage whose readers are all done is not needed, so its directory may be deleted to free the disk,
    or a model made elsewhere may stand in for a stage: the shipped model copied in as `mean-27-33-39` starts
    the distillation without the hours of training before it."""
    wanted = {recipe[-1]["name"]}
    for stage in reversed(recipe):
        if stage["name"] in wanted and not finished(recipe_dir / "models" / stage["name"]):
            wanted.update(name for _, name in reads(stage))
    return wanted


def stages(name):
    """The stages of the recipe `name`; raises `ValueError` (before any work) for an unknown recipe
    or kind, a stage that reads a stage not run before it or of another kind than it needs, or a
    recipe whose last stage makes no model."""
    if name not in RECIPES:
        raise UsageError(f"unknown recipe {name!r}; choose one of {', '.join(RECIPES)}")
    kinds = {}
    for stage in RECIPES[name]:
        if stage["kind"] not in KINDS:
            raise UsageError(f"stage {stage['name']}: unknown kind {stage['kind']!r}; choose one of {', '.join(KINDS)}")
        for key, needed in reads(stage):
            if needed not in kinds:
                raise UsageError(f"stage {stage['name']} reads {needed!r}, which is not a stage before it")
            if kinds[needed] not in READS[key]:
                raise UsageError(f"stage {stage['name']}: {key} {needed!r} is a {kinds[needed]} stage, "
                                 f"not one of {', '.join(READS[key])}")
        kinds[stage["name"]] = stage["kind"]
    if RECIPES[name][-1]["kind"] not in MODEL_KINDS:
        raise UsageError(f"recipe {name}: its last stage, {RECIPES[name][-1]['name']}, makes no model")
    return RECIPES[name]


def describe(stage):
    """One line for the progress log: `train from en-es-14, epochs 7, learning_rate 0.0004`."""
    shown = {key: " + ".join(value) if isinstance(value, list) else value for key, value in stage.items()}
    return f"{stage['kind']} " + ", ".join(f"{key} {value}" for key, value in shown.items() if key not in ("name", "kind"))


def finished(output):
    """Whether a stage's directory is complete: metrics.json, written last, holds its training record (a
    model) or its translation record (a translate stage)."""
    return bool({"training", "translation"} & model_dir.read_metrics(output).keys())


def run_stage(stage, recipe_dir, output, settings):
    """Runs one stage into `output` and records its time there; returns the seconds."""
    recorded = model_dir.read_metrics(output).get("recipe_stage", {})
    if finished(output):
        if recorded.get("stage", stage) != stage:
            raise UsageError(f"{output} was made by another declaration of stage {stage['name']} "
                             f"({recorded['stage']}): remove it, or choose other --runs")
        return recorded.get("seconds")
    shutil.rmtree(output, ignore_errors=True)  # what a stage killed before its end left
    started = time.perf_counter()
    KINDS[stage["kind"]](stage, recipe_dir, output, settings)
    seconds = round(time.perf_counter() - started, 1)
    model_dir.update_metrics(output, recipe_stage={"stage": stage, "seconds": seconds})
    return seconds


def take_committed(recipe, recipe_dir, committed):
    """Copies into `recipe_dir` each stage's model that the repository holds finished in `committed/<stage>/`
    and the run lacks: a session that ran one stage commits its model, and the next runs the stage after it."""
    for stage in recipe:
        output, kept = recipe_dir / "models" / stage["name"], Path(committed) / stage["name"]
        if finished(kept) and not finished(output):
            logger.info("stage %s: the committed model %s", stage["name"], kept)
            shutil.rmtree(output, ignore_errors=True)
            shutil.copytree(kept, output)


def keep(output, kept):
    """Writes the finished stage `output` as the repository keeps it, into `kept`: the same files, its weights
    in bfloat16 (`model_dir.save`), half the size, so that a recipe's stages fit the repository. The rest of
    the run goes on from `output`'s float32 weights; a later session, from these (read back into float32)."""
    with outputs.new_directory(kept) as folder:
        shutil.copytree(output, folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns(model_dir.MODEL_FILE))
        model, pipeline, config = model_dir.load(output)
        model_dir.save(folder, model, pipeline, config, bfloat16=True)


def run(name, runs_dir="runs", output_dir="saved_models", final_name=None, overwrite=False, data_path=None,
        more_path=None, mixed_precision=None, jit_compile=None):
    """Runs the recipe `name` (resuming it, see the module's docstring) and writes its model to
    `output_dir/<final_name or name>/`, over a model there only with `overwrite`. Returns that directory.
    Stages whose models the repository holds in `output_dir/stages/<name>/` are taken from there."""
    recipe = stages(name)
    final = Path(output_dir) / (final_name or name)
    model_dir.check_free(final, overwrite)  # now, not after hours of training
    recipe_dir, committed = Path(runs_dir) / name, Path(output_dir) / STAGES_DIR / name
    take_committed(recipe, recipe_dir, committed)
    settings = {"data_path": data_path, "more_path": more_path, "mixed_precision": mixed_precision,
                "jit_compile": jit_compile}
    seconds, wanted = [], needed(recipe, recipe_dir)
    for number, stage in enumerate(recipe, 1):
        output = recipe_dir / "models" / stage["name"]
        heading = f"recipe {name}, stage {number}/{len(recipe)}, {stage['name']} ({describe(stage)})"
        if stage["name"] not in wanted and not finished(output):  # one that is done is checked as ever
            logger.info("%s: not needed, every stage that reads it is done: skipped", heading)
            seconds.append({"stage": stage["name"], "seconds": None})
            continue
        before = finished(output)
        logger.info("%s: %s", heading, f"done before, in {output}: skipped" if before else "starting")
        seconds.append({"stage": stage["name"], "seconds": run_stage(stage, recipe_dir, output, settings)})
        if not before:
            logger.info("%s: done in %.0f s", heading, seconds[-1]["seconds"])
        if stage["kind"] in MODEL_KINDS and not (committed / stage["name"]).exists():
            keep(output, committed / stage["name"])
            logger.info("%s: kept in %s, to commit", heading, committed / stage["name"])
    with model_dir.writing(final, overwrite) as partial:
        # The kept copy: the shipped model and the repository's last stage are then one file.
        last = committed / recipe[-1]["name"]
        shutil.copytree(last, partial, dirs_exist_ok=True, ignore=shutil.ignore_patterns(model_dir.METRICS_FILE))
        Config.from_json(partial / model_dir.CONFIG_FILE).replace(name=final.name).to_json(partial / model_dir.CONFIG_FILE)
        metrics = {k: v for k, v in model_dir.read_metrics(last).items() if k != "recipe_stage"}
        model_dir.update_metrics(partial, **metrics, recipe={"name": name, "stages": recipe, "seconds": seconds})
    logger.info("recipe %s: wrote %s", name, final)
    return final
