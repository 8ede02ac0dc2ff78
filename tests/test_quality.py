"""The translation-quality levers: shared vocabulary and tied embeddings, copying, weight choice, metrics."""

import json

import keras
import numpy as np
import pytest
from keras import ops

from translator import model_dir
from translator.config import Config, preset
from translator.evaluation import evaluate, quality
from translator.model.transformer import Transformer
from translator.text import rerank, verbatim
from translator.text.pipeline import TextPipeline
from translator.training import augment, selection, train

TIED = dict(shared_vocabulary=True, tie_embeddings=True, lowercase=False)


def tied_model(vocab=40):
    model = Transformer(preset("tiny", source_vocab_size=vocab, target_vocab_size=vocab, **TIED))
    model.build()
    return model


def test_tied_embeddings_are_one_variable_for_encoder_decoder_and_output():
    model = tied_model()
    table = model.shared_embedding.embeddings
    assert model.source_embedding.token_embeddings.embeddings is table
    assert model.target_embedding.token_embeddings.embeddings is table
    assert sum(w is table for w in model.weights) == 1
    untied = Transformer(preset("tiny", source_vocab_size=40, target_vocab_size=40))
    untied.build()
    # Two input tables and the output kernel become one table.
    assert len(untied.weights) - len(model.weights) == 2
    # The output projection reads the same matrix: changing it changes the logits.
    x = keras.random.normal((1, 3, model.spec.embed_dim))
    before = ops.convert_to_numpy(model.project(x))
    table.assign(table * 2.0)
    np.testing.assert_allclose(ops.convert_to_numpy(model.project(x)), before * 2.0, rtol=1e-5, atol=1e-5)


def test_tied_embeddings_get_gradients_from_both_sides_and_the_output():
    model = tied_model()
    ids = ops.convert_to_tensor([[5, 6, 7, 0]])
    import tensorflow as tf

    with tf.GradientTape() as tape:
        logits = model({"encoder_inputs": ids, "decoder_inputs": ids})
        loss = ops.mean(logits[..., 9])  # token 9 appears only in the output projection
    gradient = ops.convert_to_numpy(tape.gradient(loss, model.shared_embedding.embeddings))
    assert np.abs(gradient[[5, 6, 7]]).sum() > 0  # the inputs of both encoder and decoder
    assert np.abs(gradient[9]).sum() > 0  # the output projection


def test_tied_model_survives_a_keras_round_trip_in_safe_mode(tmp_path):
    model = tied_model()
    ids = ops.convert_to_tensor([[5, 6, 7, 2]])
    inputs = {"encoder_inputs": ids, "decoder_inputs": ids}
    model.save(tmp_path / "tied.keras")
    loaded = keras.saving.load_model(tmp_path / "tied.keras", safe_mode=True, compile=False)
    assert loaded.source_embedding.token_embeddings.embeddings is loaded.shared_embedding.embeddings
    assert loaded.target_embedding.token_embeddings.embeddings is loaded.shared_embedding.embeddings
    np.testing.assert_allclose(loaded(inputs), model(inputs), atol=1e-6)


def test_tying_needs_one_vocabulary():
    with pytest.raises(ValueError, match="shared_vocabulary"):
        Config(tie_embeddings=True)
    with pytest.raises(ValueError, match="one vocabulary"):
        Transformer(preset("tiny", source_vocab_size=40, target_vocab_size=41, **TIED))


def test_shared_cased_vocabulary_gives_a_name_the_same_ids_on_both_sides(pairs):
    english, spanish = zip(*pairs)
    pipeline = TextPipeline.adapt(preset("tiny", tokenizer="wordpiece", vocab_size=120, **TIED), english, spanish)
    assert pipeline.source_vocabulary == pipeline.target_vocabulary
    source = [int(i) for i in pipeline.source(["Angela"]).numpy()[0] if i]
    target = [int(i) for i in pipeline.target(["Angela"]).numpy()[0] if i]
    assert target == [pipeline.start_id, *source, pipeline.end_id]
    # Casing reaches the model: a capital is not folded away.
    assert pipeline.source(["Tom"]).numpy()[0][0] != pipeline.source(["tom"]).numpy()[0][0]


