"""`selection.BleuCheckpoint` with a translate function of its own: what it scores, saves and keeps."""

import keras

from translator.training import selection


def test_checkpoint_scores_every_nth_epoch_and_keeps_the_latest_weights(tmp_path):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    translations = iter([["a b c x"], ["a b c d e"]])
    sources = []

    def translate(given_model, given_sources):
        assert given_model is model
        sources.append(given_sources)
        return next(translations)

    checkpoint = selection.BleuCheckpoint(
        None, None, [([5, 6], "a b c d e")], tmp_path, translate=translate, keep=2, every=2, tokenize="none",
        name="val_piece_bleu",
    )
    checkpoint.set_model(model)
    logs = [{} for _ in range(4)]
    for epoch, epoch_logs in enumerate(logs):
        checkpoint.on_epoch_end(epoch, epoch_logs)
    assert ["val_piece_bleu" in epoch_logs for epoch_logs in logs] == [False, True, False, True]
    assert 0 < logs[1]["val_piece_bleu"] < 99 < logs[3]["val_piece_bleu"] == checkpoint.best
    assert sources == [[[5, 6]], [[5, 6]]]
    assert [path.name for path in selection.epoch_weights(tmp_path, 10)] == [
        "epoch_003.weights.h5", "epoch_004.weights.h5"
    ]
    assert checkpoint.best_path == tmp_path / selection.BEST_FILE and checkpoint.best_path.is_file()
