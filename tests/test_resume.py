"""Kill and resume, really run: `translator train` killed with SIGKILL mid-epoch, then run again.

A run backs up its weights, optimizer state and epoch count at the end of
every epoch (`runs/<name>/backup/`), so the same command run again resumes
after the last finished epoch: the work lost is the epoch that was under way
when the process died, never more.
"""

import csv
import json
import subprocess
import sys
import time

from translator import model_dir
from translator.config import preset
from translator.training import run_state, train


def finished_epochs(run_dir):
    history = run_dir / "history.csv"
    if not history.is_file():
        return 0
    with history.open() as handle:
        return len(list(csv.DictReader(handle)))


def test_a_run_killed_mid_epoch_resumes_after_its_last_finished_epoch(tmp_path, pairs, command_env):
    # 800 pairs: an epoch of the tiny model (some 35 steps) lasts many times the 20 ms in which the test sees the
    # first one end and kills the run, so the second is killed under way.
    corpus = tmp_path / "pairs.tsv"
    corpus.write_text("".join(f"{en} {i}\t{es} {i}\n" for i in range(20) for en, es in pairs), encoding="utf-8")
    command = [sys.executable, "-m", "translator", "train", "--preset", "tiny", "--epochs", "2", "--seed", "7",
               "--data", str(corpus), "--output", "models"]
    run_dir = tmp_path / "runs" / "tiny"

    with open(tmp_path / "first.log", "w") as log:
        process = subprocess.Popen(command, cwd=tmp_path, env=command_env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 600  # a hang, not a slow shared machine
            while finished_epochs(run_dir) < 1:
                assert process.poll() is None, (tmp_path / "first.log").read_text()[-3000:]
                assert time.monotonic() < deadline
                time.sleep(0.02)
        finally:
            process.kill()  # SIGKILL, as the second epoch starts: nothing of it is saved
            process.wait()
    assert finished_epochs(run_dir) == 1  # killed before the second epoch ended
    assert json.loads((run_dir / "backup" / "training_metadata.json").read_text())["epoch"] == 1
    assert not (tmp_path / "models").exists()

    again = subprocess.run(command, cwd=tmp_path, env=command_env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "resuming the run" in again.stderr  # a log record, which the CLI writes to stderr
    # Only the unfinished epoch ran again.
    assert "Epoch 1/2" not in again.stdout and "Epoch 2/2" in again.stdout
    history = run_state.read_history(run_dir / "history.csv")
    assert [row["epoch"] for row in history] == ["0", "1"]
    assert not (run_dir / "backup").exists()  # removed once the run finished

    straight = train.train(preset("tiny", epochs=2, seed=7), data_path=corpus, output_dir=tmp_path / "straight",
                           runs_dir=tmp_path / "straight-runs")
    resumed = tmp_path / "models" / "tiny"
    assert (resumed / "config.json").read_text() == (straight / "config.json").read_text()
    for name in ("vocab_en.txt", "vocab_es.txt"):
        assert (resumed / name).read_text() == (straight / name).read_text()
    shapes = [[w.shape for w in model_dir.load(path)[0].get_weights()] for path in (resumed, straight)]
    assert shapes[0] == shapes[1]
