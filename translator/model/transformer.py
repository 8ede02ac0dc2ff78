"""The sequence-to-sequence Transformer: source ids and target ids in, next-token logits out."""

import dataclasses

import keras
from keras import ops

from translator.config import Config
from translator.errors import UsageError
from translator.model import masks
from translator.model.layers import PositionalEmbedding, TransformerDecoder, TransformerEncoder


@keras.saving.register_keras_serializable(package="translator")
class Transformer(keras.Model):
    """Encoder-decoder Transformer built from a `Config`.

    `call({"encoder_inputs": source_ids, "decoder_inputs": target_ids})` gives
    logits `(batch, target_length, target_vocab_size)`; the loss applies the
    softmax. `encode` and `decode` are the two halves, for inference.

    Example:

    >>> config = Config(vocab_size=100, embed_dim=16, latent_dim=32, num_heads=2)
    >>> model = Transformer(config)
    >>> ids = ops.convert_to_tensor([[4, 9, 2, 0]])
    >>> ops.shape(model({"encoder_inputs": ids, "decoder_inputs": ids}))
    (1, 4, 100)
    """

    def __init__(self, config, **kwargs):
        super().__init__(**kwargs)
        self.spec = Config(**config) if isinstance(config, dict) else config
        c = self.spec
        source_vocab = c.source_vocab_size or c.vocab_size
        target_vocab = c.target_vocab_size or c.vocab_size
        shared = None
        if c.tie_embeddings:
            if source_vocab != target_vocab:
                raise UsageError(f"tied embeddings need one vocabulary, got {source_vocab} and {target_vocab} tokens")
            shared = keras.layers.Embedding(target_vocab, c.embed_dim, name="shared_embedding")
        self.shared_embedding = shared
        self.source_embedding = PositionalEmbedding(
            c.sequence_length, source_vocab, c.embed_dim, c.positional, mask_zero=False,
            token_embedding=shared, name="source_embedding",
        )
        self.encoder_layers = [
            TransformerEncoder(c.embed_dim, c.latent_dim, c.num_heads, c.dropout, name=f"encoder_{i}")
            for i in range(c.num_encoder_layers)
        ]
        self.target_embedding = PositionalEmbedding(
            c.sequence_length, target_vocab, c.embed_dim, c.positional, mask_zero=False,
            token_embedding=shared, name="target_embedding",
        )
        self.decoder_layers = [
            TransformerDecoder(c.embed_dim, c.latent_dim, c.num_heads, c.dropout, name=f"decoder_{i}")
            for i in range(c.num_decoder_layers)
        ]
        self.final_dropout = keras.layers.Dropout(c.dropout, name="final_dropout")
        # Logits stay float32 under mixed precision: a float16 softmax over
        # thousands of words loses the small probabilities. Tied, the output
        # projection is the transposed shared embedding plus a bias.
        self.logits = None if shared else keras.layers.Dense(target_vocab, name="logits", dtype="float32")

    def build(self, input_shape=None):
        ids, vectors = (None, None), (None, None, self.spec.embed_dim)
        self.source_embedding.build(ids)
        self.target_embedding.build(ids)
        for layer in self.encoder_layers:
            layer.build(vectors)
        for layer in self.decoder_layers:
            layer.build(vectors, vectors)
        if self.logits is None:
            vocab = self.shared_embedding.input_dim
            self.logits_bias = self.add_weight(shape=(vocab,), initializer="zeros", name="logits_bias", dtype="float32")
        else:
            self.logits.build(vectors)
        self.built = True

    def encode(self, source_ids, training=None, return_attention_scores=False):
        """Source ids `(batch, source_length)` to encoder outputs `(batch, source_length, embed_dim)`."""
        padding = masks.padding_mask(source_ids)
        x = self.source_embedding(source_ids)
        scores = []
        for layer in self.encoder_layers:
            x, layer_scores = layer(x, padding_mask=padding, training=training, return_attention_scores=True)
            scores.append(layer_scores)
        return (x, scores) if return_attention_scores else x

    def decode(self, target_ids, encoder_outputs, source_padding, training=None, return_attention_scores=False):
        """Logits for every target position, recomputing the whole prefix (training, and the naive loop)."""
        padding = masks.padding_mask(target_ids)
        x = self.target_embedding(target_ids)
        scores = []
        for layer in self.decoder_layers:
            x, layer_scores = layer(
                x, encoder_outputs, padding_mask=padding, encoder_padding_mask=source_padding,
                training=training, return_attention_scores=True,
            )
            scores.append(layer_scores)
        logits = self.project(self.final_dropout(x, training=training))
        return (logits, scores) if return_attention_scores else logits

    def call(self, inputs, training=None):
        source_ids, target_ids = inputs["encoder_inputs"], inputs["decoder_inputs"]
        encoded = self.encode(source_ids, training=training)
        return self.decode(target_ids, encoded, masks.padding_mask(source_ids), training=training)

    def project(self, x):
        """Decoder outputs `(batch, length, embed_dim)` to next-token logits `(batch, length, vocab)`."""
        if self.logits is not None:
            return self.logits(x)
        kernel, bias = self.output_weights()
        return ops.matmul(ops.cast(x, "float32"), kernel) + bias

    def output_weights(self, vocabulary=None):
        """The output projection, `(kernel (embed_dim, pieces), bias (pieces,))`, float32: of every piece, or
        of the ids `vocabulary` in their order (a `shortlist`'s candidates): the logits of those alone.

        After Keras' `quantize("int8")` the weights are read back to float32: int8 rows (the tied table) or
        columns (the untied kernel), each divided by its own scale."""
        if self.logits is None:
            layer, rows, bias = self.shared_embedding, self.shared_embedding.embeddings, self.logits_bias
            scales = "embeddings_scale"
        else:
            layer, rows, bias = self.logits, ops.transpose(self.logits.kernel), self.logits.bias
            scales = "kernel_scale"
        rows = ops.cast(rows, "float32")
        if layer.quantization_mode == "int8":
            rows = rows / ops.expand_dims(ops.cast(getattr(layer, scales), "float32"), -1)
        elif layer.quantization_mode is not None:
            raise ValueError(f"the output projection cannot be read in {layer.quantization_mode!r}: use int8")
        if vocabulary is not None:
            rows, bias = ops.take(rows, vocabulary, axis=0), ops.take(bias, vocabulary)
        return ops.transpose(rows), bias

    def get_config(self):
        return {**super().get_config(), "config": dataclasses.asdict(self.spec)}


