"""`translator translate --file` as a user runs it: whole processes, default flags, and where the time goes.

Section 1's figures are in-process, after a warm-up. A user's command also
starts Python and TensorFlow, loads the model, traces (and under XLA
compiles) the decoding graph, reads, tokenises, swaps rare names and numbers
for stand-ins and writes. Here `python -m translator translate --file F
--output O` is timed as a whole process on N test sentences and on one:
(N - 1) / (t_N - t_1) is the job's rate with the start-up left out. Each run
starts with an empty XLA compile cache, as on a new machine, except the
second `--xla on` run, which reuses the first one's. Default flags and
`--beam 1` then run in turn, a few pairs: what beam search costs a user, as
a ratio that holds on a machine whose speed drifts.

Then the same job's stages are timed in this process: the command's own
`Translator` translates the same lines, its steps timed by wrapping its
methods (`timed_steps`), one batch at a time (the command decodes two at a
time, in threads).
"""

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import PROJECT, child_environment
from translator.defaults import DEFAULT_BEAM, DEFAULT_MODEL
from translator.devices import resolve_auto
from translator.files import lines
from translator.translate import Translator

SENTENCES, QUICK_SENTENCES = 2000, 50
# Default flags and `--beam 1`, run in turn this many times: their ratio pair by pair holds when the machine's
# speed drifts, as a shared machine's does. `--quick` runs no more pairs: its one pair is RUNS' first two.
PAIRS = 3
# Name, beam flags, XLA flags, and whether the run starts with the previous run's compile cache.
RUNS = (
    ("default flags", [], [], False),
    ("--beam 1", ["--beam", "1"], [], False),
    ("--xla on, first run", [], ["--xla", "on"], False),
    ("--xla on, second run", [], ["--xla", "on"], True),
)
STAGES = ("reading lines", "counting tokens, cutting into pieces", "stand-ins and invented words",
          "vectorising, decoding, detokenising (one graph)", "re-ranking beam hypotheses", "batching, joining",
          "writing")
# The `Translator` methods `timed_steps` wraps, each the stage its calls' own seconds (less the calls of the
# methods it calls) count for: `decode_batch` (the repair policy) calls `hypotheses` and `choose_one`.
STEPS = {"translate_with_notes": "batching, joining", "pieces": "counting tokens, cutting into pieces",
         "decode_batch": "stand-ins and invented words",
         "hypotheses": "vectorising, decoding, detokenising (one graph)", "choose_one": "re-ranking beam hypotheses"}
# What each step calls of the others: their seconds are taken off its own.
CALLED = {"translate_with_notes": ("pieces", "decode_batch"), "decode_batch": ("hypotheses", "choose_one")}


def command_seconds(model_path, source, flags, cache, project=PROJECT):
    """Seconds of one whole `translate --file source` process of the code in `project`, its XLA compile cache
    in `cache`."""
    output = Path(cache) / "out.txt"
    command = [sys.executable, "-m", "translator", "translate", "--model", str(model_path), "--file", str(source),
               "--output", str(output), *flags]
    # That project's code, and no XLA flags of the caller's: the cache is the command's own, in `cache`.
    env = child_environment(project, XDG_CACHE_HOME=str(cache))
    env.pop("TF_XLA_FLAGS", None)
    start = time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, text=True, cwd=project)
    seconds = time.perf_counter() - start
    if result.returncode:
        raise RuntimeError(f"{' '.join(command)} exited with {result.returncode}: {result.stderr[-2000:]}")
    return seconds


def xla_compilations(cache):
    """How many programs XLA compiled into the cache, one file each: a decoding shape under XLA; without
    it, small kernels of the few XLA operations in the graph (`keras.ops.slice_update`'s)."""
    return len(list(Path(cache).rglob("xla_compile_cache__*")))


