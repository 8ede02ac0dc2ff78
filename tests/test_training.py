import json
import subprocess
import sys
import textwrap

import keras
import numpy as np
import pytest
from keras import ops

from translator import model_dir
from translator.config import preset, warm_start_config
from translator.errors import UsageError
from translator.model.transformer import Transformer
from translator.text.pieces import pieces_to_text
from translator.text.pipeline import TextPipeline
from translator.training import batches, optimizer, train, training_model
from translator.training.losses import MaskedAccuracy, MaskedCrossEntropy
from translator.training.training_model import compiled_model


def test_loss_and_accuracy_ignore_padding():
    labels = ops.convert_to_tensor([[3, 0, 0]])
    right_then_garbage = ops.convert_to_tensor([[[0, 0, 0, 9.0], [9.0, 0, 0, 0], [0, 9.0, 0, 0]]])
    loss = MaskedCrossEntropy()(labels, right_then_garbage)
    assert float(loss) < 0.01
    accuracy = MaskedAccuracy()
    accuracy.update_state(labels, right_then_garbage)
    assert float(accuracy.result()) == 1.0
    smoothed = MaskedCrossEntropy(label_smoothing=0.1)(labels, right_then_garbage)
    assert float(smoothed) > float(loss)


def test_warmup_then_inverse_square_root():
    schedule = optimizer.WarmupInverseSqrt(1e-3, warmup_steps=100)
    rates = [float(schedule(step)) for step in (0, 49, 99, 399)]
    assert rates[0] < rates[1] < rates[2] == pytest.approx(1e-3)
    assert rates[3] == pytest.approx(5e-4, rel=0.01)


@pytest.mark.parametrize("device, native, asked, policy", [
    ("CPU", True, None, "mixed_bfloat16"),  # a CPU that multiplies bfloat16 in hardware
    ("CPU", False, None, "float32"),  # one that would emulate it
    ("CPU", False, True, "mixed_bfloat16"),  # asked for: never float16, which a CPU emulates
    ("GPU", False, None, "mixed_float16"),
    ("TPU", False, None, "mixed_bfloat16"),
    ("GPU", True, False, "float32"),
])
def test_mixed_precision_is_the_kind_the_device_computes_fast(monkeypatch, device, native, asked, policy):
    monkeypatch.setattr(training_model, "native_bfloat16", lambda: native)
    previous = keras.config.dtype_policy()
    keras.config.set_dtype_policy("mixed_float16")  # a policy set before, by anyone: it does not decide, and comes back
    try:
        with training_model.precision(preset("tiny", mixed_precision=asked), device) as (mixed, _):
            assert keras.config.dtype_policy().name == policy and mixed == (policy != "float32")
        assert keras.config.dtype_policy().name == "mixed_float16"
    finally:
        keras.config.set_dtype_policy(previous)


def test_batches_are_bucketed_and_shifted_for_teacher_forcing(pairs):
    english, spanish = zip(*pairs)
    pipeline = TextPipeline.adapt(preset("tiny"), english, spanish)
    source, target = batches.vectorize(pipeline, pairs)
    made = list(batches.make_dataset(source, target, batch_size=8))
    padding_share = []
    for inputs, labels in made:
        decoder_inputs = inputs["decoder_inputs"].numpy()
        assert (decoder_inputs[:, 0] == pipeline.start_id).all()
        np.testing.assert_array_equal(decoder_inputs[:, 1:], labels.numpy()[:, :-1])
        padding_share.append((inputs["encoder_inputs"].numpy() == 0).mean())
    # Padded to each batch's longest sentence, not to the sequence length.
    assert np.mean(padding_share) < 0.5
    assert sum(len(labels) for _, labels in made) == len(pairs)


def test_piece_dropout_cuts_the_training_words_anew_every_epoch(pairs):
    config = preset("tiny", tokenizer="wordpiece", vocab_size=120, shared_vocabulary=True, lowercase=False,
                    sequence_length=40, batch_size=8)
    english, spanish = zip(*pairs)
    pipeline = TextPipeline.adapt(config, english, spanish)  # pieces, where the tiny preset has words
    splits = {"train": pairs, "val": pairs[:16]}

    def epochs(dataset, count):
        """Each epoch's (source text, source pieces, target text, target pieces), in the order they came."""
        def rows(inputs, labels):
            for source, target in zip(inputs["encoder_inputs"].numpy(), labels.numpy()):
                yield (pieces_to_text(source, pipeline.source_vocabulary), tuple(source[source > 0]),
                       pieces_to_text(target, pipeline.target_vocabulary), tuple(target[target > 0]))
        return [sorted(row for batch in dataset for row in rows(*batch)) for _ in range(count)]

    usual_train, usual_val = batches.training_batches(pipeline, splits, config)
    cut_train, cut_val = batches.training_batches(pipeline, splits, config.replace(piece_dropout=0.5))
    [usual] = epochs(usual_train, 1)
    first, second = epochs(cut_train, 2)
    # The same sentences every epoch, spelt in other pieces, and not twice alike.
    for epoch in (first, second):
        assert sorted((source, target) for source, _, target, _ in epoch) == [(s, t) for s, _, t, _ in usual]
    pieces = [{(row[1], row[3]) for row in epoch} for epoch in (usual, first, second)]
    assert len(pieces[1] - pieces[0]) > len(pairs) / 4 and len(pieces[2] - pieces[1]) > len(pairs) / 4
    assert epochs(cut_val, 1) == epochs(usual_val, 1)  # validation keeps the usual cut


def test_piece_dropout_is_a_probability():
    with pytest.raises(UsageError, match="piece_dropout"):
        preset("tiny", piece_dropout=1.0)


