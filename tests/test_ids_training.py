"""Training on token ids: the ids file, its batches, the fit and the way back to a model directory."""

import numpy as np
import pytest

from translator import ids_training, model_dir, selection, token_ids
from translator.config import Config, preset
from translator.model import Transformer
from translator.translator import Translator


def test_batches_hold_each_pair_once_an_epoch_and_move_to_the_next_version():
    rng = np.random.default_rng(0)
    lengths = rng.integers(1, 11, size=40)
    source = np.stack([np.where(np.arange(12) < n, 4 + version, 0) for version in (0, 1) for n in lengths])
    source = source.reshape(2, 40, 12)
    target = np.concatenate([np.full((2, 40, 1), 2), source, np.zeros((2, 40, 1), int)], axis=2)
    batches = ids_training.IdBatches(source, target, batch_size=3, seed=0)
    for version in (0, 1):
        seen = []
        for i in range(len(batches)):
            inputs, labels = batches[i]
            width = inputs["encoder_inputs"].shape[1]
            assert width % ids_training.WIDTH_STEP == 0 or width == 12
            assert (inputs["encoder_inputs"][:, 0] == 4 + version).all()  # this epoch's version
            np.testing.assert_array_equal(inputs["decoder_inputs"][:, 1:], labels[:, :-1])  # shifted by one
            seen += [tuple(row) for row in inputs["encoder_inputs"]]
        # Every pair at most once; only incomplete batches (fewer than 3 of one width) left out.
        widths = -(-lengths // ids_training.WIDTH_STEP)
        assert len(seen) == sum(count // 3 * 3 for count in np.unique(widths, return_counts=True)[1])
        batches.on_epoch_end()


def test_pieces_to_text_joins_continuations_and_stops_at_end():
    vocabulary = ["", "[UNK]", "[start]", "[end]", "ha", "##blo", "es", "##pañol", "."]
    assert ids_training.pieces_to_text([2, 4, 5, 6, 7, 8, 3, 4, 0], vocabulary) == "hablo español ."


@pytest.fixture(scope="module")
def ids_run(tiny_model_dir, pairs, tmp_path_factory):
    """An ids file exported with the tiny model's vocabularies and a fit of 3 epochs on it."""
    root = tmp_path_factory.mktemp("ids")
    corpus = root / "pairs.tsv"
    corpus.write_text("".join(f"{english}\t{spanish}\n" for english, spanish in pairs * 3), encoding="utf-8")
    config = preset("tiny", epochs=3, batch_size=4, average_last=2, copy_augmentation=0.5, learning_rate=1e-2)
    token_ids.export(tiny_model_dir, config, root / "ids.npz", data_path=corpus, versions=2)
    summary = ids_training.fit(root / "ids.npz", root / "fitted", bleu_sentences=4)
    return root, corpus, summary


def test_export_writes_versions_with_the_vocabularies_of_the_model(ids_run, tiny_model_dir):
    root, _, _ = ids_run
    arrays, config = ids_training.read_ids(root / "ids.npz")
    vocabulary_config = Config.from_json(tiny_model_dir / model_dir.CONFIG_FILE)
    assert config.target_vocab_size == vocabulary_config.target_vocab_size
    assert arrays["train_source"].shape[0] == 2 and arrays["train_target"].shape[2] == config.sequence_length + 1
    assert len(arrays["vocabulary"]) == config.target_vocab_size


def test_fit_keeps_the_mean_of_the_last_epochs(ids_run):
    root, _, summary = ids_run
    kept = selection.epoch_weights(root / "fitted", 10)
    assert [path.name for path in kept] == summary["averaged_epochs"] == ["epoch_002.weights.h5", "epoch_003.weights.h5"]
    fitted = np.load(root / "fitted" / ids_training.WEIGHTS_FILE)
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


def test_imported_weights_make_a_model_directory_that_translates(ids_run, tiny_model_dir, tmp_path):
    root, corpus, _ = ids_run
    output = token_ids.import_weights(root / "fitted", tiny_model_dir, tmp_path / "from-ids", data_path=corpus)
    model, _, config = model_dir.load(output)
    fitted = np.load(root / "fitted" / ids_training.WEIGHTS_FILE)
    for i, weight in enumerate(model.get_weights()):
        np.testing.assert_array_equal(weight, fitted[f"arr_{i}"])
    assert config.name == "from-ids"
    assert model_dir.read_metrics(output)["training"]["trained_on"].startswith("token ids")
    assert isinstance(Translator.load(output).translate(["Tom is here."])[0], str)


def test_a_config_for_other_vocabularies_is_refused(ids_run, tmp_path):
    root, _, _ = ids_run
    _, config = ids_training.read_ids(root / "ids.npz")
    with pytest.raises(ValueError, match="does not match the vocabulary"):
        ids_training.fit(root / "ids.npz", tmp_path, config.replace(target_vocab_size=config.target_vocab_size + 1))
