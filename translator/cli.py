"""The `translator` command: data, train, average, translate, evaluate, export, serve."""

import argparse
import contextlib
import itertools
import logging
import os
import stat
import sys
import tempfile
from pathlib import Path

from translator.defaults import DEFAULT_BEAM, DEFAULT_HOST, DEFAULT_MODEL, DEFAULT_PORT, MAX_BEAM, quiet_tensorflow

quiet_tensorflow()

from translator import lines  # noqa: E402  (the standard library only: keeps --help fast)
from translator.batcher import MAX_QUEUE_WORK, QUEUE_DEADLINE_S  # noqa: E402  (likewise)


def import_tensorflow_quietly():
    """Imports TensorFlow with its C++ start-up notes (CUDA probing, oneDNN) kept off stderr.

    They are written straight to file descriptor 2 before any logging setting
    applies, and would bury the one-line messages this command promises.
    """
    saved, devnull = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    try:
        import tensorflow  # noqa: F401
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def show_log_messages():
    """The package's log records, from INFO up, as one line each on stderr: `translator: ...`.

    Library modules only log; what reaches the user is decided here. Records
    stop at this handler: a root handler (absl installs one) would print them twice.
    """
    logger = logging.getLogger("translator")
    if not logger.handlers:  # main() may run more than once in a process
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("translator: %(message)s"))
        logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


# --xla and --mixed-precision: auto means on with a GPU or TPU (and, for `translate`, for a long input).
SWITCHES = {"on": True, "off": False, "auto": None}
XLA_DECODING = "compile the decoding loop with XLA (faster decoding, after compiling each batch shape once)"
# `translate --xla auto` on a CPU alone: XLA from this many bytes of input (~6,000 sentences) up.
# XLA decodes faster but compiles each batch shape once, and the compile cache below keeps them
# for later runs. Whole processes on 2 cores, 8,000 test sentences: beam 4 took 68.9 s without XLA,
# 84.8 s with it on an empty cache and 65.5 s with the cache filled (greedy: 29.4, 35.7, 22.6 s);
# for 2,000 sentences the filled cache gained 1.4 s of 23.6. Shorter jobs stay off: they would
# pay the compiling and gain little.
XLA_MIN_BYTES = 200_000
# The commands that decode, and so may compile with XLA: they keep what XLA compiles for the next run.
DECODING_COMMANDS = ("translate", "evaluate", "serve")
XLA_CACHE_FLAG = "--tf_xla_persistent_cache_directory"
# Lines translated at a time: enough for the translator to sort them into batches of
# similar lengths, few enough that a file of any size needs bounded memory.
CHUNK_LINES = 2048
# Bad lines warned about one by one; past this many only counted (a binary file would flood the terminal).
MAX_WARNINGS = 20
TRANSLATE_EPILOG = f"""\
Input is read as UTF-8, line by line; output has one line per input line
(a blank line for a blank line), ending in \\n. A UTF-8 byte order mark and
CRLF line endings are accepted. A line with bytes that are not UTF-8 is
translated with U+FFFD in their place, NUL bytes as spaces, and a line over
{lines.MAX_LINE_BYTES:,} bytes is left out (a blank output line): each such line is named on
standard error. --output is written whole or not at all.

exit status:
  0  every line was translated as given
  1  some lines were repaired or left out (named on standard error)
  2  an error (bad arguments, unreadable input, unwritable output, no model)
"""


def cmd_data(args):
    from translator import data

    pairs, skipped = data.load_pairs(args.data, skip_malformed=args.skip_malformed)
    print(data.summary(data.split_pairs(pairs), skipped))


