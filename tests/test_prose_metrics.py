"""Sentence breaks and untranslated English (`translator.evaluation.quality`), the out-of-domain sets of `translator
evaluate`, and the Apertium baseline's line handling (`bench.apertium`): no model is trained, a stub translates."""

import json
import logging
import shutil
import sys

import pytest

from translator import cli
from translator.evaluation import evaluate, quality
from translator.model_files import MODEL_FILE
from translator.training import data, mix

KNOWN = {"los", "la", "el", "de", "casa", "ganan", "venden", "productos", "no", "web"}.__contains__


def test_sentence_breaks_counts_outputs_cut_into_more_sentences_than_their_source():
    outputs = ["El tren llega tarde. Muy tarde.", "Hola. Adiós.", "Abrimos a las 9 a.m. y cerramos.", "", "Sí."]
    sources = ["The train is very late.", "Hi. Bye.", "We open at 9 a.m. and close.", "Hello.", "Yes. Yes."]
    assert quality.sentence_breaks(outputs, sources) == 1 / 5
    assert quality.sentence_breaks([], []) == 0.0
    with pytest.raises(ValueError):
        quality.sentence_breaks(["Uno."], [])


def test_untranslated_flags_lower_case_source_words_kept_as_written_that_spanish_does_not_know():
    cases = [
        ("Los competitors ganan.", "The competitors win.", True),        # English kept as it was
        ("Venden productos seasonal.", "They sell seasonal products.", True),
        ("La casa.", "The house.", False),                              # translated
        ("Los Competitors ganan.", "The competitors win.", False),       # case-sensitive
        ("Los competitorsx ganan.", "The competitors win.", False),      # whole words only
        ("Los competitors ganan.", "The Competitors win.", False),       # a capitalised word may be a name
        ("La web de Tom.", "Tom's web page.", False),                   # a word Spanish knows too
        ("El a casa.", "A a house.", False),                            # one letter is no word
        ("El ABC de R2D2.", "The ABC of R2D2.", False),                 # capitals and digits are no English words
        ("Un mp3 de la casa.", "An mp3 of the house.", False),
    ]
    for output, source, flagged in cases:
        assert bool(quality.untranslated_words(output, source, KNOWN)) is flagged, (output, source)
    outputs, sources, flags = zip(*cases)
    assert quality.untranslated(outputs, sources, KNOWN) == sum(flags) / len(flags)
    assert quality.untranslated([], [], KNOWN) == 0.0


def test_the_real_spanish_dictionary_knows_spanish_not_english():
    known = quality.spanish_dictionary()
    if known is None:
        pytest.skip("hunspell's Spanish dictionary (hunspell-es) or spylls is not installed")
    assert known("casa") and known("hablaste") and known("organización")
    assert not known("competitors") and not known("seasonal")
    assert quality.spanish_dictionary() is known  # loaded once
    assert quality.untranslated(["Los competitors ganan.", "Los competidores ganan."],
                                ["The competitors win.", "The competitors win."]) == 0.5


def test_a_missing_dictionary_is_a_logged_note_and_the_measure_is_left_out(tmp_path, monkeypatch, caplog):
    with caplog.at_level(logging.WARNING, logger="translator"):
        assert quality.spanish_dictionary(str(tmp_path / "es_ES")) is None
    assert "apt-get install hunspell-es" in caplog.text and "Traceback" not in caplog.text
    caplog.clear()
    monkeypatch.setitem(sys.modules, "spylls.hunspell", None)  # importing it now raises ImportError
    with caplog.at_level(logging.WARNING, logger="translator"):
        assert quality.spanish_dictionary.__wrapped__(quality.SPANISH_DICTIONARY) is None  # not the cached one
    assert "pip install spylls" in caplog.text
    monkeypatch.setattr(quality, "spanish_dictionary", lambda: None)
    assert evaluate.prose_scores(["Hola. Adiós."], ["Hello, goodbye."]) == {"sentence_breaks": 100.0}
    with pytest.raises(LookupError, match="hunspell-es"):
        quality.untranslated(["Hola."], ["Hello."])


def write_pairs(path, pairs):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{english}\t{spanish}\n" for english, spanish in pairs), encoding="utf-8")


DEV = [("The council met on Monday.", "El consejo se reunió el lunes."),
       ("Prices rose again.", "Los precios subieron de nuevo.")]


@pytest.fixture
def more(tmp_path):
    """A folder of further pairs: a news source, a manual and newstest2012, each with a held-out slice."""
    folder = tmp_path / "more"
    write_pairs(folder / "train" / "news.tsv",
                [(f"The competitors met on day {i}.", f"Los competidores se reunieron el día {i}.") for i in range(400)])
    write_pairs(folder / "train" / "gimp-manual.tsv",
                [(f"Click the seasonal button {i}.", f"Pulse el botón de temporada {i}.") for i in range(400)])
    write_pairs(folder / mix.DEV_FILE, DEV)
    return folder


class Stub:
    """A translator that knows the development set and leaves everything else in English."""

    def __init__(self):
        self.table = dict(DEV)

    def translate(self, sentences, beam_size=1, glossary=None):
        return [self.table.get(sentence, sentence) for sentence in sentences]


