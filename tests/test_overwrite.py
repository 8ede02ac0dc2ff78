"""Nothing the user has is overwritten unless asked: evaluate's reports, average's and export's outputs."""

import json

from translator import model_dir
from translator.cli import main


def run_cli(capsys, *args):
    """`translator ARGS` in this process: (exit status, stdout, stderr)."""
    code = main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_evaluate_on_a_pairs_file_leaves_the_models_metrics_alone(tiny_model_dir, tmp_path, pairs, capsys):
    metrics = (tiny_model_dir / model_dir.METRICS_FILE).read_bytes()
    pairs_file = tmp_path / "pairs.tsv"
    pairs_file.write_text("".join(f"{en}\t{es}\n" for en, es in pairs[:2]), encoding="utf-8")
    code, out, err = run_cli(capsys, "evaluate", "--model", tiny_model_dir, "--pairs", pairs_file)
    assert code == 0, err
    assert f"{pairs_file}: 2 sentences" in out
    assert (tiny_model_dir / model_dir.METRICS_FILE).read_bytes() == metrics


def test_evaluate_writes_a_report_only_where_asked_and_never_over_a_file(tiny_model_dir, tmp_path, pairs, capsys):
    pairs_file = tmp_path / "pairs.tsv"
    pairs_file.write_text("".join(f"{en}\t{es}\n" for en, es in pairs[:3]), encoding="utf-8")
    report = tmp_path / "report.json"
    evaluate = ("evaluate", "--model", tiny_model_dir, "--pairs", pairs_file, "--quiet", "--report", report)
    code, _, err = run_cli(capsys, *evaluate)
    assert code == 0, err
    assert json.loads(report.read_text(encoding="utf-8"))["sentences"] == 3

    report.write_text("mine\n")
    code, _, err = run_cli(capsys, *evaluate)
    assert code == 2 and err == f"translator evaluate: {report} exists: pass --overwrite to replace it\n"
    assert report.read_text() == "mine\n"
    code, _, err = run_cli(capsys, *evaluate, "--overwrite")
    assert code == 0, err
    assert json.loads(report.read_text(encoding="utf-8"))["data"] == str(pairs_file)


def test_average_refuses_an_existing_output_unless_told(tiny_model_dir, tmp_path, capsys):
    output = tmp_path / "mine"
    output.mkdir()
    (output / "config.json").write_text("my own file\n")
    code, _, err = run_cli(capsys, "average", tiny_model_dir, tiny_model_dir, "--output", output)
    assert code == 2 and err == f"translator average: {output} exists: pass --overwrite to replace it\n"
    assert [p.name for p in output.iterdir()] == ["config.json"]
    assert (output / "config.json").read_text() == "my own file\n"

    code, _, err = run_cli(capsys, "average", tiny_model_dir, tiny_model_dir, "--output", output, "--overwrite")
    assert code == 0, err
    assert model_dir.load(output)[2].name == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]  # nothing left beside it


def test_export_refuses_an_existing_output_unless_told(tiny_model_dir, tmp_path, capsys):
    output = tmp_path / "export"
    output.mkdir()
    (output / "notes.txt").write_text("mine\n")
    code, _, err = run_cli(capsys, "export", "--model", tiny_model_dir, "--output", output)
    assert code == 2 and err == f"translator export: {output} exists: pass --overwrite to replace it\n"
    assert [p.name for p in output.iterdir()] == ["notes.txt"]

    code, _, err = run_cli(capsys, "export", "--model", tiny_model_dir, "--output", output, "--overwrite")
    assert code == 0, err
    assert (output / "saved_model.pb").is_file() and not (output / "notes.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export"]
