"""The user's glossary: matching rules, casing, and every bad file reported with its line."""


import pytest

from tests.test_cli import cli
from translator.evaluation import quality
from translator.text.glossary import Glossary, GlossaryError

TERMS = [
    ("cat", "gato"),
    ("firewall", "cortafuegos"),
    ("keyboard shortcut", "atajo de teclado"),
    ("keyboard", "teclado"),
    ("user", "usuario"),
    ("user account", "cuenta de usuario"),
    ("account settings", "ajustes de la cuenta"),
    ("VPN", "red privada virtual"),
    ("excel", "Excel"),
    ("e-mail", "correo electrónico"),
]


@pytest.fixture(scope="module")
def glossary():
    return Glossary(TERMS)


def spanish(glossary, text):
    return [s for _, _, s in glossary.matches(text)]


def test_matches_are_case_insensitive_whole_words(glossary):
    assert glossary.matches("The cat sat.") == [(4, 7, "gato")]
    assert spanish(glossary, "My CAT and my cat.") == ["GATO", "gato"]
    for text in ("A category.", "The bobcat.", "cats", "cat_food", "cat2"):
        assert glossary.matches(text) == [], text
    assert spanish(glossary, "cat, (cat) 'cat' cat.") == ["gato"] * 4
    assert glossary.matches("A cat's category: bobcats, cat_food, scatter, cat.") == [(2, 5, "gato"), (46, 49, "gato")]
    assert glossary.matches("cat bobcat") == [(0, 3, "gato")]
    assert spanish(glossary, "Send an e-mail.") == ["correo electrónico"]


def test_multi_word_terms_match_across_any_spaces(glossary):
    text = "Learn a keyboard  shortcut or a keyboard\tshortcut."
    assert glossary.matches(text) == [(8, 26, "atajo de teclado"), (32, 49, "atajo de teclado")]
    assert spanish(glossary, "keyboardshortcut") == []


def test_longest_term_first_and_the_rest_still_matches(glossary):
    assert spanish(glossary, "Press the keyboard shortcut on the keyboard.") == ["atajo de teclado", "teclado"]
    assert spanish(glossary, "Open the user account.") == ["cuenta de usuario"]
    # "account settings" (16 characters) beats "user account" (12), and "user" fills what is left.
    assert glossary.matches("user account settings") == [(0, 4, "usuario"), (5, 21, "ajustes de la cuenta")]


def test_matches_are_sorted_and_never_overlap(glossary):
    text = "user account settings for the user account, keyboard shortcut, user, cat"
    matches = glossary.matches(text)
    assert matches == sorted(matches)
    assert all(end <= next_start for (_, end, _), (next_start, _, _) in zip(matches, matches[1:]))
    assert spanish(glossary, text) == ["usuario", "ajustes de la cuenta", "cuenta de usuario", "atajo de teclado",
                                       "usuario", "gato"]


def test_the_spanish_is_cased_like_the_occurrence(glossary):
    assert spanish(glossary, "Firewall rules.") == ["Cortafuegos"]
    assert spanish(glossary, "The FIREWALL is on.") == ["CORTAFUEGOS"]
    assert spanish(glossary, "A Keyboard Shortcut.") == ["Atajo de teclado"]
    assert spanish(glossary, "KEYBOARD SHORTCUT") == ["ATAJO DE TECLADO"]
    # An acronym in the glossary keeps its Spanish as given; the Spanish is never lower-cased.
    assert spanish(glossary, "Use the VPN.") == ["red privada virtual"]
    assert spanish(glossary, "Use the vpn.") == ["red privada virtual"]
    assert spanish(glossary, "Open excel.") == ["Excel"]
    # A one-letter capital is the start of a word, not capitals.
    assert Glossary([("a", "uno")]).matches("A") == [(0, 1, "Uno")]


def test_a_capitalised_glossary_term_keeps_its_spanish_for_any_case():
    glossary = Glossary([("Windows", "Windows"), ("Outlook", "el Outlook")])
    assert spanish(glossary, "windows and OUTLOOK") == ["Windows", "EL OUTLOOK"]