def test_copy_augmentation_swaps_a_name_or_number_on_both_sides_alike():
    # "Tom" is a name to the corpus: capitalised after the first word at least three times, never lower-case.
    pairs = [("I see Tom.", "Veo a Tom."), ("I know Tom.", "Conozco a Tom."), ("Ask Tom.", "Pregúntale a Tom."),
             ("Tom is 30.", "Tom tiene 30."), ("Tom has 3 dogs.", "Tom tiene 3 perros."), ("Hello.", "Hola.")]
    augmented = augment.copy_augment(pairs, share=1.0, seed=1)
    assert augmented[-1] == pairs[-1]  # nothing to copy: unchanged
    for (english, _spanish), (new_english, new_spanish) in zip(pairs[:-1], augmented[:-1]):
        assert "Tom" not in new_english + new_spanish
        name = new_english.split()[0] if english.startswith("Tom") else new_english.split()[-1].rstrip(".")
        assert name[0].isupper() and name in new_spanish
    number = augmented[4][0].split()[2]
    assert number.isdigit() and len(number) == 1 and f" {number} " in augmented[4][1]
    assert augment.copy_augment(pairs, share=0.0) == pairs


def test_numbers_inside_other_numbers_are_left_alone():
    assert augment.NUMBER.findall("It costs 3.50, 12,000 or 7 euros.") == ["7"]


def test_copy_rate_and_invented_words_on_hand_made_examples():
    translations = ["Mi amiga Angela vive en Teherán.", "Tengo 37 libros.", "Se llama Kaoruko."]
    expected = [["Angela"], ["37"], ["Kaoru"]]
    assert quality.copy_rate(translations, expected) == pytest.approx(2 / 3)
    known = rerank.known_words(["Mi amiga vivía en la ciudad.", "Tengo libros.", "Se llama Tom."])
    invented, total = rerank.invented_words(
        ["Mi amiga Angela vive en Teherán.", "Tengo 37 mordinarios.", "Vivimos en ciudades."],
        ["My friend Angela lives in Tehran.", "I have 37 books.", "We live in cities."], known,
    )
    # "Angela" and "37" are copied from the source; "Teherán" and "mordinarios" are not Spanish seen in training;
    # "vivimos" (of "vivía") and "ciudades" (of "ciudad") are regular forms of words it shows.
    assert invented == ["teherán", "mordinarios"] and total == 12


@pytest.mark.parametrize("development, heldout, at_least", [
    ("names_numbers.tsv", "names_numbers_heldout.tsv", (100, 50)),
    ("spans.tsv", "spans_heldout.tsv", (200, 60)),
])
def test_the_shipped_copy_sets_hold_their_names_and_numbers_and_share_no_sentence(development, heldout, at_least):
    development, heldout = quality.load_copy_set(development), quality.load_copy_set(heldout)
    assert (len(development), len(heldout)) >= at_least and len(heldout) >= at_least[1]
    for rows in (development, heldout):
        # Each item is in the English, or in how a span of it comes out (a date with its month's name, in Spanish;
        # "Sr. Nakamura" of "el Sr. Nakamura", whose article is the sentence's).
        assert all(items and all(item in english or any(item in span.value for span in verbatim.find(english, {}))
                                 for item in items) for english, items in rows)
    assert not {english for english, _ in development} & {english for english, _ in heldout}


def test_the_span_sets_hold_spans_at_the_start_middle_and_end_of_sentences():
    rows = quality.load_copy_set("spans.tsv")
    places = {"start" if english.startswith(items[0]) else "end" if english.rstrip(".?!").endswith(items[-1])
              else "middle" for english, items in rows}
    assert places == {"start", "middle", "end"}


