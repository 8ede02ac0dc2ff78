"""The `translator` command: data, train, average, translate, evaluate, export, serve."""

import argparse
import contextlib
import itertools
import json
import logging
import os
import signal
import sys
import textwrap
from pathlib import Path

from translator.config import PRESETS, configure
from translator.defaults import DEFAULT_BEAM, DEFAULT_HOST, DEFAULT_MODEL, DEFAULT_PORT, MAX_BEAM, quiet_tensorflow

quiet_tensorflow()

from translator.devices import (  # noqa: E402  (TensorFlow only once a command asks it)
    bfloat16_decoding,
    decoding_batches,
    resolve_auto,
    xla_cache_directory,
    xla_cache_flags,
)
from translator.errors import UsageError  # noqa: E402
from translator.files import lines, outputs, partial  # noqa: E402  (the standard library only: keeps --help fast)
from translator.model_files import MODEL_FILE, require_model  # noqa: E402  (likewise)
from translator.serving.batcher import MAX_QUEUE_WORK, QUEUE_DEADLINE_S  # noqa: E402  (likewise)


def import_tensorflow_quietly():
    """Imports TensorFlow with its C++ start-up notes (CUDA probing, oneDNN) kept off stderr.

    They are written straight to file descriptor 2 before any logging setting
    applies, and would bury the one-line messages this command promises. Each
    command calls it once it has checked what it can without TensorFlow (paths,
    files, flags): a mistake is then refused at once, not after seconds of import.
    """
    saved, devnull = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    try:
        import tensorflow  # noqa: F401
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


class StderrHandler(logging.StreamHandler):
    """A handler that writes to `sys.stderr` as it is when a record comes, not as it was when `main()` first
    ran: in a process that calls `main()` again (tests, notebooks) the first one's stream may be closed."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, _):
        pass


def show_log_messages():
    """The package's log records, from INFO up, as one line each on stderr: `translator: ...`.

    Library modules only log; what reaches the user is decided here. Records
    stop at this handler: a root handler (absl installs one) would print them twice.
    """
    logger = logging.getLogger("translator")
    if not logger.handlers:  # main() may run more than once in a process
        handler = StderrHandler()
        handler.setFormatter(logging.Formatter("translator: %(message)s"))
        logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


# --xla and --mixed-precision: auto means on with a GPU or TPU (and, for `translate`, for a long input).
SWITCHES = {"on": True, "off": False, "auto": None}
XLA_DECODING = "compile the decoding loop with XLA (faster decoding, after compiling each batch shape once)"
# The commands that decode, and so may compile with XLA: they keep what XLA compiles for the next run.
DECODING_COMMANDS = ("translate", "evaluate", "serve")
# The long jobs that stop on SIGTERM as on Ctrl-C, with one line (`serve` has its own shutdown).
INTERRUPTIBLE_COMMANDS = ("translate", "evaluate")
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
standard error. An empty --file is an error (nothing to translate); empty
standard input gives empty output.

--output OUT is written whole or not at all. Translations reach OUT.partial
as they are done, in input order (after one header line that describes the
job); at the end it becomes OUT. Interrupted (Ctrl-C, SIGTERM), the job keeps
OUT.partial, and the same command with --resume continues it, once it has
checked that the input, the model and the decoding options are the same
(without --resume, an existing OUT.partial is refused, not overwritten). A
progress bar (lines, time per line, time left) is shown when standard error
is a terminal; --quiet turns it off.

exit status:
  0  every line was translated as given
  1  some lines were repaired or left out (named on standard error)
  2  an error (bad arguments, unreadable or empty input, unwritable output, no model)
  130, 143  interrupted (Ctrl-C, SIGTERM): what is done is kept in OUT.partial
"""


def check_models(*directories):
    for directory in directories:
        require_model(directory)


def cmd_data(args):
    import_tensorflow_quietly()
    from translator.training import data

    pairs, skipped = data.load_pairs(args.data, skip_malformed=args.skip_malformed)
    print(data.summary(data.split_pairs(pairs), skipped))