def test_tiny_model_overfits_twenty_pairs(pairs):
    twenty = pairs[:20]
    config = preset("tiny", learning_rate=1e-2)
    english, spanish = zip(*twenty)
    pipeline = TextPipeline.adapt(config, english, spanish)
    config = config.replace(
        source_vocab_size=len(pipeline.source_vocabulary), target_vocab_size=len(pipeline.target_vocabulary)
    )
    dataset = batches.make_dataset(*batches.vectorize(pipeline, twenty), batch_size=20).cache()
    keras.utils.set_random_seed(0)
    model = compiled_model(config, jit_compile=False)  # as `translator train` compiles it
    traces, step = [], model.train_step

    def train_step(data):  # Python runs only while TensorFlow traces the step
        traces.append(data)
        return step(data)

    model.train_step = train_step
    model.fit(dataset, epochs=150, verbose=0)
    assert model.evaluate(dataset, verbose=0, return_dict=True)["accuracy"] == 1.0
    # Traced once: a first step that made the optimizer's variables would be traced twice, seconds each time.
    assert len(traces) == 1


class StopAfterFirstEpoch(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        raise KeyboardInterrupt  # as if the machine went away after epoch 1


def test_interrupted_run_resumes_and_finishes(pairs, tmp_path):
    splits = {"train": pairs, "val": pairs[:8]}
    config = preset("tiny", epochs=3, name="resume")
    with pytest.raises(KeyboardInterrupt):
        train.train(config, output_dir=tmp_path / "models", runs_dir=tmp_path / "runs", splits=splits,
                    callbacks=[StopAfterFirstEpoch()])
    assert not (tmp_path / "models" / "resume").exists()
    output = train.train(config, output_dir=tmp_path / "models", runs_dir=tmp_path / "runs", splits=splits)
    history = model_dir.read_metrics(output)["training"]["history"]
    assert [row["epoch"] for row in history] == [0, 1, 2]


def test_model_directory_is_complete_and_loads(tiny_model_dir):
    names = ("model.keras", "config.json", "vocab_en.txt", "vocab_es.txt", "truecase.tsv", "words_en.txt", "words_es.txt",
             "shortlist.tsv", "names.tsv", "metrics.json")
    for name in names:
        assert (tiny_model_dir / name).is_file(), name
    model, pipeline, config = model_dir.load(tiny_model_dir)
    assert isinstance(model, Transformer) and config.name == "tiny"
    metrics = json.loads((tiny_model_dir / "metrics.json").read_text())["training"]
    assert metrics["epochs"] >= 1 and metrics["machine"]["cpu_count"] >= 1
    assert metrics["history"][-1]["accuracy"] > 0.5


def test_training_runs_under_mirrored_strategy_on_two_logical_cpus(tmp_path, pairs):
    script = textwrap.dedent(
        f"""
        import tensorflow as tf
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        from translator.training import train
        from translator.config import preset
        pairs = {pairs!r}
        strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
        assert strategy.num_replicas_in_sync == 2
        train.train(preset("tiny", epochs=1, name="mirrored"), output_dir={str(tmp_path)!r},
                    runs_dir={str(tmp_path / "runs")!r}, splits={{"train": pairs, "val": pairs[:8]}},
                    strategy=strategy)
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    metrics = model_dir.read_metrics(tmp_path / "mirrored")["training"]
    assert metrics["machine"]["replicas"] == 2


def test_a_finished_run_run_again_writes_its_model_without_training_again(pairs, tmp_path, caplog):
    splits = {"train": pairs, "val": pairs[:8]}
    config = preset("tiny", epochs=2, name="done")
    kwargs = dict(output_dir=tmp_path / "models", runs_dir=tmp_path / "runs", splits=splits)
    output = train.train(config, **kwargs)
    first = model_dir.read_metrics(output)["training"]["history"]
    with pytest.raises(model_dir.ModelDirError, match="already holds a model"):
        train.train(config, **kwargs)
    with caplog.at_level("INFO", logger="translator.training.run_state"):
        train.train(config, overwrite=True, **kwargs)
    assert "finished after 2 epochs" in caplog.text
    assert model_dir.read_metrics(output)["training"]["history"] == first


class RecordStartingWeights(keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        self.weights = self.model.get_weights()


def test_training_from_a_model_starts_from_its_weights_and_vocabularies(tiny_model_dir, pairs, tmp_path):
    config = warm_start_config(tiny_model_dir, name="longer", epochs=1, learning_rate=1e-3)
    recorder = RecordStartingWeights()
    output = train.train(config, output_dir=tmp_path, runs_dir=tmp_path / "runs",
                         splits={"train": pairs, "val": pairs[:8]}, callbacks=[recorder], start_from=tiny_model_dir)
    start, _, _ = model_dir.load(tiny_model_dir)
    for started, saved in zip(recorder.weights, start.get_weights(), strict=True):
        np.testing.assert_array_equal(started, saved)
    for name in ("vocab_en.txt", "vocab_es.txt", "truecase.tsv"):
        assert (output / name).read_text() == (tiny_model_dir / name).read_text()
    assert model_dir.read_metrics(output)["training"]["started_from"]["model"] == str(tiny_model_dir)


def test_training_from_a_model_keeps_its_architecture(tiny_model_dir, tmp_path):
    with pytest.raises(ValueError, match="embed_dim"):
        warm_start_config(tiny_model_dir, embed_dim=64)
    with pytest.raises(model_dir.ModelDirError, match="no trained model"):
        warm_start_config(tmp_path)
