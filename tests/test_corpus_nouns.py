import pytest

from translator.text import nouns
from translator.training import corpus_nouns, data

ZITHER = [("The zither is new.", "La cítara es nueva."), ("Where is my zither?", "¿Dónde está mi cítara?"),
          ("I bought a zither.", "Compré una cítara.")]


def test_a_noun_seen_a_few_times_is_found_with_the_spanish_its_pairs_share_and_its_gender():
    assert corpus_nouns.build(ZITHER) == ["zither\tcítara\tf"]
    plural = [(e.replace("zither is", "zithers are").replace("zither", "zithers"), s.replace("cítara", "cítaras"))
              for e, s in ZITHER]
    assert corpus_nouns.build(plural) == ["zithers\tcítaras\tf\tzithers\tcítaras"]  # a plural alone
    many = [("The zithers are new.", "Las cítaras son nuevas."), ("Where are my zithers?", "¿Dónde están mis cítaras?"),
            ("I bought two zithers.", "Compré dos cítaras.")]
    assert corpus_nouns.build([(e.replace("zithers", "mice"), s) for e, s in many]) == [
        "mice\tcítaras\tf\tmice\tcítaras"]  # a plural without an "s"
    # A plural said for a singular ("auto mechanics" -> "mecánicos"): not the noun's Spanish.
    assert corpus_nouns.build([(e.replace("zithers", "zither"), s) for e, s in many]) == []



def test_where_no_article_gives_the_gender_the_spanish_ending_does():
    ledger = [("My ledger is new.", "Mi registro es nuevo."), ("Where is my ledger?", "¿Dónde está mi registro?"),
              ("I lost my ledger.", "Perdí mi registro.")]
    common = [("I am here.", "Mi casa está aquí.")] * 6  # "mi" says no word of its own
    assert corpus_nouns.build(ledger + common) == ["ledger\tregistro\tm"]
    assert corpus_nouns.build([(e, s.replace("registro", "códice")) for e, s in ledger] + common) == []  # "-e"

@pytest.mark.parametrize("pairs", [
    # After "to" or a pronoun: a verb.
    ZITHER + [("I want to zither.", "Quiero cítara.")],
    # Capitalised inside a sentence: a name.
    ZITHER + [("I met Zither.", "Conocí a cítara.")],
    # Said after articles of both genders: no one gender.
    ZITHER + [("A zither.", "Un cítara.")] * 2,
    # Seen as often as the model learns a word: left to it.
    ZITHER * (nouns.MAX_COUNT // len(ZITHER) + 1),
])
def test_a_word_is_no_noun_of_the_list_when_a_verb_a_name_of_no_one_gender_or_well_known(pairs):
    assert corpus_nouns.build(pairs) == []


def test_a_word_seen_once_needs_its_spanish_alone_and_a_spanish_word_two_nouns_claim_says_neither():
    once = [("I lost the zither.", "Perdí la cítara.")]
    assert corpus_nouns.build(once + [("I lost the cat.", "Perdí la gata.")] * 3) == ["cat\tgata\tf", "zither\tcítara\tf"]
    # "mesa" is as rare as "cítara" in the one pair: which says "zither" is not known.
    assert corpus_nouns.build([("The zither is on the table.", "La cítara está en la mesa.")]) == []
    claimed = ZITHER + [(e.replace("zither", "lute"), s) for e, s in ZITHER]
    assert corpus_nouns.build(claimed) == []


def test_a_hand_written_noun_or_a_stand_in_is_not_found_again():
    assert corpus_nouns.build([(e.replace("zither", "recipe"), s) for e, s in ZITHER]) == []
    assert corpus_nouns.build([(e.replace("zither", "tree"), s) for e, s in ZITHER]) == []


def test_the_shipped_list_is_the_one_the_training_split_makes():
    if not data.corpus_is_local():
        pytest.skip("no corpus: set TRANSLATOR_DATA or put spa-eng.zip in data/")
    written = [line for line in nouns.CORPUS_FILE.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert written == corpus_nouns.build(data.load_splits()["train"])

