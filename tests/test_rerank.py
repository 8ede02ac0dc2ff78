"""Re-ranking beam hypotheses: the lexicon on disk, and the choice of the hypothesis that invents fewest words."""

from translator import rerank
from translator.quality import words
from translator.translator import Translator


def test_lexicon_round_trip(tmp_path):
    assert rerank.load_lexicon(tmp_path) is None  # an older model directory: no re-ranking
    rerank.save_lexicon(tmp_path, ["¿Dónde está Tom?", "Tom está aquí."])
    assert rerank.load_lexicon(tmp_path) == {"dónde", "está", "tom", "aquí"}


def test_the_first_hypothesis_that_invents_no_word_is_chosen(tiny_translator):
    english, beam = "Tom is here.", 4
    hypotheses = [s.decode() for s in tiny_translator.text_function(beam, all_beams=True)([english]).numpy()]
    plain = Translator(tiny_translator.model, tiny_translator.pipeline, tiny_translator.config, placeholders=False)
    assert plain.translate(english, beam_size=beam) == hypotheses[0]  # the beam's own best comes first

    # A lexicon that holds the words of a later hypothesis only: every earlier one invents a word.
    source = set(words(english))
    later = next(k for k in range(1, beam)
                 if all(set(words(hypotheses[j])) - set(words(hypotheses[k])) - source for j in range(k)))
    plain.lexicon = set(words(hypotheses[later]))
    assert plain.translate(english, beam_size=beam) == hypotheses[later]
    assert plain.translate(english, beam_size=1) == tiny_translator.translate(english, beam_size=1)  # greedy: no choice
