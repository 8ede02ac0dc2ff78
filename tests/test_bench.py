"""The benchmark runs end to end in --quick mode and reports every figure (speed targets are not tested)."""

import json
import shutil
import statistics

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


def table_line(table, label):
    """The printed table's one line that starts with `label`."""
    lines = [line for line in table.splitlines() if line.startswith(label)]
    assert len(lines) == 1, (label, lines)
    return lines[0]


def verdict(passed):
    return "PASS" if passed else "MISS"


def test_results_json_is_written(quick_run):
    results, _, output = quick_run
    assert json.loads(output.read_text()) == json.loads(json.dumps(results))
    assert {"date", "command", "machine", "decoding", "training", "gpu", "load_test", "command_line"} <= set(results)
    assert results["machine"]["cpu_count"] > 0


def test_decoding_figures_agree_with_each_other_and_the_table(quick_run):
    results, table, _ = quick_run
    decoding = results["decoding"]
    example, greedy = decoding["example_loop"], decoding["greedy_one_sentence"]
    assert example["median_ms"] == pytest.approx(statistics.median(example["seconds"]) * 1e3)
    assert greedy["median_ms"] == pytest.approx(statistics.median(greedy["seconds"]) * 1e3)
    # The speedup compares the two loops on the same sentences: (a)'s, the first of (b)'s.
    assert len(example["seconds"]) < len(greedy["seconds"])
    speedup = statistics.median(example["seconds"]) / statistics.median(greedy["seconds"][: example["sentences"]])
    assert decoding["latency_speedup"] == pytest.approx(speedup)
    assert decoding["latency_speedup_pass"] == (speedup >= decoding["latency_speedup_target"])
    # The cached loop must beat the example's, which recomputes the whole prefix for every token.
    assert speedup > 1
    rates = decoding["sentences_per_s"]
    assert set(rates) == {"batch_64", "batch_256"}
    assert decoding["throughput"] == max(rates.values()) == rates[f"batch_{decoding['best_batch_size']}"]
    assert decoding["throughput_pass"] == (decoding["throughput"] >= decoding["throughput_target"])
    # Batched translation must beat translating the same sentences one at a time; the first
    # pass (tracing every batch shape) cannot beat the steady one.
    one_at_a_time = 1e3 / decoding["translate_one_sentence"]["median_ms"]
    assert min(rates.values()) > one_at_a_time
    assert decoding["first_pass_sentences_per_s"]["batch_64"] < rates["batch_64"]
    assert all(positive(rate) for rate in decoding["sentences_per_s_without_xla"].values())

    line = table_line(table, f"speedup (a) / (b), on (a)'s {example['sentences']} sentences")
    assert f"{decoding['latency_speedup']:.1f}x" in line and line.endswith(verdict(decoding["latency_speedup_pass"]))
    assert f"{example['median_ms']:.1f} ms" in table_line(table, "(a) example's loop")
    assert f"{greedy['median_ms']:.1f} ms" in table_line(table, "(b) our greedy loop (XLA)")
    for name, rate in rates.items():
        line = table_line(table, f"(c) batched translate (XLA), batch {name.split('_')[1]} ")
        assert f"{rate:,.0f} sentences/s" in line and f"({decoding['batched_sentences']} sentences)" in line


def check_rates(run):
    """A training-speed record's rates are its counts over its seconds."""
    seconds = run["seconds"]
    assert run["steps_per_s"] == pytest.approx(run["steps"] / seconds)
    assert run["real_target_tokens_per_s"] == pytest.approx(run["real_target_tokens"] / seconds)
    assert 0 < run["real_target_tokens"] <= run["target_slots"]
    assert run["target_padding_share"] == pytest.approx(1 - run["real_target_tokens"] / run["target_slots"])
    assert run["achieved_flops_per_s"] == pytest.approx(run["flops_per_step"] * run["steps"] / seconds)
    assert run["flops_per_step"] == pytest.approx(6 * (
        run["params_per_source_token"] * run["source_slots"] + run["params_per_target_token"] * run["target_slots"]
    ) / run["steps"])


