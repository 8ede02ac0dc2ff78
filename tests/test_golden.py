"""The golden sets on the shipped model: every line keeps the spans it must keep as written.

`golden.tsv` holds sentences people typed to find failures (numbers, URLs, e-mail addresses, handles, paths, codes,
phones, times in digits, names kept as written...), each with the strings a correct translation holds verbatim (the
spans `translator.text.verbatim` finds whose value is their text); `golden_heldout.tsv` the same from sentences
never tuned against. Each records what the shipped model keeps today: a line that fails is a regression.
"""

from pathlib import Path

import pytest

from translator.defaults import DEFAULT_MODEL
from translator.evaluation import quality
from translator.translate import Translator

MODEL = Path(__file__).resolve().parent.parent / DEFAULT_MODEL
SETS = ("golden.tsv", "golden_heldout.tsv")
BEAM = 4  # the beam the sets were recorded with

pytestmark = pytest.mark.skipif(not (MODEL / "model.keras").is_file(), reason="no shipped model")


@pytest.fixture(scope="module")
def translated():
    """Each golden set's rows and their translations: both sets in one batched call, one load of the model."""
    rows = {name: quality.load_copy_set(name) for name in SETS}
    english = [sentence for name in SETS for sentence, _ in rows[name]]
    translations = iter(Translator.load(MODEL, jit_compile=False).translate(english, beam_size=BEAM))
    return {name: [(sentence, items, next(translations)) for sentence, items in rows[name]] for name in SETS}


@pytest.mark.parametrize("name", SETS)
def test_the_shipped_model_keeps_every_golden_span(translated, name):
    rows = translated[name]
    assert len(rows) >= 40
    failing = [f"{english!r} -> {translation!r} (expected {items})" for english, items, translation in rows
               if quality.copy_rate([translation], [items]) < 1]
    assert not failing, f"{len(failing)} of {len(rows)} lines of {name} lost a span:\n" + "\n".join(failing)
