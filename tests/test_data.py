import hashlib
import io
import zipfile

import pytest

from translator.files import lines
from translator.training import data


def numbered(*raw):
    """Corpus lines as `data.read_lines` gives them, from the bytes of each line."""
    return list(lines.read_lines(io.BytesIO(b"\n".join(raw))))


def make_zip(path, text, member=data.CORPUS_MEMBER):
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(member, text)
    return path


def test_parse_normalises_strips_skips_blanks_and_drops_duplicates():
    decomposed = "Qu\u0065\u0301"  # "Qué" with a combining accent
    text = ["  Go.\tVe.  ", "", "Go.\tVe.", f"What?\t¿{decomposed}?", "Hi.\tHola.\tCC-BY 2.0 (France) Attribution"]
    pairs, skipped = data.parse_pairs(numbered(*(line.encode() for line in text)))
    assert pairs == [("Go.", "Ve."), ("What?", "¿Qué?"), ("Hi.", "Hola.")]
    assert skipped == 0


@pytest.mark.parametrize(
    "bad, reason",
    [
        ("only one column", "columns"),
        ("a\tb\tc\td", "columns"),
        ("\tVacío.", "empty"),
        ("Empty.\t", "empty"),
    ],
)
def test_malformed_line_is_reported_with_its_number(bad, reason):
    corpus = numbered(b"Go.\tVe.", bad.encode(), b"Hi.\tHola.")
    with pytest.raises(data.DataError, match=rf"line 2 .*{reason}"):
        data.parse_pairs(corpus)
    pairs, skipped = data.parse_pairs(corpus, skip_malformed=True)
    assert pairs == [("Go.", "Ve."), ("Hi.", "Hola.")] and skipped == 1


def test_invalid_utf8_is_a_malformed_line():
    with pytest.raises(data.DataError, match="line 1 is not valid UTF-8"):
        data.parse_pairs(numbered(b"Caf\xe9.\tCaf\xe9."))


def test_columns_select_fields_of_other_exports():
    corpus = numbered(b"1\tGo.\t2\tVe.", b"3\tHi.\t4\tHola.")
    assert data.parse_pairs(corpus, columns=(1, 3))[0] == [("Go.", "Ve."), ("Hi.", "Hola.")]
    with pytest.raises(data.DataError, match="too few"):
        data.parse_pairs(numbered(b"1\tGo."), columns=(1, 3))


def test_split_keeps_every_translation_of_a_source_together_and_is_deterministic():
    pairs = [(f"Sentence number {i}.", f"Frase número {i}{suffix}.") for i in range(3000) for suffix in ("", " bis")]
    splits = data.split_pairs(pairs)
    sources = {name: {english for english, _ in split} for name, split in splits.items()}
    assert not sources["train"] & sources["test"]
    assert not sources["train"] & sources["val"]
    assert not sources["val"] & sources["test"]
    assert sum(map(len, splits.values())) == len(pairs)
    assert 0.6 < len(splits["train"]) / len(pairs) < 0.8
    assert splits == data.split_pairs(list(pairs))
    # Case and spacing differences are the same source sentence.
    assert data.split_of("Hello  there.") == data.split_of("hello there.")


def test_split_fractions_are_checked():
    with pytest.raises(ValueError):
        data.split_pairs([], val_fraction=0.6, test_fraction=0.5)


def test_find_corpus_order_path_then_environment(tmp_path, monkeypatch):
    mine = make_zip(tmp_path / "mine.zip", "Go.\tVe.\n")
    env = tmp_path / "env.tsv"
    env.write_text("Hi.\tHola.\n")
    monkeypatch.setenv(data.DATA_ENV, str(env))
    assert data.find_corpus(mine) == mine
    assert data.find_corpus() == env
    assert data.parse_pairs(data.read_lines(env))[0] == [("Hi.", "Hola.")]
    monkeypatch.setenv(data.DATA_ENV, str(tmp_path / "missing.zip"))
    with pytest.raises(data.DataError, match="corpus not found.*TRANSLATOR_DATA"):
        data.find_corpus()


def test_download_with_wrong_checksum_is_a_clear_error_and_leaves_the_cache_clean(tmp_path, monkeypatch):
    monkeypatch.delenv(data.DATA_ENV, raising=False)
    served = make_zip(tmp_path / "served.zip", "Go.\tVe.\n")
    cache = tmp_path / "cache"
    with pytest.raises(data.DataError, match="checksum mismatch"):
        data.find_corpus(cache_dir=cache, url=served.as_uri())
    assert not any(cache.iterdir())


def test_download_with_right_checksum_is_cached(tmp_path, monkeypatch):
    text = "Go.\tVe.\n"
    monkeypatch.delenv(data.DATA_ENV, raising=False)
    monkeypatch.setattr(data, "CORPUS_SHA256", hashlib.sha256(text.encode()).hexdigest())
    served = make_zip(tmp_path / "served.zip", text)
    cache = tmp_path / "cache"
    found = data.find_corpus(cache_dir=cache, url=served.as_uri())
    assert found == cache / data.CORPUS_FILENAME
    served.unlink()  # the second call must not download again
    assert data.find_corpus(cache_dir=cache, url=served.as_uri()) == found


def test_unreachable_download_says_how_to_work_offline(tmp_path, monkeypatch):
    monkeypatch.delenv(data.DATA_ENV, raising=False)
    with pytest.raises(data.DataError, match="TRANSLATOR_DATA"):
        data.find_corpus(cache_dir=tmp_path, url=(tmp_path / "nowhere.zip").as_uri())
    assert not any(tmp_path.iterdir())


def test_zip_without_one_text_member_is_rejected(tmp_path):
    path = tmp_path / "two.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("a.txt", "x\ty\n")
        archive.writestr("b.txt", "x\ty\n")
    with pytest.raises(data.DataError, match="expected one"):
        data.read_lines(path)
    (tmp_path / "bad.zip").write_bytes(b"not a zip")
    with pytest.raises(data.DataError, match="not a readable zip"):
        data.read_lines(tmp_path / "bad.zip")


def test_load_splits_logs_the_counts(tmp_path, caplog):
    corpus = tmp_path / "pairs.txt"
    corpus.write_text("".join(f"S{i}.\tF{i}.\n" for i in range(50)), encoding="utf-8")
    with caplog.at_level("INFO", logger="translator"):
        splits = data.load_splits(corpus)
    assert sum(map(len, splits.values())) == 50
    assert "50 unique pairs" in caplog.text


def test_read_lines_prefers_the_canonical_member(tmp_path):
    path = tmp_path / "spa-eng.zip"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("spa-eng/_about.txt", "about")
        archive.writestr(data.CORPUS_MEMBER, "Go.\tVe.\n")
    path.write_bytes(buffer.getvalue())
    assert [line.text for line in data.read_lines(path)] == ["Go.\tVe."]
