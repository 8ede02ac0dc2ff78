"""Hostile input and output: bytes that are not UTF-8, odd line endings, huge files, missing or full outputs.

Each probe of bench/RESULTS.md ("Hostile input") is a test here. The reader and writer
(translator/files/lines.py) are tested directly; the commands in-process through
`cli.main` (with the tiny model), or in a subprocess where the process
itself matters (standard input and output, exit-time flushing).
"""

import io
import os
import subprocess
import sys
import tracemalloc
import zipfile

import pytest

from translator import cli
from translator.files import lines
from translator.training import data


def run_cli(capsys, *args):
    """`translator ARGS` in this process: (exit status, stdout, stderr)."""
    code = cli.main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_process(env, *args, stdin=b"", stdout=subprocess.PIPE):
    """`translator ARGS` in a process of its own."""
    return subprocess.run([sys.executable, "-m", "translator", *map(str, args)], input=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, timeout=300, env=env)


def read(text):
    return list(lines.read_lines(io.BytesIO(text)))


# The reader and the writer.


def test_invalid_utf8_spoils_only_its_line_and_says_where():
    good, bad = b"Tom is here.\n", b"caf\xe9 \xff\xfe ok\n"
    result = read(good + bad + good)
    assert [line.text for line in result] == ["Tom is here.", "caf\ufffd \ufffd\ufffd ok", "Tom is here."]
    assert [line.number for line in result] == [1, 2, 3]
    assert result[0].problem is None and result[2].problem is None
    assert result[1].problem == "is not valid UTF-8 at byte offset 3 of the line (16 of the input)"
    assert "U+FFFD" in result[1].repair


def test_bom_crlf_nul_blank_lines_and_no_final_newline():
    result = read(b"\xef\xbb\xbfHello.\r\n\r\nTom\x00is here.\r\nLast line")
    assert [line.text for line in result] == ["Hello.", "", "Tom is here.", "Last line"]
    assert [line.problem for line in result] == [None, None, "holds NUL bytes", None]
    # A byte order mark is only one at the very start; elsewhere it is text.
    assert read(b"a\n\xef\xbb\xbfb")[1].text == "\ufeffb"
    assert read(b"") == []


def test_an_overlong_line_is_left_out_without_being_held_in_memory():
    class Recording(io.BytesIO):
        largest = 0

        def readline(self, size=-1):
            chunk = super().readline(size)
            Recording.largest = max(Recording.largest, len(chunk))
            return chunk

    megabyte_line = b"word " * 200_000 + b"\n"
    result = list(lines.read_lines(Recording(b"first\n" + megabyte_line + b"last"), max_bytes=1000))
    assert [line.text for line in result] == ["first", "", "last"]
    assert result[1].problem == "is 1,000,001 bytes long, over the limit of 1,000"
    assert Recording.largest <= lines.SKIP_CHUNK


def test_a_20_megabyte_file_is_read_lazily_in_bounded_memory(tmp_path):
    path = tmp_path / "big.txt"
    line = b"Tom is here and Mary is not, " * 7 + b"\n"
    count = 20_000_000 // len(line)
    path.write_bytes(line * count)
    handle = lines.open_input(path)
    reader = lines.read_lines(handle, source=str(path))
    assert next(reader).number == 1
    assert handle.raw.tell() < 1_000_000  # one buffer read, not the file
    tracemalloc.start()
    try:
        assert sum(1 for _ in reader) == count - 1
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
    assert handle.closed


def test_a_read_that_fails_midway_is_one_error():
    with pytest.raises(lines.FileError, match="cannot read /proc/self/mem: Input/output error"):
        list(lines.read_lines(lines.open_input("/proc/self/mem"), source="/proc/self/mem"))