def cmd_train(args):
    chosen = (("epochs", args.epochs), ("learning_rate", args.learning_rate), ("dropout", args.dropout),
              ("piece_dropout", args.piece_dropout), ("seed", args.seed))
    overrides = {k: v for k, v in chosen if v is not None}
    switches = dict(mixed_precision=SWITCHES[args.mixed_precision], jit_compile=SWITCHES[args.xla])
    if args.recipe:
        if overrides:
            flags = ", ".join("--" + k.replace("_", "-") for k in overrides)
            raise UsageError(f"not with --recipe: {flags} (a recipe's stages train as declared in "
                             "translator/training/recipe.py)")
        import_tensorflow_quietly()
        from translator.training import recipe

        recipe.run(args.recipe, runs_dir=args.runs, output_dir=args.output, final_name=args.name,
                   overwrite=args.overwrite, data_path=args.data, more_path=args.more_data, **switches)
        return
    config = configure(args.preset, args.start_from, **overrides, **switches,
                       **({"name": args.name} if args.name else {}))
    import_tensorflow_quietly()
    from translator.training import train

    train.train(config, data_path=args.data, output_dir=args.output, runs_dir=args.runs, start_from=args.start_from,
                overwrite=args.overwrite, more_path=args.more_data)


def input_lines(args):
    """The lines to translate, as `translator.files.lines.Line`s, and the name of where they come from."""
    if args.text:
        # The shell passes arguments as bytes; Python keeps bytes that are not UTF-8 as
        # surrogate escapes, which os.fsencode turns back into those bytes.
        return "the text argument", iter([lines.decode(os.fsencode(" ".join(args.text)))])
    if args.file:
        return args.file, lines.read_lines(lines.open_input(args.file), source=args.file)
    return "standard input", lines.read_lines(sys.stdin.buffer, source="standard input")


@contextlib.contextmanager
def standard_output():
    """Yields standard output as a `partial.Output`; a failed write (a full disk, a closed pipe) becomes
    one `FileError`."""
    try:
        with lines.writing("standard output"):
            yield partial.Output(sys.stdout, "standard output")
    except lines.FileError:
        # Python flushes standard output once more at exit and would report the failure again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise


def cmd_average(args):
    check_models(*args.models)
    import_tensorflow_quietly()
    from translator.training import average

    output = average.average(args.models, args.output, overwrite=args.overwrite)
    print(f"wrote the mean of {len(args.models)} models to {output}")


def cmd_translate(args):
    """Translates line by line, in chunks; returns 1 if any line was repaired or left out, else 0."""
    if args.resume and not (args.file and args.output):
        raise UsageError("--resume continues an interrupted --file IN --output OUT: give both")
    glossary = load_glossary(args.glossary)
    source, inputs = input_lines(args)
    first = next(inputs, None)
    if first is None and args.file:
        raise UsageError(f"{args.file} is empty: there is nothing to translate")
    inputs = itertools.chain([first] if first else [], inputs)
    check_models(args.model, *args.ensemble or ())
    import_tensorflow_quietly()
    from translator.files.progress import Progress, on_terminal
    from translator.translate import Translator

    parallel_batches = decoding_batches(SWITCHES[args.xla])  # first: it sets the threads TensorFlow starts with
    jit_compile, bfloat16 = decoding_switches(args)
    job = translation_job(args, jit_compile, bfloat16)
    with partial.resumable(args.output, job, args.resume) if args.output else standard_output() as output:
        translator = Translator.load(args.model, ensemble=args.ensemble or (), jit_compile=jit_compile,
                                     placeholders=args.placeholders, parallel_batches=parallel_batches,
                                     bfloat16=bfloat16)
        shown = on_terminal(args.quiet)
        progress = Progress(lines.count_lines(args.file) if shown and args.file else None, "line", shown)
        total = bad = 0
        while chunk := list(itertools.islice(inputs, CHUNK_LINES)):
            total += len(chunk)
            for line in chunk:
                if line.problem:
                    bad += 1
                    if bad <= MAX_WARNINGS:
                        warn(f"{source}, line {line.number} {line.problem}; {line.repair}")
            if total > output.done:  # else translated before an interruption (--resume)
                translations, notes = translator.translate_with_notes([line.text for line in chunk], beam_size=args.beam,
                                                                      glossary=glossary)
                for line, line_notes in zip(chunk, notes):
                    for note in line_notes:
                        warn(f"input line {line.number}: {note}")
                output.write(translations)
            progress.update(total)
    if bad > 1:
        listed = "listed above" if bad <= MAX_WARNINGS else f"the first {MAX_WARNINGS} listed above"
        warn(f"{bad:,} of {total:,} lines were repaired or left out ({listed})")
    return 1 if bad else 0