def test_same_pair_twice_is_fine_two_translations_are_not():
    assert Glossary([("cat", "gato"), ("Cat", "gato"), (" cat ", "gato ")]).pairs() == [("cat", "gato")]
    with pytest.raises(GlossaryError, match=r'glossary entry 3: "CAT" is translated as "gato" by glossary entry 1, '
                                            r'here as "felino"'):
        Glossary([("cat", "gato"), ("dog", "perro"), ("CAT", "felino")])


def test_from_mapping():
    glossary = Glossary.from_mapping({"firewall": "cortafuegos", "router": "enrutador"})
    assert len(glossary) == 2
    assert spanish(glossary, "The router and the firewall.") == ["enrutador", "cortafuegos"]
    with pytest.raises(GlossaryError, match="glossary entry 2: the Spanish side is empty"):
        Glossary.from_mapping({"firewall": "cortafuegos", "router": " "})


def write(tmp_path, data):
    path = tmp_path / "terms.tsv"
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def test_load_skips_comments_and_blank_lines_and_accepts_bom_and_crlf(tmp_path):
    path = write(tmp_path, "\ufeff# office words\r\n\r\nspreadsheet\thoja de cálculo\r\n  # indented comment\n"
                           " firewall \t cortafuegos\nfirewall\tcortafuegos\n")
    glossary = Glossary.load(path)
    assert glossary.pairs() == [("spreadsheet", "hoja de cálculo"), ("firewall", "cortafuegos")]
    assert spanish(glossary, "A spreadsheet.") == ["hoja de cálculo"]


@pytest.mark.parametrize("data, message", [
    ("cat\tgato\ndog perro\n", "line 2: no tab; each line is English<TAB>Spanish"),
    ("# c\n\ncat\tgato\tfelino\n", "line 3: 2 tabs; each line is English<TAB>Spanish"),
    ("cat\tgato\n\t perro\n", "line 2: the English side is empty"),
    ("cat\t \n", "line 1: the Spanish side is empty"),
    ("cat\tgato\ndog\tperro\nCat\tfelino\n",
     'line 3: "Cat" is translated as "gato" by glossary {path}, line 1, here as "felino"'),
    (b"cat\tgato\ndog\tperr\xf3\n", "line 2: not valid UTF-8 at byte offset 8 of the line"),
])
def test_each_bad_line_is_one_error_with_its_line_number(tmp_path, data, message):
    path = write(tmp_path, data)
    with pytest.raises(GlossaryError) as error:
        Glossary.load(path)
    assert str(error.value) == f"glossary {path}, " + message.format(path=path)


def test_a_missing_file_is_one_clear_error(tmp_path):
    with pytest.raises(GlossaryError, match=r"glossary .*nowhere\.tsv: no such file"):
        Glossary.load(tmp_path / "nowhere.tsv")
    with pytest.raises(GlossaryError, match="cannot be read"):
        Glossary.load(tmp_path)


def test_the_shipped_glossary_set_names_the_terms_each_sentence_holds():
    glossary, rows = quality.load_glossary_set()
    assert len(glossary) >= 50 and len(rows) >= 100
    assert sum(" " in english for english, _ in glossary.pairs()) >= 10  # multi-word terms
    by_key = {english.lower(): spanish.lower() for english, spanish in glossary.pairs()}
    for english, terms in rows:
        assert sorted(s.lower() for _, _, s in glossary.matches(english)) == sorted(by_key[t.lower()] for t in terms), english
    assert {t.lower() for _, terms in rows for t in terms} == set(by_key), "every term is used"


