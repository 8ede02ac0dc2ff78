"""The one configuration dataclass and its presets.

Everything that shapes a run lives here; every other module takes a `Config`
and reads no globals. A run's config is written beside its model as
`config.json`, so a saved model always knows how it was built.
"""

import dataclasses
import json
from pathlib import Path

from translator.errors import UsageError
from translator.model_files import CONFIG_FILE, require_model


@dataclasses.dataclass
class Config:
    # Where the run is written: saved_models/<name>/.
    name: str = "en-es"

    # Text. "word" is the keras.io example's whitespace vocabulary; "wordpiece"
    # splits rare words into pieces so the model can spell words it never saw
    # whole (Spanish verb forms are many).
    tokenizer: str = "word"
    vocab_size: int = 15000
    sequence_length: int = 20
    # The sizes actually learned (WordPiece may learn fewer than vocab_size);
    # filled in by training, before the model is built.
    source_vocab_size: int | None = None
    target_vocab_size: int | None = None
    # One vocabulary learned on English and Spanish together: a name or a
    # number is then the same pieces on both sides, which the model can copy.
    shared_vocabulary: bool = False
    # Lower-case both sides before tokenising. Off, "Angela" stays one cased
    # name instead of "angel ##a", and the model learns casing itself.
    lowercase: bool = True

    # Model.
    embed_dim: int = 256
    latent_dim: int = 2048
    num_heads: int = 8
    num_encoder_layers: int = 1
    num_decoder_layers: int = 1
    dropout: float = 0.5
    positional: str = "learned"
    # One embedding matrix for the encoder input, the decoder input and the
    # output projection (needs shared_vocabulary): a third of the parameters
    # of a small model, and a copied piece looks the same going in and out.
    tie_embeddings: bool = False

    # Data. The further sources of the training mix (`translator.training.mix`) and how many times each one's
    # pairs count (0.5: a random half; 2: twice); None: the everyday corpus alone.
    mix: dict | None = None
    # Extra training pairs of 2 to 4 of the corpus' short pairs joined (`augment.concatenate`), as a
    # share of its training split: texts of several sentences, translated whole.
    concatenate: float = 0.0
    # Share of the training pairs holding a span both sides write alike (a number, an address, a
    # code, a name) whose spans become typed placeholder tokens (`translator.text.placeholders`).
    placeholders: float = 0.0

    # Training.
    batch_size: int = 64
    # With batch_tokens, a batch holds about that many tokens (its longest sentence times its rows),
    # instead of batch_size sentences: a batch of long sentences then costs what one of short ones does.
    batch_tokens: int | None = None
    # Steps between checkpoints (an "epoch"); None: one pass over the training pairs. On a large mix,
    # shorter epochs lose less to a stop, and are scored and averaged more often.
    steps_per_epoch: int | None = None
    optimizer: str = "rmsprop"
    learning_rate: float = 1e-3
    warmup_steps: int = 0  # > 0: linear warm-up, then inverse square root decay
    weight_decay: float = 0.0
    label_smoothing: float = 0.0
    epochs: int = 30
    early_stopping_patience: int = 5
    # Share of the training pairs that carry the same name or number on both
    # sides whose name/number is swapped for an invented one: the corpus names
    # few people (mostly Tom and Mary), so the model must learn to copy.
    copy_augmentation: float = 0.0
    # Subword regularisation (`piece_dropout`): each training epoch cuts every
    # word anew, a longest match passed over with this probability, so the
    # model learns to read and write a rare word in pieces other than its own.
    piece_dropout: float = 0.0
    # Validation sentences translated (greedy) after every epoch for BLEU; the
    # epoch kept is the best by BLEU, not by loss (label smoothing makes the
    # loss a poor judge). 0: keep the best validation loss.
    bleu_sentences: int = 0
    # Also try the mean of the last k epochs' weights; kept if its BLEU is higher.
    average_last: int = 0
    seed: int = 1337
    # None: on when a GPU is there, off on CPU (where both slow training down).
    mixed_precision: bool | None = None
    jit_compile: bool | None = None

    def __post_init__(self):
        if self.tokenizer not in ("word", "wordpiece"):
            raise UsageError(f"tokenizer must be 'word' or 'wordpiece', got {self.tokenizer!r}")
        if self.positional not in ("learned", "sinusoidal"):
            raise UsageError(f"positional must be 'learned' or 'sinusoidal', got {self.positional!r}")
        if self.tie_embeddings and not self.shared_vocabulary:
            raise UsageError("tie_embeddings needs shared_vocabulary: one matrix serves both languages")
        if not 0.0 <= self.dropout < 1.0:
            raise UsageError(f"dropout is a rate in [0, 1), got {self.dropout}")
        if not 0.0 <= self.copy_augmentation <= 1.0:
            raise UsageError(f"copy_augmentation is a share between 0 and 1, got {self.copy_augmentation}")
        for share in ("concatenate", "placeholders"):
            if not 0.0 <= getattr(self, share) <= 1.0:
                raise UsageError(f"{share} is a share between 0 and 1, got {getattr(self, share)}")
        if any(weight < 0 for weight in (self.mix or {}).values()):
            raise UsageError(f"a source's weight in mix cannot be negative: {self.mix}")
        if not 0.0 <= self.piece_dropout < 1.0:
            raise UsageError(f"piece_dropout is a probability in [0, 1), got {self.piece_dropout}")
        if self.embed_dim % self.num_heads:
            raise UsageError(
                f"embed_dim={self.embed_dim} is not divisible by num_heads={self.num_heads}: "
                "each head takes an equal slice of the embedding"
            )

    def replace(self, **changes) -> "Config":
        return dataclasses.replace(self, **changes)

    def to_json(self, path) -> None:
        Path(path).write_text(json.dumps(dataclasses.asdict(self), indent=2) + "\n")

    @classmethod
    def from_json(cls, path) -> "Config":
        return cls(**json.loads(Path(path).read_text()))