def test_output_is_replaced_whole_or_left_as_it_was(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old\n")
    with pytest.raises(RuntimeError), lines.written_whole(path) as output:
        output.write("half of the new\n")
        raise RuntimeError("translation failed")
    assert path.read_text() == "old\n"
    with lines.written_whole(path) as output:
        output.write("new\n")
    assert path.read_text() == "new\n"
    fresh = tmp_path / "fresh.txt"
    with lines.written_whole(fresh) as output:
        output.write("x\n")
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask  # as open() would make it, not mkstemp's 0600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.txt", "out.txt"]  # no temporary files left


def test_a_full_disk_or_missing_folder_is_one_error(tmp_path):
    with pytest.raises(lines.FileError, match="cannot write /dev/full: No space left on device"):
        with lines.written_whole("/dev/full") as output:
            output.write("x\n")
    with pytest.raises(lines.FileError, match="there is no folder"):
        with lines.written_whole(tmp_path / "missing" / "out.txt"):
            pass
    assert os.path.exists("/dev/full") and not os.path.isfile("/dev/full")  # written to, never replaced


# The translate command.


def test_one_invalid_line_among_a_thousand_is_warned_and_the_rest_translated(tiny_model_dir, tmp_path, command_env):
    source = tmp_path / "in.txt"
    source.write_bytes(b"Tom is here.\n" * 500 + b"I see caf\xe9 Tom.\n" + b"Help!\n" * 500)
    output = tmp_path / "out.txt"
    result = run_process(command_env, "translate", "--model", tiny_model_dir, "--file", source, "--output", output)
    assert result.returncode == 1, result.stderr
    translations = output.read_text(encoding="utf-8").split("\n")
    assert translations[-1] == "" and len(translations) == 1002  # 1,001 lines, each ending in \n
    assert translations[:500] == ["Tom está aquí."] * 500
    assert translations[501:1001] == ["¡Ayuda!"] * 500
    assert translations[500]  # the bad line is translated too
    warnings = result.stderr.decode().splitlines()
    assert warnings == [f"translator translate: warning: {source}, line 501 is not valid UTF-8 at byte offset 9 "
                        f"of the line (6,509 of the input); bad bytes replaced with U+FFFD"]


def test_invalid_utf8_on_standard_input(tiny_model_dir, command_env):
    result = run_process(command_env, "translate", "--model", tiny_model_dir, stdin=b"caf\xe9 \xff\xfe invalid utf8\nHelp!\n")
    assert result.returncode == 1
    assert result.stdout.decode().splitlines()[1] == "¡Ayuda!"
    assert "standard input, line 1 is not valid UTF-8" in result.stderr.decode()
    assert "Traceback" not in result.stderr.decode()


def test_invalid_utf8_in_an_argument(tiny_model_dir, capsys):
    # How Python hands over an argument whose bytes are not UTF-8.
    argument = os.fsdecode(b"Help! caf\xe9")
    code, out, err = run_cli(capsys, "translate", "--model", tiny_model_dir, argument)
    assert code == 1 and out.startswith("¡Ayuda!") and "the text argument, line 1 is not valid UTF-8" in err


def test_bom_crlf_nul_blank_lines_long_line_and_no_final_newline(tiny_model_dir, tmp_path, capsys):
    source = tmp_path / "in.txt"
    many_sentences = b"Tom is here. " * 50
    source.write_bytes(b"\xef\xbb\xbfTom is here.\r\n\r\nHelp!\r\n" + many_sentences + b"\r\nI see\x00Tom.\nHelp!")
    output = tmp_path / "out.txt"
    code, _, err = run_cli(capsys, "translate", "--model", tiny_model_dir, "--file", source, "--output", output)
    assert code == 1
    translated = output.read_bytes().decode("utf-8")
    assert "\r" not in translated
    assert translated.split("\n") == ["Tom está aquí.", "", "¡Ayuda!", " ".join(["Tom está aquí."] * 50),
                                      "Veo a Tom.", "¡Ayuda!", ""]
    assert err.splitlines() == [f"translator translate: warning: {source}, line 5 holds NUL bytes; "
                                "NUL bytes replaced with spaces"]


def test_past_twenty_bad_lines_they_are_counted_not_listed(tiny_model_dir, tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_bytes(b"Help! \xff\n" * 25 + b"Help!\n")
    code, out, err = run_cli(capsys, "translate", "--model", tiny_model_dir, "--file", source)
    assert code == 1 and out.count("\n") == 26
    warnings = err.splitlines()
    assert len(warnings) == cli.MAX_WARNINGS + 1 and "line 20 is not valid UTF-8" in warnings[19]
    assert warnings[-1] == (f"translator translate: warning: 25 of 26 lines were repaired or left out "
                            f"(the first {cli.MAX_WARNINGS} listed above)")


def test_clean_input_exits_0(tiny_model_dir, tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_text("Tom is here.\n\nHelp!\n")
    assert run_cli(capsys, "translate", "--model", tiny_model_dir, "--file", source) == (
        0, "Tom está aquí.\n\n¡Ayuda!\n", "")


def test_a_megabyte_line_is_left_out_with_a_warning(tiny_model_dir, tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_bytes(b"Help!\n" + b"Tom is here. " * 80_000 + b"\nHelp!\n")
    code, out, err = run_cli(capsys, "translate", "--model", tiny_model_dir, "--file", source)
    assert code == 1 and out == "¡Ayuda!\n\n¡Ayuda!\n"
    assert "line 2 is 1,040,001 bytes long, over the limit of 100,000; left out" in err


def test_the_command_streams_a_large_file_in_chunks(tmp_path, capsys, monkeypatch):
    class Upper:
        chunks = []

        def translate_with_notes(self, texts, beam_size=1, glossary=None):
            Upper.chunks.append(len(texts))
            return [text.upper() for text in texts], [[] for _ in texts]

    from translator.translate import Translator

    monkeypatch.setattr(Translator, "load", classmethod(lambda cls, *args, **kwargs: Upper()))
    source, output = tmp_path / "in.txt", tmp_path / "out.txt"
    count = 10 * cli.CHUNK_LINES + 7
    source.write_bytes(b"Tom is here and Mary is not, says Tom.\n" * count)
    tracemalloc.start()
    try:
        code, _, err = run_cli(capsys, "translate", "--file", source, "--output", output)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 0, err
    assert Upper.chunks == [cli.CHUNK_LINES] * 10 + [7]
    assert peak < 2_000_000  # the file is 1.6 MB: a chunk at a time, not the whole of it
    assert output.stat().st_size == source.stat().st_size


@pytest.mark.parametrize("make_input, message", [
    (lambda folder: folder / "missing.txt", "cannot read {path}: No such file or directory"),
    (lambda folder: folder, "cannot read {path}: Is a directory"),
    (lambda folder: "/proc/self/mem", "cannot read {path}: Input/output error"),
])
def test_missing_or_unreadable_input_is_one_line_and_exit_2(tiny_model_dir, tmp_path, capsys, make_input, message):
    path = make_input(tmp_path)
    output = tmp_path / "out.txt"
    code, out, err = run_cli(capsys, "translate", "--model", tiny_model_dir, "--file", path, "--output", output)
    assert (code, out) == (2, "")
    assert err == f"translator translate: {message.format(path=path)}\n"
    assert not output.exists() and [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_a_file_without_read_permission_is_one_line_and_exit_2(tiny_model_dir, tmp_path, capsys):
    path = tmp_path / "secret.txt"
    path.write_text("Help!\n")
    path.chmod(0)
    code, _, err = run_cli(capsys, "translate", "--model", tiny_model_dir, "--file", path)
    assert code == 2 and err == f"translator translate: cannot read {path}: Permission denied\n"


def test_output_in_a_missing_folder_or_on_a_full_disk_is_one_line_and_exit_2(tiny_model_dir, tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_text("Help!\n")
    missing = tmp_path / "nowhere" / "out.txt"
    code, _, err = run_cli(capsys, "translate", "--model", tiny_model_dir, "--file", source, "--output", missing)
    assert (code, err) == (2, f"translator translate: cannot write {missing}: there is no folder {missing.parent}\n")
    code, _, err = run_cli(capsys, "translate", "--model", tiny_model_dir, "--file", source, "--output", "/dev/full")
    assert (code, err) == (2, "translator translate: cannot write /dev/full: No space left on device\n")


def test_standard_output_on_a_full_disk_is_one_line_and_exit_2(tiny_model_dir, command_env):
    with open("/dev/full", "wb") as full:
        result = run_process(command_env, "translate", "--model", tiny_model_dir, stdin=b"Help!\n", stdout=full)
    assert result.returncode == 2
    assert result.stderr.decode() == "translator translate: cannot write standard output: No space left on device\n"


# The corpus loader, evaluate --pairs and the HTTP API.


def test_corpus_lines_are_decoded_one_by_one(tmp_path, capsys):
    corpus = tmp_path / "pairs.tsv"
    corpus.write_bytes(b"\xef\xbb\xbfGo.\tVe.\r\nCaf\xe9.\tCaf\xe9.\r\nHi.\tHola.\r\nA\x00.\tB.\nBye.\tAdi\xc3\xb3s.")
    code, _, err = run_cli(capsys, "data", "--data", corpus)
    assert code == 2
    assert err == (f"translator data: {corpus}, line 2 is not valid UTF-8 at byte offset 3 of the line "
                   "(15 of the input) (skip such lines with --skip-malformed)\n")
    code, out, _ = run_cli(capsys, "data", "--data", corpus, "--skip-malformed")
    assert code == 0 and "3 unique pairs (2 malformed lines skipped)" in out


def test_a_zip_corpus_damaged_inside_is_one_error(tmp_path, capsys):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(data.CORPUS_MEMBER, "".join(f"Go {i}.\tVe {i}.\n" for i in range(2000)))
    damaged = bytearray(buffer.getvalue())
    damaged[200] ^= 0xFF  # inside the compressed text: found only while reading it
    corpus = tmp_path / "corpus.zip"
    corpus.write_bytes(damaged)
    code, _, err = run_cli(capsys, "data", "--data", corpus)
    assert code == 2 and err.startswith(f"translator data: {corpus} is corrupt: ") and err.count("\n") == 1


def test_evaluate_pairs_with_a_bom_crlf_and_a_bad_line(tiny_model_dir, tmp_path, pairs, capsys, monkeypatch):
    monkeypatch.delenv("TRANSLATOR_DATA", raising=False)
    corpus = tmp_path / "corpus.tsv"  # a stand-in for the corpus, for its training words
    corpus.write_text("".join(f"{en}\t{es}\n" for en, es in pairs), encoding="utf-8")
    good = b"\xef\xbb\xbf" + b"".join(f"{en}\t{es}\r\n".encode() for en, es in pairs[:5])
    pairs_file = tmp_path / "pairs.tsv"
    pairs_file.write_bytes(good)
    code, out, err = run_cli(capsys, "evaluate", "--model", tiny_model_dir, "--pairs", pairs_file, "--data", corpus)
    assert code == 0, err
    assert f"{pairs_file}: 5 sentences" in out
    pairs_file.write_bytes(good + b"Caf\xe9.\tCaf\xe9.\r\n")
    code, _, err = run_cli(capsys, "evaluate", "--model", tiny_model_dir, "--pairs", pairs_file, "--data", corpus)
    assert code == 2 and f"{pairs_file}, line 6 is not valid UTF-8" in err


def test_http_api_answers_bad_bytes_with_400(tiny_translator):
    from fastapi.testclient import TestClient

    from translator.serving import server

    with TestClient(server.create_app(tiny_translator)) as client:
        headers = {"content-type": "application/json"}
        body = b'{"text": "caf\xe9"}'
        response = client.post("/translate", content=body, headers=headers)
        error = f"the request body is not UTF-8 (byte {body.index(0xE9)})"
        assert (response.status_code, response.json()) == (400, {"error": error})
        response = client.post("/translate", content=b'{"texts": ["ok", "a\\ud800b"]}', headers=headers)
        assert (response.status_code, response.json()) == (400, {"error": "text 1 holds an unpaired surrogate (\\ud800)"})
        response = client.post("/attention", content=b'{"text": "\\udfff"}', headers=headers)
        assert response.status_code == 400
        assert client.post("/translate", json={"text": "Help!"}).json()["translations"] == ["¡Ayuda!"]
