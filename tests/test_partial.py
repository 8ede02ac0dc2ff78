"""Long jobs: translations kept in OUT.partial as they are done, an interrupted job resumed, progress shown.

The whole-process test stops `translate --file` with SIGTERM midway (the tiny
model, chunks of 4 lines, each slowed a little so the signal lands midway)
and resumes it to the same bytes as an uninterrupted run.
"""

import signal
import subprocess
import sys
import time

import pytest

from translator import cli
from translator.files import partial
from translator.files.progress import Progress, on_terminal

JOB = {"input": {"bytes": 10, "sha256": "ab"}, "beam": 4, "chunk_lines": 2}


def body(path):
    """A partial file's translations: what follows its header line."""
    return path.read_text(encoding="utf-8").split("\n", 1)[1]


def test_translations_reach_the_partial_file_as_written_and_become_the_output(tmp_path):
    output = tmp_path / "out.txt"
    output.write_text("old\n")
    with partial.resumable(output, JOB) as written:
        written.write(["uno", "dos"])
        kept = tmp_path / "out.txt.partial"
        assert kept.read_text(encoding="utf-8").startswith(partial.HEADER) and body(kept) == "uno\ndos\n"
        assert output.read_text() == "old\n"  # replaced only at the end
        written.write(["tres"])
    assert output.read_text(encoding="utf-8") == "uno\ndos\ntres\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_an_interrupted_job_keeps_its_whole_chunks_and_resumes_from_them(tmp_path):
    output = tmp_path / "out.txt"
    with pytest.raises(KeyboardInterrupt, match=r"3 lines translated are kept in .*out.txt.partial; .*--resume"):
        with partial.resumable(output, JOB) as written:
            written.write(["uno", "dos"])
            written.write(["tr"])  # half a chunk: translated again on resuming
            raise KeyboardInterrupt
    assert not output.exists()
    with pytest.raises(ValueError, match="holds an interrupted translation: continue it with --resume"):
        with partial.resumable(output, JOB):
            pass
    with pytest.raises(ValueError, match="made with another beam, input: resume with the same"):
        with partial.resumable(output, {**JOB, "beam": 1, "input": {"bytes": 11, "sha256": "ab"}}, resume=True):
            pass
    with partial.resumable(output, JOB, resume=True) as written:
        assert written.done == 2
        assert body(tmp_path / "out.txt.partial") == "uno\ndos\n"
        written.write(["tres", "cuatro"])
    assert output.read_text(encoding="utf-8") == "uno\ndos\ntres\ncuatro\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_a_job_stopped_before_any_translation_leaves_nothing(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        with partial.resumable(tmp_path / "out.txt", JOB):
            raise KeyboardInterrupt
    with pytest.raises(ValueError, match="there is no .*out.txt.partial to resume"):
        with partial.resumable(tmp_path / "out.txt", JOB, resume=True):
            pass
    assert list(tmp_path.iterdir()) == []


def test_progress_is_drawn_on_standard_error_only_when_asked(capsys):
    Progress(10, "line", shown=True).update(10)
    captured = capsys.readouterr()
    assert captured.out == "" and "10/10" in captured.err and "line" in captured.err
    Progress(10, "line", shown=False).update(10)
    assert capsys.readouterr() == ("", "")
    assert not on_terminal()  # standard error is captured here, not a terminal
    assert not on_terminal(quiet=True)


# Small chunks, each a little slow, so that SIGTERM lands midway.
SLOW_TRANSLATE = """
import sys, time
from translator import cli
cli.import_tensorflow_quietly()
from translator.translate import Translator

cli.CHUNK_LINES = 4
translate = Translator.translate
Translator.translate = lambda self, *args, **kwargs: time.sleep(0.05) or translate(self, *args, **kwargs)
sys.exit(cli.main(sys.argv[1:]))
"""


def translate_process(command_env, model, source, output, *flags):
    command = [sys.executable, "-c", SLOW_TRANSLATE, "translate", "--model", str(model), "--file", str(source),
               "--output", str(output), *flags]
    return subprocess.Popen(command, env=command_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_sigterm_midway_then_resume_gives_the_uninterrupted_output(tiny_model_dir, tiny_translator, sentences,
                                                                   tmp_path, command_env, capsys, monkeypatch):
    english = [sentences[i % len(sentences)] for i in range(120)]
    source = tmp_path / "in.txt"
    source.write_text("".join(f"{line}\n" for line in english), encoding="utf-8")
    # What an uninterrupted run writes: the same chunks of 4 lines, translated in order.
    whole = "".join(f"{translation}\n" for start in range(0, len(english), 4)
                    for translation in tiny_translator.translate(english[start:start + 4], beam_size=4))

    work = tmp_path / "work"
    work.mkdir()
    output, kept = work / "out.txt", work / "out.txt.partial"
    output.write_text("old\n")
    run = translate_process(command_env, tiny_model_dir, source, output)
    deadline = time.monotonic() + 300
    while not (kept.is_file() and kept.read_text(encoding="utf-8").count("\n") > 1 + 8):
        assert run.poll() is None and time.monotonic() < deadline, run.stderr.read()
        time.sleep(0.02)
    run.send_signal(signal.SIGTERM)
    assert run.wait(timeout=60) == 143
    error = run.stderr.read()
    assert error.startswith("translator translate: terminated: ") and "--resume" in error and error.count("\n") == 1
    done = body(kept)
    assert 8 <= done.count("\n") < 120 and whole.startswith(done)
    assert output.read_text() == "old\n"
    assert sorted(p.name for p in work.iterdir()) == ["out.txt", "out.txt.partial"]

    resume = ["translate", "--model", tiny_model_dir, "--file", source, "--output", output, "--resume"]
    monkeypatch.setattr(cli, "CHUNK_LINES", 4)
    assert cli.main([str(arg) for arg in [*resume, "--beam", "1"]]) == 2
    assert "made with another beam: resume with the same" in capsys.readouterr().err
    assert body(kept) == done
    assert cli.main([str(arg) for arg in resume]) == 0
    assert capsys.readouterr() == ("", "")  # no progress bar: standard error is not a terminal
    assert output.read_text(encoding="utf-8") == whole
    assert sorted(p.name for p in work.iterdir()) == ["out.txt"]
