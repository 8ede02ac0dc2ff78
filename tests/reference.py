"""The keras.io example's decoding loop: the reference the cached loops must match, and the benchmark's baseline."""

import numpy as np
from keras import ops

from translator import masks


def recompute_greedy(model, source_ids, max_length, start_id, end_id):
    """Greedy decoding that re-runs the encoder and the decoder over the whole prefix at every step.

    Returns target ids `(batch, max_length)`, 0 after `[end]`.
    """
    source_ids = ops.convert_to_tensor(source_ids, "int32")
    batch = int(ops.shape(source_ids)[0])
    prefix = np.full((batch, 1), start_id, "int32")
    done = np.zeros(batch, bool)
    for _ in range(max_length):
        encoded = model.encode(source_ids, training=False)
        logits = model.decode(ops.convert_to_tensor(prefix), encoded, masks.padding_mask(source_ids))
        chosen = np.where(done, 0, np.argmax(ops.convert_to_numpy(logits[:, -1, :]), axis=-1)).astype("int32")
        prefix = np.concatenate([prefix, chosen[:, None]], axis=1)
        done |= chosen == end_id
        if done.all():
            break
    tokens = np.zeros((batch, max_length), "int32")
    tokens[:, : prefix.shape[1] - 1] = prefix[:, 1:]
    return tokens