def whole_processes(model_path, source, one_line, count, directory):
    """Every run of `RUNS`: seconds on `count` lines and on one line, the rate, and XLA's part."""
    runs, start_up, cache = {}, {}, None
    for name, beam_flags, xla_flags, reuse_cache in RUNS:
        cache = cache if reuse_cache else tempfile.mkdtemp(dir=directory)
        before = xla_compilations(cache)
        seconds = command_seconds(model_path, source, beam_flags + xla_flags, cache)
        # Start-up: the same beam on one line (with --xla auto, which compiles nothing for one line).
        key = tuple(beam_flags)
        if key not in start_up:
            start_up[key] = command_seconds(model_path, one_line, beam_flags, tempfile.mkdtemp(dir=directory))
        runs[name] = {
            "flags": beam_flags + xla_flags,
            "xla": bool(xla_flags) or resolve_auto(None),
            "seconds": seconds,
            "one_line_seconds": start_up[key],
            # None when the job took no longer than the start-up's noise (--quick's few sentences).
            "sentences_per_s": (count - 1) / (seconds - start_up[key]) if seconds > start_up[key] else None,
            "xla_compilations": xla_compilations(cache) - before,
        }
    return runs


def paired_ratios(model_path, source, directory, pairs):
    """Whole-process seconds of default flags over those of `--beam 1`, one pair at a time, each pair run in turn."""
    ratios = []
    for _ in range(pairs):
        beam, greedy = (command_seconds(model_path, source, flags, tempfile.mkdtemp(dir=directory))
                        for flags in ([], ["--beam", "1"]))
        ratios.append(beam / greedy)
    return ratios


def paired_against(other, model_path, source, one_line, directory, rounds=PAIRS, warm_up=1):
    """Default flags here and in `other` (a checkout of another commit, with its own `DEFAULT_MODEL`), whole
    processes in turn: each round runs the many-line job of both, then the one-line job of both; the first
    `warm_up` rounds are not counted. Returns each counted round's job (start-up left out) of `other` over
    this one's: above 1, this code is faster."""
    def seconds(project, model, lines):
        return command_seconds(model, lines, [], tempfile.mkdtemp(dir=directory), project)

    trees = ((PROJECT, model_path), (Path(other), Path(other) / DEFAULT_MODEL))
    ratios = []
    for round_number in range(warm_up + rounds):
        full = [seconds(project, model, source) for project, model in trees]
        start_up = [seconds(project, model, one_line) for project, model in trees]
        if round_number >= warm_up:
            ratios.append((full[1] - start_up[1]) / (full[0] - start_up[0]))
    return ratios


def timed_steps(translator):
    """Wraps the `STEPS` methods of `translator` (instance attributes hide the class's) to add up their seconds.

    Returns `seconds()`: each stage's seconds so far, each step's calls less those of the steps it calls.
    Steps must not overlap in threads (`parallel_batches=1`).
    """
    inclusive = dict.fromkeys(STEPS, 0.0)

    def timed(name, method):
        def call(*args, **kwargs):
            start = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                inclusive[name] += time.perf_counter() - start
        return call

    for name in STEPS:
        setattr(translator, name, timed(name, getattr(translator, name)))

    def seconds():
        return {STEPS[name]: total - sum(inclusive[called] for called in CALLED.get(name, ()))
                for name, total in inclusive.items()}

    return seconds


def profile(model_path, source, beam_size, jit_compile):
    """Seconds per stage of translating the lines of `source` with the `Translator` that `translate` uses,
    one batch at a time, and of the start-up's two stages that this process does not share with every other:
    loading and tracing."""
    start = time.perf_counter()
    translator = Translator.load(model_path, jit_compile=jit_compile, parallel_batches=1)
    loading = time.perf_counter() - start
    start = time.perf_counter()
    translator.translate("Hello.", beam_size)
    tracing = time.perf_counter() - start
    step_seconds = timed_steps(translator)
    start = time.perf_counter()
    texts = [line.text for line in lines.read_lines(lines.open_input(source))]
    reading = time.perf_counter() - start
    translations, notes = translator.translate_with_notes(texts, beam_size)
    start = time.perf_counter()
    with lines.written_whole(Path(source).with_suffix(".out")) as handle:
        handle.write("".join(text + "\n" for text in translations))
    seconds = {"reading lines": reading, **step_seconds(), "writing": time.perf_counter() - start}
    seconds = {stage: seconds[stage] for stage in STAGES}
    return {"beam_size": beam_size, "xla": jit_compile, "seconds": seconds, "total_seconds": sum(seconds.values()),
            "pieces": len(translator.pieces(texts)[1]), "lines_with_notes": sum(map(bool, notes)),
            "loading_seconds": loading, "tracing_seconds": tracing}


