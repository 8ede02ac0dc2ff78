"""Names and numbers swapped for stand-ins before decoding and back after."""

from pathlib import Path

import pytest

from translator import verbatim
from translator.defaults import DEFAULT_MODEL
from translator.translator import Translator

# Word counts of a training corpus: "wipe" is rare but a word, "Angela" a name seen too seldom.
COUNTS = {**dict.fromkeys(["Tom", "John", "the", "has", "cats", "is", "in", "lives", "where", "and"], 9),
          "wipe": 1, "Angela": 2, "Africa": 7}


@pytest.mark.parametrize("text, protected, meanings", [
    ("Olusegun lives in Tegucigalpa.", "John lives in Mary.", {"John": "Olusegun", "Mary": "Tegucigalpa"}),
    ("Where is Tom?", "Where is Tom?", {}),  # well-known words, capitalised or not, stay
    ("The cats", "The cats", {}),  # a capitalised first word that the vocabulary knows in lower case
    ("Tom has 3 cats and 1999 dogs", "Tom has 3 cats and 45 dogs", {"45": "1999"}),  # one digit stays
    ("John and Olusegun", "John and Mary", {"Mary": "Olusegun"}),  # a stand-in in the text is not used
    ("Has 45 cats and 12", "Has 37 cats and 15", {"37": "45", "15": "12"}),
    ("olusegun, zzz", "olusegun, zzz", {}),  # lower-case unknown words are the model's to translate
    ("Wipe the cats, Angela.", "Wipe the cats, John.", {"John": "Angela"}),  # "wipe" is a word, not a name
    ("Angela is in Africa.", "John is in Africa.", {"John": "Angela"}),  # a name seen often is the model's
])
def test_rare_names_and_long_numbers_get_stand_ins_the_text_does_not_hold(text, protected, meanings):
    assert placeholders.protect(text, COUNTS) == (protected, meanings)


def test_names_beyond_the_stand_ins_are_left_as_written():
    names = "Aa Bb Cc Dd Ee Ff"
    protected, meanings = placeholders.protect(names, COUNTS)
    assert protected == " ".join(placeholders.NAME_STAND_INS) + " Ff"
    assert placeholders.restore(protected, meanings) == names


@pytest.mark.parametrize("translation", ["Tiene gatos.", "John y John tienen 45 gatos.", "Mary tiene 45 gatos."])
def test_a_translation_that_lost_or_repeated_a_stand_in_is_refused(translation):
    assert placeholders.restore(translation, {"John": "Olusegun", "45": "250"}) is None


def test_a_sentence_whose_stand_in_is_lost_is_translated_as_written(tiny_translator, monkeypatch):
    decoded = []

    def drop_john(texts, beam_size=1):  # a model that loses every "John"
        decoded.append(list(texts))
        return [text.replace("John", "").strip() for text in texts]

    monkeypatch.setattr(tiny_translator, "decode_as_written", drop_john)
    monkeypatch.setattr(tiny_translator, "word_counts", dict.fromkeys(["is", "here", "has", "cats"], 9))
    out = tiny_translator.decode_batch(["Olusegun is here.", "Nobody has 250 cats."])
    assert decoded == [["John is here.", "John has 45 cats."], ["Olusegun is here.", "Nobody has 250 cats."]]
    assert out == ["Olusegun is here.", "Nobody has 250 cats."]


@pytest.mark.skipif(not (Path(DEFAULT_MODEL) / "model.keras").is_file(), reason="no shipped model")
def test_the_shipped_model_keeps_names_and_numbers_it_never_saw():
    translator = Translator.load(DEFAULT_MODEL, jit_compile=False)
    sentences = ["Olusegun lives in Tegucigalpa.", "Wojciech has 250 cats.", "My friend Leilani was born in 1999."]
    words = [["Olusegun", "Tegucigalpa"], ["Wojciech", "250"], ["Leilani", "1999"]]
    for translation, expected in zip(translator.translate(sentences, beam_size=4), words, strict=True):
        assert all(word in translation for word in expected), translation
    plain = Translator.load(DEFAULT_MODEL, jit_compile=False, placeholders=False)
    assert "Olusegun" not in plain.translate("Olusegun lives in Tegucigalpa.", beam_size=4)
