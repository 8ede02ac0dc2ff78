import pytest

from translator.errors import UsageError
from translator.text import name_forms

PAIRS = ([("I live in Germany.", "Vivo en Alemania."), ("We flew to London.", "Volamos a Londres.")] * 5
         + [(f"Tom is in room {i}.", f"Tom está en la habitación {i}.") for i in range(600)])


def test_the_table_round_trips_through_the_model_directory(tmp_path):
    name_forms.save_table(tmp_path, PAIRS)
    table = name_forms.load_table(tmp_path)
    assert table == name_forms.build(PAIRS) and set(table) == {"Germany", "London"}
    assert "alemania" in table["Germany"] and "londres" in table["London"]


def test_a_directory_without_the_table_has_none(tmp_path):
    assert name_forms.load_table(tmp_path) is None


def test_a_table_not_of_names_is_refused_naming_the_file(tmp_path):
    (tmp_path / name_forms.FILE).write_text("Germany alemania\n", encoding="utf-8")
    with pytest.raises(UsageError, match="names.tsv is not a table of names"):
        name_forms.load_table(tmp_path)
