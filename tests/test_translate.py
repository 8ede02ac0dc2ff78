"""`Translator`: text in and out, batching, long and bad input, copying, attention, XLA."""

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

import keras
import numpy as np
import pytest
import tensorflow as tf

from translator.config import preset
from translator.model import decoding
from translator.model.decoding import LENGTH_BUCKET
from translator.model.transformer import Transformer
from translator.text.pipeline import TextPipeline
from translator.tokens import END, START, UNK
from translator.translate import Translator

NOISE = [
    "",
    "   \t ",
    "東京は大きいです。",
    "Привет, как дела?",
    "I like cats 😀🐈",
    "Tom\x00 is\x07 here\x1b.",
    "<b>Tom</b> is <i>here</i>.",
    "Tom " * 2500,
    "x" * 10000,
]


def source_ids(translator, texts):
    return tf.cast(translator.pipeline.source(tf.constant(texts)), tf.int32)


def test_the_model_learned_the_fixture(tiny_translator):
    assert tiny_translator.translate("Tom is here.") == "Tom está aquí."


def test_batch_equals_one_by_one(tiny_translator, sentences):
    batched = tiny_translator.translate(sentences)
    assert batched == [tiny_translator.translate(sentence) for sentence in sentences]
    # Two batches, the last one short.
    with mock.patch.object(tiny_translator, "decode_batch", wraps=tiny_translator.decode_batch) as decode:
        assert tiny_translator.translate(sentences, batch_size=4) == batched
    assert sorted(len(call.args[0]) for call in decode.call_args_list) == [2, 4]


def test_beam_size_is_checked(tiny_translator):
    with pytest.raises(ValueError, match="beam size"):
        tiny_translator.translate("Hi.", beam_size=0)


@pytest.mark.parametrize("text", NOISE, ids=lambda t: repr(t[:12]))
def test_bad_input_never_crashes_or_leaks_special_tokens(tiny_translator, text):
    out = tiny_translator.translate(text)
    assert isinstance(out, str)
    for special in (START, END, UNK):
        assert special not in out
    if not text.strip():
        assert out == ""


def test_long_text_is_split_at_sentences_with_a_warning_only_when_needed(tiny_translator, caplog):
    text = " ".join(["Tom is here."] * 10)
    out = tiny_translator.translate(text)
    assert out.count("Tom está aquí.") == 10
    assert not ours(caplog)
    tiny_translator.translate(["Tom " * 50, "Tom " * 60])
    assert [(record.levelname, record.getMessage()) for record in ours(caplog)] == [
        ("WARNING", "2 sentence(s) of more than the model's 12 tokens (up to 60): cut at their punctuation, else between words")
    ]


def test_a_sentence_longer_than_the_old_limit_goes_through_whole(pairs, caplog):
    # The old model read 24 pieces and cut longer sentences into fragments closed with full stops; the default
    # preset reads 128, and a sentence that fits is one piece, with nothing added.
    assert preset("default").sequence_length >= 128
    config = preset("tiny", sequence_length=64)
    english, spanish = zip(*pairs)
    pipeline = TextPipeline.adapt(config, english, spanish)
    config = config.replace(source_vocab_size=len(pipeline.source_vocabulary),
                            target_vocab_size=len(pipeline.target_vocabulary))
    model = Transformer(config)
    model.build()
    translator = Translator(model, pipeline, config, placeholders=False)
    sentence = "Tom and Mary are here, " + " and ".join(["I like cats"] * 9) + ", but where is the station?"
    assert 24 < translator.token_counts([sentence])[0] <= 64
    _, pieces, _ = translator.pieces([sentence])
    assert pieces == [sentence]
    translator.translate(sentence)
    assert not ours(caplog)


def test_a_long_sentence_is_never_cut_inside_a_span(tiny_translator):
    # Wherever the filler words put it, the date comes out in one piece, which its stand-in stands for.
    for filler in range(12):
        sentence = " ".join(["cat"] * filler + ["on", "March", "3,", "1998", "the", "cat", "sat"] + ["cat"] * 12) + "."
        _, pieces, _ = tiny_translator.pieces([sentence])
        assert len(pieces) > 1 and any("March 3, 1998" in piece for piece in pieces), pieces