def test_training_figures_agree_with_each_other_and_the_table(quick_run):
    results, table, _ = quick_run
    training = results["training"]
    peak = training["matmul_peak_flops_per_s"]
    assert positive(peak) and "6 x" in training["flop_formula"]
    for name in ("ours_reference", "keras_example", "default_preset"):
        run = training[name]
        check_rates(run)
        assert run["steps"] == training["timed_steps"]
        assert run["share_of_matmul_peak"] == pytest.approx(run["achieved_flops_per_s"] / peak)
    ours, example = training["ours_reference"], training["keras_example"]
    speedup = ours["real_target_tokens_per_s"] / example["real_target_tokens_per_s"]
    assert training["speedup_real_target_tokens"] == pytest.approx(speedup)
    assert training["speedup_pass"] == (speedup >= training["speedup_target"])
    # Ours batches by length, the example pads every batch to the full length.
    assert ours["target_padding_share"] < example["target_padding_share"]
    # The example gives every head the whole embedding: its attention is 8x ours per token.
    assert example["params_per_source_token"] > ours["params_per_source_token"]
    default = training["default_preset"]
    assert default["epoch_seconds_source"].startswith("estimated")  # no trained model: the quick run has none
    assert default["epoch_seconds"] == pytest.approx(default["steps_per_epoch"] / default["steps_per_s"])

    line = table_line(table, "speedup, real tokens/s (ours / example)")
    assert f"{speedup:.2f}x" in line and line.endswith(verdict(training["speedup_pass"]))
    for label, run in (("ours, reference preset", ours), ("keras.io example", example)):
        assert f"{run['real_target_tokens_per_s']:,.0f}" in table_line(table, f"{label}: real target tokens/s")
        assert f"{run['steps_per_s']:.2f}" in table_line(table, f"{label}: steps/s")
    assert f"{peak / 1e9:.1f} GFLOP/s" in table_line(table, "matmul peak")


def test_gpu_and_load_test_sections(quick_run):
    results, table, _ = quick_run
    if not results["gpu"]["available"]:
        assert "no GPU available on this machine" in table
    load = results["load_test"]
    if load["skipped"]:
        assert load["reason"] in table
        return
    # A few clients on this machine for seconds: every request is answered.
    assert load["errors"] == 0 and positive(load["requests"]) and positive(load["server_cpu_cores"])
    assert load["requests_per_s"] == pytest.approx(load["requests"] / load["seconds"])
    assert load["sentences_per_s"] == pytest.approx((load["requests"] - load["errors"]) / load["seconds"])
    assert load["sentences_per_s_target"] == pytest.approx(results["decoding"]["sentences_per_s"]["batch_64"] / 2)
    assert load["sentences_per_s_pass"] == (load["sentences_per_s"] >= load["sentences_per_s_target"])
    assert 0 < load["decoding_share"] <= 1 and load["mean_batch_size"] >= 1
    direct = load["without_http"]
    assert positive(direct["sentences_per_s"]) and direct["mean_batch_size"] >= 1
    assert 0 < direct["decoding_share"] <= 1
    assert f"{load['errors']} of {load['requests']}" in table_line(table, "errors")
    line = table_line(table, "sentences/s")
    assert f"{load['sentences_per_s']:,.0f}" in line and line.endswith(verdict(load["sentences_per_s_pass"]))


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
    results, table, _ = quick_run
    for label in ("speedup (a) / (b)", "batched translate", "speedup, real tokens/s", "[4. serving load test]"):
        assert label in table
    verdicts = [results["decoding"]["latency_speedup_pass"], results["decoding"]["throughput_pass"],
                results["training"]["speedup_pass"]]
    if not results["load_test"]["skipped"]:
        verdicts.append(results["load_test"]["sentences_per_s_pass"])
    # CTranslate2 on the test split's sentences, and on newstest2012's when the further pairs are there.
    for anchor in (results["ctranslate2"], results["ctranslate2_news"]):
        if anchor["skipped"]:
            continue
        verdicts.append(anchor["greedy_match"]["float32"] == anchor["compared_sentences"])
        verdicts.append(anchor["timed_greedy_match"] >= 0.95 * anchor["compared_sentences"])
        # Ours against CTranslate2: float32 at the default beam, int8 greedy (its ratios are CT2 over ours).
        verdicts.append(anchor["ratio"]["float32"][f"beam_{anchor['beam_size']}"] <= 1)
        verdicts.append(anchor["ratio"]["int8"]["greedy"] <= 1)
    overload = results["overload"]
    if not overload["skipped"]:
        verdicts += [overload["oversize_request"]["status"] == 413, overload["small_pass"]]
    assert (table.count("PASS"), table.count("MISS")) == (verdicts.count(True), verdicts.count(False))