def test_the_rare_words_set_is_scored_for_invented_words(tiny_translator, pairs):
    rare = quality.rare_word_pairs(pairs, [("Tom is here.", "Tom está aquí."), ("Tom is glum.", "Tom está triste.")])
    assert rare == [("Tom is glum.", "Tom está triste.")]
    result = evaluate.evaluate(tiny_translator, pairs[:4], known_words=rerank.known_words(es for _, es in pairs),
                               rare_pairs=rare, examples=0)
    assert result["rare_words"]["sentences"] == 1 and set(result["rare_words"]) >= {"invented_share", "bleu", "chrf"}
    # The span sets are scored as copy sets: every span of a sentence kept, in percent of the sentences.
    for key, name in (("spans_intact", "spans.tsv"), ("heldout_spans_intact", "spans_heldout.tsv")):
        rows = quality.load_copy_set(name)
        kept = quality.copy_rate(tiny_translator.translate([english for english, _ in rows]), [i for _, i in rows])
        assert result[key] == round(100 * kept, 1)
    # The glossary set with its terms: a sentence counts when every term of its comes out.
    terms, rows = quality.load_glossary_set()
    english = [english for english, _ in rows]
    kept = quality.glossary_rate(tiny_translator.translate(english, glossary=terms), english, terms)
    assert result["glossary_terms"] == round(100 * kept, 1) > 90


def test_averaging_gives_the_mean_of_the_weights(tmp_path):
    model = tied_model()
    paths, snapshots = [], []
    for k in range(3):
        weights = [np.full(w.shape, float(k + 1), dtype=w.dtype) for w in model.get_weights()]
        model.set_weights(weights)
        paths.append(tmp_path / f"epoch_{k}.weights.h5")
        model.save_weights(str(paths[-1]))
        snapshots.append(weights)
    selection.average_weights(model, paths)
    for averaged in model.get_weights():
        np.testing.assert_allclose(averaged, 2.0)


def test_the_bleu_callback_keeps_the_epoch_with_the_best_validation_bleu(pairs, tmp_path):
    splits = {"train": pairs, "val": pairs[:12]}
    config = preset("tiny", epochs=6, learning_rate=1e-2, name="bleu", bleu_sentences=12, average_last=3,
                    early_stopping_patience=10, tokenizer="wordpiece", vocab_size=150, **TIED)
    output = train.train(config, output_dir=tmp_path / "models", runs_dir=tmp_path / "runs", splits=splits)
    training = model_dir.read_metrics(output)["training"]
    scores = [row["val_bleu"] for row in training["history"]]
    kept = training["kept_weights"]
    assert kept["epoch"] == int(np.argmax(scores)) + 1 and kept["val_bleu"] == round(max(scores), 2)
    run = tmp_path / "runs" / "bleu"
    assert len(list(run.glob("epoch_*.weights.h5"))) == 6
    # The model written is the best epoch's, or the mean of the last three if that scored higher.
    model, pipeline, saved_config = model_dir.load(output)
    reference = Transformer(saved_config)
    reference.build()
    if kept["by"] == "validation BLEU":
        reference.load_weights(str(run / selection.EPOCH_FILE.format(kept["epoch"])))
    else:
        selection.average_weights(reference, selection.epoch_weights(run, 3))
        assert kept["average"]["validation_split_bleu"] > kept["validation_split_bleu"]
    for saved, expected in zip(model.get_weights(), reference.get_weights()):
        np.testing.assert_allclose(saved, expected)
    assert json.loads((output / "config.json").read_text())["tie_embeddings"] is True


def test_an_old_model_directory_without_the_new_fields_still_loads(tiny_model_dir, tmp_path):
    import shutil

    old = tmp_path / "old"
    shutil.copytree(tiny_model_dir, old)
    config = json.loads((old / "config.json").read_text())
    for field in ("shared_vocabulary", "lowercase", "tie_embeddings", "copy_augmentation", "bleu_sentences",
                  "average_last"):
        config.pop(field)
    (old / "config.json").write_text(json.dumps(config))
    model, pipeline, loaded = model_dir.load(old)
    assert loaded.lowercase and not loaded.tie_embeddings and model.logits is not None
    assert pipeline.source(["TOM"]).numpy().tolist() == pipeline.source(["tom"]).numpy().tolist()


def test_the_everyday_nouns_spanish_counts_as_no_invented_word(tmp_path, pairs):
    corpus = tmp_path / "pairs.tsv"
    corpus.write_text("".join(f"{english}\t{spanish}\n" for english, spanish in pairs), encoding="utf-8")
    _, _, known, _ = evaluate.load_eval_pairs(data_path=corpus)
    assert {"licuadora", "hoja", "cálculo"} <= known  # "blender", "spreadsheet": no Spanish of the corpus
    assert rerank.invented_words(["Licuadora mordinaria."], ["A blender."], known)[0] == ["mordinaria"]
