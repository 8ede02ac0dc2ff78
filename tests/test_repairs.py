"""The repair policy (`translator.repairs`): each stage does its job, and the pipeline without it fails here."""

import pytest

from translator import repairs
from translator.text.glossary import Glossary
from translator.text.placeholders import TOKEN

WORDS = {"I": "Yo", "paid": "pagué", "euros": "euros", "for": "por", "the": "el", "book": "libro", "at": "en",
         "met": "conocí", "Visit": "Visita", "and": "y", "firewall": "firewall"}


def word_by_word(text):
    """A "model" that says each word it knows in Spanish, copies placeholder tokens, and garbles the rest
    (numbers, names, addresses) as a model that never saw them would."""
    said = []
    for word in text.rstrip(".").split():
        said.append(word if TOKEN.fullmatch(word) else WORDS.get(word, "cosa"))
    return " ".join(said) + "."


def model(greedy_loses=False):
    """`hypotheses(strings, beam_size)` of `word_by_word`: a beam's first hypothesis loses the placeholder tokens
    and its second keeps them; greedy, the one kept unless `greedy_loses`."""
    def hypotheses(texts, beam_size):
        found = []
        for text in texts:
            kept = word_by_word(text)
            lost = " ".join(TOKEN.sub("", kept).split())
            found.append(([lost if greedy_loses else kept], [0.0]) if beam_size == 1 else ([lost, kept], [0.0, -1.0]))
        return found
    return hypotheses


def wrong_without(stage, texts, hypotheses, expected, **options):
    """Whether the pipeline without `stage` fails on `texts`: raises, or gives other translations than `expected`."""
    try:
        outputs, _ = repairs.run(texts, hypotheses, stages=tuple(s for s in repairs.STAGES if s is not stage), **options)
    except (AttributeError, TypeError, ValueError):
        return True
    return outputs != expected


def test_protect_keeps_numbers_names_and_addresses_the_model_would_garble():
    texts = ["I paid 45.99 euros for the book.", "I met Okonkwo at https://x.org/a."]
    outputs, notes = repairs.run(texts, model())
    assert outputs == ["Yo pagué 45.99 euros por el libro.", "Yo conocí Okonkwo en https://x.org/a."]
    assert notes == [[], []]
    assert wrong_without(repairs.protect, texts, model(), outputs)


def test_restore_leaves_no_token():
    outputs, _ = repairs.run(["I paid 45 euros."], model())
    assert outputs == ["Yo pagué 45 euros."]
    assert wrong_without(repairs.restore, ["I paid 45 euros."], model(), outputs)


def test_retry_decodes_a_greedy_translation_that_lost_a_token_with_a_beam():
    # Greedy loses the token; a beam's second hypothesis keeps it, and the check prefers it to the first.
    outputs, notes = repairs.run(["I paid 45 euros."], model(greedy_loses=True))
    assert outputs == ["Yo pagué 45 euros."] and notes == [[]]
    assert wrong_without(repairs.retry, ["I paid 45 euros."], model(greedy_loses=True), outputs)
    # What the retry could not mend is told.
    outputs, notes = repairs.run(["I paid 45 euros."], model(greedy_loses=True), stages=(
        repairs.protect, repairs.decode, repairs.check, repairs.choose, repairs.restore))
    assert outputs == ["Yo pagué euros."] and notes == [["'45' was lost by the model"]]


def test_choose_prefers_the_hypothesis_that_keeps_every_token_to_the_better_scored():
    outputs, _ = repairs.run(["I paid 45 euros."], model(greedy_loses=True), beam_size=4)
    assert outputs == ["Yo pagué 45 euros."]
    assert wrong_without(repairs.choose, ["I paid 45 euros."], model(greedy_loses=True), outputs, beam_size=4)


def test_check_finds_the_faults_that_retry_and_choose_read():
    assert wrong_without(repairs.check, ["I paid 45 euros."], model(), ["Yo pagué 45 euros."])


def test_decode_is_the_models_translation():
    assert wrong_without(repairs.decode, ["I paid 45 euros."], model(), ["Yo pagué 45 euros."])


def test_glossary_terms_come_out_as_the_users_spanish_and_alone_with_placeholders_off():
    glossary = Glossary([("firewall", "cortafuegos")])
    outputs, _ = repairs.run(["I paid 45 euros for the firewall."], model(), glossaries=[glossary], all_spans=False)
    assert outputs == ["Yo pagué cosa euros por el cortafuegos."]


