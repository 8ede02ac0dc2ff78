"""Export a trained model as a TensorFlow SavedModel: a batch of strings in, a batch of strings out.

Vectorisation, the cached greedy loop and detokenisation all live in the
graph, so `tf.saved_model.load` serves it without this project installed
(only `tensorflow_text`, whose ops the text pipeline uses, must be imported)
and TF Serving can host it. Inputs longer than the model's sequence length are
truncated in the graph; the Python `Translator` splits them instead.
"""

import keras
import tensorflow as tf

from translator.decoding import Translator, greedy_decode


def export(model_path, output_path):
    translator = Translator.load(model_path)
    model, pipeline = translator.model, translator.pipeline

    def translate(texts):
        source_ids = tf.cast(pipeline.source(texts), tf.int32)
        tokens, attended = greedy_decode(
            model, source_ids, pipeline.start_id, pipeline.end_id, translator.max_length
        )
        words = tf.gather(pipeline.source_words(texts), attended, batch_dims=1)
        return {"translations": pipeline.detokenize(tokens, unk_words=words)}

    archive = keras.export.ExportArchive()
    archive.track(model)
    for vectorizer in (pipeline.source, pipeline.target):
        vectorizer.build((None,))  # built layers only: their lookup tables travel with the export
        archive.track(vectorizer)
    archive.track(pipeline.truecase_table)
    archive.add_endpoint("serve", translate, input_signature=[tf.TensorSpec([None], tf.string, name="texts")])
    archive.write_out(str(output_path))
    return output_path
