"""The Transformer's building blocks: PositionalEmbedding, TransformerEncoder, TransformerDecoder.

They follow the keras.io English-to-Spanish example with its mistakes
mended: every head gets an equal slice of the embedding, and cross-attention
is masked by the *source* padding only.
Masks are passed explicitly (see `translator.model.masks`), so nothing depends on
Keras' implicit mask propagation. Nothing here knows about text or data.
"""

import math

import keras
from keras import ops

from translator.model import masks
from translator.model.attention import CachedMultiHeadAttention

serializable = keras.saving.register_keras_serializable(package="translator")


def sinusoidal_table(positions, embed_dim):
    """The fixed sine/cosine position vectors of "Attention is all you need".

    Pair j of dimensions turns at frequency 1 / 10000^(2j/d): low dimensions
    change fast (fine position), high ones slowly (coarse position), and any
    offset k is a fixed rotation of each pair, so relative positions are easy
    to read with a linear map, and positions past the trained length still
    get distinct, smooth vectors.
    """
    positions = ops.cast(positions, "float32")[:, None]
    rates = ops.exp(ops.arange(0, embed_dim, 2, dtype="float32") * (-math.log(10000.0) / embed_dim))
    angles = positions * rates[None, :]
    table = ops.stack([ops.sin(angles), ops.cos(angles)], axis=-1)
    return ops.reshape(table, (-1, embed_dim))


def _head_size(embed_dim, num_heads):
    if embed_dim % num_heads:
        raise ValueError(
            f"embed_dim={embed_dim} must be divisible by num_heads={num_heads}: "
            "each head attends over an equal slice of the embedding"
        )
    return embed_dim // num_heads


def _feed_forward(hidden_dim, embed_dim, name):
    return keras.Sequential(
        [keras.layers.Dense(hidden_dim, activation="relu"), keras.layers.Dense(embed_dim)], name=name
    )


def _norm(name, policy):
    """A `LayerNormalization` beside layers of dtype `policy`, its scale and offset float32 even where `policy`
    stores weights in half precision, as Keras keeps them under a mixed policy: the copy that stores its
    weights in bfloat16 for decoding (`model.in_bfloat16`) then normalises exactly as a `mixed_bfloat16` one."""
    if policy.variable_dtype in ("bfloat16", "float16"):
        policy = keras.DTypePolicy(f"mixed_{policy.compute_dtype}")
    return keras.layers.LayerNormalization(name=name, dtype=policy)


@serializable
class PositionalEmbedding(keras.layers.Layer):
    """Token embedding plus position embedding, summed.

    Args:
        sequence_length: the longest sequence; for `"learned"` positions, the
            size of the position table.
        vocab_size: number of token ids.
        embed_dim: size of each token vector.
        positional: `"learned"` (a trained `Embedding`, as in the keras.io
            example) or `"sinusoidal"` (the fixed table of the original paper,
            which also works past `sequence_length`).
        mask_zero: whether `compute_mask` reports id 0 as padding, for use
            with Keras' implicit masking. The translator passes masks
            explicitly and leaves it off.
        token_embedding: an `Embedding` to use for the tokens instead of a
            new one, so that several layers share one matrix (tied
            embeddings). Not part of `get_config`: whoever shares the matrix
            passes it again when rebuilding.

    Example:

    >>> embedding = PositionalEmbedding(sequence_length=20, vocab_size=100, embed_dim=8)
    >>> ops.shape(embedding(ops.convert_to_tensor([[5, 9, 2, 0]])))
    (1, 4, 8)
    """

    def __init__(self, sequence_length, vocab_size, embed_dim, positional="learned",
                 mask_zero=True, token_embedding=None, **kwargs):
        super().__init__(**kwargs)
        if positional not in ("learned", "sinusoidal"):
            raise ValueError(f"positional must be 'learned' or 'sinusoidal', got {positional!r}")
        self.sequence_length = sequence_length
        self.vocab_size = vocab_size
        self.embed_dim = embed_dim
        self.positional = positional
        self.mask_zero = mask_zero
        self.shared_token_embedding = token_embedding

    def build(self, input_shape):
        self.token_embeddings = self.shared_token_embedding or keras.layers.Embedding(
            self.vocab_size, self.embed_dim, name="token_embeddings", dtype=self.dtype_policy
        )
        if not self.token_embeddings.built:
            self.token_embeddings.build(input_shape)
        if self.positional == "learned":
            self.position_embeddings = keras.layers.Embedding(
                self.sequence_length, self.embed_dim, name="position_embeddings", dtype=self.dtype_policy
            )
            self.position_embeddings.build((None,))

    def call(self, inputs, start_index=0):
        """`start_index` is the position of the first token: cached decoding embeds one token at a time."""
        positions = ops.arange(ops.shape(inputs)[-1]) + start_index
        if self.positional == "learned":
            embedded_positions = self.position_embeddings(positions)
        else:
            embedded_positions = ops.cast(sinusoidal_table(positions, self.embed_dim), self.compute_dtype)
        return self.token_embeddings(inputs) + embedded_positions

    def compute_mask(self, inputs, mask=None):
        return masks.padding_mask(inputs) if self.mask_zero else None

    def get_config(self):
        return {
            **super().get_config(),
            "sequence_length": self.sequence_length,
            "vocab_size": self.vocab_size,
            "embed_dim": self.embed_dim,
            "positional": self.positional,
            "mask_zero": self.mask_zero,
        }


