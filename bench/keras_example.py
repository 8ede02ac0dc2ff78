"""The keras.io English-to-Spanish Transformer, re-created as the training-speed baseline.

Adapted from "English-to-Spanish translation with a sequence-to-sequence
Transformer" by fchollet, https://keras.io/examples/nlp/neural_machine_translation_with_transformer/
(keras-team/keras-io, Apache License 2.0). The layers below keep the example's
code and its choices, including the ones `translator.model.layers` corrects, because
those choices are what this baseline measures:

- every one of the 8 heads projects to `key_dim=embed_dim` (256), so each
  attention layer is 8x the size of one that splits the embedding between heads;
- every batch is padded to the full 20/21 tokens, with no bucketing by length;
- the cross-attention mask is the *decoder's* padding mask combined with the
  causal mask, not the encoder's padding mask;
- a softmax output layer with `sparse_categorical_crossentropy`, and rmsprop.

Only the spelling changed: `keras.ops` instead of `tf.*` (Keras 3) except in
the causal mask, and the decoder's padding mask is handed to it explicitly
(see `build_transformer`).
"""

import contextlib
import warnings

import keras
import tensorflow as tf
from keras import layers, ops


class TransformerEncoder(layers.Layer):
    def __init__(self, embed_dim, dense_dim, num_heads, **kwargs):
        super().__init__(**kwargs)
        self.embed_dim = embed_dim
        self.dense_dim = dense_dim
        self.num_heads = num_heads
        self.attention = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.dense_proj = keras.Sequential(
            [layers.Dense(dense_dim, activation="relu"), layers.Dense(embed_dim)]
        )
        self.layernorm_1 = layers.LayerNormalization()
        self.layernorm_2 = layers.LayerNormalization()
        self.supports_masking = True

    def call(self, inputs, mask=None):
        padding_mask = None
        if mask is not None:
            padding_mask = ops.cast(mask[:, None, :], dtype="int32")
        attention_output = self.attention(query=inputs, value=inputs, key=inputs, attention_mask=padding_mask)
        proj_input = self.layernorm_1(inputs + attention_output)
        proj_output = self.dense_proj(proj_input)
        return self.layernorm_2(proj_input + proj_output)


class PositionalEmbedding(layers.Layer):
    def __init__(self, sequence_length, vocab_size, embed_dim, **kwargs):
        super().__init__(**kwargs)
        self.token_embeddings = layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
        self.position_embeddings = layers.Embedding(input_dim=sequence_length, output_dim=embed_dim)
        self.sequence_length = sequence_length
        self.vocab_size = vocab_size
        self.embed_dim = embed_dim

    def call(self, inputs):
        length = ops.shape(inputs)[-1]
        positions = ops.arange(0, length, 1)
        embedded_tokens = self.token_embeddings(inputs)
        embedded_positions = self.position_embeddings(positions)
        return embedded_tokens + embedded_positions

    def compute_mask(self, inputs, mask=None):
        # As in the original (tf.keras) example: id 0 is padding, always.
        return ops.not_equal(inputs, 0)


class TransformerDecoder(layers.Layer):
    def __init__(self, embed_dim, latent_dim, num_heads, **kwargs):
        super().__init__(**kwargs)
        self.embed_dim = embed_dim
        self.latent_dim = latent_dim
        self.num_heads = num_heads
        self.attention_1 = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.attention_2 = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.dense_proj = keras.Sequential(
            [layers.Dense(latent_dim, activation="relu"), layers.Dense(embed_dim)]
        )
        self.layernorm_1 = layers.LayerNormalization()
        self.layernorm_2 = layers.LayerNormalization()
        self.layernorm_3 = layers.LayerNormalization()
        self.supports_masking = True

    def call(self, inputs, encoder_outputs, mask=None):
        causal_mask = self.get_causal_attention_mask(inputs)
        padding_mask = None
        if mask is not None:
            padding_mask = ops.cast(mask[:, None, :], dtype="int32")
            padding_mask = ops.minimum(padding_mask, causal_mask)

        attention_output_1 = self.attention_1(query=inputs, value=inputs, key=inputs, attention_mask=causal_mask)
        out_1 = self.layernorm_1(inputs + attention_output_1)

        attention_output_2 = self.attention_2(
            query=out_1, value=encoder_outputs, key=encoder_outputs, attention_mask=padding_mask
        )
        out_2 = self.layernorm_2(out_1 + attention_output_2)

        proj_output = self.dense_proj(out_2)
        return self.layernorm_3(out_2 + proj_output)

    def get_causal_attention_mask(self, inputs):
        # The original's tf spelling: Keras 3's ops.tile wants concrete repeats.
        input_shape = tf.shape(inputs)
        batch_size, sequence_length = input_shape[0], input_shape[1]
        i = tf.range(sequence_length)[:, tf.newaxis]
        j = tf.range(sequence_length)
        mask = tf.cast(i >= j, dtype="int32")
        mask = tf.reshape(mask, (1, input_shape[1], input_shape[1]))
        mult = tf.concat([tf.expand_dims(batch_size, -1), tf.constant([1, 1], dtype=tf.int32)], axis=0)
        return tf.tile(mask, mult)


