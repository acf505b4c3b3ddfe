"""The enumerator of small programs (`verifier.programs.enumeration`): counts per
size, against a brute-force count, and validity for mlir-opt-19."""

from __future__ import annotations

import random
import subprocess

import pytest

from spec.syntax.parser import parse_module
from tests.mlir_tools import MLIR_OPT_19, needs_mlir19
from verifier.programs.enumeration import (
    ALPHABETS,
    ASYNC,
    CONTROL,
    FULL,
    GATE,
    STRAIGHT,
    TINY,
    VALUES,
    WHOLE,
    brute_force,
    counts,
    programs,
    walk_ops,
)

# The counts the enumerator prints (`python -m verifier.programs.enumeration NAME K`);
# a change to an alphabet changes them, and the README's figures with them.
EXPECTED = {
    "tiny": [4, 16, 64, 256, 1024],
    "straight": [20, 799, 53190],
    "async": [10, 145, 3008],
    "control": [8, 94, 1433],
    "values": [7, 80, 1386],
    "full": [33, 2105],
    "whole": [16, 395, 13541],
    "gate": [3, 13, 74, 580],
    "core": [14, 285, 8253],
}

# Brute force (naive generation, canonicalised, deduplicated) must give
# the same number of distinct programs, on the smallest sizes.
BRUTE = [(TINY, 4), (STRAIGHT, 2), (ASYNC, 3), (CONTROL, 3), (VALUES, 3), (FULL, 2), (WHOLE, 3), (GATE, 4)]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_counts_per_size(name: str) -> None:
    want = EXPECTED[name]
    assert list(counts(ALPHABETS[name], len(want)).values()) == want


@pytest.mark.parametrize(("alphabet", "max_size"), BRUTE, ids=[a.name for a, _ in BRUTE])
def test_brute_force_agrees(alphabet, max_size: int) -> None:
    for n in range(1, max_size + 1):
        texts = [p.text for p in programs(alphabet, n)]
        assert len(texts) == len(set(texts)), f"size {n}: the enumerator yields a program twice"
        assert set(texts) == brute_force(alphabet, n), f"size {n}: enumerator and brute force differ"


def test_tiny_is_four_to_the_n() -> None:
    """Straight-line synchronous code over 4 ops on one buffer: 4^n programs."""
    assert list(counts(TINY, 5).values()) == [4**n for n in range(1, 6)]


def test_ids_are_stable_and_unique() -> None:
    first = [(p.id, p.text) for p in programs(ASYNC, 2)]
    assert first == [(p.id, p.text) for p in programs(ASYNC, 2)]
    assert len({i for i, _ in first}) == len(first)
    assert all(p.size == 2 for p in programs(ASYNC, 2))


def test_arguments_in_order_of_first_use() -> None:
    """Buffers and conditions are numbered in order of first use (the
    renamings of a program are collapsed onto this one)."""
    for a, n in [(STRAIGHT, 2), (FULL, 2), (CONTROL, 3)]:
        for p in programs(a, n):
            bufs: list[int] = []
            conds: list[str] = []
            for op in walk_ops(p.body):
                for kind, j in op.bufs:
                    if kind == "b" and j not in bufs:
                        bufs.append(j)
                if op.kind in ("if", "cond_br", "while") and op.operand not in conds:
                    conds.append(op.operand)
            assert bufs == list(range(len(bufs))), p.text
            assert conds == [f"%p{j}" for j in range(len(conds))], p.text


def test_every_program_parses() -> None:
    for a, n in [(FULL, 2), (ASYNC, 3), (CONTROL, 3)]:
        sample = list(programs(a, n))
        for p in random.Random(n).sample(sample, 40):
            parse_module(p.text, p.id)


@needs_mlir19
def test_sample_valid_for_mlir_opt_19() -> None:
    """50 random programs (of every alphabet, the larger sizes) in one
    `--split-input-file` run: mlir-opt-19 accepts every one."""
    rng = random.Random(17)
    pool = [p for a, n in [(FULL, 2), (ASYNC, 3), (CONTROL, 3), (STRAIGHT, 2), (TINY, 4)] for p in programs(a, n)]
    sample = rng.sample(pool, 50)
    text = "// -----\n".join(p.text for p in sample)
    assert MLIR_OPT_19 is not None
    r = subprocess.run(
        [MLIR_OPT_19, "--split-input-file", "-"], input=text, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("// -----") == 49