def ours(caplog):
    """The records of this package's loggers (TensorFlow logs too, of its own accord)."""
    return [record for record in caplog.records if record.name.startswith("translator")]


def test_unknown_output_word_is_copied_from_the_attended_source_word(tiny_model_dir):
    translator = Translator.load(tiny_model_dir, placeholders=False)  # "Kaoru" reaches the model as written
    pipeline = translator.pipeline
    gato = pipeline.target_vocabulary.index("gato")

    def emit_unk(ids):
        # "[UNK] gato [end]", with the [UNK] attending source position 1.
        batch = tf.shape(ids)[0]
        row = tf.constant([[1, gato, pipeline.end_id] + [0] * (translator.max_length - 3)], tf.int32)
        return tf.tile(row, [batch, 1]), tf.ones([batch, translator.max_length], tf.int32)

    translator.ids_function = lambda beam_size=1, all_beams=False: emit_unk  # before the first translation traces the text graph
    assert translator.decode_batch(["My Kaoru cat.", "A 😀 cat."])[0] == [
        "Kaoru gato",
        "Gato",  # noise is never copied: the attended word is an unknown symbol
    ]


def test_attention_weights_are_a_distribution_over_source_tokens(tiny_translator):
    source, target, weights = tiny_translator.attention("Tom is here.")
    assert source == ["tom", "is", "here", "."]
    assert target[-1] == END
    assert weights.shape == (len(target), len(source))
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, atol=1e-5)


def test_threads_meeting_a_graph_first_make_and_trace_it_once(tiny_model_dir, sentences):
    translator = Translator.load(tiny_model_dir)
    made, warnings = [], []
    real = decoding.decoding_graph

    def slow_to_make(*args, **kwargs):
        made.append(kwargs["beam_size"])
        time.sleep(0.2)  # every thread reaches the graph while the first is still making it
        return real(*args, **kwargs)

    handler = type("Keep", (logging.Handler,), {"emit": lambda self, record: warnings.append(record.getMessage())})()
    tf.get_logger().addHandler(handler)
    start = threading.Barrier(6)
    try:
        with mock.patch.object(decoding, "decoding_graph", slow_to_make), ThreadPoolExecutor(6) as pool:
            list(pool.map(lambda sentence: (start.wait(), translator.translate(sentence, beam_size=4)), sentences[:6]))
    finally:
        tf.get_logger().removeHandler(handler)
    assert made == [4]
    assert [f.experimental_get_tracing_count() for f in translator._text_functions.values()] == [1]
    assert not [message for message in warnings if "retracing" in message]


