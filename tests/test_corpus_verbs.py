import pytest

from translator.text import verbs
from translator.training import corpus_verbs, data

SCRIBBLE = [("He scribbled a note.", "Él garabateó una nota."), ("I was scribbling.", "Yo estaba garabateando."),
            ("They scribbled.", "Ellos garabatearon.")]


def test_a_verb_seen_a_few_times_is_found_with_the_stem_its_pairs_share_in_each_of_its_forms():
    assert corpus_verbs.build(SCRIBBLE) == ["scribbled\tgarabate", "scribbling\tgarabate"]
    hugs = [("He hugged me.", "Él me abrazó."), ("She hugged him.", "Ella lo abrazó."), ("Stop hugging!", "¡Deja de abrazar!")]
    assert corpus_verbs.build(hugs) == ["hugged\tabraz", "hugging\tabraz"]


@pytest.mark.parametrize("pairs", [
    # Capitalised inside a sentence: a name.
    SCRIBBLE + [("I met Scribbled.", "Conocí a Scribbled.")],
    # Seen as often as the model learns a word: left to it.
    SCRIBBLE * verbs.MAX_COUNT,
    # Said with a word that takes no verb's ending: an adjective or a noun ("garabato").
    [(e, s.replace("garabateó", "garabato").replace("garabateando", "garabato").replace("garabatearon", "garabato"))
     for e, s in SCRIBBLE],
    # An "-ir" verb ("describió"): the corpus writes its stem with no ending only "-ar" verbs have.
    [("He described it.", "Él lo describió."), ("She described me.", "Ella me describió.")],
    # A stem that changes ("friego"): its regular forms would be misspelled.
    [("He mopped.", "Él fregó."), ("They mopped.", "Ellos fregaron."), ("I mop.", "Yo friego.")],
])
def test_a_word_is_no_verb_of_the_list_when_a_name_well_known_no_verb_or_no_regular_ar_verb(pairs):
    assert corpus_verbs.build(pairs) == []


RETIRE = [("He retired.", "Él se jubiló."), ("They retired.", "Ellos se jubilaron."), ("I retired.", "Jubilé."),
          ("She has retired.", "Ella se ha jubilado."), ("He is retiring.", "Él está jubilándose."),
          ("I retired early.", "Jubilé pronto.")]


@pytest.mark.parametrize("pairs, lines", [
    # Its pronoun before it, before its "haber" or after it, in 4 of 6 forms.
    (RETIRE, ["retired\tjubil\tse", "retiring\tjubil\tse"]),
    # In 2 of 6: no reflexive verb.
    (RETIRE[:2] + [(e, s.replace(" se ", " ").replace("ándose", "ando")) for e, s in RETIRE[2:]],
     ["retired\tjubil", "retiring\tjubil"]),
    (RETIRE[:4], ["retired\tjubil"]),  # seen too few times to tell
])
def test_a_verb_whose_forms_mostly_take_a_reflexive_pronoun_is_marked_reflexive(pairs, lines):
    assert corpus_verbs.build(pairs) == lines


def test_a_stem_two_verbs_would_claim_says_neither():
    doodles = [(e.replace("scribbl", "doodl"), s) for e, s in SCRIBBLE]
    assert corpus_verbs.build(SCRIBBLE + doodles) == []


def test_the_shipped_list_is_the_one_the_training_split_makes():
    if not data.corpus_is_local():
        pytest.skip("no corpus: set TRANSLATOR_DATA or put spa-eng.zip in data/")
    written = [line for line in verbs.VERBS_FILE.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert written == corpus_verbs.build(data.load_splits()["train"])
