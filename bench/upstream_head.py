"""`--gpu-async-region` at LLVM head (`iree-opt`) against mlir-opt-19 on the
project's corpora, and the verifier's verdicts on head's rewrite.

    pip install -e '.[upstream]'
    .venv/bin/python bench/upstream_head.py [--no-verify] [--details] [--format markdown|json]

Inputs: `tests/corpus/*.mlir`, `verifier/corpus/*.mlir` and `tests/wide/*.mlir`,
each cut at `// -----` as `--split-input-file` does (a chunk is named
`FILE:LINE`). mlir-opt-19 runs each without flags, then with
`--allow-unregistered-dialect` if it rejects it; iree-opt runs with the
same flags, then with `--allow-unregistered-dialect` if it rejects the
input for an unregistered dialect (it registers fewer dialects than
mlir-opt-19: no `async`, `index` or `test`).

Where both accept, head's output is "identical" (the same bytes as 19's),
"printing only" (iree-opt prints 19's output, re-read with no pass, to the
bytes of its own rewrite, or mlir-opt-19 prints head's output to 19's bytes:
the same IR) or "rewrite" (anything else). The
verifier runs `check INPUT --after HEAD_OUTPUT` on every input head accepts,
and on 19's output too, so that a verdict that changes is seen. The
verifier has no wall-clock dependence beyond its budget; the rest is
deterministic (inputs in sorted order, no randomness).

`IREE_OPT` names the binary (else `iree-opt` on PATH, else beside this Python).
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import shlex
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spec.diagnostics import DiagnosticError  # noqa: E402
from spec.syntax.parser import parse_module, split_input  # noqa: E402
from tests.mlir_tools import MLIR_OPT_19, find_iree_opt  # noqa: E402

CORPORA = ("tests/corpus", "verifier/corpus", "tests/wide")
UNREG = "--allow-unregistered-dialect"
VERDICTS = {0: "verified", 1: "refuted", 3: "unknown", 4: "bounded"}


@dataclass
class Row:
    label: str
    flags19: list[str] = field(default_factory=list)
    flags_head: list[str] = field(default_factory=list)
    accepted19: bool = False
    accepted_head: bool = False
    error19: str = ""
    error_head: str = ""
    compare: str = ""  # identical | printing only | rewrite ('' unless both accept)
    parse_head: str = ""  # '' when our parser reads head's output, else its first error
    verdict_head: str = ""
    message_head: str = ""
    verdict19: str = ""
    text: str = field(default="", repr=False)
    out19: str = field(default="", repr=False)
    out_head: str = field(default="", repr=False)


def inputs() -> list[tuple[str, str]]:
    """(label, text) of every chunk of every corpus file, sorted; a chunk keeps
    its line numbers (padded with newlines)."""
    out = []
    for corpus in CORPORA:
        for f in sorted((ROOT / corpus).glob("*.mlir")):
            chunks = split_input(f.read_text())
            name = f"{corpus}/{f.name}"
            for text, off in chunks:
                out.append((f"{name}:{off + 1}" if len(chunks) > 1 else name, "\n" * off + text))
    return out


def run(tool: str, text: str, *flags: str) -> tuple[int, str, str]:
    r = subprocess.run([tool, *flags, "-"], input=text, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout, r.stderr


def first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        m = re.match(r"[^:]*:\d+:\d+: error: (.*)", line)
        if m:
            return m.group(1)
    return stderr.split("\n", 1)[0]


def iree_version(iree: str) -> str:
    out = subprocess.run([iree, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"LLVM version (\S+)", out)
    return m.group(1) if m else out.strip().replace("\n", " ")


def verdict(before: str, after: str, flags: list[str]) -> tuple[str, str]:
    """The verifier's verdict word on `after` as a rewrite of `before`, and its
    first line (the reason, for refuted)."""
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "in.mlir").write_text(before)
        (Path(d) / "out.mlir").write_text(after)
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "verifier",
                "check",
                str(Path(d) / "in.mlir"),
                "--after",
                str(Path(d) / "out.mlir"),
                *flags,
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=900,
        )
    word = VERDICTS.get(r.returncode, f"error (exit {r.returncode})")
    lines = [ln.strip() for ln in (r.stdout + r.stderr).splitlines() if ln.strip()]
    msg = next((ln for ln in lines if word in ln.lower() or "error" in ln.lower()), lines[0] if lines else "")
    return word, msg.replace(d, "").replace("/in.mlir", "in.mlir").replace("/out.mlir", "out.mlir")


def same_ir(iree: str, mlir19: str, out19: str, out_head: str, flags_head: list[str], flags19: list[str]) -> bool:
    """Whether the two outputs are one IR printed two ways: iree-opt, with no
    pass, prints 19's output to head's bytes, or mlir-opt-19 prints head's
    output to 19's bytes. Both directions, because either printer may drop
    what the other reads differently (19 elides `chip = "sm_50"` in
    `#nvvm.target`, a default head no longer has; 19 cannot read a result
    on `memref.assume_alignment`)."""
    rc, reprinted, _ = run(iree, out19, *flags_head)
    if rc == 0 and reprinted == out_head:
        return True
    rc, reprinted, _ = run(mlir19, out_head, *flags19)
    return rc == 0 and reprinted == out19


def measure(iree: str, mlir19: str | None, verify: bool = True) -> list[Row]:
    rows = []
    for label, text in inputs():
        row = Row(label, text=text)
        if mlir19 is not None:
            rc, out19, err = run(mlir19, text, "-gpu-async-region")
            if rc != 0:
                rc2, out2, err2 = run(mlir19, text, UNREG, "-gpu-async-region")
                if rc2 == 0:
                    rc, out19, err, row.flags19 = rc2, out2, err2, [UNREG]
            row.accepted19, row.error19 = rc == 0, "" if rc == 0 else first_error(err)
            row.out19 = out19 if rc == 0 else ""
        rc, out_head, err = run(iree, text, *row.flags19, "-gpu-async-region")
        if rc != 0 and "unregistered dialect" in err and UNREG not in row.flags19:
            rc2, out2, err2 = run(iree, text, UNREG, "-gpu-async-region")
            if rc2 == 0:
                rc, out_head, err, row.flags_head = rc2, out2, err2, [UNREG]
            else:
                row.flags_head = list(row.flags19)
        else:
            row.flags_head = list(row.flags19)
        row.accepted_head, row.error_head = rc == 0, "" if rc == 0 else first_error(err)
        row.out_head = out_head if rc == 0 else ""
        if not row.accepted_head:
            rows.append(row)
            continue
        if row.accepted19 and mlir19 is not None:
            if out19 == out_head:
                row.compare = "identical"
            else:
                row.compare = (
                    "printing only"
                    if same_ir(iree, mlir19, out19, out_head, row.flags_head, row.flags19)
                    else "rewrite"
                )
        try:
            parse_module(out_head, "<head>", allow_unregistered=bool(row.flags19) or None)
        except DiagnosticError as exc:
            d = exc.diagnostics[0]
            row.parse_head = f"{d.loc.line}:{d.loc.col}: {d.message}"
        rows.append(row)
    if verify:
        add_verdicts(rows)
    return rows


def add_verdicts(rows: list[Row]) -> None:
    """The verifier on head's rewrite of every input head accepts, and on
    19's where the two outputs differ (else 19's verdict is head's)."""
    for row in rows:
        if not row.accepted_head:
            continue
        row.verdict_head, row.message_head = verdict(row.text, row.out_head, row.flags19)
        if row.accepted19 and row.compare != "identical":
            row.verdict19, _ = verdict(row.text, row.out19, row.flags19)
        elif row.accepted19:
            row.verdict19 = row.verdict_head


