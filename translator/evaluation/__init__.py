"""Scoring a model: BLEU and chrF on the test split and the held-out sets (`evaluate`), the quality checks BLEU
hides (`quality`: names and numbers copied, spans intact, glossary terms kept, invented words, sentence breaks,
untranslated English), and the shipped test sets they read (`testsets/`)."""
