"""The `translator` command end to end, in subprocesses, on the tiny model."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from translator import model_dir
from translator.cli import build_parser
from translator.defaults import PARALLEL_BATCHES, TF_LOG_LEVEL
from translator.devices import XLA_CACHE_FLAG, cores, resolve_auto, xla_cache_directory, xla_cache_flags

# No XLA compile cache (an empty directory turns it off): tests keep out of the user's ~/.cache.
ENV = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": TF_LOG_LEVEL, "TF_XLA_FLAGS": f"{XLA_CACHE_FLAG}="}


def cli(*args, stdin=None, cwd=None, env=ENV):
    return subprocess.run(
        [sys.executable, "-m", "translator", *map(str, args)],
        input=stdin, capture_output=True, text=True, timeout=300, env=env, cwd=cwd,
    )


def test_translate_text_file_and_stdin(tiny_model_dir, tmp_path):
    result = cli("translate", "--model", tiny_model_dir, "Tom is here.")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Tom está aquí.\n"

    source = tmp_path / "in.txt"
    source.write_text("Tom is here.\n\nHelp!\n", encoding="utf-8")
    output = tmp_path / "out.txt"
    result = cli("translate", "--model", tiny_model_dir, "--file", source, "--output", output, "--beam", 2)
    assert result.returncode == 0, result.stderr
    assert output.read_text(encoding="utf-8") == "Tom está aquí.\n\n¡Ayuda!\n"

    result = cli("translate", "--model", tiny_model_dir, "--xla", "on", stdin="Help!\nTom is here.\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["¡Ayuda!", "Tom está aquí."]


def test_missing_or_corrupt_model_is_one_line_and_exit_2(tmp_path):
    missing = tmp_path / "nowhere"
    result = cli("translate", "--model", missing, "Hello")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert str(missing) in result.stderr and "make train" in result.stderr

    corrupt = tmp_path / "corrupt"
    corrupt.mkdir()
    (corrupt / "model.keras").write_bytes(b"not a model")
    result = cli("translate", "--model", corrupt, "Hello")
    assert result.returncode == 2
    assert "corrupt" in result.stderr and str(corrupt) in result.stderr
    assert "Traceback" not in result.stderr


def test_mistaken_paths_are_refused_before_tensorflow_is_imported(tiny_model_dir, tmp_path):
    empty, existing = tmp_path / "empty.txt", tmp_path / "existing.json"
    empty.write_text("")
    existing.write_text("{}")
    missing = str(tmp_path / "missing")
    cases = [
        (["translate", "--model", missing, "Hi"], "no trained model at"),
        (["translate", "--model", tiny_model_dir, "--ensemble", missing, "Hi"], "no trained model at"),
        (["translate", "--model", tiny_model_dir, "--file", missing], "cannot read"),
        (["translate", "--model", tiny_model_dir, "--file", empty], "is empty"),
        (["translate", "--model", tiny_model_dir, "--glossary", missing, "Hi"], "no such file"),
        (["translate", "--resume", "Hi"], "give both"),
        (["evaluate", "--model", missing], "no trained model at"),
        (["evaluate", "--model", tiny_model_dir, "--report", existing], "pass --overwrite"),
        (["export", "--model", missing, "--output", tmp_path / "new"], "no trained model at"),
        (["export", "--model", tiny_model_dir, "--output", existing], "pass --overwrite"),
        (["serve", "--model", missing], "no trained model at"),
        (["average", tiny_model_dir, missing, "--output", tmp_path / "mean"], "no trained model at"),
        (["train", "--from", missing], "to start from"),
        (["train", "--preset", "tiny", "--piece-dropout", "1.5"], "piece_dropout is a probability"),
        (["train", "--recipe", "tiny", "--epochs", "2"], "not with --recipe"),
    ]
    script = textwrap.dedent(
        f"""
        import contextlib, io, json, sys
        from translator.cli import main
        results = []
        for argv in {[[str(arg) for arg in argv] for argv, _ in cases]!r}:
            with contextlib.redirect_stderr(io.StringIO()) as stderr:
                results.append([main(argv), stderr.getvalue()])
        print(json.dumps({{"results": results, "tensorflow": "tensorflow" in sys.modules}}))
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=ENV)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout)
    for (argv, expected), (code, stderr) in zip(cases, report["results"], strict=True):
        assert code == 2 and expected in stderr and stderr.count("\n") == 1, (argv, stderr)
    assert not report["tensorflow"]


