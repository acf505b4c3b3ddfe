"""`--dot FILE`: the output's happens-before graph as DOT text.

One cluster per function checked; inside it one sub-cluster per thread,
named for what it is (`host`, `async.execute body at LOC`, and the
function's boundary: what callers and the runtime do, the program's end),
and one per GPU stream (a chain of tokens, as the timeline draws them:
`verifier.output.timeline.streams`), holding the starts and finishes of its GPU
ops, whose issue stays on the thread that issued them. A legend node says
what the marks mean. Nodes are the points of the event model
(`i(...)`, `s(...)`, `f(...)` of a GPU op, `t(...)` of a host op, a body's
begin and yield); edges are the happens-before edges. An obligation the
output fails is drawn as a red, bold, dashed edge labelled `missing`. Large
graphs are cut to the stretch of program around each missing edge.
The text is deterministic, so it can be snapshot-tested; render it with
Graphviz (`dot -Tsvg`) if installed.
"""

from __future__ import annotations

from collections.abc import Sequence

from spec import registry
from spec.ir import Operation, symbol_name
from spec.semantics.events import EventGraph
from verifier.output.report import Report

MAX_NODES = 600
"""Graphs with more nodes are cut to the neighbourhood of the violations."""
CONTEXT = 12


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _keep(g: EventGraph, missing: Sequence[tuple[int, int]]) -> set[int]:
    n = len(g.kinds)
    if n <= MAX_NODES:
        return set(range(n))
    keep: set[int] = set()
    for a, b in missing or [(0, min(n - 1, MAX_NODES))]:
        lo, hi = min(a, b), max(a, b)
        keep.update(range(max(lo - CONTEXT, 0), min(hi + CONTEXT, n - 1) + 1))
        if len(keep) > MAX_NODES:
            break
    return keep


LEGEND = (
    "i issued by its thread, s started and f finished on the GPU, t a host op ran, "
    "begin/yield an async.execute body, end the function returns; @L:C line:column in the output; "
    "red dashed: an edge the output lacks"
)


def _thread_title(owner: Operation | None) -> str:
    if owner is None:
        return "host"
    if registry.begins_thread(owner.name):
        return f"async.execute body at {owner.loc}"
    # The function itself owns the boundary's points: callers' work,
    # receivers of tokens, the program's end (docs/design.md rules 9-11).
    return f"boundary of @{symbol_name(owner)}: callers, the runtime, the program's end"


def graph_dot(report: Report) -> str:
    from verifier.output.timeline import streams

    lines = ["digraph happens_before {", "  rankdir=TB;", '  node [shape=box, fontname="monospace", fontsize=10];']
    lines.append(f"  legend [shape=note, label={_quote(LEGEND)}];")
    for k, fr in enumerate(report.functions):
        g = fr.graph
        if not isinstance(g, EventGraph):
            continue
        keep = _keep(g, fr.missing)
        lines.append(f"  subgraph cluster_f{k} {{")
        lines.append(f"    label={_quote('@' + fr.name + ': ' + fr.verdict)};")
        stream_of_start = streams(g, len(g.kinds) - 1)
        stream_of_op = {id(g.ops[n]): st for n, st in stream_of_start.items()}
        by_thread: dict[int, list[int]] = {}
        by_stream: dict[int, list[int]] = {}
        for n in sorted(keep):
            st = stream_of_op.get(id(g.ops[n])) if g.kinds[n] in ("start", "finish") else None
            if st is not None:
                by_stream.setdefault(st, []).append(n)
            else:
                by_thread.setdefault(g.threads[n], []).append(n)
        clusters = [
            (f"t{tid}", _thread_title(g.thread_ops[tid] if tid < len(g.thread_ops) else None), ns)
            for tid, ns in sorted(by_thread.items())
        ]
        clusters += [(f"s{st}", f"GPU stream {st + 1}", ns) for st, ns in sorted(by_stream.items())]
        for key, title, ns in clusters:
            lines.append(f"    subgraph cluster_f{k}_{key} {{")
            lines.append(f"      label={_quote(title)};")
            for n in ns:
                style = ", style=dashed" if g.kinds[n] == "extern" else ""
                lines.append(f"      f{k}_n{n} [label={_quote(g.label(n))}{style}];")
            lines.append("    }")
        for a in sorted(keep):
            for b in g.succ[a]:
                if b in keep:
                    lines.append(f"    f{k}_n{a} -> f{k}_n{b};")
        for a, b in fr.missing:
            if a in keep and b in keep:
                lines.append(
                    f'    f{k}_n{a} -> f{k}_n{b} [color=red, penwidth=2, style=dashed, label="missing", fontcolor=red];'
                )
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"
