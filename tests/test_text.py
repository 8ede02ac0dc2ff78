import numpy as np
import pytest
import tensorflow as tf

from translator.config import preset
from translator.text.pipeline import TextPipeline, attach_punctuation, standardize
from translator.tokens import END, START, UNK_ID

ROUND_TRIP = ["¿Qué hora es?", "¡Hola, Tom!", "Él no está aquí.", "María vive en España."]


@pytest.fixture(scope="module", params=["word", "wordpiece"])
def pipeline(request, pairs):
    english, spanish = zip(*pairs)
    return TextPipeline.adapt(preset("tiny", tokenizer=request.param, vocab_size=400), english, spanish)


def decode(strings):
    return [s.decode("utf-8") for s in strings.numpy()]


def test_standardize_keeps_accents_and_splits_spanish_punctuation():
    assert decode(standardize(tf.constant(["¿Qué HORA es?", "¡Hola,Tom!", "  Él\u0007 está  aquí. "]))) == [
        "¿ qué hora es ?",
        "¡ hola , tom !",
        "él está aquí .",
    ]


def test_standardize_applies_nfc():
    assert decode(standardize(tf.constant(["Que\u0301"]))) == ["qué"]


@pytest.mark.parametrize("sentence", ROUND_TRIP)
def test_round_trip_through_tokens(pipeline, sentence):
    ids = pipeline.target(tf.constant([sentence]))
    assert not (ids.numpy() == 1).any(), "the fixture vocabulary covers these words"
    assert decode(pipeline.detokenize(ids)) == [sentence]


def test_start_and_end_sit_where_the_decoder_expects_them(pipeline):
    ids = pipeline.target(tf.constant(["¿Qué hora es?"])).numpy()[0]
    tokens = [pipeline.target_vocabulary[i] for i in ids if i]
    assert ids.shape == (pipeline.sequence_length + 1,)
    assert tokens[0] == START and tokens[-1] == END
    assert tokens.count(START) == tokens.count(END) == 1
    source = pipeline.source(tf.constant(["What time is it?"])).numpy()[0]
    assert source.shape == (pipeline.sequence_length,)
    assert START not in [pipeline.source_vocabulary[i] for i in source]


def test_detokenize_never_shows_special_tokens(pipeline):
    vocabulary = pipeline.target_vocabulary
    start, end, unk = vocabulary.index(START), vocabulary.index(END), 1
    word = vocabulary.index("gatos") if "gatos" in vocabulary else 10
    ids = tf.constant([[start, unk, word, end, word, 0], [word, unk, 0, 0, 0, 0], [end, word, 0, 0, 0, 0]])
    out = decode(pipeline.detokenize(ids))
    for text in out:
        for special in (START, END, "[UNK]"):
            assert special not in text
    assert out[2] == ""
    copied = decode(pipeline.detokenize(ids[:2], unk_words=tf.fill([2, 6], "Kaoru")))
    assert all("Kaoru" in text for text in copied)


def test_sentences_are_capitalised_and_punctuation_attached():
    assert decode(attach_punctuation(tf.constant(["¿ dónde está ? « sí » , 7 : 30 e - mail"]))) == [
        "¿dónde está? «sí», 7:30 e-mail"
    ]
    # Quotation marks in pairs; one that ends the text, unpaired, closes a quotation.
    assert decode(attach_punctuation(tf.constant(['dijo " sí " .', "' ya es tarde . \"", 'dijo " no . "']))) == [
        'dijo "sí".', "' ya es tarde.\"", 'dijo "no."'
    ]


def test_save_and_load_give_the_same_ids(pipeline, tmp_path):
    pipeline.save(tmp_path)
    loaded = TextPipeline.load(tmp_path, preset("tiny", tokenizer=pipeline.kind))
    texts = tf.constant(ROUND_TRIP)
    np.testing.assert_array_equal(loaded.target(texts), pipeline.target(texts))
    np.testing.assert_array_equal(loaded.source(tf.constant(["Tom is here."])), pipeline.source(tf.constant(["Tom is here."])))
    assert loaded.truecase == pipeline.truecase and loaded.truecase["tom"] == "Tom"


def test_source_words_align_with_source_ids_and_hide_noise(pipeline):
    texts = tf.constant(["Kaoru likes 😀 cats!"])
    words = decode(pipeline.source_words(texts)[0])
    ids = pipeline.source(texts).numpy()[0]
    assert len(words) == len(ids)
    assert words[0] == "Kaoru"
    assert "😀" not in words
    assert all(word == "" for word, i in zip(words, ids) if i == 0)


def test_unknown_words_are_copied_from_the_attended_source_position(pipeline):
    texts = tf.constant(["Kaoru likes 😀 cats!"] * 2)
    words = decode(pipeline.source_words(texts)[0])
    ids = pipeline.source(texts).numpy()[0]
    kaoru = words.index("Kaoru")
    emoji = next(i for i, (word, id_) in enumerate(zip(words, ids)) if id_ == UNK_ID and not word)
    # "[UNK] [end]": the first sentence's [UNK] looked at "Kaoru", the second's at the emoji.
    output = tf.constant([[UNK_ID, pipeline.target_vocabulary.index(END)]] * 2)
    attended = tf.constant([[kaoru, 0], [emoji, 0]])
    assert decode(pipeline.detokenize_copying(texts, output, attended)) == ["Kaoru", ""]
