"""Corpus files mutated byte by byte or token by token (Hypothesis
strategies): inputs the parser must answer with a diagnostic or a module,
never a crash."""

from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st

CORPUS = sorted((Path(__file__).resolve().parents[1] / "corpus").glob("*.mlir"))

_SEEDS = [p.read_bytes() for p in CORPUS]


TOKENS = [
    b"%0",
    b"%arg0",
    b"{",
    b"}",
    b"(",
    b")",
    b"[",
    b"]",
    b",",
    b":",
    b"=",
    b"->",
    b"gpu.wait",
    b"async",
    b"^bb1",
    b"index",
    b"!gpu.async.token",
    b"\n",
    b"@k",
    b"0",
    b"-1",
    b'"x"',
    b"scf.yield",
    b"// -----\n",
]


@st.composite
def byte_mutations(draw: st.DrawFn) -> bytes:
    """A corpus file with a few bytes replaced, inserted or deleted.
    Shrinks toward fewer edits and earlier corpus files."""
    data = bytearray(draw(st.sampled_from(_SEEDS)))
    for _ in range(draw(st.integers(1, 4))):
        pos = draw(st.integers(0, max(len(data) - 1, 0)))
        kind = draw(st.sampled_from(["replace", "insert", "delete"]))
        if kind == "delete" and data:
            del data[pos]
        else:
            byte = draw(st.integers(0, 255))
            if kind == "replace" and data:
                data[pos] = byte
            else:
                data.insert(pos, byte)
    return bytes(data)


@st.composite
def token_mutations(draw: st.DrawFn) -> bytes:
    """A corpus file with whitespace-separated tokens dropped, duplicated or
    swapped for MLIR punctuation and keywords. Shrinks toward fewer edits."""
    words = draw(st.sampled_from(_SEEDS)).split(b" ")
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(words) - 1))
        op = draw(st.sampled_from(["drop", "dup", "swap"]))
        if op == "drop" and len(words) > 1:
            del words[i]
        elif op == "dup":
            words.insert(i, words[i])
        else:
            words[i] = draw(st.sampled_from(TOKENS))
    return b" ".join(words)
