"""Making a model: the corpus and the training mix, augmented pairs and `tf.data` batches, the loss and the
optimizer, a run's state, the weights it keeps and the model directory it writes (`train.write_model`), the mean of
models, distillation, recipes of runs, the nouns and verbs found in the training split (`corpus_nouns`,
`corpus_verbs`: the tables `text/` reads) and training from token ids without TensorFlow (`ids`). Nothing used to
translate imports this folder."""