@contextlib.contextmanager
def quiet_mask_warning():
    """Keras 3 warns, whenever it traces the model, that the nested decoder
    model drops the encoder output's mask; the example's decoder never used it."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*was passed an input with a mask attached.*")
        yield


def build_transformer(sequence_length=20, vocab_size=15000, embed_dim=256, latent_dim=2048, num_heads=8):
    """The example's model, compiled as the example compiles it."""
    encoder_inputs = keras.Input(shape=(None,), dtype="int64", name="encoder_inputs")
    x = PositionalEmbedding(sequence_length, vocab_size, embed_dim)(encoder_inputs)
    encoder_outputs = TransformerEncoder(embed_dim, latent_dim, num_heads)(x)

    decoder_inputs = keras.Input(shape=(None,), dtype="int64", name="decoder_inputs")
    encoded_seq_inputs = keras.Input(shape=(None, embed_dim), name="decoder_state_inputs")
    x = PositionalEmbedding(sequence_length, vocab_size, embed_dim)(decoder_inputs)
    # tf.keras passed the embedding's mask to `mask` by itself; Keras 3 fills
    # `mask` only for single-input layers, so it is handed over here to keep
    # the example's cross-attention mask.
    decoder_padding = ops.not_equal(decoder_inputs, 0)
    x = TransformerDecoder(embed_dim, latent_dim, num_heads)(x, encoded_seq_inputs, mask=decoder_padding)
    x = layers.Dropout(0.5)(x)
    decoder_outputs = layers.Dense(vocab_size, activation="softmax")(x)
    decoder = keras.Model([decoder_inputs, encoded_seq_inputs], decoder_outputs)

    with quiet_mask_warning():
        decoder_outputs = decoder([decoder_inputs, encoder_outputs])
    transformer = keras.Model([encoder_inputs, decoder_inputs], decoder_outputs, name="transformer")
    transformer.compile("rmsprop", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return transformer


def make_dataset(source_ids, target_ids, batch_size=64):
    """The example's batches: every sentence padded to the full length, in the order given.

    The example vectorises inside `map`; here the ids come from the shared
    vectorizer, already padded to 20 (source) and 21 (target), as the example's.
    """

    def format_dataset(eng, spa):
        eng, spa = tf.cast(eng, "int64"), tf.cast(spa, "int64")
        return {"encoder_inputs": eng, "decoder_inputs": spa[:, :-1]}, spa[:, 1:]

    dataset = tf.data.Dataset.from_tensor_slices((source_ids, target_ids))
    dataset = dataset.batch(batch_size)
    dataset = dataset.map(format_dataset)
    return dataset.shuffle(2048).prefetch(16).cache()


def flop_parameters(model):
    """Non-embedding parameters touched per source token (encoder) and per target token (decoder and output)."""

    def count(kind):
        layers_of_kind = [layer for layer in model._flatten_layers() if isinstance(layer, kind)]
        return sum(int(ops.size(w)) for layer in layers_of_kind for w in layer.weights)

    encoder = count(TransformerEncoder)
    non_embedding = sum(int(ops.size(w)) for w in model.weights) - count(PositionalEmbedding)
    return {"encoder": encoder, "decoder": non_embedding - encoder}
