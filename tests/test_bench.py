"""The benchmark runs end to end in --quick mode and reports every figure (speed targets are not tested)."""

import json

import pytest


@pytest.fixture(scope="module")
def quick_run(tiny_model_dir, pairs, tmp_path_factory):
    from bench.__main__ import run_benchmark

    output = tmp_path_factory.mktemp("bench") / "results.json"
    splits = {"train": pairs, "val": pairs[:8], "test": pairs}
    # No trained `default` model here: its vocabulary is learned on the spot.
    missing = tmp_path_factory.mktemp("no-model")
    results, table = run_benchmark(tiny_model_dir, output, quick=True, splits=splits, default_model=missing)
    return results, table, output


def positive(value):
    return isinstance(value, (int, float)) and value > 0


def test_results_json_is_written(quick_run):
    results, _, output = quick_run
    assert json.loads(output.read_text()) == json.loads(json.dumps(results))
    assert {"date", "command", "machine", "decoding", "training", "gpu", "load_test", "command_line"} <= set(results)
    assert results["machine"]["cpu_count"] > 0


def test_decoding_figures(quick_run):
    decoding = quick_run[0]["decoding"]
    for value in (decoding["example_loop"]["median_ms"], decoding["greedy_one_sentence"]["median_ms"],
                  decoding["translate_one_sentence"]["median_ms"], decoding["latency_speedup"],
                  decoding["greedy_one_sentence_without_xla"]["median_ms"], *decoding["sentences_per_s"].values(),
                  *decoding["first_pass_sentences_per_s"].values(), *decoding["sentences_per_s_without_xla"].values()):
        assert positive(value)
    assert set(decoding["sentences_per_s"]) == {"batch_64", "batch_256"}
    assert isinstance(decoding["latency_speedup_pass"], bool) and isinstance(decoding["throughput_pass"], bool)


def test_training_figures(quick_run):
    training = quick_run[0]["training"]
    assert positive(training["matmul_peak_flops_per_s"])
    assert positive(training["speedup_real_target_tokens"])
    assert "6 x" in training["flop_formula"]
    for name in ("ours_reference", "keras_example", "default_preset"):
        run = training[name]
        for key in ("real_target_tokens_per_s", "steps_per_s", "achieved_flops_per_s", "share_of_matmul_peak"):
            assert positive(run[key]), (name, key)
        assert 0 <= run["target_padding_share"] < 1
    # The example gives every head the whole embedding: its attention is 8x ours per token.
    assert training["keras_example"]["params_per_source_token"] > training["ours_reference"]["params_per_source_token"]
    default = training["default_preset"]
    assert positive(default["epoch_seconds"]) and default["epoch_seconds_source"].startswith("estimated")


def test_gpu_and_load_test_sections(quick_run):
    results, table, _ = quick_run
    if not results["gpu"]["available"]:
        assert "no GPU available on this machine" in table
    load = results["load_test"]
    if load["skipped"]:
        assert load["reason"]
    else:
        assert positive(load["requests"]) and load["errors"] >= 0 and positive(load["server_cpu_cores"])
        assert 0 < load["decoding_share"] <= 1
        direct = load["without_http"]
        assert positive(direct["sentences_per_s"]) and direct["mean_batch_size"] >= 1
        assert 0 < direct["decoding_share"] <= 1


def test_overload_section(quick_run):
    results, table, _ = quick_run
    overload = results["overload"]
    if overload["skipped"]:
        assert overload["reason"]
        return
    # The request of the scenario's story (64 sentences at beam 16) is over the work budget: refused whole.
    assert overload["oversize_request"]["status"] == 413
    for clients in (overload["small"], overload["heavy"]):
        assert clients["requests"] == clients["answered"] + clients["refused"] + clients["other"] > 0
    assert 0 <= overload["saturated_share"] <= 1 and isinstance(overload["small_pass"], bool)
    assert "[4b. serving overload" in table


def test_table_lists_every_target(quick_run):
    table = quick_run[1]
    for label in ("speedup (a) / (b)", "batched translate", "speedup, real tokens/s", "[4. serving load test]"):
        assert label in table
    assert table.count("PASS") + table.count("MISS") >= 3


