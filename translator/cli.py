"""The `translator` command: data, train, translate, evaluate, export, serve."""

import argparse
import os
import sys

# TensorFlow's start-up chatter (CUDA probing on CPU machines) is noise for a CLI user.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

DEFAULT_MODEL = "saved_models/en-es"


def cmd_data(args):
    from translator import data

    data.load_splits(args.data, skip_malformed=args.skip_malformed)


def cmd_train(args):
    from translator import train
    from translator.config import preset

    overrides = {k: v for k, v in (("epochs", args.epochs), ("name", args.name)) if v is not None}
    train.train(preset(args.preset, **overrides), data_path=args.data, output_dir=args.output)


def build_parser():
    parser = argparse.ArgumentParser(prog="translator", description="English to Spanish neural machine translation.")
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("data", help="find, verify, parse and split the corpus; print the counts")
    p.add_argument("--data", help="corpus path (.zip, .txt, .tsv); default: $TRANSLATOR_DATA, data/, download")
    p.add_argument("--skip-malformed", action="store_true", help="skip and count malformed lines")
    p.set_defaults(run=cmd_data)

    p = commands.add_parser("train", help="train a model and write saved_models/<name>/")
    p.add_argument("--preset", default="default", help="default, reference or tiny")
    p.add_argument("--epochs", type=int, help="override the preset's epochs")
    p.add_argument("--name", help="override the run name (the saved_models/ subdirectory)")
    p.add_argument("--data", help="corpus path; default: $TRANSLATOR_DATA, data/, download")
    p.add_argument("--output", default="saved_models", help="where to write the model directory")
    p.set_defaults(run=cmd_train)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    from translator.data import DataError
    from translator.model_dir import ModelDirError

    try:
        args.run(args)
    except (DataError, ModelDirError, ValueError) as error:
        print(f"translator {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0