def in_dtype(model, policy, config=None):
    """A copy of `model` (built from `config`, default its own) whose layers are made under the dtype `policy`
    ("float32", "bfloat16"), holding its weights cast to it: a model kept in bfloat16 (`model_dir.save`) is
    read back into float32 this way."""
    previous = keras.config.dtype_policy()
    keras.config.set_dtype_policy(policy)  # the policy of every layer made while it is set
    try:
        copy = Transformer(config or model.spec)
        copy.build()
    finally:
        keras.config.set_dtype_policy(previous)
    copy.set_weights(model.get_weights())
    return copy


def in_bfloat16(model):
    """A copy of `model` that stores its weights in bfloat16 and computes in it: on a CPU that multiplies
    bfloat16 in hardware, decoding is about 1.2 times as fast, for 0.01 BLEU (bench/RESULTS.md).

    It computes as Keras' `mixed_bfloat16` policy would (float32 weights cast to bfloat16 at every call),
    the same tokens, without casting every weight again at every decoding step. As under that policy,
    LayerNormalization's scale and offset stay float32 (`layers._norm`). The copy reads its output projection
    from the float32 model (`output_weights`), its bias float32; the decoding loops multiply by its table in
    the layers' dtype, and take the logits in float32."""
    copy = in_dtype(model, "bfloat16")
    copy.output_weights = model.output_weights
    return copy


def build_transformer(config):
    """Returns `(model, encoder, decoder)`.

    `model` is the training model. `encoder` maps source ids to encoder
    outputs; `decoder` maps `[target_ids, encoder_outputs, source_ids]` to
    logits. Both share `model`'s weights, so the encoder can run once per
    sentence and the decoder reuse its output at every step.
    """
    model = Transformer(config)
    model.build()
    return (model, *inference_models(model))


def inference_models(model):
    """The functional encoder and decoder halves of a (built or loaded) `Transformer`."""
    source_ids = keras.Input((None,), dtype="int32", name="encoder_inputs")
    target_ids = keras.Input((None,), dtype="int32", name="decoder_inputs")
    encoded = keras.Input((None, model.spec.embed_dim), name="encoder_outputs")
    encoder = keras.Model(source_ids, model.encode(source_ids), name="encoder")
    logits = model.decode(target_ids, encoded, masks.padding_mask(source_ids))
    decoder = keras.Model([target_ids, encoded, source_ids], logits, name="decoder")
    return encoder, decoder


def count_parameters(model):
    return int(sum(ops.size(w) for w in model.weights))
