"""The attention masks. `True` means "may attend".

Masks are shaped `(batch, queries, keys)`: row i says which keys query i may
look at, and the softmax runs along each row (over keys), so every query's
weights sum to one.
"""

from keras import ops

from translator.tokens import PAD_ID


def padding_mask(token_ids):
    """`(batch, length)`: True at real tokens, False at padding."""
    return ops.not_equal(token_ids, PAD_ID)


def causal_mask(query_length, key_length=None, offset=0):
    """`(queries, keys)`: query i may see keys 0..i+offset, never the future.

    The diagonal is allowed: a token may look at itself (the decoder input at
    step i is the token already produced; only its successors are hidden).
    `offset` places the queries later in the sequence, as in cached decoding
    where one query at step `offset` faces a cache of `key_length` slots.
    """
    key_length = query_length if key_length is None else key_length
    queries = ops.arange(query_length)[:, None] + offset
    keys = ops.arange(key_length)[None, :]
    return ops.greater_equal(queries, keys)


def key_padding_mask(key_padding, query_length):
    """`(batch, queries, keys)` from a `(batch, keys)` padding mask: no query looks at padding."""
    batch, keys = ops.shape(key_padding)[0], ops.shape(key_padding)[1]
    return ops.broadcast_to(key_padding[:, None, :], (batch, query_length, keys))


def decoder_self_attention_mask(target_padding):
    """Causal and padding together, for the decoder's masked self-attention."""
    length = ops.shape(target_padding)[1]
    return ops.logical_and(causal_mask(length)[None, :, :], key_padding_mask(target_padding, length))
