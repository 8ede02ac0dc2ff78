"""`translator serve` started as a user starts it: a process that loads the model, answers HTTP, stops on SIGTERM."""

import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

from tests.ports import free_ports

STARTUP_SECONDS = 120  # loading TensorFlow and tracing the decoder, on a shared machine


def get_json(url, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, json.loads(response.read())


def wait_for_health(url, process):
    """`GET url` once the server answers; fails at once if the process ends first."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited ({process.returncode}) before answering:\n{process.stdout.read()}")
        try:
            return get_json(url)
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.5)
    raise AssertionError(f"no answer from {url} in {STARTUP_SECONDS} s")


def test_serve_answers_and_stops_cleanly_on_sigterm(tiny_model_dir, tiny_translator, command_env, tmp_path):
    port = free_ports(1)[0]
    base = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [sys.executable, "-m", "translator", "serve", "--model", str(tiny_model_dir), "--port", str(port)],
        env=command_env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        status, health = wait_for_health(f"{base}/health", process)
        assert (status, health["status"], health["model"]) == (200, "ok", tiny_model_dir.name)
        texts = ["Tom is here.", "Where is Mary?"]
        status, answer = get_json(f"{base}/translate", {"texts": texts, "beam": 1})
        assert status == 200 and answer["model"] == tiny_model_dir.name
        assert answer["translations"] == tiny_translator.translate(texts, beam_size=1)
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    # Uvicorn shuts down gracefully, then exits by the signal it was stopped with (status -15), as servers do.
    assert process.returncode in (0, -signal.SIGTERM), output
    assert "Application shutdown complete" in output and "Traceback" not in output
    assert f"serving {tiny_model_dir} on http://127.0.0.1:{port}/" in output