def cmd_train(args):
    from translator import train
    from translator.config import preset

    chosen = (("epochs", args.epochs), ("name", args.name), ("learning_rate", args.learning_rate),
              ("dropout", args.dropout), ("seed", args.seed))
    overrides = {k: v for k, v in chosen if v is not None}
    overrides.update(mixed_precision=SWITCHES[args.mixed_precision], jit_compile=SWITCHES[args.xla])
    if args.start_from:
        config = train.warm_start_config(args.start_from, **overrides)
    else:
        config = preset(args.preset, **overrides)
    train.train(config, data_path=args.data, output_dir=args.output, start_from=args.start_from)


def input_lines(args):
    """The lines to translate, as `translator.lines.Line`s, and the name of where they come from."""
    if args.text:
        # The shell passes arguments as bytes; Python keeps bytes that are not UTF-8 as
        # surrogate escapes, which os.fsencode turns back into those bytes.
        return "the text argument", iter([lines.decode(os.fsencode(" ".join(args.text)))])
    if args.file:
        return args.file, lines.read_lines(lines.open_input(args.file), source=args.file)
    return "standard input", lines.read_lines(sys.stdin.buffer, source="standard input")


@contextlib.contextmanager
def standard_output():
    """Yields standard output; a failed write (a full disk, a closed pipe) becomes one `FileError`."""
    try:
        with lines.writing("standard output"):
            yield sys.stdout
    except lines.FileError:
        # Python flushes standard output once more at exit and would report the failure again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise


def input_bytes(args):
    """The size of the input to translate where it is known before reading it (a file, or standard
    input redirected from one), else 0: a pipe's ends only when it does, and a text argument is one line."""
    if args.text:
        return 0
    try:
        status = os.stat(args.file) if args.file else os.fstat(sys.stdin.fileno())
    except OSError:
        return 0
    return status.st_size if stat.S_ISREG(status.st_mode) else 0


def cmd_average(args):
    from translator import average

    output = average.average(args.models, args.output)
    print(f"wrote the mean of {len(args.models)} models to {output}")


def xla_for_translating(setting, size, device=None):
    """`--xla` for `translate` on `size` bytes of input: True or False as set; auto (None): on with a GPU
    or TPU, and on a CPU alone from `XLA_MIN_BYTES` up, a job long enough to repay compiling."""
    from translator.devices import resolve_auto

    if setting is None and size >= XLA_MIN_BYTES:
        return True
    return resolve_auto(setting, device)


def cmd_translate(args):
    """Translates line by line, in chunks; returns 1 if any line was repaired or left out, else 0."""
    from translator.translator import Translator

    source, inputs = input_lines(args)
    with lines.written_whole(args.output) if args.output else standard_output() as output:
        jit_compile = xla_for_translating(SWITCHES[args.xla], input_bytes(args))
        translator = Translator.load(args.model, jit_compile=jit_compile, placeholders=args.placeholders)
        total = bad = 0
        while chunk := list(itertools.islice(inputs, CHUNK_LINES)):
            total += len(chunk)
            for line in chunk:
                if line.problem:
                    bad += 1
                    if bad <= MAX_WARNINGS:
                        warn(f"{source}, line {line.number} {line.problem}; {line.repair}")
            translations = translator.translate([line.text for line in chunk], beam_size=args.beam)
            output.write("".join(translation + "\n" for translation in translations))
            output.flush()
    if bad > 1:
        listed = "listed above" if bad <= MAX_WARNINGS else f"the first {MAX_WARNINGS} listed above"
        warn(f"{bad:,} of {total:,} lines were repaired or left out ({listed})")
    return 1 if bad else 0


def warn(message):
    print(f"translator translate: warning: {message}", file=sys.stderr)


def cmd_evaluate(args):
    from translator import evaluate

    columns = tuple(int(c) for c in args.columns.split(",")) if args.columns else None
    if columns is not None and len(columns) != 2:
        raise ValueError("--columns takes two indices, ENGLISH,SPANISH (0-based), e.g. 1,3")
    result = evaluate.run(args.model, pairs_file=args.pairs, data_path=args.data, columns=columns,
                          beam_size=args.beam, jit_compile=SWITCHES[args.xla], placeholders=args.placeholders)
    print("\n" + evaluate.format_report(result))