def run(model_path, sentences, quick=False, against=None):
    """This section: returns a dict of every figure. `sentences` are English test sentences; with `against`,
    another checkout, the default flags' job here against there (`paired_against`)."""
    sentences = list(sentences)[: QUICK_SENTENCES if quick else SENTENCES]
    with tempfile.TemporaryDirectory() as directory:
        source, one_line = Path(directory) / "sentences.txt", Path(directory) / "one.txt"
        source.write_text("".join(sentence + "\n" for sentence in sentences), encoding="utf-8")
        one_line.write_text(sentences[0] + "\n", encoding="utf-8")
        runs = whole_processes(model_path, source, one_line, len(sentences), directory)
        ratios = ([runs["default flags"]["seconds"] / runs["--beam 1"]["seconds"]] if quick
                  else paired_ratios(model_path, source, directory, PAIRS))
        stages = profile(model_path, source, DEFAULT_BEAM, runs["default flags"]["xla"])
        result = {"sentences": len(sentences), "default_beam": DEFAULT_BEAM, "runs": runs,
                  "default_over_greedy": ratios, "profile": stages}
        if against:
            result["against"] = {"tree": str(against), "commit": commit_of(against),
                                 "ratios": paired_against(against, model_path, source, one_line, directory)}
    return result


def commit_of(tree):
    """The commit checked out in `tree`, or None where git cannot say."""
    found = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return found.stdout.strip() or None


def table_rows(result):
    """(metric, value, target, verdict) rows for the printed table."""
    rows = []
    for name, run in result["runs"].items():
        beam = 1 if "--beam" in run["flags"] else result["default_beam"]
        compiled = f", {run['xla_compilations']} shapes compiled" if run["xla"] else ""
        rows.append((f"translate --file, {name} (beam {beam}, XLA {'on' if run['xla'] else 'off'}{compiled}), "
                     f"{result['sentences']:,} sentences, whole process, start-up left out",
                     f"{run['sentences_per_s']:,.0f} sentences/s" if run["sentences_per_s"] else "n/a", "", ""))
        rows.append(("    seconds: the whole run; the one-line run (start-up)",
                     f"{run['seconds']:.1f} s; {run['one_line_seconds']:.1f} s", "", ""))
    ratios = result["default_over_greedy"]
    rows.append((f"default flags (beam {result['default_beam']}) / --beam 1, whole-process seconds, run in turn: "
                 f"median of {len(ratios)} pairs (min-max)",
                 f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})", "", ""))
    if "against" in result:
        against, ratios = result["against"], result["against"]["ratios"]
        rows.append((f"default flags against {against['commit'] or against['tree']}: its job's seconds over this "
                     f"one's, start-up left out, median of {len(ratios)} paired rounds (min-max)",
                     f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})", "", ""))
    stages = result["profile"]
    rows.append(("start-up, default flags: loading the model; tracing the graphs (in this process)",
                 f"{stages['loading_seconds']:.1f} s; {stages['tracing_seconds']:.1f} s", "", ""))
    rows.append((f"where the time goes, default flags, one batch at a time (XLA {'on' if stages['xla'] else 'off'}, "
                 f"{stages['pieces']:,} pieces, {stages['lines_with_notes']} lines with stand-ins put back)",
                 f"{stages['total_seconds']:.1f} s", "", ""))
    for stage, seconds in stages["seconds"].items():
        rows.append((f"    {stage}", f"{seconds:.2f} s ({seconds / stages['total_seconds']:.1%})", "", ""))
    return rows
