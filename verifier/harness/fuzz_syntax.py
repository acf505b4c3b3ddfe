"""Differential fuzzing of our parser/printer and pass against mlir-opt-19.

What it models: the question "does our MLIR subset accept exactly what
`mlir-opt-19 --allow-unregistered-dialect` accepts, and print it the same?",
asked of many slightly broken programs, and the same question for the pass
(`refimpl --mode mlir19` against `mlir-opt-19 -gpu-async-region`). Our
trusted reference is only trusted where it agrees with the real tool on
inputs nobody wrote by hand; hand-written tests cover what their authors
thought of, mutated programs cover the rest.

Inputs. Seeds are the syntax corpus (`tests/corpus/*.mlir`), the examples,
the lit inputs and a few straight-line programs of `bench/gen_programs.py`
(all valid). Input `i` of a run with seed `s` is a function of `(s, i)`
only: `mutant(seeds, s, i)` draws from `random.Random(f"{s}:{i}")` a seed
program and one to three token-level mutations (delete, duplicate or swap
tokens or lines, move a line elsewhere, so ops cross regions, insert junk,
change a type, rename an SSA value, splice two programs, newline for space
and back). So every finding is replayed by its `(seed, index)`, printed with
it: `python bench/fuzz.py --diff --replay S:I`. This is not Hypothesis-based;
`shrink` reduces a disagreeing input by deleting lines, then tokens (greedy,
to a fixed point, bounded by a number of oracle calls), keeping the same
class of disagreement.

Oracles. mlir-opt runs once per batch of inputs with `--split-input-file`
on a marker no mutation produces (`MARKER`) and `--output-split-marker`
(`OUT_MARKER`): mlir-opt-19 processes each chunk in its own context and
writes the printed module followed by a blank line for each accepted chunk,
nothing for a rejected one, and `OUT_MARKER` plus a newline between chunks.
Its errors come back as `within split at FILE:LINE offset :L:C: error: M`,
mapped to chunks by `LINE`. A batch that crashes or times out is bisected
down to the input responsible (`crash`/`timeout` on 19's side). Our side
parses, (rewrites) and prints in-process, exactly as `python -m spec print
--allow-unregistered-dialect` and `python -m refimpl --mode mlir19
--allow-unregistered-dialect` do.

Outcomes per input (`Comparison.kind`): `both-accept` (then `print-equal` or
`print-mismatch`), `both-reject`, `we-accept` (19 rejects), `we-reject`
(19 accepts), `we-crash` (an exception other than a diagnostic: always a
bug), `19-crash`. `signature` groups disagreements by the other side's first
message with names and numbers blanked.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import tempfile
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from spec.diagnostics import DiagnosticError
from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op
from verifier.harness import reference_impl

PACKAGE_CORPUS = Path(__file__).resolve().parents[1] / "corpus"
REPO = Path(__file__).resolve().parents[2]
"""The repository (its `tests/corpus`, `examples` and `bench`), when run from a checkout."""
MARKER = "// fuzz-split-9d2c"
"""Input separator for mlir-opt's `--split-input-file`; never produced by a mutation."""
OUT_MARKER = "// fuzz-out-9d2c"
"""mlir-opt's `--output-split-marker`."""

MODES = ("print", "pass")
"""`print`: parse and print (`spec print` vs `mlir-opt-19`); `pass`:
`refimpl --mode mlir19` vs `mlir-opt-19 -gpu-async-region`."""

# -- seeds and mutations ---------------------------------------------------------

