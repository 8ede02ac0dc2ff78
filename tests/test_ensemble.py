"""An ensemble: the cached loops choose from the mean of its models' probabilities, as the reference decoders
do step by step; the command line takes models that read text alike, and refuses others."""

import shutil

import numpy as np
import pytest
import tensorflow as tf
from keras import ops

from translator import cli, model_dir
from translator.model.decoding import beam_decode, decoding_graph, greedy_decode
from translator.model.ensemble import Ensemble, mean_log_probs
from translator.model.recompute import recompute_beam, recompute_greedy
from translator.translate import Translator

# Each weight moved by this many of its tensor's standard deviations: the models translate 3 to 5 of the 6
# sentences otherwise than their ensemble.
NOISE = 0.5


@pytest.fixture(scope="module")
def ensemble(tiny_model_dir):
    """Two copies of the tiny model, every weight moved by other noise: models that translate otherwise."""
    models = []
    for seed in (0, 1):
        model, rng = model_dir.load(tiny_model_dir)[0], np.random.default_rng(seed)
        model.set_weights([w + rng.normal(0, NOISE * (w.std() or 0.1), w.shape).astype(w.dtype)
                           for w in model.get_weights()])
        models.append(model)
    return Ensemble(models)


def test_the_mean_of_probabilities_is_their_log():
    logits = [ops.convert_to_tensor([[0.0, 1.0, 2.0]]), ops.convert_to_tensor([[3.0, 0.0, 0.0]])]
    probabilities = [np.exp(x) / np.exp(x).sum() for x in ([0.0, 1.0, 2.0], [3.0, 0.0, 0.0])]
    expected = np.log((probabilities[0] + probabilities[1]) / 2)
    np.testing.assert_allclose(ops.convert_to_numpy(mean_log_probs(logits))[0], expected, rtol=1e-5)


def test_an_ensemble_decodes_as_the_reference_decoders_with_the_mean_probabilities(tiny_translator, ensemble, sentences):
    pipeline, length = tiny_translator.pipeline, tiny_translator.max_length
    ids = tf.cast(pipeline.source(tf.constant(sentences)), tf.int32)
    naive = recompute_greedy(ensemble, ids, length, pipeline.start_id, pipeline.end_id)
    alone = [recompute_greedy(model, ids, length, pipeline.start_id, pipeline.end_id) for model in ensemble.members]
    assert all((naive != tokens).any() for tokens in alone), "the ensemble translates otherwise than each model"
    for compact in (True, False):  # rows leaving as they end, and every row to the end (XLA's loop)
        cached, _ = greedy_decode(ensemble, ids, pipeline.start_id, pipeline.end_id, length, compact=compact)
        np.testing.assert_array_equal(ops.convert_to_numpy(cached), naive)
    naive = recompute_beam(ensemble, ids, length, pipeline.start_id, pipeline.end_id, 3)
    cached, _ = beam_decode(ensemble, ids, pipeline.start_id, pipeline.end_id, length, beam_size=3)
    np.testing.assert_array_equal(ops.convert_to_numpy(cached), naive)
    graph = decoding_graph(ensemble, pipeline.start_id, pipeline.end_id, length, 3, jit_compile=True)
    np.testing.assert_array_equal(graph(ids)[0].numpy(), naive)


def test_the_command_line_decodes_an_ensemble_of_models_that_read_text_alike(tiny_model_dir, tmp_path, capsys):
    assert Translator.load(tiny_model_dir, ensemble=[tiny_model_dir]).translate("Tom is here.", 2) == "Tom está aquí."
    assert cli.main(["translate", "--model", str(tiny_model_dir), "--ensemble", str(tiny_model_dir), "--beam", "2",
                     "Tom is here."]) == 0
    assert capsys.readouterr().out == "Tom está aquí.\n"
    other = tmp_path / "other"
    shutil.copytree(tiny_model_dir, other)
    vocabulary = (other / "vocab_en.txt").read_text(encoding="utf-8").splitlines()
    (other / "vocab_en.txt").write_text("\n".join(vocabulary[::-1]) + "\n", encoding="utf-8")
    assert cli.main(["translate", "--model", str(tiny_model_dir), "--ensemble", str(other), "Tom is here."]) == 2
    assert capsys.readouterr().err.strip() == (
        f"translator translate: {other} has other vocabularies or sequence length than {tiny_model_dir}: "
        "an ensemble's models must share them (train one --from the other)")