def test_newstest2012_is_read_from_the_further_pairs_or_skipped(tmp_path, monkeypatch):
    from bench.__main__ import QUICK_NEWS, news_sentences
    from translator.training import mix

    monkeypatch.delenv(mix.MORE_ENV, raising=False)
    assert news_sentences(None, quick=True) is None
    dev = tmp_path / mix.DEV_FILE
    dev.parent.mkdir(parents=True)
    (tmp_path / "train").mkdir()
    dev.write_text("".join(f"Sentence {i} of the news.\tFrase {i}.\n" for i in range(100)), encoding="utf-8")
    assert news_sentences(tmp_path, quick=False)[:2] == ["Sentence 0 of the news.", "Sentence 1 of the news."]
    monkeypatch.setenv(mix.MORE_ENV, str(tmp_path))
    assert len(news_sentences(None, quick=True)) == QUICK_NEWS


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
        job = run["seconds"] - run["one_line_seconds"]  # the run less its start-up
        assert run["sentences_per_s"] == (pytest.approx((result["sentences"] - 1) / job) if job > 0 else None)
    # A few lines are no job for XLA on a CPU; --xla on compiles once, and the second run finds it all cached.
    assert runs["--beam 1"]["flags"] == ["--beam", "1"] and not runs["default flags"]["xla"]
    first, second = runs["--xla on, first run"], runs["--xla on, second run"]
    assert first["xla"] and first["xla_compilations"] > 0 and second["xla_compilations"] == 0

    # --quick's one pair: the first two runs.
    assert result["default_over_greedy"] == [runs["default flags"]["seconds"] / runs["--beam 1"]["seconds"]]

    profile = result["profile"]
    assert list(profile["seconds"]) == list(command_line.STAGES) and profile["pieces"] == len(sentences)
    assert profile["seconds"]["vectorising, decoding, detokenising (one graph)"] > 0
    # Each step less the steps it calls: a step counted twice, or less a step it does not call, leaves these bounds.
    assert all(0 <= seconds <= profile["total_seconds"] for seconds in profile["seconds"].values())
    assert profile["total_seconds"] == sum(profile["seconds"].values())
    rows = command_line.table_rows(result)
    assert len(rows) == 2 * len(runs) + 3 + len(command_line.STAGES)
    assert "--beam 1, whole-process seconds, run in turn" in rows[2 * len(runs)][0]
    assert all(len(row) == 4 for row in rows) and "where the time goes" in rows[2 * len(runs) + 2][0]


