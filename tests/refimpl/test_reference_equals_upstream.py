"""Differential: wherever upstream is right, the reference prints what
mlir-opt-19 prints.

Inputs: the corpus of the verifier (`verifier/corpus/`), every chunk of the
refimpl lit inputs (`tests/lit/refimpl/`), and generated programs
(`verifier.programs.generators`, drawn deterministically). On each, mlir-opt-19 runs;
where its output parses and `verifier.check` verifies it, the reference
mode's output must be byte-identical to it, except in the cases the
reference deviates on purpose although the verifier cannot see upstream's
fault (`known_deviation`). Skipped without mlir-opt-19.

`python -m tests.refimpl.test_reference_equals_upstream [N]` prints the counts over
the fixed inputs and N generated programs (default 40).
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from spec.diagnostics import DiagnosticError
from spec.ir import Operation
from spec.syntax.parser import parse_module
from tests.mlir_tools import MLIR_OPT_19, needs_mlir19
from tests.support.refimpl_runs import LIT_DIR, chunks_of, ours, theirs
from verifier.programs.generators import STRAIGHT, Features, programs

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted((ROOT / "verifier" / "corpus").glob("*.mlir"))
GENERATED = 40


def fixed_inputs() -> list[tuple[str, str]]:
    """(name, text) of every corpus file and every lit chunk."""
    out = [(p.name, p.read_text()) for p in CORPUS]
    for p in sorted(LIT_DIR.glob("*.mlir")):
        for i, text in enumerate(chunks_of(p)):
            out.append((f"{p.name}#{i}", text))
    return out


def generated_inputs(count: int) -> list[tuple[str, str]]:
    """`count` generated programs, half straight-line, the same on every run."""
    texts: list[str] = []

    def collect(features: Features, n: int) -> None:
        @settings(
            max_examples=n,
            derandomize=True,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
            deadline=None,
        )
        @given(program=programs(features))
        def draw(program) -> None:  # type: ignore[no-untyped-def]
            if program.text not in texts:
                texts.append(program.text)

        draw()

    collect(STRAIGHT, count // 2)
    collect(Features(), count - count // 2)
    return [(f"generated#{i}", t) for i, t in enumerate(texts[:count])]


def known_deviation(module: Operation) -> str | None:
    """Why the reference differs from an output the verifier verifies, if
    for a reason `refimpl/README.md` documents (None otherwise):

    - deviation 2: a deferred token with three or more users (19 leaves
      two or more of them on one `!async.value<!gpu.async.token>` result;
      no ordering is lost);
    - deviation 1 through a returned value: a value result of a deferred
      execute escapes (`return`, a call) with no wait before it; the caller
      may read what the body's GPU work still writes, which the verifier
      does not model yet."""
    reasons = []
    for op in module.walk():
        if op.name != "async.execute":
            continue
        users: dict[int, list[Operation]] = {}
        for user in module.walk():
            for v in user.operands:
                if v in op.results[1:]:
                    users.setdefault(v.index, []).append(user)
        for index, us in users.items():
            t = op.results[index].type
            if t.is_async_value and t.async_value_inner.is_gpu_token and len(us) >= 2:
                reasons.append("deviation 2: a token result shared by several users")
            if any(u.name not in ("async.await", "async.execute") for u in us):
                reasons.append("deviation 1: a value result escapes the function")
    return "; ".join(sorted(set(reasons))) or None


def classify(name: str, text: str, workdir: Path) -> tuple[str, str]:
    """(category, detail): `not-verified` (19 fails, or its output is not
    verified), `identical`, `known` (a documented deviation) or `differs`."""
    import verifier

    assert MLIR_OPT_19 is not None
    rc, out19, err19 = theirs(MLIR_OPT_19, text, workdir / "input.mlir")
    if rc != 0:
        return "not-verified", f"mlir-opt-19 exit {rc}"
    try:
        module_in = parse_module(text, "<input>")
        module_19 = parse_module(out19, "<output>")
    except DiagnosticError as exc:
        return "not-verified", f"unparsable: {exc}"
    verdict = verifier.check(module_in, module_19).verdict
    if verdict != "verified":
        return "not-verified", verdict
    rc_ref, out_ref, err_ref = ours(text, str(workdir / "input.mlir"), "reference")
    if (rc_ref, out_ref) == (0, out19):
        return "identical", ""
    reason = known_deviation(parse_module(out19, "<output>"))
    if reason is not None:
        return "known", reason
    return "differs", f"reference exit {rc_ref}\n{err_ref}--- reference\n{out_ref}--- mlir-opt-19\n{out19}"


FIXED = fixed_inputs()


@needs_mlir19
@pytest.mark.parametrize(("name", "text"), FIXED, ids=[n for n, _ in FIXED])
def test_reference_equals_verified_upstream_fixed(name: str, text: str, tmp_path: Path) -> None:
    category, detail = classify(name, text, tmp_path)
    assert category != "differs", f"{name}: {detail}"


@needs_mlir19
def test_reference_equals_verified_upstream_generated(tmp_path: Path) -> None:
    counts: Counter[str] = Counter()
    for name, text in generated_inputs(GENERATED):
        category, detail = classify(name, text, tmp_path)
        counts[category] += 1
        assert category != "differs", f"{name}:\n{text}\n{detail}"
    # Not vacuous: most generated programs are verified and identical.
    assert counts["identical"] >= GENERATED // 2, counts


def main(argv: list[str]) -> int:
    if MLIR_OPT_19 is None:
        print("mlir-opt-19 not installed")
        return 2
    count = int(argv[0]) if argv else GENERATED
    counts: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for group, inputs in (("fixed", FIXED), ("generated", generated_inputs(count))):
            for name, text in inputs:
                category, detail = classify(name, text, Path(tmp))
                counts[(group, category)] += 1
                if category in ("known", "differs"):
                    print(f"{category}: {name}: {detail.splitlines()[0] if detail else ''}")
    for (group, category), n in sorted(counts.items()):
        print(f"{group}\t{category}\t{n}")
    return 1 if any(c == "differs" for _, c in counts) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
