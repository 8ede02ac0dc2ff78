"""Multi-head attention that can reuse cached keys and values.

`CachedMultiHeadAttention` is `keras.layers.MultiHeadAttention` (same weights,
same maths) with two additions for fast decoding, in the manner of
`keras_hub.layers.CachedMultiHeadAttention`:

- `cache`, a pair `(keys, values)`, holds the projected keys and values
  already computed, laid out as the attention's batched products read them
  (`empty_cache`): each `(batch, num_heads, length, key_dim)`. Keras' layout,
  `(batch, length, num_heads, key_dim)`, would be transposed, and a stacked
  pair sliced apart, at every step: copies of every cache. The keys are
  multiplied as they lie (an einsum that TensorFlow runs as a product with
  the keys transposed in place), so a new step is appended to both as a
  block of `key_dim` numbers a head. Together about 1.2 times as fast a
  decoding on a CPU, greedy and beam alike (bench/RESULTS.md);
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


def _heads_first(x):
    """`(batch, length, heads, key_dim)` as `(batch, heads, length, key_dim)`, and back."""
    return ops.transpose(x, (0, 2, 1, 3))


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
    >>> output, scores, cache = attention(x[:, :1], x[:, :1], cache=attention.empty_cache(1, 3), cache_update_index=0)
    >>> [ops.shape(part) for part in cache]
    [(1, 2, 3, 4), (1, 2, 3, 4)]
    """

    def call(self, query, value, key=None, attention_mask=None, cache=None,
             cache_update_index=None, append=False, training=None):
        query = self._query_dense(query)
        if cache is None:
            key = self._key_dense(value if key is None else key)
            output, scores = self._compute_attention(
                query, key, self._value_dense(value), attention_mask=attention_mask, training=training,
                return_attention_scores=True,
            )
            return self._output_dense(output), scores, None
        if append or cache_update_index is not None:
            new = self.key_value_cache(value if key is None else key, value)
            if append:
                cache = tuple(ops.concatenate([old, step], axis=2) for old, step in zip(cache, new))
            else:
                cache = tuple(ops.slice_update(old, [0, 0, cache_update_index, 0], step) for old, step in zip(cache, new))
        output, scores = self._cached_attention(query, *cache, attention_mask, training)
        return self._output_dense(output), scores, cache

    def _cached_attention(self, query, keys, values, attention_mask, training):
        """`_compute_attention`'s maths on a cache's layout: `(output, scores)` as it returns them."""
        query = _heads_first(ops.multiply(query, ops.cast(self._inverse_sqrt_key_dim, query.dtype)))
        scores = self._masked_softmax(ops.einsum("bhtd,bhsd->bhts", query, keys), attention_mask)
        output = ops.matmul(self._dropout_layer(scores, training=training), values)
        return _heads_first(output), scores

    def key_value_cache(self, key, value=None):
        """The projected keys and values of `key` (and `value`, else the same tensor), as a read-only cache."""
        return _heads_first(self._key_dense(key)), _heads_first(self._value_dense(key if value is None else value))

    def empty_cache(self, batch, length, dtype=None):
        """A cache of `length` empty slots for `batch` rows: what `cache_update_index` writes into."""
        empty = ops.zeros((batch, self._num_heads, length, self._key_dim), dtype or self.compute_dtype)
        return empty, empty