def test_against_another_checkout_rounds_pair_each_job_less_its_start_up(monkeypatch, tmp_path):
    """Each round: the many-line job here and there, then the one-line job of each; the warm-up round is not
    counted; each ratio is there's job over here's, start-up left out, and the table gives their median."""
    from bench import command_line

    # Seconds each process takes: (tree, one line or many, round), the warm-up round 0 wildly off.
    took = {("here", "many"): [99, 20, 22], ("here", "one"): [99, 8, 9], ("there", "many"): [1, 26, 35],
            ("there", "one"): [1, 6, 8]}
    calls = []

    def fake_seconds(model, lines, flags, cache, project=command_line.PROJECT):
        tree = "here" if project == command_line.PROJECT else "there"
        size = "one" if lines == "one.txt" else "many"
        calls.append((tree, size))
        return took[tree, size][sum(1 for call in calls if call == (tree, size)) - 1]

    monkeypatch.setattr(command_line, "command_seconds", fake_seconds)
    other = tmp_path / "other"
    ratios = command_line.paired_against(other, "model", "many.txt", "one.txt", tmp_path, rounds=2, warm_up=1)
    assert calls == [("here", "many"), ("there", "many"), ("here", "one"), ("there", "one")] * 3
    assert ratios == [pytest.approx((26 - 6) / (20 - 8)), pytest.approx((35 - 8) / (22 - 9))]
    result = {"runs": {}, "default_beam": 4, "default_over_greedy": [1.0], "profile": {
        "loading_seconds": 1, "tracing_seconds": 1, "xla": False, "pieces": 1, "lines_with_notes": 0,
        "total_seconds": 1, "seconds": {}}, "against": {"tree": str(other), "commit": None, "ratios": ratios}}
    row = next(row for row in command_line.table_rows(result) if "against" in row[0])
    assert str(other) in row[0] and row[1] == f"{(ratios[0] + ratios[1]) / 2:.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"


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


def test_step_profile_puts_each_loop_operation_with_its_part(tiny_model_dir, sentences):
    from bench.step_profile import part, profile, table

    assert part("while/body/_9/while/decoder_0_1/self_attention_norm_1/moments/mean", "Mean") == "layer norms"
    assert part("while/body/_9/while/decoder_12_1/self_attention_1/key_1/einsum/Einsum", "_MklEinsum") == "self-attention"
    assert part("while/body/_9/while/decoder_1/add_1", "AddV2") == "residual additions"
    assert part("while/body/_9/while/ArgMax", "ArgMax") == "loop: ArgMax"
    result = profile(tiny_model_dir, sentences * 5)
    parts = result["parts"]
    # The tiny model has one decoder block: every part of it ran at every step, and the output projection once.
    assert {"self-attention", "cross-attention", "feed-forward", "layer norms", "loop: MatMul"} <= set(parts)
    assert result["steps"] > 0 and parts["loop: MatMul"]["operations"] == result["steps"]
    assert all(row["seconds"] > 0 for row in parts.values())
    lines = table(result).splitlines()
    assert f"{result['steps']} greedy steps" in lines[0] and lines[-1].startswith("all")


def test_protection_compares_both_policies_on_one_model(tiny_model_dir, tmp_path, capsys):
    from bench import protection
    from translator import model_dir
    from translator.config import Config

    # The tiny model was trained without placeholders: nothing to compare, said in one line.
    with pytest.raises(SystemExit):
        protection.main(["--model", str(tiny_model_dir), "--output", str(tmp_path / "out.json")])
    assert "not trained on typed placeholders" in capsys.readouterr().err
    typed = tmp_path / "typed"
    shutil.copytree(tiny_model_dir, typed)
    Config.from_json(typed / model_dir.CONFIG_FILE).replace(placeholders=0.3).to_json(typed / model_dir.CONFIG_FILE)
    protection.main(["--model", str(typed), "--beam", "1", "--output", str(tmp_path / "out.json")])
    results = json.loads((tmp_path / "out.json").read_text())["results"]
    assert list(results) == list(protection.POLICIES)
    for scores in results.values():
        assert 0 <= scores["spans_intact"] <= 100 and 0 <= scores["glossary_terms"] <= 100
    table = capsys.readouterr().out
    assert "| typed placeholders |" in table and "| real-word stand-ins |" in table
