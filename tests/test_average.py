"""`translator average`: one model directory from the mean of several models' weights."""

import json
import shutil

import numpy as np
import pytest

from translator import model_dir
from translator.cli import main
from translator.training import average


@pytest.fixture()
def tripled(tiny_model_dir, tmp_path):
    """A copy of the tiny model with every weight times three: same architecture and vocabularies."""
    model, pipeline, config = model_dir.load(tiny_model_dir)
    model.set_weights([3 * w for w in model.get_weights()])
    directory = tmp_path / "tripled"
    model_dir.save(directory, model, pipeline, config)
    return directory


def test_the_averaged_directory_holds_the_mean_and_loads_safely(tiny_model_dir, tripled, tmp_path, capsys):
    output = tmp_path / "mean"
    assert main(["average", str(tiny_model_dir), str(tripled), "--output", str(output)]) == 0
    assert str(output) in capsys.readouterr().out

    original = model_dir.load(tiny_model_dir)[0].get_weights()
    averaged, _, config = model_dir.load(output)  # safe_mode=True
    for mean, weights in zip(averaged.get_weights(), original):
        np.testing.assert_allclose(mean, 2 * weights, rtol=1e-6)
    assert config.name == "mean"
    for name in ("vocab_en.txt", "vocab_es.txt", "truecase.tsv", "words_en.txt", "words_es.txt", "shortlist.tsv",
                 "names.tsv"):
        assert (output / name).read_bytes() == (tiny_model_dir / name).read_bytes()
    averaged_from = model_dir.read_metrics(output)["training"]["averaged"]
    assert [row["model"] for row in averaged_from] == [str(tiny_model_dir), str(tripled)]

    # A mean of a mean: the last run behind it is its newest part's, the tiny model's own training.
    again = average.average([output, tiny_model_dir], tmp_path / "again")
    training = model_dir.read_metrics(tiny_model_dir)["training"]
    assert model_dir.last_run(again) == {"model": str(tiny_model_dir), **training}


def test_models_that_do_not_average_are_refused_by_name(tiny_model_dir, tripled, tmp_path):
    with pytest.raises(ValueError, match="two model directories"):
        average.average([tiny_model_dir], tmp_path / "one")
    with pytest.raises(ValueError, match="exists: pass --overwrite"):
        average.average([tiny_model_dir, tripled], tripled)

    other_heads = tmp_path / "other-heads"
    shutil.copytree(tiny_model_dir, other_heads)
    config = json.loads((other_heads / "config.json").read_text())
    (other_heads / "config.json").write_text(json.dumps({**config, "num_heads": config["num_heads"] // 2}))
    with pytest.raises(ValueError, match="num_heads differ"):
        average.average([tiny_model_dir, other_heads], tmp_path / "a")

    other_words = tmp_path / "other-words"
    shutil.copytree(tiny_model_dir, other_words)
    words = (other_words / "vocab_es.txt").read_text(encoding="utf-8").splitlines()
    words[0], words[1] = words[1], words[0]
    (other_words / "vocab_es.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="vocab_es.txt differs"):
        average.average([tiny_model_dir, other_words], tmp_path / "b")


def test_a_missing_model_is_one_line_and_exit_2(tiny_model_dir, tmp_path, capsys):
    assert main(["average", str(tiny_model_dir), str(tmp_path / "nowhere"), "--output", str(tmp_path / "mean")]) == 2
    error = capsys.readouterr().err
    assert error.startswith("translator average: no trained model at") and "nowhere" in error
    assert error.count("\n") == 1
    assert not (tmp_path / "mean").exists()