_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t]+) | (?P<nl>\n) | (?P<comment>//[^\n]*)
  | (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<ssa>%[\w.$-]+(?:\#\d+)?)
  | (?P<sym>@[\w.$-]+|@"(?:[^"\\\n]|\\.)*")
  | (?P<block>\^[\w.$-]+)
  | (?P<dtype>![\w.$-]+)
  | (?P<dattr>\#[\w.$-]+)
  | (?P<num>-?0x[0-9a-fA-F]+|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)
  | (?P<ident>[A-Za-z_][\w.$]*)
  | (?P<arrow>->|::)
  | (?P<punct>.)
    """,
    re.VERBOSE | re.DOTALL,
)

TYPES = [
    "index",
    "i1",
    "i32",
    "i64",
    "f32",
    "f16",
    "memref<4xf32>",
    "memref<?xf32>",
    "memref<2x?xi32>",
    "!gpu.async.token",
    "!async.token",
    "!async.value<f32>",
    "tensor<4xf32>",
    "none",
    "()",
    "vector<4xf32>",
    "memref<4xf32, strided<[1], offset: ?>>",
    "memref<4xf32, 1>",
    "!bb9.memref<4xf32>",
    "!foo",
    "i0",
    "ui8",
    "complex<f32>",
    "tuple<i32>",
    "(i32) -> i32",
    "!gpu.async.token, index",
]
JUNK = [
    "%0",
    "%arg0",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "=",
    "->",
    "gpu.wait",
    "async",
    "^bb1",
    "^bb0:",
    "@k",
    "@f",
    "0",
    "-1",
    '"x"',
    '"a b"',
    "scf.yield",
    "return",
    "func.return",
    "<",
    ">",
    "#",
    "loc(",
    "?",
    "x",
    "*",
    "strided<[1]>",
    "offset:",
    "func.func @g() {",
    "func.func @f()",
    "}\n",
    "\n",
    "\n\n",
    "module {",
    "scf.if %c {",
    "cf.br ^bb1",
    "attributes {a}",
    "{a = 1}",
    "dense<1>",
    "unit",
    "true",
    "false",
    "memref",
    "#map",
    "affine_map<(d0) -> (d0)>",
    "-> ()",
    ": () -> ()",
    '"test.op"() : () -> ()',
    "...",
    "~",
]


def load_seeds(repo: Path = REPO) -> list[str]:
    """Every seed program, in a fixed order (valid MLIR without `MARKER`):
    the verifier's own corpus (installed with it), and from a checkout the
    test corpus, the examples and three generated programs."""
    import sys

    texts = [p.read_text() for p in sorted(PACKAGE_CORPUS.glob("*.mlir"))]
    for pattern in ("tests/corpus/*.mlir", "examples/*.mlir"):
        texts += [p.read_text() for p in sorted(repo.glob(pattern))]
    sys.path.insert(0, str(repo / "bench"))
    try:
        from gen_programs import generate  # type: ignore[import-not-found]  # bench/, put on the path just above
    except ImportError:  # an installed distribution has no bench/
        generate = None
    finally:
        sys.path.remove(str(repo / "bench"))
    if generate is not None:
        texts += [generate(n, seed) for n, seed in ((3, 1), (6, 2), (10, 3))]
    # Split files are cut into their chunks (mlir-opt's default marker).
    out: list[str] = []
    for t in texts:
        out += [c for c in t.split("// -----") if c.strip()]
    return out


def _tokens(text: str) -> list[str]:
    return [m.group(0) for m in _TOKEN.finditer(text)]


def _significant(toks: list[str]) -> list[int]:
    return [i for i, t in enumerate(toks) if not t.isspace()]


def _mutate_tokens(rng: random.Random, toks: list[str], seeds: list[str]) -> list[str]:
    sig = _significant(toks)
    if not sig:
        return toks + [rng.choice(JUNK)]
    r = rng.random()
    i = rng.choice(sig)
    if r < 0.16:
        del toks[i]
    elif r < 0.28:
        toks.insert(i, toks[i])
    elif r < 0.40:
        j = rng.choice(sig)
        toks[i], toks[j] = toks[j], toks[i]
    elif r < 0.58:
        toks.insert(i, rng.choice(JUNK) + " ")
    elif r < 0.72:
        # change a type: a token after `:`/`->`/`,` or a type-looking one
        cands = [k for k in sig if re.match(r"(memref|tensor|vector|index|[iuf]\d+|!)", toks[k])]
        k = rng.choice(cands) if cands else i
        toks[k] = rng.choice(TYPES)
    elif r < 0.86:
        # rename an SSA value: every occurrence, or one
        names = sorted({t for t in toks if t.startswith("%")})
        if names:
            old = rng.choice(names)
            new = rng.choice(names + ["%new", "%0", "%arg0", "%1#1", "%a"])
            if rng.random() < 0.5:
                toks = [new if t == old else t for t in toks]
            else:
                occ = [k for k, t in enumerate(toks) if t == old]
                toks[rng.choice(occ)] = new
    elif r < 0.93:
        # newline <-> space
        nls = [k for k, t in enumerate(toks) if t == "\n"]
        spaces = [k for k, t in enumerate(toks) if t.isspace() and t != "\n"]
        if nls and rng.random() < 0.5:
            toks[rng.choice(nls)] = " "
        elif spaces:
            toks[rng.choice(spaces)] = "\n"
    else:
        other = _tokens(rng.choice(seeds))
        osig = _significant(other) or [0]
        a = rng.choice(osig)
        b = min(len(other), a + rng.randint(1, 12))
        toks[i:i] = other[a:b]
    return toks


def _mutate_lines(rng: random.Random, lines: list[str], seeds: list[str]) -> list[str]:
    if not lines:
        return [rng.choice(JUNK)]
    r = rng.random()
    i = rng.randrange(len(lines))
    if r < 0.25:
        del lines[i]
    elif r < 0.45:
        lines.insert(i, lines[i])
    elif r < 0.60:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif r < 0.85:
        # move a line (an op) elsewhere: into or out of a region
        line = lines.pop(i)
        lines.insert(rng.randrange(len(lines) + 1), line)
    else:
        other = rng.choice(seeds).split("\n")
        a = rng.randrange(len(other))
        lines[i:i] = other[a : a + rng.randint(1, 4)]
    return lines


def mutate(rng: random.Random, seeds: list[str]) -> str:
    """One to three mutations of one seed, drawn from `rng`."""
    text = rng.choice(seeds)
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        if rng.random() < 0.35:
            text = "\n".join(_mutate_lines(rng, text.split("\n"), seeds))
        else:
            text = "".join(_mutate_tokens(rng, _tokens(text), seeds))
    return text.replace(MARKER, "").replace(OUT_MARKER, "")


def mutant(seeds: list[str], seed: int, index: int) -> str:
    """Input `index` of the run with `seed`: a function of the pair only."""
    return mutate(random.Random(f"{seed}:{index}"), seeds)


# -- the two sides ---------------------------------------------------------------


@dataclass
class Answer:
    """One tool's answer on one input: the printed output, or the first error."""

    output: str | None
    error: str = ""
    """First error message (`kind` of failure for crashes)."""
    crash: bool = False


def ours(text: str, mode: str) -> Answer:
    """Our answer, in-process: parse (with unregistered dialects allowed),
    in `pass` mode run the mlir19 pass, print."""
    try:
        module = parse_module(text, "fuzz.mlir", allow_unregistered=True)
        if mode == "pass":
            result = reference_impl.rewrite(module, "mlir19")
            if result.diagnostics:
                return Answer(None, result.diagnostics[0].message)
        return Answer(print_op(module) + "\n")
    except DiagnosticError as exc:
        return Answer(None, exc.diagnostics[0].message if exc.diagnostics else "error")
    except Exception:
        return Answer(None, traceback.format_exc(limit=4), crash=True)


_WITHIN = re.compile(r"^within split at .*?:(\d+) offset :\d+:\d+: error: (.*)$", re.M)


def _mlir_args(binary: str, mode: str) -> list[str]:
    args = [binary, "--allow-unregistered-dialect"]
    if mode == "pass":
        args.append("-gpu-async-region")
    return args


def theirs(binary: str, texts: list[str], mode: str, timeout: float = 60.0) -> list[Answer]:
    """mlir-opt's answers for a batch, one process per batch (bisected on a
    crash or timeout)."""
    if not texts:
        return []
    joined = ""
    starts: list[int] = []
    for t in texts:
        starts.append(joined.count("\n") + 1)
        joined += t + "\n" + MARKER + "\n"
    joined = joined[: -len(MARKER) - 1]  # keep the last newline: an empty input is still a chunk
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False, encoding="utf-8") as f:
        f.write(joined)
        path = f.name
    try:
        proc = subprocess.run(
            [*_mlir_args(binary, mode), f"--split-input-file={MARKER}", f"--output-split-marker={OUT_MARKER}", path],
            capture_output=True,
            timeout=timeout,
            check=False,
        )
        ok = proc.returncode in (0, 1)
        out = proc.stdout.decode("utf-8", "replace")
        err = proc.stderr.decode("utf-8", "replace")
        parts = out.split(OUT_MARKER + "\n")
        ok = ok and len(parts) == len(texts)
    except subprocess.TimeoutExpired:
        ok = False
        proc = None
    finally:
        os.unlink(path)
    if not ok:
        if len(texts) == 1:
            what = "timeout" if proc is None else f"exit {proc.returncode}"
            return [Answer(None, f"mlir-opt {what}", crash=True)]
        mid = len(texts) // 2
        return theirs(binary, texts[:mid], mode, timeout) + theirs(binary, texts[mid:], mode, timeout)
    first: dict[int, str] = {}
    for m in _WITHIN.finditer(err):
        first.setdefault(int(m.group(1)), m.group(2))
    answers = []
    for i, part in enumerate(parts):
        # Chunk i > 0 begins on the marker's line.
        key = starts[i] - 1 if i else 1
        if part:
            answers.append(Answer(part))
        else:
            answers.append(Answer(None, first.get(key, "")))
    return answers


# -- comparison -------------------------------------------------------------------


def signature(message: str) -> str:
    """A message with names, numbers and quoted text blanked: one class."""
    message = message.strip().split("\n")[-1] if "Traceback" in message else message.strip().split("\n")[0]
    message = re.sub(r"'[^']*'", "'_'", message)
    message = re.sub(r"\"[^\"]*\"", '"_"', message)
    message = re.sub(r"[%@^!#][\w.$-]+", "_", message)
    return re.sub(r"\d+", "N", message)[:90]


@dataclass
class Comparison:
    index: int
    text: str
    kind: str
    sig: str = ""


def compare(index: int, text: str, we: Answer, they: Answer) -> Comparison:
    if we.crash:
        return Comparison(index, text, "we-crash", signature(we.error))
    if they.crash:
        return Comparison(index, text, "19-crash", they.error)
    if we.output is not None and they.output is not None:
        if we.output == they.output:
            return Comparison(index, text, "print-equal")
        return Comparison(index, text, "print-mismatch", _first_diff(we.output, they.output))
    if we.output is None and they.output is None:
        return Comparison(index, text, "both-reject")
    if we.output is not None:
        return Comparison(index, text, "we-accept", signature(they.error))
    return Comparison(index, text, "we-reject", signature(we.error))


def _first_diff(a: str, b: str) -> str:
    for x, y in zip(a.split("\n"), b.split("\n"), strict=False):
        if x != y:
            return signature(f"ours {x.strip()[:40]} | 19 {y.strip()[:40]}")
    return "length"


@dataclass
class Report:
    mode: str
    counts: dict[str, int] = field(default_factory=dict)
    findings: dict[str, dict[str, Comparison]] = field(default_factory=dict)
    """kind -> signature -> the shortest input seen with it."""

    def add(self, o: Comparison) -> None:
        self.counts[o.kind] = self.counts.get(o.kind, 0) + 1
        if o.kind in ("print-equal", "both-reject"):
            return
        by_sig = self.findings.setdefault(o.kind, {})
        best = by_sig.get(o.sig)
        if best is None or len(o.text) < len(best.text):
            by_sig[o.sig] = o

    def sig_counts(self) -> dict[str, int]:
        return {k: len(v) for k, v in self.findings.items()}


def run(
    binary: str,
    count: int,
    seed: int = 0,
    modes: Iterable[str] = MODES,
    batch: int = 400,
    seeds: list[str] | None = None,
    on_outcome: Callable[[str, Comparison], None] | None = None,
) -> dict[str, Report]:
    """Run `count` inputs (indices 0..count-1 of `seed`) in each mode."""
    seeds = seeds if seeds is not None else load_seeds()
    reports = {m: Report(m) for m in modes}
    for lo in range(0, count, batch):
        idx = list(range(lo, min(count, lo + batch)))
        texts = [mutant(seeds, seed, i) for i in idx]
        for mode in reports:
            answers = theirs(binary, texts, mode)
            for i, text, they in zip(idx, texts, answers, strict=True):
                o = compare(i, text, ours(text, mode), they)
                reports[mode].add(o)
                if on_outcome:
                    on_outcome(mode, o)
    return reports


def check_one(binary: str, text: str, mode: str) -> Comparison:
    return compare(0, text, ours(text, mode), theirs(binary, [text], mode)[0])


def shrink(binary: str, text: str, mode: str, budget: int = 300) -> str:
    """Greedy reduction keeping the outcome's kind and signature: delete
    lines, then single tokens, to a fixed point or `budget` oracle calls."""
    target = check_one(binary, text, mode)
    key = (target.kind, target.sig)
    calls = 0

    def same(candidate: str) -> bool:
        nonlocal calls
        calls += 1
        o = check_one(binary, candidate, mode)
        return (o.kind, o.sig) == key

    for unit_split, unit_join in ((lambda t: t.split("\n"), "\n"), (_tokens, "")):
        changed = True
        while changed and calls < budget:
            changed = False
            units = unit_split(text)
            i = 0
            while i < len(units) and calls < budget:
                if units[i].isspace() and unit_join == "":
                    i += 1
                    continue
                cand = unit_join.join(units[:i] + units[i + 1 :])
                if same(cand):
                    text, units, changed = cand, units[:i] + units[i + 1 :], True
                else:
                    i += 1
    return text
