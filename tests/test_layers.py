import keras
import numpy as np
import pytest
from keras import ops

from translator.config import Config, preset
from translator.model import masks
from translator.model.layers import PositionalEmbedding, TransformerDecoder, TransformerEncoder, sinusoidal_table
from translator.model.transformer import Transformer, build_transformer

EMBED, HEADS = 16, 4


def random_ids(batch, length, vocab=50, seed=0):
    return np.random.default_rng(seed).integers(3, vocab, (batch, length)).astype("int32")


@pytest.mark.parametrize("positional", ["learned", "sinusoidal"])
def test_positional_embedding_shape_and_mask(positional):
    layer = PositionalEmbedding(10, 50, EMBED, positional=positional)
    ids = ops.convert_to_tensor([[5, 9, 0, 0]])
    assert layer(ids).shape == (1, 4, EMBED)
    np.testing.assert_array_equal(layer.compute_mask(ids), [[True, True, False, False]])


def test_positional_embedding_start_index_matches_full_sequence():
    layer = PositionalEmbedding(10, 50, EMBED)
    ids = random_ids(2, 6)
    full = layer(ids)
    np.testing.assert_allclose(layer(ids[:, 3:4], start_index=3), full[:, 3:4], atol=1e-6)


def test_sinusoidal_table_extends_past_the_trained_length():
    table = ops.convert_to_numpy(sinusoidal_table(ops.arange(100), EMBED))
    assert table.shape == (100, EMBED)
    assert np.all(np.abs(table) <= 1)
    assert len({tuple(np.round(row, 4)) for row in table}) == 100


def test_heads_must_divide_the_embedding():
    with pytest.raises(ValueError, match="divisible"):
        TransformerEncoder(embed_dim=10, dense_dim=8, num_heads=3)
    with pytest.raises(ValueError, match="divisible"):
        Config(embed_dim=10, num_heads=3)


def test_each_head_gets_a_slice_of_the_embedding():
    encoder = TransformerEncoder(EMBED, 32, HEADS)
    encoder.build((None, None, EMBED))
    assert encoder.self_attention.get_config()["key_dim"] == EMBED // HEADS


def test_encoder_padding_invariance():
    encoder = TransformerEncoder(EMBED, 32, HEADS)
    x = keras.random.normal((2, 5, EMBED), seed=1)
    padding = ops.convert_to_tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], "bool")
    short = encoder(x, padding_mask=padding)
    # Four more padding positions, filled with garbage: real positions must not move.
    longer_x = ops.concatenate([x, keras.random.normal((2, 4, EMBED), seed=2) * 10], axis=1)
    longer_padding = ops.concatenate([padding, ops.zeros((2, 4), "bool")], axis=1)
    longer = encoder(longer_x, padding_mask=longer_padding)
    np.testing.assert_allclose(longer[0, :3], short[0, :3], atol=1e-5)
    np.testing.assert_allclose(longer[1, :5], short[1, :5], atol=1e-5)


def test_decoder_is_causal():
    decoder = TransformerDecoder(EMBED, 32, HEADS)
    x = keras.random.normal((1, 6, EMBED), seed=3)
    memory = keras.random.normal((1, 4, EMBED), seed=4)
    before = ops.convert_to_numpy(decoder(x, memory))
    for t in range(6):
        changed = ops.convert_to_numpy(x).copy()
        changed[:, t:] += 5.0
        after = ops.convert_to_numpy(decoder(ops.convert_to_tensor(changed), memory))
        np.testing.assert_allclose(after[:, :t], before[:, :t], atol=1e-5)
        assert not np.allclose(after[:, t], before[:, t])


def test_decoder_padding_invariance_on_both_sides():
    decoder = TransformerDecoder(EMBED, 32, HEADS)
    x = keras.random.normal((1, 3, EMBED), seed=5)
    memory = keras.random.normal((1, 4, EMBED), seed=6)
    source_padding = ops.convert_to_tensor([[1, 1, 1, 1]], "bool")
    reference = decoder(x, memory, encoder_padding_mask=source_padding)
    padded_memory = ops.concatenate([memory, keras.random.normal((1, 3, EMBED), seed=7) * 10], axis=1)
    padded_source = ops.concatenate([source_padding, ops.zeros((1, 3), "bool")], axis=1)
    padded_x = ops.concatenate([x, keras.random.normal((1, 2, EMBED), seed=8)], axis=1)
    target_padding = ops.convert_to_tensor([[1, 1, 1, 0, 0]], "bool")
    out = decoder(padded_x, padded_memory, padding_mask=target_padding, encoder_padding_mask=padded_source)
    np.testing.assert_allclose(out[:, :3], reference, atol=1e-5)


@pytest.mark.parametrize("append", [False, True])
def test_decoding_one_token_at_a_time_from_the_caches_reproduces_the_whole_sequence(append):
    # The cached path reads keys and values in its own layout (`CachedMultiHeadAttention.empty_cache`): each
    # position's output and cross-attention must be the whole-sequence call's, with padded source positions.
    decoder = TransformerDecoder(EMBED, 32, HEADS)
    x = keras.random.normal((2, 5, EMBED), seed=11)
    memory = keras.random.normal((2, 4, EMBED), seed=12)
    source_padding = ops.convert_to_tensor([[1, 1, 1, 1], [1, 1, 0, 0]], "bool")
    whole, whole_scores = decoder(x, memory, encoder_padding_mask=source_padding, return_attention_scores=True)
    cache = decoder.self_attention.empty_cache(2, 0 if append else 5)
    cross = decoder.cross_attention.key_value_cache(memory)
    for t in range(5):
        out, cache, scores = decoder(
            x[:, t:t + 1], None, encoder_padding_mask=source_padding, self_attention_cache=cache,
            cache_update_index=None if append else t, cross_attention_cache=cross, return_attention_scores=True,
        )
        np.testing.assert_allclose(out[:, 0], whole[:, t], atol=1e-5)
        np.testing.assert_allclose(scores[:, :, 0], whole_scores[:, :, t], atol=1e-6)
    assert ops.shape(cache[0])[2] == ops.shape(cache[1])[2] == 5


