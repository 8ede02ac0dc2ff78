"""Training on token ids: the ids file, its batches, the fit and the way back to a model directory."""

from pathlib import Path

import numpy as np
import pytest

from translator import model_dir
from translator.config import Config, preset
from translator.model.transformer import Transformer
from translator.text.pieces import pieces_to_text
from translator.text.pipeline import TextPipeline
from translator.training import selection
from translator.training.ids import convert, fit
from translator.translate import Translator


def test_batches_hold_each_pair_once_an_epoch_and_move_to_the_next_version():
    rng = np.random.default_rng(0)
    lengths = rng.integers(1, 11, size=40)
    source = np.stack([np.where(np.arange(12) < n, 4 + version, 0) for version in (0, 1) for n in lengths])
    source = source.reshape(2, 40, 12)
    target = np.concatenate([np.full((2, 40, 1), 2), source, np.zeros((2, 40, 1), int)], axis=2)
    batches = fit.IdBatches(source, target, batch_size=3, seed=0)
    for version in (0, 1):
        seen = []
        for i in range(len(batches)):
            inputs, labels = batches[i]
            width = inputs["encoder_inputs"].shape[1]
            assert width % fit.WIDTH_STEP == 0 or width == 12
            assert (inputs["encoder_inputs"][:, 0] == 4 + version).all()  # this epoch's version
            np.testing.assert_array_equal(inputs["decoder_inputs"][:, 1:], labels[:, :-1])  # shifted by one
            seen += [tuple(row) for row in inputs["encoder_inputs"]]
        # Every pair at most once; only incomplete batches (fewer than 3 of one width) left out.
        widths = -(-lengths // fit.WIDTH_STEP)
        assert len(seen) == sum(count // 3 * 3 for count in np.unique(widths, return_counts=True)[1])
        batches.on_epoch_end()


def test_a_width_step_of_the_sequence_length_makes_one_shape():
    lengths = np.arange(1, 13).repeat(4)
    source = np.where(np.arange(12) < lengths[:, None], 5, 0)
    target = np.concatenate([np.full((48, 1), 2), source, np.zeros((48, 1), int)], axis=1)
    batches = fit.IdBatches(source, target, batch_size=4, shuffle=False, width_step=12)
    shapes = {(batches[i][0]["encoder_inputs"].shape, batches[i][0]["decoder_inputs"].shape) for i in range(len(batches))}
    assert shapes == {((4, 12), (4, 12))} and len(batches) == 12  # every pair, none dropped for its width


@pytest.fixture(scope="module")
def ids_run(tiny_model_dir, pairs, tmp_path_factory):
    """An ids file exported with the tiny model's vocabularies and a fit of 3 epochs on it."""
    root = tmp_path_factory.mktemp("ids")
    corpus = root / "pairs.tsv"
    corpus.write_text("".join(f"{english}\t{spanish}\n" for english, spanish in pairs * 3), encoding="utf-8")
    config = preset("tiny", epochs=3, batch_size=4, average_last=2, copy_augmentation=0.5, learning_rate=1e-2)
    convert.export(tiny_model_dir, config, root / "ids.npz", data_path=corpus, versions=2)
    summary = fit.fit(root / "ids.npz", root / "fitted", bleu_sentences=4)
    return root, corpus, summary


def test_export_writes_versions_with_the_vocabularies_of_the_model(ids_run, tiny_model_dir):
    root, _, _ = ids_run
    arrays, config = fit.read_ids(root / "ids.npz")
    vocabulary_config = Config.from_json(tiny_model_dir / model_dir.CONFIG_FILE)
    assert config.target_vocab_size == vocabulary_config.target_vocab_size
    assert arrays["train_source"].shape[0] == 2 and arrays["train_target"].shape[2] == config.sequence_length + 1
    assert len(arrays["vocabulary"]) == config.target_vocab_size


def test_piece_dropout_cuts_the_training_versions_anew_and_leaves_the_validation_split(ids_run, tmp_path):
    _, corpus, _ = ids_run
    english, spanish = zip(*(line.split("\t") for line in corpus.read_text(encoding="utf-8").splitlines()))
    config = preset("tiny", tokenizer="wordpiece", vocab_size=120, shared_vocabulary=True, tie_embeddings=True,
                    lowercase=False, copy_augmentation=0.5, sequence_length=40)
    pipeline = TextPipeline.adapt(config, english, spanish)  # pieces, where the tiny model has words
    config = config.replace(source_vocab_size=len(pipeline.source_vocabulary),
                            target_vocab_size=len(pipeline.target_vocabulary))
    pipeline.save(tmp_path)
    config.to_json(tmp_path / model_dir.CONFIG_FILE)
    for name, dropout in (("usual.npz", 0.0), ("cut.npz", 0.5)):
        convert.export(tmp_path, config, tmp_path / name, data_path=corpus, versions=2, dropout=dropout)
    usual, _ = fit.read_ids(tmp_path / "usual.npz")
    cut, _ = fit.read_ids(tmp_path / "cut.npz")
    np.testing.assert_array_equal(cut["val_source"], usual["val_source"])
    np.testing.assert_array_equal(cut["val_target"], usual["val_target"])
    for side, vocabulary in (("source", pipeline.source_vocabulary), ("target", pipeline.target_vocabulary)):
        new, old = (ids[f"train_{side}"].reshape(-1, ids[f"train_{side}"].shape[-1]) for ids in (cut, usual))
        assert (new != old).any(axis=-1).mean() > 0.2  # many sentences cut otherwise
        assert [pieces_to_text(row, vocabulary) for row in new] == [pieces_to_text(row, vocabulary) for row in old]


def test_fit_keeps_the_mean_of_the_last_epochs(ids_run):
    root, _, summary = ids_run
    kept = selection.epoch_weights(root / "fitted", 10)
    assert [path.name for path in kept] == summary["averaged_epochs"] == ["epoch_002.weights.h5", "epoch_003.weights.h5"]
    fitted = np.load(root / "fitted" / fit.WEIGHTS_FILE)
    config = Config(**summary["config"])
    epochs = []
    for path in kept:
        transformer = Transformer(config)
        transformer.build()
        transformer.load_weights(str(path))
        epochs.append(transformer.get_weights())
    for i, layers in enumerate(zip(*epochs)):
        np.testing.assert_allclose(fitted[f"arr_{i}"], np.mean(layers, axis=0), rtol=1e-6)
    assert [row["epoch"] for row in summary["history"]] == [1, 2, 3]
    assert all("val_piece_bleu" in row and "val_loss" in row for row in summary["history"])
    # The steps' own time, without the validation and its score after them.
    assert all(0 < row["step_seconds"] < row["seconds"] for row in summary["history"])


def test_imported_weights_make_a_model_directory_that_translates(ids_run, tiny_model_dir, tmp_path):
    root, corpus, _ = ids_run
    output = convert.import_weights(root / "fitted", tiny_model_dir, tmp_path / "from-ids", data_path=corpus)
    model, _, config = model_dir.load(output)
    fitted = np.load(root / "fitted" / fit.WEIGHTS_FILE)
    for i, weight in enumerate(model.get_weights()):
        np.testing.assert_array_equal(weight, fitted[f"arr_{i}"])
    assert config.name == "from-ids"
    assert model_dir.read_metrics(output)["training"]["trained_on"].startswith("token ids")
    assert isinstance(Translator.load(output).translate(["Tom is here."])[0], str)


def test_a_config_for_other_vocabularies_is_refused(ids_run, tmp_path):
    root, _, _ = ids_run
    _, config = fit.read_ids(root / "ids.npz")
    with pytest.raises(ValueError, match="does not match the vocabulary"):
        fit.fit(root / "ids.npz", tmp_path, config.replace(target_vocab_size=config.target_vocab_size + 1))


def module_imports(name):
    """The modules `name` imports when it is imported (its top level, not inside functions)."""
    import ast
    import importlib.util

    tree = ast.parse(Path(importlib.util.find_spec(name).origin).read_text())
    for node in tree.body:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield node.module
            for alias in node.names:  # `from translator import masks` imports a module
                if importlib.util.find_spec(node.module).submodule_search_locations and alias.name != "*":
                    yield f"{node.module}.{alias.name}"


def test_the_fit_imports_nothing_that_needs_tensorflow():
    """`translator.training.ids.fit` and every project module it imports, followed through, import no TensorFlow
    (Keras picks its backend itself: JAX or PyTorch where TensorFlow is missing)."""
    seen, todo = set(), ["translator.training.ids.fit"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for imported in module_imports(name):
            assert imported.split(".")[0] not in ("tensorflow", "tensorflow_text"), f"{name} imports {imported}"
            if imported.split(".")[0] == "translator":
                todo.append(imported)
    assert {"translator.training.selection", "translator.text.pieces", "translator.model.transformer",
            "translator.model.recompute"} <= seen
