"""The walkthrough notebooks: committed without outputs, and each runs top to bottom without an error.

Each notebook is executed in a fresh kernel of *this* Python (the one running
pytest), with `notebooks/` as its working directory. A notebook's metadata
may say what it needs (`{"translator": {"needs": ["corpus", "model"]}}`);
when that is missing here, its execution test is skipped with the reason.
"""

import json
import os
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from translator.defaults import DEFAULT_MODEL

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
KERNEL_NAME = "python3"
EXPECTED = [
    "01_data_and_vectorization",
    "02_embeddings_and_positions",
    "03_attention",
    "04_model_and_training",
    "05_greedy_decoding",
]


def _missing(need):
    """Why a notebook's need is not met here, or None."""
    if need == "corpus":
        given = os.environ.get("TRANSLATOR_DATA")
        if given:
            return None if Path(given).is_file() else f"TRANSLATOR_DATA={given} does not exist"
        if (ROOT / "data" / "spa-eng.zip").is_file():
            return None
        return "no corpus: set TRANSLATOR_DATA or put spa-eng.zip in data/"
    if need == "model":
        model = Path(os.environ.get("TRANSLATOR_NOTEBOOK_MODEL", ROOT / DEFAULT_MODEL))
        if not model.is_absolute():
            model = NOTEBOOK_DIR / model
        return None if (model / "model.keras").is_file() else f"no trained model at {model}: run `make train`"
    return f"unknown need {need!r}"


@pytest.fixture(scope="session")
def kernel_of_this_python(tmp_path_factory):
    """A `python3` kernelspec that starts this interpreter, first on JUPYTER_PATH.

    A `python3` kernelspec elsewhere (a user's, a system's) could start another
    Python without the project installed; this one cannot.
    """
    kernels = tmp_path_factory.mktemp("jupyter") / "kernels" / KERNEL_NAME
    kernels.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": f"Python {sys.version_info.major}.{sys.version_info.minor} (tests)",
        "language": "python",
    }
    (kernels / "kernel.json").write_text(json.dumps(spec))
    saved = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(kernels.parent.parent), saved]))
    yield KERNEL_NAME
    if saved is None:
        os.environ.pop("JUPYTER_PATH", None)
    else:
        os.environ["JUPYTER_PATH"] = saved


def execute(nb, kernel_name):
    client = NotebookClient(
        nb, timeout=600, kernel_name=kernel_name, resources={"metadata": {"path": str(NOTEBOOK_DIR)}}
    )
    return client.execute()


def test_all_walkthroughs_are_there():
    assert [path.stem for path in NOTEBOOKS] == EXPECTED


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for number, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        assert cell.get("outputs") == [], f"{path.name}: cell {number} has outputs; clear them before committing"
        assert cell.get("execution_count") is None, f"{path.name}: cell {number} has an execution count"


def test_kernel_runs_this_python(kernel_of_this_python):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import sys; print(sys.executable)")])
    execute(nb, kernel_of_this_python)
    printed = nb.cells[0].outputs[0]["text"].strip()
    assert Path(printed).resolve() == Path(sys.executable).resolve()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_runs(path, kernel_of_this_python):
    nb = nbformat.read(path, as_version=4)
    for need in nb.metadata.get("translator", {}).get("needs", []):
        reason = _missing(need)
        if reason:
            pytest.skip(reason)
    # Raises CellExecutionError, with the failing cell and its traceback, on any error.
    execute(nb, kernel_of_this_python)
    assert not skipped_cells(nb), f"{path.name}: cells not run: {skipped_cells(nb)}"


def skipped_cells(nb):
    """The numbers of the code cells that an execution did not run, in order, one after the other
    (empty cells are never sent to the kernel).

    >>> ran = nbformat.v4.new_code_cell("1", execution_count=1)
    >>> skipped_cells(nbformat.v4.new_notebook(cells=[ran, nbformat.v4.new_code_cell("2")]))
    [1]
    """
    code = [cell for cell in nb.cells if cell.cell_type == "code" and cell.source.strip()]
    return [number for number, cell in enumerate(code) if cell.get("execution_count") != number + 1]
