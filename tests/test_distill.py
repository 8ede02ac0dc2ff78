"""Distillation in one process: the teacher's translations written resumably, the student's training splits.

The recipe that runs these stages end to end through the command is in test_recipe.py.
"""

import pytest

from translator import model_dir
from translator.files import partial
from translator.training import data, distill, recipe, train
from translator.translate import Translator


class Calls(list):
    """The sentences of each `Translator.translate` call; the call number `stop_at` (1 first) is stopped."""

    stop_at = None


@pytest.fixture
def counted(monkeypatch):
    calls, original = Calls(), Translator.translate

    def translate(self, texts, *args, **kwargs):
        calls.append(list(texts))
        if len(calls) == calls.stop_at:
            raise KeyboardInterrupt
        return original(self, texts, *args, **kwargs)

    monkeypatch.setattr(Translator, "translate", translate)
    return calls


def test_the_teacher_translation_continues_after_a_stop_without_redoing_whole_chunks(
        tiny_model_dir, tmp_path, pairs, monkeypatch, counted):
    monkeypatch.setattr(distill, "CHUNK_SENTENCES", 8)
    english = distill.sources(pairs)  # 40 sentences: 5 chunks
    counted.stop_at = 3
    output = tmp_path / "taught.tsv"
    with pytest.raises(KeyboardInterrupt, match=r"kept in .*taught.tsv.partial; the same command continues them"):
        distill.teach(tiny_model_dir, english, output, beam_size=4)
    kept = partial.partial_path(output)
    assert not output.exists() and kept.read_text(encoding="utf-8").count("\n") == 1 + 16
    with kept.open("a", encoding="utf-8") as torn:  # a kill in the middle of the third chunk's writing
        torn.write("Where is Tom?\tjunk\nI see\n")
    with pytest.raises(ValueError, match="made with another beam"):
        distill.teach(tiny_model_dir, english, output, beam_size=2)

    counted.clear()
    counted.stop_at = None
    assert distill.teach(tiny_model_dir, english, output, beam_size=4) == 24
    assert counted == [english[start:start + 8] for start in range(16, 40, 8)]  # the first two chunks not again
    assert not kept.exists()
    written = [line.split("\t") for line in output.read_text(encoding="utf-8").splitlines()]
    assert [source for source, _ in written] == english
    assert [spanish for _, spanish in written] == Translator.load(tiny_model_dir).translate(english, beam_size=4)


def test_each_training_sentence_is_translated_once_shortest_first():
    train_pairs = [("I see Tom.", "Veo a Tom."), ("Help!", "¡Ayuda!"), ("I see Tom.", "Yo veo a Tom."),
                   ("Come here.", "Ven aquí.")]
    assert distill.sources(train_pairs) == ["Help!", "Come here.", "I see Tom."]
    assert distill.sources(train_pairs[::-1]) == distill.sources(train_pairs)


@pytest.fixture
def distilled_stage(tmp_path, pairs):
    """A corpus, and a finished translate stage `taught` of a recipe in tmp_path/recipe whose teacher
    translated its training split: each English sentence, then ' (enseñado)'; one left untranslated."""
    corpus = tmp_path / "pairs.tsv"
    corpus.write_text("".join(f"{en}\t{es}\n" for en, es in pairs), encoding="utf-8")
    english = distill.sources(data.load_splits(corpus)["train"])
    stage = tmp_path / "recipe" / "models" / "taught"
    stage.mkdir(parents=True)
    (stage / distill.PAIRS_FILE).write_text(
        "".join(f"{en}\t{en} (enseñado)\n" for en in english[1:]) + f"{english[0]}\t\n", encoding="utf-8")
    return corpus, tmp_path / "recipe", [(en, f"{en} (enseñado)") for en in english[1:]]


@pytest.mark.parametrize("with_original", [False, True])
def test_a_student_trains_on_the_teachers_pairs_and_is_chosen_and_scored_on_the_corpus_splits(
        distilled_stage, monkeypatch, with_original):
    corpus, recipe_dir, taught = distilled_stage
    given = {}
    monkeypatch.setattr(train, "train", lambda config, **kwargs: given.update(kwargs, config=config))
    stage = {"name": "student", "kind": "train", "preset": "tiny", "targets": "taught", "with_original": with_original,
             "epochs": 1}
    settings = {"data_path": corpus, "more_path": None, "mixed_precision": None, "jit_compile": None}
    recipe.train_stage(stage, recipe_dir, recipe_dir / "models" / "student", settings)
    originals = data.load_splits(corpus)["train"] if with_original else []
    assert given["train_pairs"] == originals + taught
    assert given["splits"] == data.load_splits(corpus)  # validation, test, the vocabularies and word lists': the corpus'
    assert given["config"].epochs == 1 and given["config"].name == "student"  # the stage's keys that are no Config's

    given.clear()
    recipe.train_stage({key: value for key, value in stage.items() if key not in ("targets", "with_original")},
                       recipe_dir, recipe_dir / "models" / "student", settings)
    assert given["splits"] is None and given["train_pairs"] is None  # the corpus', as train.train loads it


def test_a_translate_stage_stopped_midway_continues_when_its_recipe_runs_again(
        tiny_model_dir, distilled_stage, monkeypatch, counted):
    corpus, recipe_dir, _ = distilled_stage
    (recipe_dir / "models" / "teacher").symlink_to(tiny_model_dir)
    monkeypatch.setattr(distill, "CHUNK_SENTENCES", 8)
    stage = {"name": "taught-again", "kind": "translate", "teacher": "teacher", "beam": 4}
    output, settings = recipe_dir / "models" / "taught-again", {"data_path": corpus, "jit_compile": None}
    counted.stop_at = 2
    with pytest.raises(KeyboardInterrupt):
        recipe.run_stage(stage, recipe_dir, output, settings)
    assert not recipe.finished(output)

    counted.clear()
    counted.stop_at = None
    recipe.run_stage(stage, recipe_dir, output, settings)
    english = distill.sources(data.load_splits(corpus)["train"])
    assert counted == [english[start:start + 8] for start in range(8, len(english), 8)]
    assert [line.split("\t")[0] for line in (output / distill.PAIRS_FILE).read_text().splitlines()] == english
    assert recipe.finished(output) and list((recipe_dir / "state" / "taught-again").iterdir()) == []
    metrics = model_dir.read_metrics(output)
    assert metrics["translation"]["beam"] == 4 and metrics["recipe_stage"]["stage"] == stage
