"""Inputs with nothing to work on: one clear line and exit status 2, never a traceback (but an empty pipe)."""

import io
import sys

from translator import cli


def run_cli(capsys, *args):
    """`translator ARGS` in this process: (exit status, stdout, stderr)."""
    code = cli.main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_pairs_file_with_no_pair_is_one_line_and_exit_2(tiny_model_dir, tmp_path, capsys):
    blank = tmp_path / "blank.tsv"
    blank.write_text("\n   \n\t \n\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "evaluate", "--model", tiny_model_dir, "--pairs", blank)
    assert (code, out) == (2, "")
    assert err == f"translator evaluate: {blank} holds no English<TAB>Spanish pair\n"


def test_a_corpus_with_no_usable_line_is_one_line_and_exit_2(tmp_path, capsys):
    empty = tmp_path / "empty.tsv"
    empty.write_bytes(b"")
    code, _, err = run_cli(capsys, "data", "--data", empty)
    assert (code, err) == (2, f"translator data: {empty} holds no English<TAB>Spanish pair\n")
    broken = tmp_path / "broken.tsv"
    broken.write_text("no tab here\nnor here\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "data", "--data", broken, "--skip-malformed")
    assert (code, err) == (2, f"translator data: {broken} holds no English<TAB>Spanish pair (2 malformed lines skipped)\n")


def test_an_empty_file_to_translate_is_one_line_and_exit_2(tiny_model_dir, tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    output = tmp_path / "out.txt"
    code, out, err = run_cli(capsys, "translate", "--model", tiny_model_dir, "--file", empty, "--output", output)
    assert (code, out) == (2, "")
    assert err == f"translator translate: {empty} is empty: there is nothing to translate\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.txt"]  # no output, no partial file


def test_empty_standard_input_is_empty_output(tiny_model_dir, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert run_cli(capsys, "translate", "--model", tiny_model_dir) == (0, "", "")