def decoding_switches(args):
    """`--xla` and `--bfloat16` of a decoding command, resolved: `(jit_compile, bfloat16)`."""
    jit_compile = resolve_auto(SWITCHES[args.xla])
    return jit_compile, bfloat16_decoding(SWITCHES[args.bfloat16], jit_compile)


def translation_job(args, jit_compile, bfloat16):
    """What makes `translate --output`'s partial file this job's: `--resume` continues only the same one."""

    def model(directory):
        path = Path(directory) / MODEL_FILE
        return partial.fingerprint(path, hashed_bytes=None) if path.is_file() else str(directory)

    return {
        "input": partial.fingerprint(args.file) if args.file else "standard input",
        "model": model(args.model), **({"ensemble": [model(other) for other in args.ensemble]} if args.ensemble else {}),
        "glossary": partial.fingerprint(args.glossary) if args.glossary else None,
        "beam": args.beam, "placeholders": args.placeholders, "xla": jit_compile, "bfloat16": bfloat16,
        "chunk_lines": CHUNK_LINES,
    }


def load_glossary(path):
    """The `--glossary` file as a `translator.text.glossary.Glossary`, or None without one; read before any model is."""
    from translator.text.glossary import Glossary

    return Glossary.load(path) if path else None


def warn(message):
    print(f"translator translate: warning: {message}", file=sys.stderr)


def cmd_evaluate(args):
    if args.report:
        outputs.refuse_existing(args.report, args.overwrite)  # before minutes of translating
    glossary = load_glossary(args.glossary)
    check_models(args.model, *args.ensemble or ())
    import_tensorflow_quietly()
    from translator.evaluation import evaluate
    from translator.files import progress

    parallel_batches = decoding_batches(SWITCHES[args.xla])  # first: it sets the threads TensorFlow starts with
    jit_compile, bfloat16 = decoding_switches(args)
    result = evaluate.run(args.model, ensemble=args.ensemble or (), pairs_file=args.pairs, data_path=args.data,
                          columns=args.columns, beam_size=args.beam, jit_compile=jit_compile,
                          parallel_batches=parallel_batches, placeholders=args.placeholders,
                          bfloat16=bfloat16, show_progress=progress.on_terminal(args.quiet), glossary=glossary,
                          more_path=args.more_data)
    print("\n" + evaluate.format_report(result))
    if args.report:
        with lines.written_whole(args.report) as report:
            report.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")


def cmd_export(args):
    output = args.output or str(Path("exports") / Path(args.model).name)
    outputs.refuse_existing(output, args.overwrite)
    check_models(args.model)
    import_tensorflow_quietly()
    from translator import export

    export.export(args.model, output, overwrite=args.overwrite)
    print(f"exported a SavedModel to {output} (signature 'serve': strings in, strings out)")


def cmd_serve(args):
    check_models(args.model)
    import_tensorflow_quietly()
    from translator.serving import server

    jit_compile, bfloat16 = decoding_switches(args)
    server.run(args.model, host=args.host, port=args.port, jit_compile=jit_compile, bfloat16=bfloat16,
               max_queue_work=args.max_queue, deadline_s=args.deadline)


def beam_size(value):
    beam = int(value)
    if not 1 <= beam <= MAX_BEAM:
        raise argparse.ArgumentTypeError(f"beam size must be between 1 and {MAX_BEAM}, got {beam}")
    return beam


def column_pair(value):
    """`--columns E,S`: two 0-based column indices."""
    parts = value.split(",")
    if len(parts) != 2 or not all(part.strip().isdigit() for part in parts):
        raise argparse.ArgumentTypeError(f"takes two 0-based indices, ENGLISH,SPANISH, e.g. 1,3; got {value!r}")
    return tuple(int(part) for part in parts)