def test_cross_attention_sees_every_source_position_from_the_first_target_position():
    """The keras.io example masks cross-attention with the decoder's causal mask; ours must not."""
    decoder = TransformerDecoder(EMBED, 32, HEADS)
    x = keras.random.normal((1, 2, EMBED), seed=9)
    memory = keras.random.normal((1, 6, EMBED), seed=10)
    _, scores = decoder(x, memory, return_attention_scores=True)
    assert np.all(ops.convert_to_numpy(scores)[0, :, 0, :] > 0)


def test_masks():
    np.testing.assert_array_equal(masks.causal_mask(3), [[1, 0, 0], [1, 1, 0], [1, 1, 1]])
    np.testing.assert_array_equal(masks.causal_mask(1, 4, offset=2), [[1, 1, 1, 0]])
    mask = masks.decoder_self_attention_mask(ops.convert_to_tensor([[True, True, False]]))
    np.testing.assert_array_equal(mask[0], [[1, 0, 0], [1, 1, 0], [1, 1, 0]])


@pytest.mark.parametrize(
    "layer, inputs",
    [
        (PositionalEmbedding(8, 30, EMBED, positional="sinusoidal"), lambda: [random_ids(2, 5, 30)]),
        (TransformerEncoder(EMBED, 32, HEADS, dropout=0.1), lambda: [keras.random.normal((2, 5, EMBED))]),
        (
            TransformerDecoder(EMBED, 32, HEADS, dropout=0.1),
            lambda: [keras.random.normal((2, 5, EMBED)), keras.random.normal((2, 4, EMBED))],
        ),
    ],
)
def test_get_config_round_trip(layer, inputs):
    args = inputs()
    expected = layer(*args)
    clone = layer.__class__.from_config(layer.get_config())
    clone(*args)
    clone.set_weights(layer.get_weights())
    assert clone.get_config() == layer.get_config()
    np.testing.assert_allclose(clone(*args), expected, atol=1e-6)
    # Registered: the serialised form names the package, and deserialises without custom_objects.
    restored = keras.saving.deserialize_keras_object(keras.saving.serialize_keras_object(layer))
    assert type(restored) is type(layer)


def test_keras_file_round_trip_with_safe_mode(tmp_path):
    config = preset("tiny", source_vocab_size=40, target_vocab_size=45, positional="sinusoidal")
    model, encoder, decoder = build_transformer(config)
    inputs = {"encoder_inputs": random_ids(2, 6, 40), "decoder_inputs": random_ids(2, 5, 45)}
    expected = model(inputs)
    model.save(tmp_path / "model.keras")
    loaded = keras.saving.load_model(tmp_path / "model.keras", safe_mode=True)
    assert isinstance(loaded, Transformer) and loaded.spec == config
    np.testing.assert_allclose(loaded(inputs), expected, atol=1e-6)


def test_inference_halves_reproduce_the_training_model():
    config = preset("tiny", source_vocab_size=40, target_vocab_size=45)
    model, encoder, decoder = build_transformer(config)
    source, target = random_ids(3, 6, 40), random_ids(3, 5, 45)
    source[0, 4:] = 0
    logits = model({"encoder_inputs": source, "decoder_inputs": target})
    assert logits.shape == (3, 5, 45)
    encoded = encoder(source)
    assert encoded.shape == (3, 6, config.embed_dim)
    np.testing.assert_allclose(decoder([ops.convert_to_tensor(target), encoded, ops.convert_to_tensor(source)]), logits, atol=1e-5)


@pytest.mark.filterwarnings("ignore:Layer .* does not have a `quantize` method")
@pytest.mark.parametrize("tied", [True, False])
def test_output_projection_of_an_int8_model_undoes_each_scale(tied):
    # Keras' quantize("int8") keeps int8 weights and one scale a piece; read without the scales, the tied
    # projection's logits were out of proportion (3.2 BLEU lost, greedy, test split).
    config = preset("tiny", source_vocab_size=45, target_vocab_size=45, shared_vocabulary=tied, tie_embeddings=tied)
    model = Transformer(config)
    model.build()
    # Pieces of very different sizes, as trained weights have: one scale for all would not do.
    sizes = np.linspace(0.1, 10, 45)
    if tied:
        model.shared_embedding.embeddings.assign(model.shared_embedding.embeddings.numpy() * sizes[:, None])
    else:
        model.logits.kernel.assign(model.logits.kernel.numpy() * sizes)
    kernel, bias = (ops.convert_to_numpy(w) for w in model.output_weights())
    model.quantize("int8")
    quantized, quantized_bias = (ops.convert_to_numpy(w) for w in model.output_weights())
    # Within half a quantisation step of each piece (its largest weight over 127).
    assert (np.abs(quantized - kernel) <= np.abs(kernel).max(axis=0) / 127 / 2 + 1e-6).all()
    np.testing.assert_array_equal(quantized_bias, bias)


@pytest.mark.filterwarnings("ignore:Layer .* does not have a `quantize` method")
def test_output_projection_of_another_quantisation_is_refused():
    model = Transformer(preset("tiny", source_vocab_size=45, target_vocab_size=45, shared_vocabulary=True,
                               tie_embeddings=True))
    model.build()
    model.quantize("int4")
    with pytest.raises(ValueError, match="cannot be read in 'int4': use int8"):
        model.output_weights()
