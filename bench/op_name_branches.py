"""Where code outside the registry still knows ops by their names.

Op knowledge belongs in its dialect's package (`spec/dialects/<dialect>/`:
what an op is and does in `ops.py`, how it is written in `syntax.py`, its
own checks in `verifiers.py`), gathered by `spec/registry.py` (over
`spec/op_info.py`). This script counts the source lines elsewhere in `spec/`, `refimpl/`,
`verifier/` and `parallel/` that test an op by a literal name, so that the
count can be watched going down:

- a comparison with an op name: `name == "scf.for"`, `!=`, `in ("cf.br",
  "cf.switch")`, `in {...}`, `in frozenset({...})`;
- a prefix test: `startswith("gpu.")` (any registered dialect), or a
  comparison of a `dialect` with a dialect's name (`op.dialect == "async"`);
- a collection of op names (tuple, list, set, `frozenset(...)`; one whose
  strings are not all op names is text, a fuzzer's tokens say), a dict
  keyed by op names, a `match` case on one;
- a module or class constant bound to an op name (`LAUNCH = "gpu.launch"`),
  an alias that other lines compare with.

An op name is a name mlir-opt-19 registers (`COMPLETE_DIALECTS`) or one the
registry lists; building an op (`Operation("gpu.wait", ...)`) and messages
are not tests and are not counted. A line counts once, however many names
it holds; a collection over several lines counts each line holding a name.

Lines of a per-op dispatch module (its docstring has a paragraph that begins
`Per-op dispatch:`, saying which concern it dispatches) are counted apart:
such a module is the one table keyed by op names for its concern (the
semantics stepping each op, an op's own verifier), which is where per-op
code belongs.

    python bench/op_name_branches.py [--quiet]

Prints, per file (most lines first, then by path), the lines with their
text, then the totals. `--quiet` prints the totals only. The output depends
on the tree alone.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spec import registry  # noqa: E402  (after the path is set)

PACKAGES = ("spec", "refimpl", "verifier", "parallel")
EXCLUDED = ("spec/registry.py", "spec/op_info.py", "spec/dialects/")
DISPATCH_MARK = "Per-op dispatch:"

OP_NAMES = frozenset(registry.known_ops()).union(*registry.COMPLETE_DIALECTS.values())
DIALECTS = registry.REGISTERED_DIALECTS


def is_op_name(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in OP_NAMES


def is_dialect_prefix(node: ast.AST) -> bool:
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return False
    head, dot, rest = node.value.partition(".")
    return bool(dot) and not rest and head in DIALECTS


def name_lines(node: ast.AST) -> set[int]:
    """Lines of the op-name constants within `node`."""
    return {n.lineno for n in ast.walk(node) if is_op_name(n)}


def is_collection(node: ast.AST) -> bool:
    """A literal collection of op names (at least one, and no other string:
    a list of syntax tokens that holds an op name is text, not a test), or
    a set/frozenset of one."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        strings = [e for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return bool(strings) and all(is_op_name(e) for e in strings)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("set", "frozenset"):
        return any(is_collection(a) for a in node.args)
    return False


def mentions_dialect(node: ast.AST) -> bool:
    """Whether `node` reads an op's dialect (`op.dialect`)."""
    return any(isinstance(n, ast.Attribute) and n.attr == "dialect" for n in ast.walk(node))


def hits(tree: ast.Module) -> Iterator[int]:
    """The lines of `tree` that test an op by a literal name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for side in sides:
                if is_op_name(side) or is_collection(side):
                    yield from name_lines(side)
                elif (
                    isinstance(side, ast.Constant)
                    and side.value in DIALECTS
                    and any(mentions_dialect(s) for s in sides if s is not side)
                ):
                    yield side.lineno
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("startswith", "endswith", "removeprefix") and node.args:
                arg = node.args[0]
                elts = arg.elts if isinstance(arg, ast.Tuple) else [arg]
                if any(is_dialect_prefix(e) or is_op_name(e) for e in elts):
                    yield node.lineno
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and is_collection(node):
            yield from name_lines(node)
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if key is not None and is_op_name(key):
                    yield key.lineno
        elif isinstance(node, ast.MatchValue) and is_op_name(node.value):
            yield node.lineno
    for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef))]:
        for stmt in scope.body:
            value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
            if value is not None and is_op_name(value):
                yield value.lineno


def scan() -> dict[str, tuple[bool, dict[int, str]]]:
    """Per file (relative path): whether it is a dispatch module, and its
    counted lines with their text."""
    out: dict[str, tuple[bool, dict[int, str]]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if any(rel == e or rel.startswith(e) for e in EXCLUDED):
                continue
            source = path.read_text()
            tree = ast.parse(source)
            lines = sorted(set(hits(tree)))
            if lines:
                text = source.splitlines()
                doc = ast.get_docstring(tree) or ""
                dispatch = any(p.lstrip().startswith(DISPATCH_MARK) for p in doc.split("\n\n"))
                out[rel] = (dispatch, {n: text[n - 1].strip() for n in lines})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quiet", action="store_true", help="print the totals only")
    args = parser.parse_args(argv)
    found = scan()
    order = sorted(found, key=lambda f: (-len(found[f][1]), f))
    totals = {True: 0, False: 0}
    files = {True: 0, False: 0}
    for rel in order:
        dispatch, lines = found[rel]
        totals[dispatch] += len(lines)
        files[dispatch] += 1
        if not args.quiet:
            print(f"{rel}: {len(lines)}{'  (per-op dispatch)' if dispatch else ''}")
            for n, text in lines.items():
                print(f"  {n}: {text}")
    print(f"elsewhere: {totals[False]} lines in {files[False]} files")
    print(f"per-op dispatch modules: {totals[True]} lines in {files[True]} files")
    print(f"total: {totals[False] + totals[True]} lines in {files[False] + files[True]} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