def cmd_export(args):
    from pathlib import Path

    from translator import export

    output = args.output or str(Path("exports") / Path(args.model).name)
    export.export(args.model, output)
    print(f"exported a SavedModel to {output} (signature 'serve': strings in, strings out)")


def cmd_serve(args):
    from translator import server

    server.run(args.model, host=args.host, port=args.port, jit_compile=SWITCHES[args.xla],
               max_queue_work=args.max_queue, deadline_s=args.deadline)


def beam_size(value):
    beam = int(value)
    if not 1 <= beam <= MAX_BEAM:
        raise argparse.ArgumentTypeError(f"beam size must be between 1 and {MAX_BEAM}, got {beam}")
    return beam


def positive(kind):
    """An argparse type: a number of `kind` above zero."""

    def parse(value):
        number = kind(value)
        if not 0 < number < float("inf"):  # NaN too
            raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {value}")
        return number

    return parse


def add_model_argument(parser):
    parser.add_argument("--model", default=DEFAULT_MODEL, help=f"model directory (default {DEFAULT_MODEL})")


def add_switch_argument(parser, flag, what):
    parser.add_argument(flag, choices=tuple(SWITCHES), default="auto", help=f"{what}; auto: on with a GPU/TPU")


def add_beam_argument(parser):
    parser.add_argument("--beam", type=beam_size, default=DEFAULT_BEAM,
                        help=f"beam size (default {DEFAULT_BEAM}); 1 is greedy decoding, faster")


def add_placeholder_argument(parser):
    parser.add_argument("--no-placeholders", dest="placeholders", action="store_false",
                        help="give names and numbers the vocabulary lacks to the model as written, "
                             "not as stand-ins it copies")


