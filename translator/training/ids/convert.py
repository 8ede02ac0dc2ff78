"""The TensorFlow side of training on token ids (see `translator.training.ids`).

`export` tokenises the corpus with a model directory's vocabularies into one
`.npz` file: several copy-augmented versions of the training split, the
validation split, the target vocabulary and the `Config` to train. `import`
turns the weights that `translator.training.ids.fit` fitted into a model directory, like
the one `translator train` writes.

    python -m translator.training.ids.convert export --vocabulary saved_models/en-es --output ids.npz
    python -m translator.training.ids.convert import fitted --vocabulary saved_models/en-es --output saved_models/mine
"""

import argparse
import dataclasses
import json
from pathlib import Path

import numpy as np

from translator import model_dir
from translator.config import Config, preset
from translator.model.transformer import Transformer
from translator.text.pipeline import TextPipeline
from translator.training import augment, batches, data, train
from translator.training.ids.fit import HISTORY_FILE, WEIGHTS_FILE

# What the vocabularies fix: a config trained on their ids takes these from them.
VOCABULARY_FIELDS = (
    "tokenizer", "vocab_size", "sequence_length", "source_vocab_size", "target_vocab_size",
    "shared_vocabulary", "lowercase",
)


def with_vocabulary(config, vocabulary_dir):
    """`config` with the vocabulary fields of the model in `vocabulary_dir`, and that model's pipeline."""
    vocabulary_config = Config.from_json(Path(vocabulary_dir) / model_dir.CONFIG_FILE)
    config = config.replace(**{field: getattr(vocabulary_config, field) for field in VOCABULARY_FIELDS})
    return config, TextPipeline.load(vocabulary_dir, config)


def export(vocabulary_dir, config, output, data_path=None, versions=4, dropout=0.0):
    """Writes the ids file: `versions` copy-augmented training splits (seeds `config.seed + k`), each
    with its words cut anew by `piece_dropout` where `dropout` (the validation split keeps the usual cut)."""
    config, pipeline = with_vocabulary(config, vocabulary_dir)
    splits = data.load_splits(data_path)
    dtype = "uint16" if len(pipeline.target_vocabulary) < 2**16 else "int32"
    trains = []
    for k in range(versions):
        source, target = batches.vectorize(
            pipeline, augment.copy_augment(splits["train"], config.copy_augmentation, seed=config.seed + k))
        if dropout:
            source, target = batches.recut_pieces(pipeline, dropout, config.seed + k)(source, target)
        trains.append((source, target))
    val_source, val_target = batches.vectorize(pipeline, splits["val"])
    np.savez_compressed(
        output,
        train_source=np.stack([source for source, _ in trains]).astype(dtype),
        train_target=np.stack([target for _, target in trains]).astype(dtype),
        val_source=val_source.astype(dtype),
        val_target=val_target.astype(dtype),
        vocabulary=np.array(pipeline.target_vocabulary),
        config=json.dumps(dataclasses.asdict(config)),
        piece_dropout=dropout,
    )


def import_weights(fitted_dir, vocabulary_dir, output, data_path=None):
    """Writes the model directory `output` from `fitted_dir` (weights.npz and history.json)."""
    fitted_dir = Path(fitted_dir)
    summary = json.loads((fitted_dir / HISTORY_FILE).read_text())
    config, pipeline = with_vocabulary(Config(**summary.pop("config")).replace(name=Path(output).name), vocabulary_dir)
    model = Transformer(config)
    model.build()
    with np.load(fitted_dir / WEIGHTS_FILE) as fitted:
        weights = [fitted[f"arr_{i}"] for i in range(len(fitted.files))]
    expected = [tuple(w.shape) for w in model.weights]
    if [w.shape for w in weights] != expected:
        raise ValueError(f"{fitted_dir / WEIGHTS_FILE} does not fit the config in {HISTORY_FILE}")
    model.set_weights([w.astype("float32") for w in weights])
    splits = data.load_splits(data_path)
    train.write_model(
        output, model, pipeline, config, splits["train"],
        trained_on="token ids (translator.training.ids.fit)", **summary,
    )
    return Path(output)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m translator.training.ids.convert",
                                     description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("export", help="tokenise the corpus into an ids file")
    p.add_argument("--vocabulary", required=True, help="model directory whose vocabularies to use")
    p.add_argument("--preset", default="default")
    p.add_argument("--config", help="a config.json to train instead of the preset")
    p.add_argument("--versions", type=int, default=4, help="copy-augmented versions of the training split")
    p.add_argument("--piece-dropout", type=float, default=0.0,
                   help="cut each training version's words anew, passing over a piece with this probability "
                        "(translator.training.piece_dropout; default 0: the usual cut)")
    p.add_argument("--data", help="the corpus (default: as `translator data` finds it)")
    p.add_argument("--output", required=True)
    p = commands.add_parser("import", help="a model directory from fitted weights")
    p.add_argument("fitted", help="the output directory of `python -m translator.training.ids.fit`")
    p.add_argument("--vocabulary", required=True, help="the model directory the ids file was exported with")
    p.add_argument("--data", help="the corpus, for the word counts of the training split")
    p.add_argument("--output", required=True)
    args = parser.parse_args(argv)
    if args.command == "export":
        config = Config.from_json(args.config) if args.config else preset(args.preset)
        export(args.vocabulary, config, args.output, args.data, args.versions, args.piece_dropout)
    else:
        print(import_weights(args.fitted, args.vocabulary, args.output, args.data))


if __name__ == "__main__":
    main()