def test_the_out_of_domain_sets_are_scored_like_the_test_split(more):
    sets = evaluate.load_domain_sets(more)
    assert list(sets) == ["newstest2012", "heldout_manuals", "heldout_prose"]
    assert sets["newstest2012"] == DEV and sets["heldout_manuals"] and sets["heldout_prose"]
    domains = evaluate.score_domains(Stub(), sets, known=KNOWN)
    news = domains["newstest2012"]
    assert (news["sentences"], news["bleu"], news["chrf"], news["sentence_breaks"], news["untranslated"]) == (
        2, 100.0, 100.0, 0.0, 0.0)
    for name in ("heldout_manuals", "heldout_prose"):  # left in English: every one untranslated
        assert domains[name]["untranslated"] == 100.0 and domains[name]["bleu"] < 10
        assert domains[name]["sentences"] == len(sets[name]) and domains[name]["sentences_per_second"] > 0
    report = evaluate.format_domains(domains)
    assert "newstest2012" in report and "heldout_prose" in report and "100.00" in report


def test_evaluate_records_the_domains_in_metrics_json_given_the_folder(more, tmp_path, monkeypatch):
    from translator.translate import Translator

    model = tmp_path / "model"
    model.mkdir()
    monkeypatch.setattr(Translator, "load", classmethod(lambda cls, *args, **kwargs: Stub()))
    monkeypatch.setattr(evaluate, "load_eval_pairs", lambda *args: (DEV, "test split", None, None))
    monkeypatch.setattr(quality, "spanish_dictionary", lambda: KNOWN)
    monkeypatch.setenv(mix.MORE_ENV, str(more))
    result = evaluate.run(model)
    recorded = json.loads((model / "metrics.json").read_text())["evaluation"]
    assert recorded["domains"] == result["domains"] and result["domains"]["newstest2012"]["bleu"] == 100.0
    assert "heldout_manuals" in evaluate.format_report(result)
    # A file of pairs: the out-of-domain sets only with the folder given, not from the environment.
    assert "domains" not in evaluate.run(model, pairs_file="pairs.tsv")
    assert "domains" in evaluate.run(model, pairs_file="pairs.tsv", more_path=more)


def test_without_the_folder_the_domains_are_skipped_with_one_logged_line(tmp_path, monkeypatch, caplog):
    from translator.translate import Translator

    monkeypatch.delenv(mix.MORE_ENV, raising=False)
    with caplog.at_level(logging.INFO, logger="translator"):
        assert evaluate.load_domain_sets() is None
    assert "skipped" in caplog.text and "--more-data" in caplog.text
    monkeypatch.setattr(Translator, "load", classmethod(lambda cls, *args, **kwargs: Stub()))
    monkeypatch.setattr(evaluate, "load_eval_pairs", lambda *args: (DEV, "test split", None, None))
    assert "domains" not in evaluate.run(tmp_path)


def test_a_more_data_folder_that_is_not_there_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    from translator.translate import Translator

    model = tmp_path / "model"
    model.mkdir()
    (model / MODEL_FILE).write_bytes(b"")  # never loaded: the folder is refused first
    monkeypatch.setattr(Translator, "load", classmethod(lambda cls, *args, **kwargs: pytest.fail("model loaded")))
    with pytest.raises(data.DataError, match="no train/ folder"):
        evaluate.run(model, more_path=tmp_path / "nowhere")
    capsys.readouterr()
    assert cli.main(["evaluate", "--model", str(model), "--more-data", str(tmp_path / "nowhere"), "--xla", "off"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("translator evaluate: ") and "nowhere" in error and len(error.splitlines()) == 1


def fake_apertium(tmp_path, body):
    script = tmp_path / "apertium"
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)
    return str(script)


def test_apertium_lines_keep_one_translation_per_sentence_or_fail(tmp_path):
    from bench.apertium import ApertiumError, apertium_lines

    assert apertium_lines(["One  two.", "Three"], command=fake_apertium(tmp_path, "cat")) == ["One two.", "Three"]
    merged = fake_apertium(tmp_path, "tr -s '\\n'")  # the blank lines between lost: sentences merged
    with pytest.raises(ApertiumError, match="3 lines for 3 sentences"):
        apertium_lines(["One.", "Two.", "Three."], command=merged)
    shifted = fake_apertium(tmp_path, "sed 's/^$/stray/'")  # as many lines, but a sentence where a gap should be
    with pytest.raises(ApertiumError, match="3 lines for 2 sentences"):
        apertium_lines(["One.", "Two."], command=shifted)
    with pytest.raises(ApertiumError, match="failed"):
        apertium_lines(["One."], command=fake_apertium(tmp_path, "exit 3"))


@pytest.mark.skipif(not shutil.which("apertium"), reason="apertium (apertium-eng-spa) is not installed")
def test_the_real_apertium_keeps_sentences_without_a_full_stop_apart():
    from bench.apertium import apertium_lines

    # One line break apart, Apertium moved "line" into the line above when it reordered the words.
    out = apertium_lines(["Use f{g}", "line with trailing space ", "Mr. Smith went home"])
    assert len(out) == 3 and "ínea" not in out[0] and "ínea" in out[1] and "Smith" in out[2]


def test_the_apertium_bench_says_when_apertium_is_missing(monkeypatch, capsys):
    from bench import apertium

    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert apertium.main(["--more-data", "anywhere"]) == 2
    assert "apt-get install apertium-eng-spa" in capsys.readouterr().err
