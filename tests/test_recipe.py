"""The recipe, really run: `python -m translator train --recipe tiny` end to end, run again, killed and resumed;
and no training command writes over a model directory unless told to."""

import json
import shutil
import subprocess
import sys
import time

import pytest

from translator import cli, model_dir
from translator.training import data, distill, recipe, run_state
from translator.translate import Translator


def write_corpus(path, pairs, copies):
    """`copies` numbered copies of `pairs` as English<TAB>Spanish lines: a corpus of any size."""
    path.write_text("".join(f"{en} {i}\t{es} {i}\n" for i in range(copies) for en, es in pairs), encoding="utf-8")
    return path


def train_command(*args):
    return [sys.executable, "-m", "translator", "train", *map(str, args)]


@pytest.fixture(scope="module")
def tiny_recipe(tmp_path_factory, pairs, command_env):
    """The tiny recipe run once through the command: its folder and the command's output."""
    folder = tmp_path_factory.mktemp("recipe")
    corpus = write_corpus(folder / "pairs.tsv", pairs, 5)
    command = train_command("--recipe", "tiny", "--data", corpus, "--output", "models", "--runs", "work")
    result = subprocess.run(command, cwd=folder, env=command_env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return folder, corpus, result


def test_the_tiny_recipe_runs_every_stage_and_records_them_in_the_final_model(tiny_recipe):
    folder, _, result = tiny_recipe
    declared = recipe.RECIPES["tiny"]
    models = folder / "work" / "tiny" / "models"
    for number, stage in enumerate(declared, 1):
        assert f"stage {number}/{len(declared)}, {stage['name']} (" in result.stderr
        made = distill.PAIRS_FILE if stage["kind"] == "translate" else model_dir.MODEL_FILE
        assert (models / stage["name"] / made).is_file()
    final = folder / "models" / "tiny"
    model, _, config = model_dir.load(final)
    assert config.name == "tiny"
    metrics = model_dir.read_metrics(final)
    assert metrics["recipe"]["name"] == "tiny" and metrics["recipe"]["stages"] == declared
    assert [row["stage"] for row in metrics["recipe"]["seconds"]] == [stage["name"] for stage in declared]
    assert all(row["seconds"] > 0 for row in metrics["recipe"]["seconds"])
    kept = folder / "models" / recipe.STAGES_DIR / "tiny"
    assert (final / model_dir.MODEL_FILE).read_bytes() == (kept / "tiny-student" / model_dir.MODEL_FILE).read_bytes()
    # The third stage averages the first two: the lineage `translator average` records.
    averaged = model_dir.read_metrics(models / "tiny-mean")["training"]["averaged"]
    assert [part["model"] for part in averaged] == ["work/tiny/models/tiny-1", "work/tiny/models/tiny-2"]
    assert averaged[1]["started_from"]["model"] == "work/tiny/models/tiny-1" and averaged[1]["epochs"] == 2
    weights = [model_dir.load(folder / part["model"])[0].get_weights() for part in averaged]
    mean = model_dir.load(models / "tiny-mean")[0].get_weights()
    assert all(((a + b) / 2 == pytest.approx(m)) for a, b, m in zip(*weights, mean))


def test_each_model_stage_is_kept_for_the_repository_in_bfloat16_and_read_back_in_float32(tiny_recipe):
    folder, _, _ = tiny_recipe
    kept, models = folder / "models" / recipe.STAGES_DIR / "tiny", folder / "work" / "tiny" / "models"
    made = [stage["name"] for stage in recipe.RECIPES["tiny"] if stage["kind"] in recipe.MODEL_KINDS]
    assert sorted(path.name for path in kept.iterdir()) == sorted(made)
    for name in made:
        assert recipe.finished(kept / name)
        assert sorted(path.name for path in (kept / name).iterdir()) == sorted(path.name for path in (models / name).iterdir())
        size, run_size = ((directory / name / model_dir.MODEL_FILE).stat().st_size for directory in (kept, models))
        assert size < 0.85 * run_size  # the weights halved; a tiny model's file is much else besides
        model, trained = model_dir.load(kept / name)[0], model_dir.load(models / name)[0]
        assert model.dtype_policy.name == "float32" and {weight.dtype for weight in model.weights} == {"float32"}
        for weight, run_weight in zip(model.get_weights(), trained.get_weights()):
            assert weight == pytest.approx(run_weight, rel=2 ** -8, abs=1e-30)  # bfloat16 keeps 8 bits of mantissa


def test_the_teacher_translates_the_training_split_and_the_student_learns_from_it(tiny_recipe):
    folder, corpus, result = tiny_recipe
    models, splits = folder / "work" / "tiny" / "models", data.load_splits(corpus)
    taught = [line.split("\t") for line in (models / "tiny-distilled" / distill.PAIRS_FILE).read_text().splitlines()]
    english = distill.sources(splits["train"])
    assert [source for source, _ in taught] == english  # not one of val or test
    assert f"tiny-distilled/pairs.tsv: {len(english)} of {len(english)} sentences translated (100%)" in result.stderr
    # The teacher: two of the earlier stages' models decoded as one.
    teacher = Translator.load(models / "tiny-mean", ensemble=[models / "tiny-2"])
    assert [spanish for _, spanish in taught] == teacher.translate(english, 4)
    alone = Translator.load(models / "tiny-mean").translate(english, 4)
    assert [spanish for _, spanish in taught] != alone, "the second model changes what the teacher writes"
    translation = model_dir.read_metrics(models / "tiny-distilled")["translation"]
    assert translation["beam"] == 4 and translation["teacher"] == ["work/tiny/models/tiny-mean", "work/tiny/models/tiny-2"]
    # The student: from the teacher, on its translations and the original pairs.
    training = model_dir.read_metrics(folder / "models" / "tiny")["training"]
    assert training["started_from"]["model"] == "work/tiny/models/tiny-mean" and training["epochs"] == 1
    student_pairs = set(splits["train"]) | {(english, spanish) for english, spanish in taught if spanish}
    assert training["trained_on_pairs"] == len(student_pairs) > len(splits["train"]) == training["train_pairs"]
    assert (models / "tiny-student" / "words_en.txt").read_bytes() == (models / "tiny-mean" / "words_en.txt").read_bytes()


def test_a_rerun_skips_finished_stages_and_never_writes_over_the_model(tiny_recipe, command_env):
    folder, corpus, _ = tiny_recipe
    final = folder / "models" / "tiny" / model_dir.MODEL_FILE
    before = final.read_bytes()
    refused = subprocess.run(train_command("--recipe", "tiny", "--data", corpus, "--output", "models", "--runs", "work"),
                             cwd=folder, env=command_env, capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        "translator train: models/tiny already holds a model: choose another --name, or --overwrite to replace it"]
    assert final.read_bytes() == before

    again = subprocess.run(train_command("--recipe", "tiny", "--data", corpus, "--output", "models", "--runs", "work",
                                         "--name", "again"),
                           cwd=folder, env=command_env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr[-3000:]
    assert again.stderr.count("done before") == len(recipe.RECIPES["tiny"]) and "Epoch" not in again.stdout
    assert (folder / "models" / "again" / model_dir.MODEL_FILE).read_bytes() == before
    assert model_dir.read_metrics(folder / "models" / "again")["recipe"]["seconds"] == (
        model_dir.read_metrics(folder / "models" / "tiny")["recipe"]["seconds"])


@pytest.mark.parametrize("name, change", [("tiny-1", {"epochs": 3}), ("tiny-distilled", {"beam": 2}),
                                          ("tiny-student", {"with_original": False})])
def test_a_stage_declared_otherwise_since_it_ran_is_not_taken_for_done(tiny_recipe, monkeypatch, name, change):
    folder, corpus, _ = tiny_recipe
    changed = [{**stage, **change} if stage["name"] == name else stage for stage in recipe.RECIPES["tiny"]]
    monkeypatch.setitem(recipe.RECIPES, "tiny", changed)
    with pytest.raises(ValueError, match=f"made by another declaration of stage {name}"):
        recipe.run("tiny", runs_dir=folder / "work", output_dir=folder / "models", final_name="changed",
                   data_path=corpus)
    assert not (folder / "models" / "changed").exists()


def test_a_stage_killed_mid_epoch_resumes_and_the_stages_before_it_are_kept(tmp_path, pairs, command_env):
    # 800 pairs: an epoch of the tiny model (some 35 steps) lasts many times the 20 ms in which the test sees the
    # second stage's first one end and kills the run, so its second is killed under way.
    corpus = write_corpus(tmp_path / "pairs.tsv", pairs, 20)
    command = train_command("--recipe", "tiny", "--data", corpus, "--output", "models", "--runs", "work")
    second = tmp_path / "work" / "tiny" / "state" / "tiny-2" / run_state.HISTORY_FILE
    with open(tmp_path / "first.log", "w") as log:
        process = subprocess.Popen(command, cwd=tmp_path, env=command_env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 600  # a hang, not a slow shared machine
            while len(run_state.read_history(second)) < 1:
                assert process.poll() is None, (tmp_path / "first.log").read_text()[-3000:]
                assert time.monotonic() < deadline
                time.sleep(0.02)
        finally:
            process.kill()  # SIGKILL, as the second stage's second epoch starts
            process.wait()
    assert len(run_state.read_history(second)) == 1
    first_stage = tmp_path / "work" / "tiny" / "models" / "tiny-1" / model_dir.MODEL_FILE
    first_stage_bytes = first_stage.read_bytes()
    assert not (tmp_path / "work" / "tiny" / "models" / "tiny-2").exists() and not (tmp_path / "models" / "tiny").exists()
    kept = tmp_path / "models" / recipe.STAGES_DIR / "tiny"
    assert recipe.finished(kept / "tiny-1") and not (kept / "tiny-2").exists()

    again = subprocess.run(command, cwd=tmp_path, env=command_env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "tiny-1 (train preset tiny, epochs 2): done before" in again.stderr
    assert "resuming the run" in again.stderr
    # Only the second stage's unfinished epoch ran again.
    assert "Epoch 1/2" not in again.stdout and again.stdout.count("Epoch 2/2") == 1
    assert [row["epoch"] for row in run_state.read_history(second)] == ["0", "1"]
    assert first_stage.read_bytes() == first_stage_bytes
    assert model_dir.read_metrics(tmp_path / "models" / "tiny")["recipe"]["name"] == "tiny"


def test_a_preset_run_refuses_to_write_over_a_model_unless_told(tmp_path, pairs, capsys):
    corpus = write_corpus(tmp_path / "pairs.tsv", pairs, 1)
    existing = tmp_path / "models" / "mine"
    existing.mkdir(parents=True)
    (existing / model_dir.MODEL_FILE).write_text("hours of training")
    args = ["train", "--preset", "tiny", "--epochs", "1", "--name", "mine", "--data", str(corpus),
            "--output", str(tmp_path / "models"), "--runs", str(tmp_path / "runs")]
    assert cli.main(args) == 2
    assert capsys.readouterr().err.strip() == (
        f"translator train: {existing} already holds a model: choose another --name, or --overwrite to replace it")
    assert (existing / model_dir.MODEL_FILE).read_text() == "hours of training"
    assert not (tmp_path / "runs").exists()  # refused before any work

    assert cli.main([*args, "--overwrite"]) == 0
    assert model_dir.load(existing)[2].name == "mine"
    assert json.loads((existing / model_dir.METRICS_FILE).read_text())["training"]["epochs"] == 1


def test_a_recipe_is_checked_before_any_stage_runs(monkeypatch):
    for name in recipe.RECIPES:
        assert recipe.stages(name) is recipe.RECIPES[name]
    with pytest.raises(ValueError, match="unknown recipe 'nope'"):
        recipe.stages("nope")
    monkeypatch.setitem(recipe.RECIPES, "later", [{"name": "a", "kind": "train", "from": "b"},
                                                  {"name": "b", "kind": "train", "preset": "tiny"}])
    with pytest.raises(ValueError, match="stage a reads 'b', which is not a stage before it"):
        recipe.stages("later")
    monkeypatch.setitem(recipe.RECIPES, "odd", [{"name": "a", "kind": "distil"}])
    with pytest.raises(ValueError, match="unknown kind 'distil'"):
        recipe.stages("odd")
    model = {"name": "a", "kind": "train", "preset": "tiny"}
    monkeypatch.setitem(recipe.RECIPES, "no-pairs", [model, {"name": "b", "kind": "train", "from": "a", "targets": "a"}])
    with pytest.raises(ValueError, match="stage b: targets 'a' is a train stage, not one of translate"):
        recipe.stages("no-pairs")
    monkeypatch.setitem(recipe.RECIPES, "no-model", [model, {"name": "b", "kind": "translate", "teacher": "a"}])
    with pytest.raises(ValueError, match="recipe no-model: its last stage, b, makes no model"):
        recipe.stages("no-model")


def test_a_stage_that_only_finished_stages_read_is_not_needed(tmp_path):
    declared = recipe.RECIPES["tiny"]
    assert recipe.needed(declared, tmp_path) == {stage["name"] for stage in declared}

    def finish(name, record="training"):
        (tmp_path / "models" / name).mkdir(parents=True)
        model_dir.update_metrics(tmp_path / "models" / name, **{record: {}})

    finish("tiny-mean")  # a model made elsewhere stands in for the stage; the teacher still needs tiny-2
    assert recipe.needed(declared, tmp_path) == {stage["name"] for stage in declared}
    finish("tiny-distilled", "translation")  # the runs the mean averages are needed no more; the student reads both
    assert recipe.needed(declared, tmp_path) == {"tiny-mean", "tiny-distilled", "tiny-student"}
    finish("tiny-student")
    assert recipe.needed(declared, tmp_path) == {"tiny-student"}


def test_a_stage_committed_to_the_repository_is_taken_not_trained_again(tiny_recipe, monkeypatch, caplog):
    folder, corpus, _ = tiny_recipe
    first = recipe.RECIPES["tiny"][0]
    committed = folder / "repository" / recipe.STAGES_DIR / "tiny" / first["name"]
    shutil.copytree(folder / "work" / "tiny" / "models" / first["name"], committed)
    monkeypatch.setitem(recipe.RECIPES, "tiny", [first])
    with caplog.at_level("INFO"):
        final = recipe.run("tiny", runs_dir=folder / "fresh", output_dir=folder / "repository", data_path=corpus)
    assert f"stage {first['name']}: the committed model" in caplog.text and "done before" in caplog.text
    assert (final / model_dir.MODEL_FILE).read_bytes() == (committed / model_dir.MODEL_FILE).read_bytes()