def test_warm_up_prepares_every_shape(tiny_model_dir, tiny_translator):
    assert tiny_translator.warm_up() == 1  # without XLA one traced graph serves every shape
    compiled = Translator.load(tiny_model_dir, jit_compile=True)
    lengths = -(-compiled.max_length // LENGTH_BUCKET)
    assert compiled.warm_up(max_batch_size=3) == 3 * lengths  # rows 1, 2 and 4


def test_xla_decoding_equals_graph_decoding(tiny_model_dir, tiny_translator, sentences):
    compiled = Translator.load(tiny_model_dir, jit_compile=True)
    assert compiled.jit_compile and not tiny_translator.jit_compile  # auto is off on a CPU
    # Six sentences: XLA pads them to eight rows, and their lengths to a multiple of 8.
    ids = source_ids(tiny_translator, sentences)
    for beam in (1, 3):
        xla_tokens, xla_attended = compiled.ids_function(beam)(ids)
        tokens, attended = tiny_translator.ids_function(beam)(ids)
        np.testing.assert_array_equal(xla_tokens, tokens)
        np.testing.assert_array_equal(xla_attended, attended)
    # Every hypothesis, for re-ranking: the same under XLA, whose padded rows are cut off.
    for xla, graph in zip(compiled.ids_function(3, all_beams=True)(ids), tiny_translator.ids_function(3, all_beams=True)(ids)):
        np.testing.assert_allclose(xla, graph, atol=1e-4)
    assert compiled.translate(sentences + NOISE) == tiny_translator.translate(sentences + NOISE)


def test_bfloat16_decoding_computes_in_bfloat16_and_translates_alike(tiny_model_dir, tiny_translator, sentences):
    from translator.model.ensemble import Ensemble

    fast = Translator.load(tiny_model_dir, bfloat16=True)
    assert [layer.compute_dtype for layer in fast.model.decoder_layers] == ["bfloat16"] * len(fast.model.decoder_layers)
    assert fast.model.output_weights()[0].dtype == "float32", "the logits stay float32"
    np.testing.assert_array_equal(fast.model.output_weights()[0], tiny_translator.model.output_weights()[0])
    # Stored in bfloat16, so that no step casts them again; LayerNormalization's stay float32, as Keras keeps
    # them, and so does an untied output projection (this model's `logits`).
    for mine, theirs in zip(fast.model.weights, tiny_translator.model.weights):
        stored = "float32" if "norm" in mine.path or "logits" in mine.path else "bfloat16"
        assert mine.dtype == stored, mine.path
        np.testing.assert_array_equal(mine.numpy(), theirs.numpy().astype(stored))
    # The same numbers as the `mixed_bfloat16` policy, whose layers cast their float32 weights at every call.
    previous = keras.config.dtype_policy()
    keras.config.set_dtype_policy("mixed_bfloat16")
    try:
        mixed = Transformer(tiny_translator.model.spec)
        mixed.build()
    finally:
        keras.config.set_dtype_policy(previous)
    mixed.set_weights(tiny_translator.model.get_weights())
    mixed = Translator(mixed, tiny_translator.pipeline, tiny_translator.config)
    ids = source_ids(tiny_translator, sentences + NOISE)
    for beam in (1, 3):
        for mine, theirs in zip(fast.ids_function(beam, all_beams=beam > 1)(ids),
                                mixed.ids_function(beam, all_beams=beam > 1)(ids)):
            np.testing.assert_array_equal(mine, theirs)
    assert fast.translate(sentences, 3) == tiny_translator.translate(sentences, 3)
    assert fast.translate(sentences, 1) == tiny_translator.translate(sentences, 1)
    pair = Translator.load(tiny_model_dir, ensemble=[tiny_model_dir], bfloat16=True)
    assert isinstance(pair.model, Ensemble) and pair.model.members[1].decoder_layers[0].compute_dtype == "bfloat16"
    assert pair.translate(sentences, 3) == tiny_translator.translate(sentences, 3)


@pytest.mark.parametrize(("flags", "expected"), [("fpu avx2 avx512f avx512_bf16", True), ("fpu amx_bf16", True),
                                                 ("fpu avx2 avx512f", False), (None, False)])
def test_bfloat16_is_native_only_where_the_cpu_says_so(tmp_path, flags, expected):
    from translator.devices import native_bfloat16

    cpuinfo = tmp_path / "cpuinfo"
    if flags is not None:
        cpuinfo.write_text(f"processor\t: 0\nflags\t\t: {flags}\n\nprocessor\t: 1\nflags\t\t: {flags}\n")
    assert native_bfloat16(cpuinfo) is expected


def test_bfloat16_auto_is_off_under_xla_and_an_explicit_choice_stands(monkeypatch):
    from translator import devices

    monkeypatch.setattr(devices, "native_bfloat16", lambda: True)
    assert devices.bfloat16_decoding(None, jit_compile=False) is True  # this test's CPU is a CPU alone
    assert devices.bfloat16_decoding(None, jit_compile=True) is False
    assert devices.bfloat16_decoding(True, jit_compile=True) is True
    monkeypatch.setattr(devices, "native_bfloat16", lambda: False)
    assert devices.bfloat16_decoding(None, jit_compile=False) is False
    assert devices.bfloat16_decoding(True, jit_compile=False) is True


def test_a_bfloat16_copy_projects_with_the_float32_table_it_shares():
    from translator.config import preset
    from translator.model.transformer import in_bfloat16

    model = Transformer(preset("tiny", shared_vocabulary=True, tie_embeddings=True, lowercase=False,
                               source_vocab_size=50, target_vocab_size=50))
    model.build()
    copy = in_bfloat16(model)
    assert copy.shared_embedding.embeddings.dtype == "bfloat16"  # the table the tokens are embedded with
    kernel, bias = copy.output_weights([0, 7, 9])
    expected = model.output_weights([0, 7, 9])
    np.testing.assert_array_equal(kernel, expected[0])  # not rounded to bfloat16
    np.testing.assert_array_equal(bias, expected[1])
