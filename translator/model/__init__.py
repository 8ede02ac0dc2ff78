"""The network and its decoding: the attention masks, the cached attention and the Transformer's layers, the
`Transformer` itself, the greedy and beam-search loops (and the uncached loop they must match), models decoded as
one and the vocabulary shortlist. Keras and TensorFlow; nothing here imports `text/`, `training/` or `serving/`."""
