"""Training on two workers (`MultiWorkerMirroredStrategy` from `TF_CONFIG`), really run: two processes here.

Each worker runs the same `translator train` command with its own
`TF_CONFIG`, as it would on its own machine; they train one model in step
over gRPC on 127.0.0.1. The chief (worker 0) writes the model directory; the
other worker keeps only its run state (`runs/<name>.worker-1/`).
"""

import json
import subprocess
import sys

import numpy as np
import pytest

from tests.ports import free_ports
from translator import devices, model_dir
from translator.training import run_state, selection
from translator.translate import Translator


def test_two_workers_train_one_model_and_only_the_chief_saves_it(tmp_path, pairs, command_env):
    corpus = tmp_path / "pairs.tsv"
    corpus.write_text("".join(f"{english}\t{spanish}\n" for english, spanish in pairs), encoding="utf-8")
    cluster = {"worker": [f"127.0.0.1:{port}" for port in free_ports(2)]}
    folders = [tmp_path / f"machine{index}" for index in range(2)]
    workers = []
    try:
        for index, folder in enumerate(folders):
            folder.mkdir()
            tf_config = {"cluster": cluster, "task": {"type": "worker", "index": index}}
            with open(folder / "log.txt", "w") as log:
                workers.append(subprocess.Popen(
                    [sys.executable, "-m", "translator", "train", "--preset", "tiny", "--epochs", "2",
                     "--data", str(corpus), "--output", "models"],
                    cwd=folder, env={**command_env, "TF_CONFIG": json.dumps(tf_config)}, stdout=log, stderr=subprocess.STDOUT,
                ))
        codes = [worker.wait(timeout=300) for worker in workers]
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()  # one worker failed: the other waits for it forever
    logs = [(folder / "log.txt").read_text()[-3000:] for folder in folders]
    assert codes == [0, 0], logs

    chief, other = folders
    output = chief / "models" / "tiny"
    assert not (other / "models").exists()
    training = model_dir.read_metrics(output)["training"]
    assert training["machine"]["replicas"] == 2 and training["epochs"] == 2
    # One model, trained in step: both workers logged the same losses and hold the same weights.
    other_run = other / "runs" / "tiny.worker-1"
    histories = [run_state.read_history(run / "history.csv") for run in (chief / "runs" / "tiny", other_run)]
    for history in histories:
        for row in history:
            del row["seconds"]
    assert histories[0] == histories[1] and len(histories[0]) == 2
    model, _, _ = model_dir.load(output)
    saved = model.get_weights()
    for path in (chief / "runs" / "tiny" / selection.BEST_FILE, other_run / selection.BEST_FILE):
        model.load_weights(str(path))
        for mine, theirs in zip(saved, model.get_weights(), strict=True):
            np.testing.assert_array_equal(mine, theirs)

    translations = Translator.load(output).translate(["Tom is here.", "Where is Mary?"])
    assert len(translations) == 2 and all(isinstance(text, str) for text in translations)


def test_a_malformed_tf_config_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", '{"cluster": ')
    with pytest.raises(ValueError, match="TF_CONFIG is not a JSON object"):
        devices.choose_strategy()
