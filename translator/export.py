"""Export a trained model as a TensorFlow SavedModel: a batch of strings in, a batch of strings out.

Vectorisation, the cached greedy loop and detokenisation all live in the
graph, so `tf.saved_model.load` serves it without this project installed
(only `tensorflow_text`, whose ops the text pipeline uses, must be imported)
and TF Serving can host it. Inputs longer than the model's sequence length are
truncated in the graph; the Python `Translator` splits them instead.
"""

import keras

from translator.files import outputs
from translator.translate import Translator


def export(model_path, output_path, overwrite=False):
    """Writes the SavedModel of the model at `model_path` to `output_path`, which it replaces whole
    only if `overwrite` (else an existing one is refused, before any work)."""
    outputs.refuse_existing(output_path, overwrite)
    # No XLA inside: any TensorFlow runtime, TF Serving included, can then run the graph as it is.
    translator = Translator.load(model_path, jit_compile=False)
    translate = translator.text_function(beam_size=1)
    archive = keras.export.ExportArchive()
    archive.track(translator.model)
    for vectorizer in (translator.pipeline.source, translator.pipeline.target):
        vectorizer.build((None,))  # built layers only: their lookup tables travel with the export
        archive.track(vectorizer)
    archive.track(translator.pipeline.truecase_table)
    archive.add_endpoint(
        "serve", lambda texts: {"translations": translate(texts)}, input_signature=translate.input_signature
    )
    with outputs.new_directory(output_path, overwrite) as folder:
        archive.write_out(str(folder))
    return output_path
