"""Training without TensorFlow: the corpus as token ids, a fit on any Keras backend, the weights back as a model.

`translator train` tokenises the corpus with TensorFlow as it trains. A GPU
machine that has JAX or PyTorch but no TensorFlow trains the same model from
an ids file instead:

    python -m translator.training.ids.convert export --vocabulary saved_models/en-es --output ids.npz  # with TensorFlow
    KERAS_BACKEND=jax python -m translator.training.ids.fit ids.npz --output fitted --width-step 24  # without (1 shape)
    python -m translator.training.ids.convert import fitted --vocabulary saved_models/en-es --output saved_models/mine

`convert` (TensorFlow: the text pipeline) writes the ids file and reads the
fitted weights back; `fit` imports nothing that needs TensorFlow.
"""
