"""Differential fuzzing against mlir-opt-19, a short run in the
suite: 300 mutants (seed 19, `verifier/harness/fuzz_syntax.py`) through `spec
print` vs `mlir-opt-19 --allow-unregistered-dialect`, and through `refimpl
--mode mlir19` vs `mlir-opt-19 -gpu-async-region`, in two mlir-opt
processes per mode. Asserted: no crash of ours, no input we reject that 19
accepts, no print mismatch when both accept, and no input we accept that 19
rejects except the classes listed in `KNOWN_WE_ACCEPT` (not modelled yet,
each with its reason; a class that no longer occurs is reported, so the
list shrinks with the fixes). Long runs: `python bench/fuzz.py --diff`."""

from __future__ import annotations

import pytest

from tests.mlir_tools import MLIR_OPT_19, needs_mlir19
from verifier.harness import fuzz_syntax as fz

COUNT = 300
SEED = 19

KNOWN_WE_ACCEPT: dict[str, str] = {
    # start of mlir-opt-19's message (`fz.signature`): why we still accept it
    "expected '_' in callsite location": "location syntax `loc(...)` is read leniently",
    "expected location instance": "location syntax `loc(...)` is read leniently",
    "expected integer column number in FileLineColLoc": "location syntax `loc(...)` is read leniently",
    "expected integer line number in FileLineColLoc": "location syntax `loc(...)` is read leniently",
    "expected non-function type": "type positions accept a function type where 19 wants another",
    "custom op '_' invalid kind of type specified": "custom forms do not check the kind of their types",
    "expected integer or float type, got: '_'": "arith ops do not check their operand types",
    "'_' op result _ must be index, but got '_'": "result type constraints of ops are not modelled",
    "'_' op incorrect number of indices for load, expected N but got N": "memref.load/store index counts are not checked",
    "type of return operand N": "func.return's types are not checked against the function",
    "expected '_' to close an array attribute": "attribute arrays inside opaque attributes are read leniently",
    "expected result type to be '_' or a rank-reduced version": "memref.subview's inferred result type is not modelled",
    "'_' op type of function argument N does not match": "gpu.func/launch argument types are not checked",
    "'_' op region needs to have at least one block": "region block counts of generic ops are not checked",
    "result number not allowed in argument list": "block argument names with `#N` are accepted",
    "expected '_' after SSA name": "block argument lists are read leniently",
    "expected '_'": "some custom forms are read leniently",
    "floating point value not valid for specified type": "float literals are not checked against their type",
    "'_' op kernel container '_' is undefined": "gpu.launch_func's kernel symbol is not looked up",
}


def _known(sig: str) -> bool:
    return any(sig == k or (sig.startswith(k) and len(k) > 20) for k in KNOWN_WE_ACCEPT)


@pytest.fixture(scope="module")
def reports() -> dict[str, fz.Report]:
    assert MLIR_OPT_19 is not None
    return fz.run(MLIR_OPT_19, COUNT, SEED, batch=COUNT)


@needs_mlir19
@pytest.mark.parametrize("mode", fz.MODES)
def test_agreement(reports: dict[str, fz.Report], mode: str) -> None:
    rep = reports[mode]
    assert sum(rep.counts.values()) == COUNT
    # the run exercises both verdicts
    assert rep.counts.get("print-equal", 0) > 20 and rep.counts.get("both-reject", 0) > 20
    for kind in ("we-crash", "we-reject", "print-mismatch"):
        found = rep.findings.get(kind, {})
        assert not found, f"{kind}: " + "; ".join(f"replay {SEED}:{o.index} {sig}" for sig, o in found.items())
    unknown = {sig: o for sig, o in rep.findings.get("we-accept", {}).items() if not _known(sig)}
    assert not unknown, "we accept what mlir-opt-19 rejects: " + "; ".join(
        f"replay {SEED}:{o.index} {sig}" for sig, o in unknown.items()
    )


@needs_mlir19
def test_mutants_are_replayable() -> None:
    seeds = fz.load_seeds()
    assert fz.mutant(seeds, SEED, 7) == fz.mutant(seeds, SEED, 7)
    assert fz.mutant(seeds, SEED, 7) != fz.mutant(seeds, SEED, 8)


def test_seeds_come_from_the_checkout() -> None:
    """From a checkout the seeds are the verifier's corpus, the test corpus,
    the examples and three generated programs, each split into chunks."""
    root = fz.REPO
    files = [
        *fz.PACKAGE_CORPUS.glob("*.mlir"),
        *(root / "tests" / "corpus").glob("*.mlir"),
        *(root / "examples").glob("*.mlir"),
    ]
    chunks = sum(len([c for c in p.read_text().split("// -----") if c.strip()]) for p in files)
    seeds = fz.load_seeds()
    assert (root / "tests" / "corpus").is_dir() and chunks > 50
    assert len(seeds) == chunks + 3
