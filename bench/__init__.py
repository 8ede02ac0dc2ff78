"""The project's benchmarks (`python -m bench`), and what their modules share."""

import os
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


def child_environment(project=PROJECT, **variables):
    """This process' environment with `variables`, and `project`'s code first on the import path: a child
    process started with it runs that code, whatever is installed."""
    path = os.pathsep.join(filter(None, [str(project), os.environ.get("PYTHONPATH")]))
    return {**os.environ, **variables, "PYTHONPATH": path}
