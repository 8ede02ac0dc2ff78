"""The CTranslate2 yardstick: the converted model decodes as ours does, and the bench section runs or is skipped."""

import sys

import numpy as np
import pytest
from keras import ops

from translator.devices import bfloat16_decoding, cores

# Past the fixture: a word the tiny model never saw ([UNK]) and new combinations.
MORE = ["The zebra likes Tom.", "Where is the dog?", "Mary is hungry."]


def log_probability(translator, source, tokens):
    """Our model's log-probability of `tokens`, then [end], for one row of source ids."""
    start, end = translator.pipeline.start_id, translator.pipeline.end_id
    target = [*tokens, end]
    logits = translator.model({"encoder_inputs": source[None], "decoder_inputs": np.array([[start, *tokens]])})
    log_probs = ops.convert_to_numpy(ops.log_softmax(logits, axis=-1))[0]
    return float(sum(log_probs[step, token] for step, token in enumerate(target)))


def test_converted_model_decodes_as_ours(tiny_translator, sentences, tmp_path):
    pytest.importorskip("ctranslate2")
    from bench import ctranslate2_anchor as anchor

    translator = tiny_translator
    anchor.convert(translator, tmp_path)
    engine = anchor.load(tmp_path, "float32")
    batches = anchor.id_batches(translator, sentences + MORE)
    ours = anchor.our_tokens(translator, anchor.ours(translator, batches, 1))
    results = [result for batch in anchor.token_batches(translator, batches)
               for result in engine.translate_batch(batch, beam_size=1, max_decoding_length=translator.max_length,
                                                    min_decoding_length=0, return_scores=True, length_penalty=0)]
    assert anchor.their_tokens(translator, [results]) == ours
    # Equal tokens could hide small errors (a layer-norm epsilon, a position
    # off by one) behind a confident model; equal probabilities cannot.
    ids = np.concatenate(batches)
    ours_scores = [log_probability(translator, source, tokens) for source, tokens in zip(ids, ours, strict=True)]
    np.testing.assert_allclose([result.scores[0] for result in results], ours_scores, atol=1e-4)


def test_bench_section_reports_every_figure(tiny_model_dir, sentences):
    pytest.importorskip("ctranslate2")
    from bench import ctranslate2_anchor as anchor
    from bench.__main__ import ctranslate2_anchor, ctranslate2_rows

    result = ctranslate2_anchor(tiny_model_dir, sentences, quick=True)
    assert not result["skipped"]
    # Ours as `translate` runs it on a CPU: its own process, one core an operation, a batch per core and one more.
    assert result["our_parallel_batches"] == cores() + 1
    for compute_type in ("float32", "int8"):
        layouts = result["theirs_by_layout"][compute_type]
        assert set(layouts) == {f"{layout}, batches of {size}" for layout in ("one batch on every core", "a batch per core")
                                for size in anchor.THEIR_BATCH_SIZES}
        for decoding, best in result["their_layout"][compute_type].items():
            assert result["sentences_per_s"][compute_type][decoding] == max(rates[decoding] for rates in layouts.values())
            assert layouts[best][decoding] == result["sentences_per_s"][compute_type][decoding]
    assert result["greedy_match"]["float32"] == result["compared_sentences"] == len(sentences)
    assert 0 <= result["greedy_match"]["int8"] <= len(sentences)
    # Timed as `translate` decodes: in bfloat16 exactly where the command would be.
    assert result["bfloat16"] == bfloat16_decoding(None, jit_compile=False)
    assert 0 <= result["timed_greedy_match"] <= len(sentences)
    for engine in ("ours", "float32", "int8"):
        assert set(result["sentences_per_s"][engine]) == {"greedy", "beam_4"}
        assert all(rate > 0 for rate in result["sentences_per_s"][engine].values())
    assert result["ratio"]["int8"]["greedy"] == pytest.approx(
        result["sentences_per_s"]["int8"]["greedy"] / result["sentences_per_s"]["ours"]["greedy"])
    rows = ctranslate2_rows(result)
    assert rows[0][3] == "PASS" and any("CTranslate2 int8" in row[0] for row in rows)
    verdicts = {row[0]: (row[1], row[3]) for row in rows}
    ours_over_int8 = result["sentences_per_s"]["ours"]["greedy"] / result["sentences_per_s"]["int8"]["greedy"]
    timed_row = next(row for row in rows if row[0].startswith("    ours as timed"))
    assert timed_row[3] == ("PASS" if result["timed_greedy_match"] >= 0.95 * len(sentences) else "MISS")
    assert ("bfloat16 layers" in timed_row[0]) == result["bfloat16"]
    assert verdicts["ours / CTranslate2 int8, greedy (sentences/s)"] == (
        f"{ours_over_int8:.2f}", "PASS" if ours_over_int8 >= 1 else "MISS")


def test_bench_section_is_skipped_without_ctranslate2(monkeypatch):
    from bench.__main__ import ctranslate2_anchor, ctranslate2_rows

    monkeypatch.setitem(sys.modules, "ctranslate2", None)  # importing it now raises ImportError
    monkeypatch.delitem(sys.modules, "bench.ctranslate2_anchor", raising=False)
    result = ctranslate2_anchor("no-model", ["Hello."], quick=True)
    assert result["skipped"] and "CTranslate2 anchor skipped" in result["reason"]
    assert ctranslate2_rows(result) == [(result["reason"], "", "", "skipped")]