def test_bad_arguments_are_clear(tiny_model_dir, tmp_path):
    result = cli("translate", "--model", tiny_model_dir, "--beam", 0, "Hi")
    assert result.returncode == 2 and "beam size" in result.stderr
    result = cli("translate", "--model", tiny_model_dir, "--xla", "maybe", "Hi")
    assert result.returncode == 2 and "--xla" in result.stderr
    result = cli("translate", "--model", tiny_model_dir, "--file", tmp_path / "missing.txt")
    assert result.returncode == 2 and "missing.txt" in result.stderr and "Traceback" not in result.stderr
    result = cli("train", "--from", tmp_path / "nothing")
    assert result.returncode == 2 and "no trained model" in result.stderr and "Traceback" not in result.stderr
    result = cli("train", "--from", tiny_model_dir, "--preset", "tiny")
    assert result.returncode == 2 and "not allowed with" in result.stderr
    result = cli("train", "--preset", "tiny", "--piece-dropout", 1.5, "--output", tmp_path, "--runs", tmp_path)
    assert result.returncode == 2 and "piece_dropout is a probability" in result.stderr
    assert "Traceback" not in result.stderr and not any(tmp_path.iterdir())


def test_evaluate_on_a_pairs_file_writes_a_report(tiny_model_dir, tmp_path, pairs):
    pairs_file = tmp_path / "pairs.tsv"
    pairs_file.write_text("".join(f"{i}\t{en}\t{i}\t{es}\n" for i, (en, es) in enumerate(pairs)), encoding="utf-8")
    report = tmp_path / "report.json"
    result = cli("evaluate", "--model", tiny_model_dir, "--pairs", pairs_file, "--columns", "1,3", "--no-placeholders",
                 "--report", report)
    assert result.returncode == 0, result.stderr
    assert "BLEU" in result.stdout and "chrF" in result.stdout and "nrefs:1" in result.stdout
    assert "no placeholders" in result.stdout and "held-out set" in result.stdout
    evaluation = json.loads(report.read_text(encoding="utf-8"))
    assert evaluation["sentences"] == len(pairs) and evaluation["bleu"] > 50 and not evaluation["placeholders"]
    assert len(evaluation["examples"]) == 10

    result = cli("evaluate", "--model", tiny_model_dir, "--pairs", pairs_file)
    assert result.returncode == 2 and "line 1" in result.stderr and "columns" in result.stderr


def test_exported_savedmodel_serves_strings_without_the_project(tiny_model_dir, tmp_path):
    export_dir = tmp_path / "export"
    result = cli("export", "--model", tiny_model_dir, "--output", export_dir)
    assert result.returncode == 0, result.stderr
    script = textwrap.dedent(
        f"""
        import sys
        import tensorflow as tf
        import tensorflow_text  # registers the text ops the graph uses
        served = tf.saved_model.load({str(export_dir)!r})
        out = served.signatures["serving_default"](texts=tf.constant(["Tom is here.", "", "Help!"]))
        print("|".join(s.decode() for s in out["translations"].numpy()))
        assert "translator" not in sys.modules
        """
    )
    # Run from an empty folder, with no path to the project.
    env = {k: v for k, v in ENV.items() if k != "PYTHONPATH"}
    result = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True,
                            timeout=300, cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "Tom está aquí.||¡Ayuda!"


def test_data_command_prints_counts(tmp_path):
    corpus = tmp_path / "pairs.txt"
    corpus.write_text("Go.\tVe.\nbroken line\nHi.\tHola.\n", encoding="utf-8")
    result = cli("data", "--data", corpus)
    assert result.returncode == 2 and "line 2" in result.stderr
    result = cli("data", "--data", corpus, "--skip-malformed")
    assert result.returncode == 0 and "2 unique pairs (1 malformed lines skipped)" in result.stdout


@pytest.mark.parametrize(("setting", "device", "expected"), [
    (None, "CPU", False), (None, "GPU", True), (None, "TPU", True), (True, "CPU", True), (False, "GPU", False),
])
def test_xla_is_on_where_asked_or_on_an_accelerator(setting, device, expected):
    assert resolve_auto(setting, device) is expected


def test_a_translating_process_on_a_cpu_decodes_a_batch_per_core_and_one_more_each_operation_on_one_core():
    """`decoding_batches` before TensorFlow's runtime starts (as `translate` and `evaluate` call it): one
    thread an operation and a batch per core, plus one, without XLA (`--xla off`, or auto on a CPU);
    TensorFlow's own threads with it; and once the runtime has started (a notebook, a test run), nothing
    changes."""
    script = textwrap.dedent("""
        import sys
        import tensorflow as tf
        from translator.devices import cores, decoding_batches
        def report(jit_compile):
            print(decoding_batches(jit_compile) - cores(), tf.config.threading.get_intra_op_parallelism_threads())
        if sys.argv[1] == "new":  # XLA first, which changes nothing, then each way of asking for none
            report(True)
            report(False if sys.argv[2] == "off" else None)
        else:
            tf.constant(1.0) + 1.0  # the runtime starts
            report(False)
    """)
    results = [subprocess.run([sys.executable, "-c", script, *case], capture_output=True, text=True, env=ENV,
                              timeout=120).stdout.split() for case in (("new", "off"), ("new", "auto"), ("started",))]
    unchanged = [str(PARALLEL_BATCHES - cores()), "0"]
    assert results == [unchanged + ["1", "1"], unchanged + ["1", "1"], unchanged]


