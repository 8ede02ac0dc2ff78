"""An ensemble: several models decoded as one, their next-token probabilities averaged.

Models trained apart make partly different mistakes; at each step the
decoding loops (`decoding`) run every member's decoder on the same token, with
its own caches, and choose from the mean of their probabilities. Each member
adds its whole cost: two models decode about half as fast as one. The members
must share the vocabularies and the sequence length: a model trained `--from`
another (or averaged with it) does.

Example:

    # the shipped student with its teacher, as `make train` leaves it in runs/
    translator = Translator.load("saved_models/en-es", ensemble=["runs/en-es/models/mean-27-33-39"])
    translator.translate("Where is the train station?", beam_size=4)
"""

import math

from keras import ops

from translator.errors import UsageError


class Ensemble:
    """Models decoded as one by `decoding.greedy_decode` and `decoding.beam_decode`.

    Args:
        members: two or more `Transformer`s with the same vocabularies.

    Its `encode` and `decode` are those of a `Transformer` over the whole prefix, so the reference decoders
    of `recompute` decode an ensemble too: `decode` gives `mean_log_probs` for every position.
    """

    def __init__(self, members):
        if len(members) < 2:
            raise ValueError(f"an ensemble needs two or more models, got {len(members)}")
        self.members = list(members)

    def encode(self, source_ids, training=None):
        return [member.encode(source_ids, training=training) for member in self.members]

    def decode(self, target_ids, encoded, source_padding, training=None):
        return mean_log_probs([member.decode(target_ids, one, source_padding, training=training)
                               for member, one in zip(self.members, encoded)])


def members(model):
    """The models decoded for `model`: an `Ensemble`'s members, or the model alone."""
    return model.members if isinstance(model, Ensemble) else [model]


def mean_log_probs(logits):
    """The log of the mean of the members' softmax over a list of `(..., vocab)` logits: logits themselves
    (their softmax is that mean), so the loops rank and choose from them as from one model's."""
    log_probs = ops.stack([ops.log_softmax(ops.cast(x, "float32"), axis=-1) for x in logits])
    return ops.logsumexp(log_probs, axis=0) - math.log(len(logits))


def check_same_text(directories, pipelines, configs):
    """Raises `UsageError` unless every model reads and writes text alike: the same vocabularies and length."""
    first = pipelines[0]
    for directory, pipeline, config in zip(directories[1:], pipelines[1:], configs[1:]):
        if (pipeline.source_vocabulary != first.source_vocabulary or pipeline.target_vocabulary != first.target_vocabulary
                or config.sequence_length != configs[0].sequence_length):
            raise UsageError(f"{directory} has other vocabularies or sequence length than {directories[0]}: "
                             "an ensemble's models must share them (train one --from the other)")