def table(rows: list[Row], verify: bool) -> list[str]:
    both = [r for r in rows if r.accepted19 and r.accepted_head]
    cmp = Counter(r.compare for r in both)
    out = [
        "| inputs | 19 accepts | head accepts | both accept | identical to 19 | printing only | rewrite differs | head's output unread by our parser |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {len(rows)} | {sum(r.accepted19 for r in rows)} | {sum(r.accepted_head for r in rows)} | {len(both)} | "
        f"{cmp['identical']} | {cmp['printing only']} | {cmp['rewrite']} | {sum(bool(r.parse_head) for r in rows if r.accepted_head)} |",
    ]
    if verify:
        v = Counter(r.verdict_head for r in rows if r.accepted_head)
        words = ["verified", "bounded", "unknown", "refuted"] + sorted(k for k in v if k not in VERDICTS.values())
        changed = sum(1 for r in both if r.verdict19 != r.verdict_head)
        out += [
            "",
            "| verifier on head's rewrite | " + " | ".join(words) + " | verdict differs from 19's |",
            "|---|" + "---:|" * (len(words) + 1),
            "| inputs head accepts | " + " | ".join(str(v[w]) for w in words) + f" | {changed} |",
        ]
    return out


def details(rows: list[Row]) -> list[str]:
    out = [
        "",
        "| input | 19 | head | vs 19 | our parser on head's output | verdict (head) | verdict (19) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:

        def acc(ok: bool, err: str, flags: list[str]) -> str:
            return ("accepts" + (" (unregistered allowed)" if flags else "")) if ok else f"rejects: {err}"

        cells = [
            r.label,
            acc(r.accepted19, r.error19, r.flags19),
            acc(r.accepted_head, r.error_head, r.flags_head),
            r.compare or "-",
            r.parse_head or ("reads it" if r.accepted_head else "-"),
            r.verdict_head or "-",
            r.verdict19 or "-",
        ]
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    msgs = [r for r in rows if r.verdict_head not in ("", "verified")]
    if msgs:
        out += ["", "Verdicts other than verified on head's rewrite:", ""]
        out += [f"- `{r.label}`: {r.verdict_head}: {r.message_head}" for r in msgs]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--no-verify", action="store_true", help="leave out the verifier's verdicts")
    ap.add_argument("--details", action="store_true", help="one row per input after the counts")
    ap.add_argument("--format", choices=("markdown", "json"), default="markdown")
    args = ap.parse_args(argv)
    iree = find_iree_opt()
    if iree is None:
        print("iree-opt not found: pip install -e '.[upstream]', or set IREE_OPT", file=sys.stderr)
        return 2
    rows = measure(iree, MLIR_OPT_19, not args.no_verify)
    version = iree_version(iree)
    if args.format == "json":
        print(
            json.dumps(
                {
                    "llvm": version,
                    "rows": [
                        {k: v for k, v in asdict(r).items() if k not in ("text", "out19", "out_head")} for r in rows
                    ],
                },
                indent=1,
            )
        )
        return 0
    cmd = " ".join(
        shlex.quote(a) for a in ["python", "bench/upstream_head.py", *(argv if argv is not None else sys.argv[1:])]
    )
    print(
        f"`{cmd}`, {datetime.date.today().isoformat()}, iree-opt LLVM {version} against "
        f"{'mlir-opt-19' if MLIR_OPT_19 else 'no mlir-opt-19 (its columns are 0)'}"
    )
    print()
    print("\n".join(table(rows, not args.no_verify)))
    if args.details:
        print("\n".join(details(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