def test_every_command_is_described_and_every_default_shown():
    """Each `translator <command> --help` opens with a description and shows each option's default: the value
    where there is one, else what the option's absence means; an on/off flag shows none."""
    import argparse

    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert set(commands) == {"data", "train", "average", "translate", "evaluate", "export", "serve"}
    for name, parser in commands.items():
        assert parser.description, name
        text = " ".join(parser.format_help().split())
        for action in parser._actions:
            help_text = " ".join(parser._get_formatter()._get_help_string(action).split())
            where = f"translator {name} {action.option_strings[0] if action.option_strings else action.dest}"
            if action.nargs == 0:
                assert "(default:" not in help_text, where
                continue
            if action.default is not argparse.SUPPRESS and action.option_strings and not action.required:
                assert "default" in help_text, where
            if action.default not in (None, argparse.SUPPRESS):
                assert f"(default: {action.default})" in text, where


def test_xla_cache_flags_keep_what_the_user_set(tmp_path):
    cache = tmp_path / "cache" / "xla"
    assert xla_cache_flags("", cache) == f"{XLA_CACHE_FLAG}={cache}" and cache.is_dir()
    assert xla_cache_flags("--tf_xla_auto_jit=2", cache) == f"--tf_xla_auto_jit=2 {XLA_CACHE_FLAG}={cache}"
    for own in (f"{XLA_CACHE_FLAG}=/theirs", f"{XLA_CACHE_FLAG}="):
        assert xla_cache_flags(own, cache) == own
    # XLA fails every compile it cannot save: a cache that cannot be written is left out.
    (tmp_path / "a file").write_text("")
    assert xla_cache_flags("--tf_xla_auto_jit=2", tmp_path / "a file" / "xla") == "--tf_xla_auto_jit=2"
    assert xla_cache_directory({"XDG_CACHE_HOME": "/elsewhere"}) == Path("/elsewhere/translator/xla")
    assert xla_cache_directory({}) == Path.home() / ".cache" / "translator" / "xla"


def test_translate_keeps_compiled_shapes_for_the_next_run(tiny_model_dir, tmp_path):
    env = {**ENV, "XDG_CACHE_HOME": str(tmp_path)}
    del env["TF_XLA_FLAGS"]
    cache = tmp_path / "translator" / "xla"
    first = cli("translate", "--model", tiny_model_dir, "--xla", "on", stdin="Help!\nTom is here.\n", env=env)
    compiled = sorted(cache.iterdir())
    second = cli("translate", "--model", tiny_model_dir, "--xla", "on", stdin="Help!\nTom is here.\n", env=env)
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    # The second run compiled nothing: it loaded every shape from the cache.
    assert compiled and sorted(cache.iterdir()) == compiled
    assert first.stdout == second.stdout == "¡Ayuda!\nTom está aquí.\n"

    # Another model of the same shapes shares the entries: weights are inputs of the compiled program.
    model, pipeline, config = model_dir.load(tiny_model_dir)
    rng = np.random.default_rng(0)
    model.set_weights([w + rng.normal(0, 0.5, w.shape).astype(w.dtype) for w in model.get_weights()])
    other = tmp_path / "other"
    model_dir.save(other, model, pipeline, config)
    third = cli("translate", "--model", other, "--xla", "on", stdin="Help!\nTom is here.\n", env=env)
    assert third.returncode == 0, third.stderr
    assert sorted(cache.iterdir()) == compiled and third.stdout != first.stdout


@pytest.mark.parametrize("sentence", ["It costs $84.99, don't pay `now`.", 'Say "hi" to $HOME & Tom; 100%'])
def test_make_translate_passes_the_sentence_as_typed(sentence):
    # make would read "$8" of "$84.99" as a variable (the translator got "4.99"), and a shell would too.
    root = Path(__file__).resolve().parent.parent
    dry_run = subprocess.run(["make", "-n", "-s", "-C", str(root), "translate", f"SENTENCE={sentence}"],
                             capture_output=True, text=True, check=True).stdout
    command = dry_run[dry_run.index("-m translator translate"):].strip()
    # The shell reads the command's words as the recipe runs it; the last is what the translator is given.
    last = subprocess.run(["bash", "-c", f"set -- {command}\nprintf '%s' \"${{@: -1}}\""], capture_output=True,
                          text=True, check=True).stdout
    assert last == sentence
