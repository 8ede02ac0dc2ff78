"""Multi-head attention that can reuse cached keys and values.

`CachedMultiHeadAttention` is `keras.layers.MultiHeadAttention` (same weights,
same maths) with two additions for fast decoding, in the manner of
`keras_hub.layers.CachedMultiHeadAttention`:

- `cache` of shape `(batch, 2, max_length, num_heads, key_dim)` holds the
  projected keys and values already computed;
- `cache_update_index` says where the keys and values of the new query tokens
  go. Without it the cache is read as it is: the encoder's keys and values for
  cross-attention never change while a sentence is decoded;
- with `append`, the new keys and values are added after the cache's instead:
  a cache as long as the tokens decoded so far, whose every slot is filled
  (its length changes at each step, so it suits a loop whose shapes may).

It always returns the attention weights too: the notebooks draw them and the
decoder copies source words for `[UNK]` from them.
"""

import keras
from keras import ops


@keras.saving.register_keras_serializable(package="translator")
class CachedMultiHeadAttention(keras.layers.MultiHeadAttention):
    """Multi-head attention with an optional key/value cache.

    Args: those of `keras.layers.MultiHeadAttention`.

    Example:

    >>> attention = CachedMultiHeadAttention(num_heads=2, key_dim=4)
    >>> x = keras.random.normal((1, 3, 8))
    >>> output, scores, _ = attention(x, x)
    >>> ops.shape(output), ops.shape(scores)
    ((1, 3, 8), (1, 2, 3, 3))
    """

    def call(self, query, value, key=None, attention_mask=None, cache=None,
             cache_update_index=None, append=False, training=None):
        query = self._query_dense(query)
        if cache is not None and cache_update_index is None and not append:
            key, value = cache[:, 0], cache[:, 1]
        else:
            key = self._key_dense(value if key is None else key)
            value = self._value_dense(value)
            if append:
                cache = ops.concatenate([cache, ops.stack([key, value], axis=1)], axis=2)
            elif cache is not None:
                cache = ops.slice_update(cache, [0, 0, cache_update_index, 0, 0], ops.stack([key, value], axis=1))
            if cache is not None:
                key, value = cache[:, 0], cache[:, 1]
        output, scores = self._compute_attention(
            query, key, value, attention_mask=attention_mask, training=training,
            return_attention_scores=True,
        )
        return self._output_dense(output), scores, cache

    def key_value_cache(self, value):
        """The projected keys and values of `value`, stacked as a read-only cache."""
        return ops.stack([self._key_dense(value), self._value_dense(value)], axis=1)
