"""Text before and after the model: the `TextPipeline` (standardise, vectorise, detokenise), pieces and
placeholders, sentences cut at their ends, the glossary, the spans that come out unchanged (`verbatim`) and the
shared word tables (`words`), what the model garbled and its repairs (numbers, names, nouns, verbs, Spanish forms,
spellings), and the beam's choice among its hypotheses (`rerank`). Plain Python and regular expressions but for the
pipeline's TensorFlow layers; nothing here imports `model/`, `training/` or `serving/`."""
