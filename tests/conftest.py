"""Shared fixtures: a tiny parallel corpus and a tiny model trained on it (seconds on a CPU)."""

import os
from pathlib import Path

import pytest

from translator.defaults import TF_LOG_LEVEL, quiet_tensorflow

quiet_tensorflow()

# Short pairs with names mid-sentence (for the truecasing table) and the
# punctuation that must survive: ¿ ? ¡ ! , .
PAIRS = [
    ("Tom is here.", "Tom está aquí."),
    ("Mary is here.", "María está aquí."),
    ("I see Tom.", "Veo a Tom."),
    ("I see Mary.", "Veo a María."),
    ("Hello, Tom!", "¡Hola, Tom!"),
    ("Hello, Mary!", "¡Hola, María!"),
    ("What time is it?", "¿Qué hora es?"),
    ("Where is Tom?", "¿Dónde está Tom?"),
    ("Where is Mary?", "¿Dónde está María?"),
    ("He is not here.", "Él no está aquí."),
    ("She is not here.", "Ella no está aquí."),
    ("Mary lives in Spain.", "María vive en España."),
    ("Tom lives in Spain.", "Tom vive en España."),
    ("I live in Spain.", "Vivo en España."),
    ("We love Spain.", "Amamos España."),
    ("I like cats.", "Me gustan los gatos."),
    ("I like dogs.", "Me gustan los perros."),
    ("Tom likes cats.", "A Tom le gustan los gatos."),
    ("Mary likes dogs.", "A María le gustan los perros."),
    ("Where is the station?", "¿Dónde está la estación?"),
    ("The station is here.", "La estación está aquí."),
    ("I am tired.", "Estoy cansado."),
    ("Tom is tired.", "Tom está cansado."),
    ("Mary is tired.", "María está cansada."),
    ("Are you tired?", "¿Estás cansado?"),
    ("Thank you!", "¡Gracias!"),
    ("Good morning.", "Buenos días."),
    ("Good night.", "Buenas noches."),
    ("I am hungry.", "Tengo hambre."),
    ("Tom is hungry.", "Tom tiene hambre."),
    ("Are you hungry?", "¿Tienes hambre?"),
    ("I have a cat.", "Tengo un gato."),
    ("I have a dog.", "Tengo un perro."),
    ("Tom has a dog.", "Tom tiene un perro."),
    ("Mary has a cat.", "María tiene un gato."),
    ("I know Tom.", "Conozco a Tom."),
    ("I know Mary.", "Conozco a María."),
    ("Help!", "¡Ayuda!"),
    ("Come here.", "Ven aquí."),
    ("Tom came here.", "Tom vino aquí."),
]


# `make test-fast` (`pytest -m "not slow"`) leaves out the tests marked slow here: those that start
# `python -m translator` processes (each loads TensorFlow: 10 s or more on a shared 2-core machine),
# run the benchmarks, the notebooks or a browser, or train models of their own. `make test` runs all.
SLOW_MODULES = {"test_browser", "test_cli", "test_distributed", "test_positions", "test_resume", "test_training"}
# Fixtures only the slow tests ask for: a command's environment, the whole quick benchmark, a notebook kernel,
# a fit of its own on token ids (three epochs, each scored, then exported and imported back).
SLOW_FIXTURES = {"command_env", "quick_run", "kernel_of_this_python", "ids_run"}
# Single tests of a minute or more in a `--durations` run: a training run, XLA compiles, the shipped model.
SLOW_TESTS = {
    "test_the_bleu_callback_keeps_the_epoch_with_the_best_validation_bleu",
    "test_xla_decoding_equals_graph_decoding",
    "test_warm_up_prepares_every_shape",
    "test_the_shipped_model_keeps_names_and_numbers_it_never_saw",
    # 40 s or more each in a `-m "not slow"` run on a loaded machine: two commands run as processes, the XLA compile
    # beside the textbook beam search, a preset run trained with --overwrite.
    "test_translate_and_evaluate_with_a_glossary_file",
    "test_a_bad_glossary_file_is_one_line_and_exit_2",
    "test_beam_search_equals_the_textbook_search",
    "test_a_preset_run_refuses_to_write_over_a_model_unless_told",
}


def pytest_collection_modifyitems(items):
    for item in items:
        slow_fixture = SLOW_FIXTURES & set(getattr(item, "fixturenames", ()))
        if item.path.stem in SLOW_MODULES or slow_fixture or item.name in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def pairs():
    return list(PAIRS)


@pytest.fixture(scope="session")
def sentences():
    """English sides of PAIRS, of several lengths and kinds, for the tiny model to decode."""
    return ["Tom is here.", "I like cats.", "Where is Mary?", "Help!", "Mary has a cat.", "I am tired."]


@pytest.fixture(scope="session")
def command_env():
    """The environment for `python -m translator` run from any folder.

    This project's code (not an installed copy), TensorFlow quiet, one line per
    epoch, and no cluster (TF_CONFIG) or corpus (TRANSLATOR_DATA) of the caller's.
    """
    project = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": TF_LOG_LEVEL, "CI": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, [project, os.environ.get("PYTHONPATH")]))}
    for name in ("TF_CONFIG", "TRANSLATOR_DATA"):
        env.pop(name, None)
    return env


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory):
    """A tiny word-level model trained to near-memorise PAIRS; returns its directory."""
    from translator.config import preset
    from translator.training import train

    root = tmp_path_factory.mktemp("tiny")
    splits = {"train": PAIRS, "val": PAIRS[:8], "test": PAIRS[:8]}
    config = preset("tiny", epochs=20, learning_rate=1e-2, name="tiny", early_stopping_patience=20)
    return train.train(config, output_dir=root / "models", runs_dir=root / "runs", splits=splits)


@pytest.fixture(scope="session")
def tiny_translator(tiny_model_dir):
    from translator.translate import Translator

    return Translator.load(tiny_model_dir)
