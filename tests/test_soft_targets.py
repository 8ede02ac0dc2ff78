"""Word-level distillation: the teacher's likeliest pieces, carried beside the labels, and the loss that learns them."""

import math

import numpy as np
import pytest
from keras import ops

from translator import batches, model_dir, soft_targets, train
from translator.errors import UsageError
from translator.losses import MaskedAccuracy, MaskedCrossEntropy


@pytest.fixture(scope="module")
def taught(tiny_model_dir, pairs):
    model, pipeline, config = model_dir.load(tiny_model_dir)
    source, target = batches.vectorize(pipeline, pairs)
    return model, source, target


def test_the_teachers_top_pieces_are_their_likeliest_teacher_forced(taught):
    model, source, target = taught
    ids, probs = soft_targets.teacher_top_k([model], source, target, k=3, batch_size=7)
    assert ids.shape == probs.shape == (len(source), target.shape[1] - 1, 3)
    lengths = np.count_nonzero(target, axis=1) - 1
    real = np.arange(ids.shape[1])[None, :] < lengths[:, None]
    np.testing.assert_allclose(probs.sum(axis=-1)[real], 1.0, rtol=1e-5)
    assert (ids[~real] == 0).all() and (probs[~real] == 0).all()
    assert (np.diff(probs[real], axis=-1) <= 0).all()  # likeliest first
    # Each pair alone, padded to the longest: the same pieces as in batches of pairs of like length.
    for row in (0, len(source) // 2, len(source) - 1):
        logits = model({"encoder_inputs": source[row:row + 1], "decoder_inputs": target[row:row + 1, :-1]})
        best = np.argsort(-ops.convert_to_numpy(logits)[0], axis=-1, kind="stable")[:, :3]
        np.testing.assert_array_equal(ids[row, :lengths[row]], best[:lengths[row]])


def test_two_teachers_are_their_mixture(taught, tiny_model_dir):
    model, source, target = taught
    other = model_dir.load(tiny_model_dir)[0]
    other.set_weights([weight * 0.5 for weight in model.get_weights()])
    inputs = {"encoder_inputs": source[:4], "decoder_inputs": target[:4, :-1]}
    mixture = (ops.convert_to_numpy(ops.softmax(model(inputs))) + ops.convert_to_numpy(ops.softmax(other(inputs)))) / 2
    # Every piece: renormalised over them all, the top pieces' probabilities are the mixture's own.
    ids, probs = soft_targets.teacher_top_k([model, other], source[:4], target[:4], k=mixture.shape[-1])
    real = np.arange(ids.shape[1])[None, :] < (np.count_nonzero(target[:4], axis=1) - 1)[:, None]
    found = np.take_along_axis(mixture[:, :ids.shape[1]], ids, axis=-1)
    np.testing.assert_allclose(probs[real], found[real], rtol=1e-4, atol=1e-6)


def test_a_teacher_of_other_vocabularies_is_refused(tiny_model_dir, tmp_path):
    model, pipeline, config = model_dir.load(tiny_model_dir)
    with pytest.raises(UsageError, match="must share them"):
        train.load_teachers([tiny_model_dir], pipeline, config.replace(sequence_length=config.sequence_length + 1))
    assert len(train.load_teachers([tiny_model_dir], pipeline, config)) == 1


def test_the_batches_carry_each_pairs_own_soft_targets(taught):
    model, source, target = taught
    ids, probs = soft_targets.teacher_top_k([model], source, target, k=2)
    made = list(batches.make_dataset(source, target, 8, shuffle=True, seed=1,
                                     soft=soft_targets.labels_for(ids, probs)))
    plain = {tuple(s[s > 0]): (t, i, p) for s, t, i, p in zip(source, target, ids, probs)}
    seen = 0
    for inputs, labels in made:
        label, batch_ids, batch_probs = (ops.convert_to_numpy(part) for part in soft_targets.split(labels))
        assert labels.shape[-1] == 1 + 2 * 2
        for row, encoder_inputs in enumerate(inputs["encoder_inputs"].numpy()):
            t, i, p = plain[tuple(encoder_inputs[encoder_inputs > 0])]
            width = np.count_nonzero(t) - 1
            np.testing.assert_array_equal(label[row, :width], t[1:width + 1])
            np.testing.assert_array_equal(batch_ids[row, :width], i[:width])
            np.testing.assert_array_equal(batch_probs[row, :width], p[:width])
            assert (label[row, width:] == 0).all()
            seen += 1
    assert seen == len(source)


def test_the_loss_mixes_the_label_and_the_teacher():
    logits = ops.convert_to_tensor([[[0.0, 1.0, 2.0, 3.0], [3.0, 0.0, 0.0, 0.0]]])
    label = [[3.0, 0.0]]  # the second position is padding
    teacher_ids, teacher_probs = [[[3.0, 2.0], [1.0, 2.0]]], [[[0.75, 0.25], [0.5, 0.5]]]
    labels = ops.concatenate([ops.convert_to_tensor(label)[..., None], ops.convert_to_tensor(teacher_ids),
                              ops.convert_to_tensor(teacher_probs)], axis=-1)
    log_q = np.log(np.exp([0.0, 1.0, 2.0, 3.0]) / np.exp([0.0, 1.0, 2.0, 3.0]).sum())
    hard, soft = -log_q[3], -(0.75 * log_q[3] + 0.25 * log_q[2])
    assert float(MaskedCrossEntropy()(labels, logits)) == pytest.approx(hard, rel=1e-5)
    assert float(MaskedCrossEntropy(soft_weight=1.0)(labels, logits)) == pytest.approx(soft, rel=1e-5)
    assert float(MaskedCrossEntropy(soft_weight=0.25)(labels, logits)) == pytest.approx(0.75 * hard + 0.25 * soft,
                                                                                         rel=1e-5)
    # Plain labels (validation) are scored against the label alone, whatever the weight.
    plain = ops.convert_to_tensor(label)
    assert float(MaskedCrossEntropy(soft_weight=1.0)(plain, logits)) == pytest.approx(hard, rel=1e-5)
    accuracy = MaskedAccuracy()
    accuracy.update_state(labels, logits)
    assert float(accuracy.result()) == 1.0
    assert math.isclose(float(MaskedCrossEntropy(soft_weight=0.5).get_config()["soft_weight"]), 0.5)
