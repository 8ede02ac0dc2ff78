"""Re-ranking beam hypotheses: the lexicon on disk, fewest invented words, and the consensus of the beam."""

import numpy as np
import sacrebleu

from translator.text import rerank
from translator.text.rerank import words
from translator.translate import Translator


def test_lexicon_round_trip(tmp_path):
    assert rerank.load_lexicon(tmp_path) is None  # an older model directory: no lexicon check
    rerank.save_lexicon(tmp_path, ["¿Dónde está Tom?", "Tom está aquí."])
    assert rerank.load_lexicon(tmp_path) == {"dónde", "está", "tom", "aquí"}


def test_consensus_weighs_the_hypotheses_by_their_probability():
    hypotheses = ["Tengo un gato.", "Tengo un perro grande.", "Tengo un perro pequeño."]
    # Alike, the two that agree on "perro" win; the best by far keeps its place.
    assert rerank.choose(hypotheses, [-1.0, -1.1, -1.2], "I have a dog.") == 1
    assert rerank.choose(hypotheses, [0.0, -9.0, -9.0], "I have a dog.") == 0
    assert rerank.choose(hypotheses, [-1.0, -1.1, -1.2], "I have a dog.", consensus=False) == 0
    # The lexicon check comes first: only hypotheses that invent fewest words are candidates.
    lexicon = {"tengo", "un", "gato", "perro"}
    assert rerank.choose(hypotheses, [-1.0, -1.1, -1.2], "I have a dog.", lexicon) == 0


def test_a_hypothesis_that_writes_words_twice_in_a_row_is_dropped():
    hypotheses = ["Grecia fue la cuna de la cuna de la civilización.", "Grecia fue la cuna de la civilización.",
                  "No, no es la cuna."]
    source = "Greece was the cradle of civilization."
    assert rerank.choose(hypotheses, [0.0, -5.0, -9.0], source, consensus=False) == 1  # whatever the score
    assert rerank.choose(hypotheses[::2], [0.0, -5.0], source, consensus=False) == 1  # "No, no" is Spanish, a comma between
    assert rerank.choose(hypotheses, [0.0, -5.0, -9.0], "It is very very old.", consensus=False) == 0  # as the source
    lexicon = {"grecia", "fue", "la", "cuna", "de", "civilización", "no", "es"}
    assert rerank.choose(hypotheses, [0.0, -5.0, -9.0], source, lexicon, consensus=False) == 1
    assert rerank.choose(hypotheses, [0.0, -5.0, -9.0], source, lexicon - {"civilización"}, consensus=False) == 2  # first


def test_a_hypothesis_that_makes_up_a_number_is_dropped():
    hypotheses = ["Tenemos diez errores.", "Solemos cometer 3 errores.", "Solemos cometer errores."]
    source = "We tend to make mistakes."
    assert rerank.choose(hypotheses, [0.0, -5.0, -9.0], source, consensus=False) == 2  # whatever the score
    assert rerank.choose(hypotheses[:2], [0.0, -5.0], "We tend to make 10 mistakes.", consensus=False) == 0
    assert rerank.choose(["Cometemos B3 errores.", "Cometemos errores."], [0.0, -5.0], source, consensus=False) == 1
    lexicon = {"tenemos", "diez", "errores", "solemos", "cometer"}
    assert rerank.choose(hypotheses, [0.0, -5.0, -9.0], source, lexicon, consensus=False) == 2
    assert rerank.choose(hypotheses, [0.0, -5.0, -9.0], source, lexicon - {"solemos"}, consensus=False) == 2  # first


def test_the_chrf_matrix_is_sacrebleus_sentence_chrf():
    chrf = sacrebleu.metrics.CHRF()
    texts = ["Tengo un perro.", "Tengo un  perro grande.", "", "a", "¿Dónde está Tom?", "Tengo un perro."]
    expected = [[chrf.sentence_score(hypothesis, [reference]).score for reference in texts] for hypothesis in texts]
    np.testing.assert_array_equal(rerank.chrf_matrix(texts), expected)  # to the last bit: the same choices


def beam_of(translator, english, beam):
    texts, scores = translator.text_function(beam, all_beams=True)([english])
    return [s.decode() for s in texts.numpy()], scores.numpy()


def test_the_first_hypothesis_that_invents_no_word_is_chosen(tiny_translator):
    english, beam = "Tom is here.", 4
    hypotheses, scores = beam_of(tiny_translator, english, beam)
    assert list(scores) == sorted(scores, reverse=True)
    plain = Translator(tiny_translator.model, tiny_translator.pipeline, tiny_translator.config, placeholders=False,
                       consensus=False)
    assert plain.translate(english, beam_size=beam) == hypotheses[0]  # the beam's own best comes first

    # A lexicon that holds the words of a later hypothesis only: every earlier one invents a word.
    source = set(words(english))
    later = next(k for k in range(1, beam)
                 if all(set(words(hypotheses[j])) - set(words(hypotheses[k])) - source for j in range(k)))
    plain.lexicon = set(words(hypotheses[later]))
    assert plain.translate(english, beam_size=beam) == hypotheses[later]
    # Greedy, the translation invents a word of the lexicon's: decoded again with the beam, whose choice is kept.
    assert plain.translate(english, beam_size=1) == hypotheses[later]


def test_the_translation_is_the_beams_consensus(tiny_translator):
    plain = Translator(tiny_translator.model, tiny_translator.pipeline, tiny_translator.config, placeholders=False)
    chrf = sacrebleu.metrics.CHRF()
    for english in ["Tom is here.", "I like dogs.", "Where is the station?", "She is reading a book."]:
        hypotheses, scores = beam_of(plain, english, 4)
        weights = np.exp(scores - scores.max())
        expected = [sum(w * chrf.sentence_score(h, [other]).score for w, other in zip(weights, hypotheses))
                    for h in hypotheses]
        assert plain.translate(english, beam_size=4) == hypotheses[int(np.argmax(expected))]