def positive(kind):
    """An argparse type: a number of `kind` above zero."""

    def parse(value):
        number = kind(value)
        if not 0 < number < float("inf"):  # NaN too
            raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {value}")
        return number

    return parse


def add_model_argument(parser):
    parser.add_argument("--model", default=DEFAULT_MODEL, help="model directory")


def add_ensemble_argument(parser):
    parser.add_argument("--ensemble", action="append", default=None, metavar="DIR",
                        help="decode with the model in DIR too, the models' next-token probabilities averaged "
                             "(repeatable; each model costs a decoding: two run at about half the speed; "
                             "the same vocabularies as --model; default: --model alone)")


def add_switch_argument(parser, flag, what, auto="on with a GPU/TPU"):
    parser.add_argument(flag, choices=tuple(SWITCHES), default="auto", help=f"{what}; auto: {auto}")


def add_bfloat16_argument(parser):
    parser.add_argument("--bfloat16", choices=tuple(SWITCHES), default="auto",
                        help="the model's layers compute in bfloat16: faster on a CPU that multiplies bfloat16 in "
                             "hardware, slower on one that does not; auto: on with such a CPU alone, without XLA")


def add_beam_argument(parser):
    parser.add_argument("--beam", type=beam_size, default=DEFAULT_BEAM,
                        help="beam size; 1 is greedy decoding, faster")


def add_placeholder_argument(parser):
    parser.add_argument("--no-placeholders", dest="placeholders", action="store_false",
                        help="give names and numbers the vocabulary lacks to the model as written, "
                             "not as stand-ins it copies")


def add_more_data_argument(parser):
    parser.add_argument("--more-data", metavar="DIR",
                        help="the folder of further pairs the training mix reads (train/*.tsv, dev/newstest2012.tsv); "
                             "default: $TRANSLATOR_MORE_DATA")


def add_overwrite_argument(parser, flag):
    parser.add_argument("--overwrite", action="store_true",
                        help=f"replace an existing {flag} (else it is refused and left as it is)")