def build_parser():
    parser = argparse.ArgumentParser(prog="translator", description="English to Spanish neural machine translation.")
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("data", help="find, verify, parse and split the corpus; print the counts")
    p.add_argument("--data", help="corpus path (.zip, .txt, .tsv); default: $TRANSLATOR_DATA, data/, download")
    p.add_argument("--skip-malformed", action="store_true", help="skip and count malformed lines")
    p.set_defaults(run=cmd_data)

    p = commands.add_parser("train", help="train a model and write saved_models/<name>/")
    start = p.add_mutually_exclusive_group()
    start.add_argument("--preset", default="default", help="default, reference or tiny")
    p.add_argument("--epochs", type=int, help="override the preset's epochs")
    p.add_argument("--name", help="override the run name (the saved_models/ subdirectory)")
    p.add_argument("--learning-rate", type=float, help="override the peak learning rate")
    p.add_argument("--dropout", type=float, help="override the dropout of each sublayer's output")
    p.add_argument("--seed", type=int, help="override the seed: the shuffling and the invented names and numbers")
    start.add_argument("--from", dest="start_from", metavar="MODEL_DIR",
                       help="start from this model's weights, vocabularies and config (not --preset): "
                            "to train it longer or on your own pairs")
    p.add_argument("--data", help="corpus path; default: $TRANSLATOR_DATA, data/, download")
    p.add_argument("--output", default="saved_models", help="where to write the model directory")
    add_switch_argument(p, "--mixed-precision", "float16 compute (bfloat16 on TPU)")
    add_switch_argument(p, "--xla", "XLA compilation")
    p.set_defaults(run=cmd_train)

    p = commands.add_parser("average", help="one model from the mean of the weights of models trained with --from")
    p.add_argument("models", nargs="+", metavar="MODEL_DIR",
                   help="model directories of one architecture and vocabulary: one, and models trained from it")
    p.add_argument("--output", required=True, help="the new model directory")
    p.set_defaults(run=cmd_average)

    p = commands.add_parser("translate", help="translate text, a file, or standard input",
                            epilog=TRANSLATE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("text", nargs="*", help="English text; omit to read --file or standard input")
    p.add_argument("--file", help="translate this file, one sentence a line")
    p.add_argument("--output", help="write translations here, one a line (default: standard output)")
    add_model_argument(p)
    add_beam_argument(p)
    add_placeholder_argument(p)
    p.add_argument("--xla", choices=tuple(SWITCHES), default="auto",
                   help=f"{XLA_DECODING}; auto: on with a GPU/TPU, and on a CPU alone for an input file of "
                        f"{XLA_MIN_BYTES // 1000:,} kB or more, long enough to repay compiling")
    p.set_defaults(run=cmd_translate)

    p = commands.add_parser("evaluate", help="BLEU and chrF on the test split or a file of pairs")
    add_model_argument(p)
    p.add_argument("--pairs", help="a file of English<TAB>Spanish lines instead of the test split")
    p.add_argument("--columns", help="with --pairs: 0-based columns of English and Spanish, e.g. 1,3")
    p.add_argument("--data", help="corpus path for the test split")
    add_beam_argument(p)
    add_placeholder_argument(p)
    add_switch_argument(p, "--xla", XLA_DECODING)
    p.set_defaults(run=cmd_evaluate)

    p = commands.add_parser("export", help="write a TensorFlow SavedModel (strings in, strings out)")
    add_model_argument(p)
    p.add_argument("--output", help="SavedModel directory (default exports/<model name>)")
    p.set_defaults(run=cmd_export)

    p = commands.add_parser("serve", help="the web page and HTTP API")
    add_model_argument(p)
    p.add_argument("--host", default=DEFAULT_HOST)
    p.add_argument("--port", type=int, default=DEFAULT_PORT)
    p.add_argument("--max-queue", type=positive(int), default=MAX_QUEUE_WORK, metavar="WORK",
                   help="work queued at most, in sentences x beam; a request beyond is refused at once, 503 with "
                        f"Retry-After (default {MAX_QUEUE_WORK}; raise it on a GPU, which decodes faster)")
    p.add_argument("--deadline", type=positive(float), default=QUEUE_DEADLINE_S, metavar="SECONDS",
                   help="a request still queued this long is refused, 503 with Retry-After "
                        f"(default {QUEUE_DEADLINE_S:g})")
    add_switch_argument(p, "--xla", XLA_DECODING)
    p.set_defaults(run=cmd_serve)
    return parser


def xla_cache_directory(environ=os.environ):
    """Where XLA's compiled decoding shapes are kept between runs: `$XDG_CACHE_HOME/translator/xla`."""
    return Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "translator" / "xla"


def xla_cache_flags(flags, directory):
    """`TF_XLA_FLAGS` value `flags` with XLA's persistent compile cache in `directory`.

    Flags the user set stay, and one that already names a cache directory
    (even an empty one, which turns the cache off) wins over ours. A
    directory that cannot be written is left out: XLA would fail every
    compile that it cannot save.
    """
    if XLA_CACHE_FLAG in flags:
        return flags
    try:
        Path(directory).mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=directory).close()
    except OSError:
        return flags
    return f"{flags} {XLA_CACHE_FLAG}={directory}".strip()


def main(argv=None):
    args = build_parser().parse_args(argv)
    show_log_messages()
    if args.command in DECODING_COMMANDS and args.xla != "off":
        # TensorFlow reads TF_XLA_FLAGS once, when it first runs an operation: set it before importing it.
        os.environ["TF_XLA_FLAGS"] = xla_cache_flags(os.environ.get("TF_XLA_FLAGS", ""), xla_cache_directory())
    import_tensorflow_quietly()
    from translator.data import DataError
    from translator.model_dir import ModelDirError

    try:
        return args.run(args) or 0
    except (DataError, ModelDirError, ValueError, OSError) as error:
        print(f"translator {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