@serializable
class TransformerEncoder(keras.layers.Layer):
    """Self-attention then a feed-forward network, each with residual + LayerNormalization.

    Args:
        embed_dim: size of the token vectors in and out.
        dense_dim: hidden size of the feed-forward network.
        num_heads: attention heads; each sees `embed_dim // num_heads` dimensions.
        dropout: dropout rate after attention and feed-forward.

    Call args:
        inputs: `(batch, length, embed_dim)`.
        padding_mask: `(batch, length)`, True at real tokens.
        return_attention_scores: also return `(batch, heads, length, length)` weights.

    Example:

    >>> encoder = TransformerEncoder(embed_dim=8, dense_dim=16, num_heads=2)
    >>> ops.shape(encoder(keras.random.normal((2, 5, 8))))
    (2, 5, 8)
    """

    def __init__(self, embed_dim, dense_dim, num_heads, dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        self.key_dim = _head_size(embed_dim, num_heads)
        self.embed_dim = embed_dim
        self.dense_dim = dense_dim
        self.num_heads = num_heads
        self.dropout = dropout

    def build(self, input_shape):
        self.self_attention = CachedMultiHeadAttention(
            num_heads=self.num_heads, key_dim=self.key_dim, name="self_attention", dtype=self.dtype_policy
        )
        self.self_attention.build(input_shape, input_shape)
        self.feed_forward = _feed_forward(self.dense_dim, self.embed_dim, "feed_forward")
        self.feed_forward.build(input_shape)
        self.attention_norm = _norm("attention_norm", self.dtype_policy)
        self.attention_norm.build(input_shape)
        self.feed_forward_norm = _norm("feed_forward_norm", self.dtype_policy)
        self.feed_forward_norm.build(input_shape)
        self.dropout_layer = keras.layers.Dropout(self.dropout)

    def call(self, inputs, padding_mask=None, training=None, return_attention_scores=False):
        attention_mask = None
        if padding_mask is not None:
            attention_mask = masks.key_padding_mask(padding_mask, ops.shape(inputs)[1])
        attended, scores, _ = self.self_attention(inputs, inputs, attention_mask=attention_mask, training=training)
        x = self.attention_norm(inputs + self.dropout_layer(attended, training=training))
        x = self.feed_forward_norm(x + self.dropout_layer(self.feed_forward(x), training=training))
        return (x, scores) if return_attention_scores else x

    def compute_output_spec(self, inputs, padding_mask=None, training=None, return_attention_scores=False):
        output = keras.KerasTensor(inputs.shape, inputs.dtype)
        if not return_attention_scores:
            return output
        return output, keras.KerasTensor((inputs.shape[0], self.num_heads, inputs.shape[1], inputs.shape[1]))

    def get_config(self):
        return {
            **super().get_config(),
            "embed_dim": self.embed_dim,
            "dense_dim": self.dense_dim,
            "num_heads": self.num_heads,
            "dropout": self.dropout,
        }


@serializable
class TransformerDecoder(keras.layers.Layer):
    """Causal self-attention, cross-attention to the encoder, then a feed-forward network.

    Each sublayer has a residual connection and LayerNormalization after it.

    Args:
        embed_dim: size of the token vectors in and out (and of the encoder's).
        latent_dim: hidden size of the feed-forward network.
        num_heads: attention heads; each sees `embed_dim // num_heads` dimensions.
        dropout: dropout rate after each sublayer.

    Call args:
        inputs: decoder token vectors `(batch, target_length, embed_dim)`.
        encoder_outputs: `(batch, source_length, embed_dim)`.
        padding_mask: `(batch, target_length)`, True at real target tokens.
        encoder_padding_mask: `(batch, source_length)`, True at real source tokens.
        self_attention_cache, cache_update_index: for incremental decoding, the
            keys/values of earlier steps, `self_attention.empty_cache(batch,
            max_length)` filled so far, and the position of `inputs` in it.
            The layer then also returns the updated cache. Without
            `cache_update_index`, the cache holds the earlier steps only
            (`empty_cache(batch, 0)` at first), and the new keys/values are
            appended to it.
        cross_attention_cache: the encoder's keys/values, from
            `cross_attention.key_value_cache(encoder_outputs)`, so they are
            projected once per sentence instead of once per step.
        return_attention_scores: also return the cross-attention weights
            `(batch, heads, target_length, source_length)`.

    Example:

    >>> decoder = TransformerDecoder(embed_dim=8, latent_dim=16, num_heads=2)
    >>> ops.shape(decoder(keras.random.normal((2, 4, 8)), keras.random.normal((2, 6, 8))))
    (2, 4, 8)
    """

    def __init__(self, embed_dim, latent_dim, num_heads, dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        self.key_dim = _head_size(embed_dim, num_heads)
        self.embed_dim = embed_dim
        self.latent_dim = latent_dim
        self.num_heads = num_heads
        self.dropout = dropout

    def build(self, inputs_shape, encoder_outputs_shape=None):
        encoder_outputs_shape = encoder_outputs_shape or inputs_shape
        attention = dict(num_heads=self.num_heads, key_dim=self.key_dim, dtype=self.dtype_policy)
        self.self_attention = CachedMultiHeadAttention(name="self_attention", **attention)
        self.self_attention.build(inputs_shape, inputs_shape)
        self.cross_attention = CachedMultiHeadAttention(name="cross_attention", **attention)
        self.cross_attention.build(inputs_shape, encoder_outputs_shape)
        self.feed_forward = _feed_forward(self.latent_dim, self.embed_dim, "feed_forward")
        self.feed_forward.build(inputs_shape)
        for name in ("self_attention_norm", "cross_attention_norm", "feed_forward_norm"):
            norm = _norm(name, self.dtype_policy)
            norm.build(inputs_shape)
            setattr(self, name, norm)
        self.dropout_layer = keras.layers.Dropout(self.dropout)

    def call(self, inputs, encoder_outputs, padding_mask=None, encoder_padding_mask=None,
             self_attention_cache=None, cache_update_index=None, cross_attention_cache=None,
             training=None, return_attention_scores=False):
        length = ops.shape(inputs)[1]
        if self_attention_cache is None and padding_mask is None:
            self_mask = masks.causal_mask(length)[None]
        elif self_attention_cache is None:
            self_mask = masks.decoder_self_attention_mask(padding_mask)
        else:
            # The new tokens sit at cache_update_index (later cache slots are still empty), or after the cache.
            cache_length = ops.shape(self_attention_cache[1])[2]
            offset = cache_length if cache_update_index is None else cache_update_index
            cache_length = cache_length + length if cache_update_index is None else cache_length
            self_mask = masks.causal_mask(length, cache_length, offset=offset)[None]
        attended, _, self_attention_cache = self.self_attention(
            inputs, inputs, attention_mask=self_mask, cache=self_attention_cache,
            cache_update_index=cache_update_index, append=self_attention_cache is not None and cache_update_index is None,
            training=training,
        )
        x = self.self_attention_norm(inputs + self.dropout_layer(attended, training=training))

        cross_mask = None
        if encoder_padding_mask is not None:
            cross_mask = masks.key_padding_mask(encoder_padding_mask, length)
        attended, scores, _ = self.cross_attention(
            x, encoder_outputs, attention_mask=cross_mask, cache=cross_attention_cache, training=training
        )
        x = self.cross_attention_norm(x + self.dropout_layer(attended, training=training))
        x = self.feed_forward_norm(x + self.dropout_layer(self.feed_forward(x), training=training))

        outputs = (x,)
        if self_attention_cache is not None:
            outputs += (self_attention_cache,)
        if return_attention_scores:
            outputs += (scores,)
        return outputs[0] if len(outputs) == 1 else outputs

    def compute_output_spec(self, inputs, encoder_outputs, *args, return_attention_scores=False, **kwargs):
        output = keras.KerasTensor(inputs.shape, inputs.dtype)
        if not return_attention_scores:
            return output
        scores = keras.KerasTensor((inputs.shape[0], self.num_heads, inputs.shape[1], encoder_outputs.shape[1]))
        return output, scores

    def get_config(self):
        return {
            **super().get_config(),
            "embed_dim": self.embed_dim,
            "latent_dim": self.latent_dim,
            "num_heads": self.num_heads,
            "dropout": self.dropout,
        }