def add_quiet_argument(parser):
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar (it is shown only when standard error is a terminal)")


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Every default shown, except for options that have none and for on/off flags (a "(default: True)" beside
    `--no-placeholders` reads as if the flag were on); descriptions and epilogs as written."""

    def _get_help_string(self, action):
        if action.default is None or action.default is argparse.SUPPRESS or action.nargs == 0:
            return action.help
        return super()._get_help_string(action)


def add_command(commands, name, summary, description, **options):
    """A subcommand: `summary` in `translator --help`, `description` atop its own help (wrapped here: the
    formatter keeps text as written, for the epilogs' lists)."""
    return commands.add_parser(name, help=summary, description=textwrap.fill(description, 79),
                               formatter_class=HelpFormatter,
                               **options)


def add_glossary_argument(parser):
    parser.add_argument("--glossary", metavar="FILE",
                        help="English<TAB>Spanish terms, one a line ('#' comments allowed): each English term "
                             "(whole words, any case) comes out as its Spanish (default: none)")


def build_parser():
    parser = argparse.ArgumentParser(prog="translator", description="English to Spanish neural machine translation.",
                                     formatter_class=HelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)

    p = add_command(commands, "data", "find, verify, parse and split the corpus; print the counts",
                    "Finds the corpus (--data, $TRANSLATOR_DATA, data/spa-eng.zip, else a checked download), "
                    "verifies and parses it, drops duplicates, splits it 70/15/15 by English sentence and "
                    "prints the counts.")
    p.add_argument("--data", help="corpus path (.zip, .txt, .tsv); default: $TRANSLATOR_DATA, data/, download")
    p.add_argument("--skip-malformed", action="store_true", help="skip and count malformed lines")
    p.set_defaults(run=cmd_data)

    p = add_command(commands, "train", "train a model and write saved_models/<name>/",
                    "Trains a model: every stage of a --recipe (the shipped model is the recipe en-es), one "
                    "--preset run, or a run --from a trained model. A stopped run resumes when the same "
                    "command is run again; a model directory is never replaced without --overwrite.")
    start = p.add_mutually_exclusive_group()
    start.add_argument("--recipe", help="run every stage of this recipe (en-es: the shipped model; tiny), "
                                        "resumable, and write saved_models/<recipe>/ (default: one --preset run)")
    start.add_argument("--preset", default="default", choices=tuple(PRESETS), help="one run of this preset")
    p.add_argument("--epochs", type=int, help="epochs (default: the preset's, or --from's)")
    p.add_argument("--name", help="the run name: the saved_models/ subdirectory, with --recipe the final model's "
                                  "(default: the preset's, --from's or the recipe's)")
    p.add_argument("--learning-rate", type=float, help="the peak learning rate (default: the preset's, or --from's)")
    p.add_argument("--dropout", type=float, help="the dropout of each sublayer's output (default: the preset's, or --from's)")
    p.add_argument("--piece-dropout", type=float,
                   help="subword regularisation: each epoch cuts the training words anew, a longest piece passed "
                        "over with this probability (default: the preset's, or --from's)")
    p.add_argument("--seed", type=int, help="the seed of the shuffling and the invented names and numbers "
                                        "(default: the preset's, or --from's)")
    start.add_argument("--from", dest="start_from", metavar="MODEL_DIR",
                       help="start from this model's weights, vocabularies and config (not --preset): "
                            "to train it longer or on your own pairs (default: new weights)")
    p.add_argument("--data", help="corpus path; default: $TRANSLATOR_DATA, data/, download")
    add_more_data_argument(p)
    p.add_argument("--output", default="saved_models", help="where to write the model directory")
    p.add_argument("--runs", default="runs", help="where runs keep their state, to resume")
    p.add_argument("--overwrite", action="store_true", help="replace the model directory if it exists")
    add_switch_argument(p, "--mixed-precision", "float16 compute on a GPU, bfloat16 on a TPU or CPU",
                        auto="on with a GPU/TPU or a CPU that multiplies bfloat16 in hardware")
    add_switch_argument(p, "--xla", "XLA compilation")
    p.set_defaults(run=cmd_train)

    p = add_command(commands, "average", "one model from the mean of the weights of models trained with --from",
                    "Writes a model directory whose weights are the element-wise mean of the given models' "
                    "(one architecture and vocabulary: a model and models trained --from it).")
    p.add_argument("models", nargs="+", metavar="MODEL_DIR",
                   help="model directories of one architecture and vocabulary: one, and models trained from it")
    p.add_argument("--output", required=True, help="the new model directory")
    add_overwrite_argument(p, "--output")
    p.set_defaults(run=cmd_average)

    p = add_command(commands, "translate", "translate text, a file, or standard input",
                    "Translates English to Spanish: the TEXT arguments as one text, else --file or standard "
                    "input one line at a time, in batches.", epilog=TRANSLATE_EPILOG)
    p.add_argument("text", nargs="*", help="English text; omit to read --file or standard input")
    p.add_argument("--file", help="translate this file, one sentence a line (default: the text, else standard input)")
    p.add_argument("--output", help="write translations here, one a line (default: standard output)")
    p.add_argument("--resume", action="store_true",
                   help="continue the interrupted job whose work OUT.partial holds (same --file, model, options)")
    add_model_argument(p)
    add_ensemble_argument(p)
    add_beam_argument(p)
    add_placeholder_argument(p)
    add_glossary_argument(p)
    p.add_argument("--xla", choices=tuple(SWITCHES), default="auto",
                   help=f"{XLA_DECODING}; auto: on with a GPU/TPU")
    add_bfloat16_argument(p)
    add_quiet_argument(p)
    p.set_defaults(run=cmd_translate)

    p = add_command(commands, "evaluate", "BLEU and chrF on the test split or a file of pairs",
                    "Scores a model on the test split, or on your own file of pairs, and with the further "
                                        "pairs (--more-data) on newstest2012 and the held-out manuals and prose "
                                        "too. The scores are printed; those of the test split (no --pairs) are "
                                        "also recorded in the model's metrics.json, beside its training "
                                        "history. --pairs (or --ensemble) never changes the model directory: "
                                        "write its scores with --report FILE.")
    add_model_argument(p)
    add_ensemble_argument(p)
    p.add_argument("--pairs", help="a file of English<TAB>Spanish lines to score (default: the test split)")
    p.add_argument("--columns", type=column_pair,
                   help="with --pairs: 0-based columns of English and Spanish, e.g. 1,3 (default: 0,1 of lines of "
                        "2 or 3 columns)")
    p.add_argument("--data", help="corpus path for the test split; default: $TRANSLATOR_DATA, data/, download")
    p.add_argument("--more-data", metavar="DIR",
                   help="the folder of further pairs (train/*.tsv, dev/newstest2012.tsv): also score newstest2012 and "
                        "the held-out manuals and prose (default: $TRANSLATOR_MORE_DATA, without --pairs; else skipped)")
    p.add_argument("--report", metavar="FILE", help="also write the scores and examples to FILE, as JSON (default: "
                                                    "printed only)")
    add_overwrite_argument(p, "--report")
    add_beam_argument(p)
    add_placeholder_argument(p)
    add_glossary_argument(p)
    add_switch_argument(p, "--xla", XLA_DECODING)
    add_bfloat16_argument(p)
    add_quiet_argument(p)
    p.set_defaults(run=cmd_evaluate)

    p = add_command(commands, "export", "write a TensorFlow SavedModel (strings in, strings out)",
                    "Writes the model as a TensorFlow SavedModel whose signature 'serve' takes English strings "
                    "and returns Spanish ones; loading it needs tensorflow and tensorflow_text, not this project.")
    add_model_argument(p)
    p.add_argument("--output", help="SavedModel directory (default exports/<model name>)")
    add_overwrite_argument(p, "--output")
    p.set_defaults(run=cmd_export)

    p = add_command(commands, "serve", "the web page and HTTP API",
                    "Serves the translation page and its JSON API (POST /translate, POST /attention, "
                    "GET /health; docs at /docs) until stopped.")
    add_model_argument(p)
    p.add_argument("--host", default=DEFAULT_HOST, help="address to listen on (0.0.0.0: every interface)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="port to listen on")
    p.add_argument("--max-queue", type=positive(int), default=MAX_QUEUE_WORK, metavar="WORK",
                   help="work queued at most, in sentences x beam; a request beyond is refused at once, 503 with "
                        "Retry-After (raise it on a GPU, which decodes faster)")
    p.add_argument("--deadline", type=positive(float), default=QUEUE_DEADLINE_S, metavar="SECONDS",
                   help="a request still queued this long is refused, 503 with Retry-After")
    add_switch_argument(p, "--xla", XLA_DECODING)
    add_bfloat16_argument(p)
    p.set_defaults(run=cmd_serve)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    show_log_messages()
    if args.command in DECODING_COMMANDS and args.xla != "off":
        # TensorFlow reads TF_XLA_FLAGS once, when it first runs an operation: set it before importing it.
        os.environ["TF_XLA_FLAGS"] = xla_cache_flags(os.environ.get("TF_XLA_FLAGS", ""), xla_cache_directory())
    if args.command in INTERRUPTIBLE_COMMANDS:
        previous = signal.signal(signal.SIGTERM, terminate)
    try:
        return args.run(args) or 0
    # The user's mistakes, and files or disks that fail (OSError), are one line; anything else is a bug: a traceback.
    except (UsageError, OSError) as error:
        print(f"translator {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as stop:
        terminated = isinstance(stop, Terminated)
        print(f"translator {args.command}: {'terminated' if terminated else 'interrupted'}"
              + (f": {stop}" if str(stop) else ""), file=sys.stderr)
        return 128 + (signal.SIGTERM if terminated else signal.SIGINT)
    finally:
        if args.command in INTERRUPTIBLE_COMMANDS:
            signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


class Terminated(KeyboardInterrupt):
    """SIGTERM (a job scheduler, `kill`, a shutdown), handled as Ctrl-C is: work done is kept."""


def terminate(signum, frame):
    raise Terminated()
