"""The training mix: the further pairs read by path, weighed, kept apart from every evaluation set."""

import random

import pytest

from translator.config import preset
from translator.text import placeholders
from translator.training import augment, data, mix


def write_pairs(path, pairs):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{english}\t{spanish}\n" for english, spanish in pairs), encoding="utf-8")
    return path


@pytest.fixture
def folders(tmp_path, pairs):
    """A corpus of the shared pairs, and a folder of further pairs: two sources and a development set."""
    corpus = write_pairs(tmp_path / "corpus.tsv", pairs)
    more = tmp_path / "more"
    news = [(f"The council met on day {i} to talk.", f"El consejo se reunió el día {i} para hablar.") for i in range(400)]
    write_pairs(more / "train" / "news.tsv", news)
    write_pairs(more / "train" / "gimp-manual.tsv", [(f"Click button {i}.", f"Pulse el botón {i}.") for i in range(50)])
    write_pairs(more / mix.DEV_FILE, [("The council met on day 7 to talk.", "El consejo se reunió el día 7.")])
    return corpus, more


def load(folders, **weights):
    corpus, more = folders
    return mix.load(preset("tiny", mix=weights), data_path=corpus, more_path=more)


def test_the_further_pairs_are_read_by_path_or_environment_and_weighed(folders, monkeypatch):
    corpus, more = folders
    splits, record = load(folders, news=2, **{"gimp-manual": 0.5})
    english = [english for english, _ in splits["train"]]
    held = {english for english, _ in splits["heldout_prose"]}
    assert english.count("The council met on day 3 to talk.") == (0 if "The council met on day 3 to talk." in held else 2)
    manual = [e for e in english if e.startswith("Click")]
    assert len(manual) == round(0.5 * (50 - len(splits["heldout_manuals"]))) and len(set(manual)) == len(manual)
    assert record["sources"]["news"]["pairs"] == 400 and len(record["sources"]["news"]["sha256"]) == 64
    monkeypatch.setenv(mix.MORE_ENV, str(more))
    assert mix.load(preset("tiny", mix={"news": 1}), data_path=corpus)[0]["dev"] == splits["dev"]


def test_no_training_pair_shares_its_english_with_an_evaluation_set(folders):
    splits, record = load(folders, news=1, **{"gimp-manual": 1})
    trained = {mix.fold(english) for english, _ in splits["train"]}
    evaluation = [splits[name] for name in ("val", "test", "dev", "heldout_prose", "heldout_manuals")]
    assert all(mix.fold(english) not in trained for pairs in evaluation for english, _ in pairs)
    # The development set's sentence was a training pair of "news", dropped from it.
    assert record["dropped_as_evaluation"] >= 1 and splits["heldout_prose"]  # 400 sources: some are held out


def test_without_a_mix_the_corpus_is_all_and_no_folder_is_needed(folders):
    corpus, _ = folders
    splits, _ = mix.load(preset("tiny"), data_path=corpus)
    assert sorted(splits["train"]) == sorted(data.load_splits(corpus)["train"]) and "dev" not in splits


def test_a_missing_folder_or_source_and_a_malformed_line_are_clear_errors(folders, monkeypatch, tmp_path):
    corpus, more = folders
    monkeypatch.delenv(mix.MORE_ENV, raising=False)
    with pytest.raises(data.DataError, match="TRANSLATOR_MORE_DATA"):
        mix.load(preset("tiny", mix={"news": 1}), data_path=corpus)
    with pytest.raises(data.DataError, match="no train/ folder"):
        mix.load(preset("tiny", mix={"news": 1}), data_path=corpus, more_path=tmp_path / "nowhere")
    with pytest.raises(data.DataError, match="not found: .*bible.tsv"):
        load(folders, bible=1)
    (more / "train" / "news.tsv").write_text("Good.\tBien.\nno tab here\n", encoding="utf-8")
    with pytest.raises(data.DataError, match=r"news.tsv, line 2 .*columns"):
        load(folders, news=1)


def test_concatenation_joins_two_to_four_pairs_once_each():
    pairs = [(f"Sentence {i}.", f"Frase {i}.") for i in range(100)]
    joined = augment.concatenate(pairs, share=0.5, seed=3)
    used = [part for english, _ in joined for part in english.split(". ") if part]
    assert all(2 <= english.count(".") <= 4 for english, _ in joined)
    assert len(used) == len(set(used)) and 45 <= len(used) <= 50
    assert all(english.count(".") == spanish.count(".") for english, spanish in joined)


def test_placeholders_round_trip_by_index():

    english = "Version 2.4 of Blender is at https://example.org/get, said Ana Ruiz."
    spanish = "La versión 2.4 de Blender está en https://example.org/get, dijo Ana Ruiz."
    spans = placeholders.shared_spans(english, spanish)
    assert sorted(text for _, text in spans) == ["2.4", "Ana Ruiz", "Blender", "https://example.org/get"]
    hidden_en, hidden_es = placeholders.replace_spans(english, spanish, spans, random.Random(0))
    tokens = placeholders.TOKEN.findall(hidden_en)
    assert len(tokens) == 4 and sorted(tokens) == sorted(placeholders.TOKEN.findall(hidden_es))
    assert not any(text in hidden_en for _, text in spans)
    # Each token stands for the span it replaced: putting them back gives both sentences again.
    table = {}
    for token, (start, end) in zip(tokens, spans_in_order(hidden_en, english)):
        table[token] = english[start:end]
    assert placeholders.restore(hidden_es, table) == spanish
    assert placeholders.restore(hidden_en, table) == english


def spans_in_order(hidden, original):
    """(start, end) in `original` of each placeholder of `hidden`, in order: the text between tokens is the same."""
    pieces = placeholders.TOKEN.split(hidden)
    found, position = [], 0
    for before, after in zip(pieces, pieces[1:]):
        start = original.index(before, position) + len(before)
        end = original.index(after, start) if after else len(original)
        found.append((start, end))
        position = end
    return found


def test_placeholders_are_whole_tokens_of_the_vocabulary(pairs):
    from translator.text.pipeline import TextPipeline

    config = preset("tiny", tokenizer="wordpiece", shared_vocabulary=True, lowercase=False, placeholders=0.5)
    english, spanish = zip(*placeholders.augment(pairs * 3, 1.0, seed=1))
    pipeline = TextPipeline.adapt(config, english, spanish)
    ids = pipeline.source(["Veo a PHNAME3 y PHNUM1."]).numpy()[0]
    words = [pipeline.source_vocabulary[i] for i in ids if i]
    assert "PHNAME3" in words and "PHNUM1" in words
