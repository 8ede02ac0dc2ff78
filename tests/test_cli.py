"""The `translator` command end to end, in subprocesses, on the tiny model."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from translator.defaults import TF_LOG_LEVEL

ENV = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": TF_LOG_LEVEL}


def cli(*args, stdin=None, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "translator", *map(str, args)],
        input=stdin, capture_output=True, text=True, timeout=300, env=ENV, cwd=cwd,
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


def test_evaluate_on_a_pairs_file_writes_metrics(tiny_model_dir, tmp_path, pairs):
    pairs_file = tmp_path / "pairs.tsv"
    pairs_file.write_text("".join(f"{i}\t{en}\t{i}\t{es}\n" for i, (en, es) in enumerate(pairs)), encoding="utf-8")
    result = cli("evaluate", "--model", tiny_model_dir, "--pairs", pairs_file, "--columns", "1,3", "--no-placeholders")
    assert result.returncode == 0, result.stderr
    assert "BLEU" in result.stdout and "chrF" in result.stdout and "nrefs:1" in result.stdout
    assert "no placeholders" in result.stdout and "held-out set" in result.stdout
    evaluation = json.loads((Path(tiny_model_dir) / "metrics.json").read_text())["evaluation"]
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