def test_a_token_made_up_is_removed_and_a_span_repeated_is_noted():
    def repeats(texts, beam_size):
        return [(["Pagué PHNUM1 PHNUM1 PHURL3."], [0.0]) for _ in texts]
    outputs, notes = repairs.run(["I paid 45."], repeats)
    assert outputs == ["Pagué 45 45 ."] and notes == [["'45' was repeated by the model"]]


def test_respace_writes_a_word_with_punctuation_inside_as_the_source_does():
    # As the detokeniser spaces the pieces of such words; "EE. UU." is no word of the source and stays.
    def detokenised(texts, beam_size):
        return [(["A las 5 p. M. en R & D, v3.2. 1 y Ctrl + Alt + Supr. de EE. UU."], [0.0]) for _ in texts]
    texts = ["At 5 p.m. in R&D, v3.2.1 and Ctrl+Alt+Del of the U.S."]
    outputs, _ = repairs.run(texts, detokenised, all_spans=False)
    assert outputs == ["A las 5 p.m. en R&D, v3.2.1 y Ctrl + Alt + Supr. de EE. UU."]
    assert wrong_without(repairs.respace, texts, detokenised, outputs, all_spans=False)
    outputs, _ = repairs.run(["Press Ctrl+Alt+Supr now."], detokenised, all_spans=False)
    assert "Ctrl+Alt+Supr." in outputs[0]  # the key names in the source's order, whatever their case


def test_find_spans_leaves_what_the_model_says_its_way():
    known = repairs.Known(frozenset({"i", "is", "where", "the", "get"}), frozenset({"London"}))
    assert repairs.find_spans("I met Ana in London.", known) == [(6, 9, "NAME", "Ana")]
    assert repairs.find_spans("Where is Ana?", known) == [(9, 12, "NAME", "Ana")]  # "Where" opens no name
    assert repairs.find_spans("Okonkwo is here.", known) == [(0, 7, "NAME", "Okonkwo")]
    assert repairs.find_spans("The 3rd time.", known) == []  # inside a word
    glossary = Glossary([("version 2", "versión dos")])
    assert repairs.find_spans("Get version 2 now.", known, glossary) == [(4, 13, "GLOSSARY", "versión dos")]


def test_spans_past_the_last_index_stay_as_written():
    text = " ".join(str(number) for number in range(1, 12))
    given, spans = repairs.protected(text)
    assert len(spans) == 9 and given.endswith("PHNUM9 10 11")


def test_a_model_trained_on_placeholders_is_repaired_by_this_policy(tiny_model_dir):
    from translator import model_dir
    from translator.translate import Translator

    model, pipeline, config = model_dir.load(tiny_model_dir)
    translator = Translator(model, pipeline, config.replace(placeholders=0.3), lexicon=None)
    given = []
    hypotheses = translator.hypotheses
    translator.hypotheses = lambda texts, beam_size: given.extend(texts) or hypotheses(texts, beam_size)
    output = translator.translate("I paid 45 euros.")
    assert set(given) == {"I paid PHNUM1 euros."}  # and once more with a beam if the tiny model lost the token
    assert not TOKEN.search(output)


@pytest.mark.parametrize("text, spans", [
    ("Call +34 912 345 678 or (020) 7946 0958.", ["+34 912 345 678", "(020) 7946 0958"]),
    ("It cost $20, €49.90 or ₹500.", ["$20", "€49.90", "₹500"]),
    ("Open docs/notes/todo.md or C:\\Users\\ana\\letter.docx now.", ["docs/notes/todo.md", "C:\\Users\\ana\\letter.docx"]),
    ("Follow @nasa and #SummerSale on example.com.", ["@nasa", "#SummerSale", "example.com"]),
    ("Room 221B has invoice INV-2024-0193.", ["221B", "INV-2024-0193"]),
    ("I met Zoë Brontë and Anne-Marie with my iPad.", ["Zoë Brontë", "Anne-Marie", "iPad"]),
    ("On the 14th, in the 1990s, a Ph.D. student came.", []),  # ordinals, decades, abbreviations: the model's
])
def test_spans_are_found_whole(text, spans):
    known = repairs.Known(frozenset({"call", "it", "open", "follow", "room", "i", "on"}))
    assert [out for _, _, _, out in repairs.find_spans(text, known)] == spans