# Fields that shape the weights and vocabularies: a run that starts from a
# model keeps them, and only models alike in all of them average.
ARCHITECTURE_FIELDS = {
    "tokenizer", "vocab_size", "sequence_length", "source_vocab_size", "target_vocab_size", "shared_vocabulary",
    "lowercase", "embed_dim", "latent_dim", "num_heads", "num_encoder_layers", "num_decoder_layers",
    "positional", "tie_embeddings",
}

# How many times each further source's pairs count in the default mix (the everyday corpus counts once).
# General prose is what newstest2012 and users' text are made of, and the smallest part: twice. The
# manuals and UI text, the largest, a share: too much of it teaches the style of labels. The Bible's
# Spanish is archaic. The measurements behind it: bench/RESULTS.md.
MIX = {
    "news-2008-2011": 2, "wmt24-general": 2, "ud-pud": 2, "xquad": 2, "mt-geneval": 2, "tico19": 2, "cocoa-mt": 2,
    "gate": 2, "mgsm": 2,
    "python-docs": 0.5, "libreoffice-help": 0.5, "libreoffice-ui": 0.3, "gimp-manual": 0.5, "gnome-help": 1,
    "debian-reference": 1, "debian-handbook": 1, "debian-descriptions": 1,
    "bible-web-rv1909": 0.3,
}

PRESETS = {
    # The keras.io English-to-Spanish example, so results can be compared.
    "reference": Config(name="reference"),
    # The first stage of the model shipped in saved_models/en-es: the everyday corpus and the further
    # human-translated pairs (`translator.training.mix`), whole sentences of up to 128 pieces, one cased WordPiece
    # vocabulary for both languages with tied embeddings and typed placeholders, a deeper encoder than
    # decoder (decoding runs the decoder once a token, the encoder once a sentence), invented names and
    # numbers to learn copying, the best epoch by validation BLEU or the mean of the last five. The
    # stages after it: `recipe.RECIPES["en-es"]`; each choice: bench/RESULTS.md.
    "default": Config(
        name="en-es",
        tokenizer="wordpiece",
        vocab_size=16000,
        shared_vocabulary=True,
        lowercase=False,
        sequence_length=128,
        embed_dim=256,
        latent_dim=1024,
        num_heads=8,
        num_encoder_layers=4,
        num_decoder_layers=2,
        dropout=0.1,
        tie_embeddings=True,
        mix=MIX,
        concatenate=0.1,
        placeholders=0.3,
        batch_tokens=4096,
        steps_per_epoch=800,
        optimizer="adamw",
        learning_rate=7e-4,
        warmup_steps=1000,
        weight_decay=0.01,
        label_smoothing=0.1,
        epochs=3,
        early_stopping_patience=3,
        copy_augmentation=0.3,
        bleu_sentences=1000,
        average_last=5,
    ),
    # Seconds to train: tests, notebooks and smoke runs.
    "tiny": Config(
        name="tiny",
        vocab_size=500,
        sequence_length=12,
        embed_dim=32,
        latent_dim=64,
        num_heads=4,
        dropout=0.0,
        batch_size=16,
        optimizer="adam",
        learning_rate=3e-3,
        epochs=3,
    ),
}


def preset(which: str, **overrides) -> Config:
    """A preset by name, with any fields overridden: `preset("tiny", epochs=1)`."""
    if which not in PRESETS:
        raise UsageError(f"unknown preset {which!r}; choose one of {', '.join(PRESETS)}")
    return PRESETS[which].replace(**overrides)


def warm_start_config(directory, **overrides):
    """The config of the model in `directory` with `overrides`: the architecture and
    vocabularies must stay, so only training settings may change."""
    require_model(directory, " to start from")
    config = Config.from_json(Path(directory) / CONFIG_FILE)
    fixed = set(overrides) & ARCHITECTURE_FIELDS
    if fixed:
        raise UsageError(f"training from {directory} keeps its architecture: {', '.join(sorted(fixed))} cannot change")
    return config.replace(**overrides)


def configure(preset_name="default", start_from=None, **overrides):
    """The config of a run: `overrides` on the model in `start_from` (see `warm_start_config`), else on the
    preset `preset_name`."""
    return warm_start_config(start_from, **overrides) if start_from else preset(preset_name, **overrides)