def test_load_test_is_skipped_without_its_module(monkeypatch):
    import sys

    from bench.__main__ import load_test

    monkeypatch.setitem(sys.modules, "bench.load_test", None)  # importing it now raises ImportError
    result = load_test("no-model", ["Hello."], {"sentences_per_s": {"batch_64": 100.0}}, quick=True)
    assert result["skipped"] and "load test skipped" in result["reason"]


def test_example_masks_cross_attention_as_the_example_does():
    """The decoder's padding and causal masks, combined, mask the cross-attention (the example's choice)."""
    import numpy as np

    from bench import keras_example

    model = keras_example.build_transformer(sequence_length=6, vocab_size=50, embed_dim=16, latent_dim=8, num_heads=2)
    decoder = next(layer for layer in model._flatten_layers() if isinstance(layer, keras_example.TransformerDecoder))
    seen = {}
    call = decoder.attention_2.call

    def spy(*args, **kwargs):
        seen["mask"] = kwargs["attention_mask"]
        return call(*args, **kwargs)

    decoder.attention_2.call = spy
    with keras_example.quiet_mask_warning():
        model([np.array([[5, 6, 7, 0, 0, 0]]), np.array([[2, 8, 9, 0, 0, 0]])])
    expected = np.tril(np.ones((6, 6), int))
    expected[:, 3:] = 0
    np.testing.assert_array_equal(np.asarray(seen["mask"])[0], expected)


def test_translate_file_section_times_whole_commands_and_profiles_their_stages(quick_run, pairs):
    from bench import command_line

    result = quick_run[0]["command_line"]
    sentences = {english for english, _ in pairs}  # the quick run's test split
    runs = result["runs"]
    assert result["sentences"] == len(sentences) and list(runs) == [name for name, *_ in command_line.RUNS]
    for run in runs.values():
        assert run["seconds"] > 0 and run["one_line_seconds"] > 0
        assert run["sentences_per_s"] is None or run["sentences_per_s"] > 0
    # A few lines are no job for XLA on a CPU; --xla on compiles once, and the second run finds it all cached.
    assert runs["--beam 1"]["flags"] == ["--beam", "1"] and not runs["default flags"]["xla"]
    first, second = runs["--xla on, first run"], runs["--xla on, second run"]
    assert first["xla"] and first["xla_compilations"] > 0 and second["xla_compilations"] == 0

    profile = result["profile"]
    assert list(profile["seconds"]) == list(command_line.STAGES) and profile["pieces"] == len(sentences)
    assert profile["seconds"]["decoding"] > 0 and profile["total_seconds"] == sum(profile["seconds"].values())
    rows = command_line.table_rows(result)
    assert len(rows) == 2 * len(runs) + 2 + len(command_line.STAGES)
    assert all(len(row) == 4 for row in rows) and "where the time goes" in rows[2 * len(runs) + 1][0]


def test_a_missing_corpus_is_one_line_not_a_traceback(tmp_path, capsys):
    from bench.__main__ import main

    with pytest.raises(SystemExit) as exit_info:
        main(["--data", str(tmp_path / "missing.zip"), "--output", str(tmp_path / "results.json")])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("python -m bench: ") and "missing.zip" in error and "Traceback" not in error


def test_quality_rows_rerank_as_labelled(tiny_model_dir):
    from bench.quality import RERANKINGS, load_translator, rows_to_measure

    rows = rows_to_measure(tiny_model_dir, None, tiny_model_dir, [1, 4], without_rerank=True, without_consensus=True)
    assert [row[5] for row in rows] == ["off", "off", "off", "off", "invented words", "invented words, consensus"]
    for rerank, lexicon, consensus in zip(RERANKINGS, (False, True, True), (False, False, True)):
        translator = load_translator(tiny_model_dir, None, False, False, rerank)
        assert (translator.lexicon is not None, translator.consensus) == (lexicon, consensus)
        assert translator.reranks(4) == (rerank != "off")