def test_glossary_rate_counts_each_occurrence_once():
    glossary = Glossary([("router", "router"), ("keyboard shortcut", "atajo de teclado"), ("keyboard", "teclado")])
    sources = ["The router is next to the other router.", "The keyboard shortcut and the keyboard."]
    assert quality.glossary_rate(["El router está al lado del otro router.", "El atajo de teclado y el teclado."],
                                 sources, glossary) == 1.0
    for wrong in (["El router está al lado del otro.", "El atajo de teclado y el teclado."],
                  ["El router está al lado del otro router router.", "El atajo de teclado y el teclado."],
                  ["El routers está al lado del otro router.", "El atajo de teclado y el teclado."],
                  ["El router está al lado del otro router.", "El atajo de teclado."]):
        assert quality.glossary_rate(wrong, sources, glossary) == 0.5, wrong


def test_a_bad_glossary_file_is_one_line_and_exit_2(tiny_model_dir, tmp_path):
    bad = write(tmp_path, "# terms\nfirewall\tcortafuegos\nrouter enrutador\n")
    output = tmp_path / "out.txt"
    output.write_text("before\n", encoding="utf-8")
    for args in (["translate", "--output", output, "Tom is here."], ["evaluate", "--pairs", bad]):
        result = cli(*args, "--model", tiny_model_dir, "--glossary", bad)
        assert result.returncode == 2, result.stderr
        assert result.stderr == f"translator {args[0]}: glossary {bad}, line 3: no tab; each line is English<TAB>Spanish\n"
    assert output.read_text(encoding="utf-8") == "before\n"
    result = cli("translate", "--model", tiny_model_dir, "--glossary", tmp_path / "none.tsv", stdin="Help!\n")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"translator translate: glossary {tmp_path / 'none.tsv'}: no such file\n"


# End to end on the tiny model: the translator writes each match as its Spanish (`translator.text.verbatim`).


@pytest.fixture(scope="module")
def literal_translator(tiny_model_dir):
    from translator.translate import Translator

    return Translator.load(tiny_model_dir, placeholders=False)


@pytest.mark.parametrize("beam", [1, 2])
@pytest.mark.parametrize("placeholders", [True, False])
def test_every_term_comes_out_in_every_decoding_mode(tiny_translator, literal_translator, beam, placeholders):
    translator = tiny_translator if placeholders else literal_translator
    glossary = Glossary([("dog", "chucho"), ("Spain", "las Españas"), ("good night", "felices sueños")])
    texts = ["Tom has a dog.", "Mary lives in Spain.", "I like dogs.", "Tom is here.", "Good night, Tom."]
    translations = translator.translate(texts, beam_size=beam, glossary=glossary)
    assert quality.glossary_rate(translations, texts, glossary) == 1.0, translations
    assert "Felices sueños" in translations[4]
    # No term, no change; and a glossary for one text only leaves the others alone.
    assert translations[2:4] == translator.translate(texts[2:4], beam_size=beam)
    one = translator.translate(texts[:2], beam_size=beam, glossary=[glossary, None])
    assert one == [translations[0], translator.translate(texts[1], beam_size=beam)]


@pytest.mark.parametrize("placeholders", [True, False])
def test_a_text_of_glossary_terms_only_is_their_spanish(tiny_translator, literal_translator, placeholders):
    translator = tiny_translator if placeholders else literal_translator
    glossary = Glossary([("good night", "felices sueños"), ("dog", "chucho")])
    assert translator.translate(["Good night.", "dog"], glossary=glossary) == ["Felices sueños.", "chucho"]


def test_translate_and_evaluate_with_a_glossary_file(tiny_model_dir, tmp_path):
    terms = write(tmp_path, "# pets\ndog\tchucho\n")
    result = cli("translate", "--model", tiny_model_dir, "--glossary", terms, "--beam", 1, stdin="Tom has a dog.\n")
    assert result.returncode == 0, result.stderr
    assert "chucho" in result.stdout
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("Tom has a dog.\tTom tiene un chucho.\nHelp!\t¡Ayuda!\n", encoding="utf-8")
    result = cli("evaluate", "--model", tiny_model_dir, "--pairs", pairs, "--glossary", terms, "--beam", 1)
    assert result.returncode == 0, result.stderr
    assert "your glossary's terms kept: 100.0% of the 1 sentences holding one" in result.stdout
