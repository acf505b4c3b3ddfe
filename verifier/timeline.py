"""`--svg FILE` / `--html FILE`: a counterexample schedule drawn as a timeline.

A refuted obligation comes with a schedule from the Z3 model: times for the
points of the output's happens-before graph (`verifier.encode`, the text's
`time, point` lines). Read as text it takes a while to see the race; drawn,
it is one look. This module draws it with no dependency, as SVG text:

- the x axis is the model's time (its integers, evenly spaced; only the
  order means anything);
- one lane per thread (the host, each `async.execute` body), holding the
  thread's points (`t(...)` of a host op, the issue `i(...)` of a GPU op,
  a body's begin and yield);
- one lane per GPU stream, a chain of tokens: a GPU op continues the stream
  of the op whose token it depends on when it is that stream's latest op,
  else it opens a stream; its start and finish are a bar;
- the two ops the rewrite left unordered are drawn in red (class
  `highlight`), and the missing happens-before edge, from the end of the
  first to the start of the second, a red dashed arrow labelled `missing`;
  the graph's other edges between drawn points are thin grey arrows.

One panel per refuted obligation whose schedule is on the graph the report
kept (`FunctionReport.graph`, `missing`), at most `MAX_PANELS`. A report
without a schedule (verified, unknown, a mismatch) draws nothing: the CLI
then writes no file. `--html` is the same SVG in a page with the text
report under it. Output is deterministic (snapshot-testable).
"""

from __future__ import annotations

import html
import sys
from dataclasses import dataclass, field

from spec.semantics.event_graph import EventGraph
from spec.tool import write_file
from verifier.report import Report, Violation

MAX_PANELS = 6
"""Refuted obligations drawn per file (the rest are in the text)."""
STEP = 130
"""Pixels per unit of model time."""
LANE_H = 56
LEFT = 190
"""Width of the lane titles."""
TOP = 64
"""Height of a panel's title."""

_THREAD_KINDS = frozenset({"point", "issue", "body", "yield", "extern", "iter-end", "join"})
_GPU_KINDS = frozenset({"start", "finish"})


@dataclass
class _Lane:
    key: tuple[str, int]
    title: str
    kind: str
    """`host`, `execute`, `stream` or `boundary`."""


@dataclass
class _Panel:
    function: str
    violation: Violation
    graph: EventGraph
    nodes: list[tuple[int, int]]
    """(time, node) of the schedule's points found in the graph."""
    missing: tuple[int, int] | None
    lanes: list[_Lane] = field(default_factory=list)


def streams(g: EventGraph, upto: int) -> dict[int, int]:
    """Per GPU op node id (its start node) among nodes `0..upto`: its stream
    number. A stream is a chain of tokens: a GPU op joins the stream of a
    GPU op it depends on (a finish node among its start's predecessors)
    when that op is still the stream's latest, else it opens a new one."""
    preds: dict[int, list[int]] = {}
    for a in range(min(upto + 1, len(g.succ))):
        for b in g.succ[a]:
            if b <= upto and g.kinds[b] == "start":
                preds.setdefault(b, []).append(a)
    of_op: dict[int, int] = {}
    """id(op) of a GPU op -> its stream."""
    latest: dict[int, int] = {}
    """stream -> id(op) of its latest op."""
    result: dict[int, int] = {}
    for n in range(min(upto + 1, len(g.kinds))):
        if g.kinds[n] != "start":
            continue
        op = g.ops[n]
        chosen = None
        for p in sorted(preds.get(n, [])):
            if g.kinds[p] != "finish":
                continue
            s = of_op.get(id(g.ops[p]))
            if s is not None and latest.get(s) == id(g.ops[p]):
                chosen = s
                break
        if chosen is None:
            chosen = len(latest)
        latest[chosen] = id(op)
        of_op[id(op)] = chosen
        result[n] = chosen
    return result


def _panels(report: Report) -> list[_Panel]:
    panels: list[_Panel] = []
    for fr in report.functions:
        g = fr.graph
        if not isinstance(g, EventGraph):
            continue
        labels = {g.label(n): n for n in range(len(g.kinds))}
        for v in fr.violations:
            if not v.schedule or len(panels) >= MAX_PANELS:
                continue
            nodes = [(t, labels[lab]) for t, lab in v.schedule if lab in labels]
            if not nodes:
                continue
            on = {n for _, n in nodes}
            missing = next(((a, b) for a, b in fr.missing if g.label(a) in _labels(v) and g.label(b) in _labels(v)), None)
            if missing is not None and not {missing[0], missing[1]} <= on:
                missing = None
            panels.append(_Panel(fr.name, v, g, nodes, missing))
    return panels


def _labels(v: Violation) -> set[str]:
    return {lab for _, lab in v.schedule}


def _lanes(p: _Panel) -> dict[int, _Lane]:
    """Lane of each drawn node, and `p.lanes` in drawing order: each
    thread, then the streams its GPU ops were issued from it."""
    g = p.graph
    upto = max(n for _, n in p.nodes)
    stream_of_start = streams(g, upto)
    start_of_op = {id(g.ops[n]): n for n in stream_of_start}
    issue_thread: dict[int, int] = {}
    for n in range(upto + 1):
        if g.kinds[n] == "issue":
            issue_thread[id(g.ops[n])] = g.threads[n]
    lane_of: dict[int, _Lane] = {}
    by_key: dict[tuple[str, int], _Lane] = {}
    stream_thread: dict[int, int] = {}
    for _, n in sorted(p.nodes, key=lambda tn: tn[1]):
        if g.kinds[n] in _GPU_KINDS:
            s = stream_of_start.get(start_of_op.get(id(g.ops[n]), -1), -1)
            key = ("stream", s)
            stream_thread.setdefault(s, issue_thread.get(id(g.ops[n]), g.threads[n]))
            title = f"GPU stream {s + 1}" if s >= 0 else "GPU"
            kind = "stream"
        else:
            tid = g.threads[n]
            key = ("thread", tid)
            owner = g.thread_ops[tid] if tid < len(g.thread_ops) else None
            if owner is None:
                title, kind = "host", "host"
            elif owner.name == "async.execute":
                title, kind = f"async.execute @{owner.loc.line}:{owner.loc.col}", "execute"
            else:
                # the function's boundary (DESIGN.md rules 9-11): callers'
                # work, receivers of tokens, the program's end
                title, kind = "boundary", "boundary"
        lane = by_key.get(key)
        if lane is None:
            lane = by_key[key] = _Lane(key, title, kind)
        lane_of[n] = lane

    def order(lane: _Lane) -> tuple[int, int, int]:
        if lane.key[0] == "thread":
            return (lane.key[1], 0, 0)
        return (stream_thread.get(lane.key[1], 0), 1, lane.key[1])

    p.lanes = sorted(by_key.values(), key=order)
    return lane_of


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _op_text(g: EventGraph, n: int) -> str:
    op = g.ops[n]
    if op is None:
        return g.kinds[n]
    return f"{op.name} @{op.loc.line}:{op.loc.col}"


def _draw_panel(p: _Panel, y0: int, out: list[str]) -> int:
    """Append panel `p` at height `y0`; return its height."""
    g = p.graph
    lane_of = _lanes(p)
    row = {id(lane): i for i, lane in enumerate(p.lanes)}
    times = [t for t, _ in p.nodes]
    t0 = min(times)
    span = max(times) - t0
    width = LEFT + (span + 1) * STEP + 60
    height = TOP + len(p.lanes) * LANE_H + 30
    pos: dict[int, tuple[float, float]] = {}
    for t, n in p.nodes:
        lane = lane_of[n]
        pos[n] = (LEFT + (t - t0) * STEP + STEP / 2, y0 + TOP + row[id(lane)] * LANE_H + LANE_H / 2)
    hot_ops = set()
    if p.missing is not None:
        hot_ops = {id(g.ops[p.missing[0]]), id(g.ops[p.missing[1]])}
    v = p.violation
    out.append(f'<g class="panel" data-function="{_esc(p.function)}">')
    out.append(f'<text class="title" x="10" y="{y0 + 20}" font-weight="bold">@{_esc(p.function)}: {_esc(v.message)}</text>')
    if v.path:
        out.append(f'<text class="path" x="10" y="{y0 + 38}">path: {_esc("; ".join(v.path))}</text>')
    for i, lane in enumerate(p.lanes):
        y = y0 + TOP + i * LANE_H
        fill = {"host": "#eef3fb", "execute": "#f1f8ee", "stream": "#fbf5ea", "boundary": "#f3f3f3"}[lane.kind]
        out.append(f'<g class="lane" data-lane="{_esc(lane.title)}" data-kind="{lane.kind}">')
        out.append(f'<rect x="0" y="{y}" width="{width}" height="{LANE_H - 4}" fill="{fill}"/>')
        out.append(f'<text class="lane-title" x="8" y="{y + LANE_H / 2 + 4}">{_esc(lane.title)}</text>')
        out.append("</g>")
    # the time axis
    axis_y = y0 + TOP + len(p.lanes) * LANE_H + 14
    for t in range(t0, t0 + span + 1):
        x = LEFT + (t - t0) * STEP + STEP / 2
        out.append(f'<line x1="{x}" y1="{y0 + TOP}" x2="{x}" y2="{axis_y - 10}" stroke="#ddd" stroke-dasharray="2,3"/>')
        out.append(f'<text class="time" x="{x}" y="{axis_y}" text-anchor="middle" fill="#888">t={t}</text>')
    # happens-before edges between drawn points (grey), on the output's graph
    drawn = set(pos)
    for a in sorted(drawn):
        for b in g.succ[a]:
            if b in drawn and lane_of[a] is not lane_of[b]:
                (x1, y1), (x2, y2) = pos[a], pos[b]
                out.append(f'<line class="edge" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#aaa" marker-end="url(#arrow)"/>')
    # GPU ops: a bar from start to finish on their stream
    bars: dict[int, dict[str, int]] = {}
    for _, n in p.nodes:
        if g.kinds[n] in _GPU_KINDS:
            bars.setdefault(id(g.ops[n]), {})[g.kinds[n]] = n
    for parts in bars.values():
        s, f = parts.get("start"), parts.get("finish")
        one = s if s is not None else f
        assert one is not None
        hot = id(g.ops[one]) in hot_ops
        xs = pos[s][0] if s is not None else pos[one][0] - STEP / 2
        xf = pos[f][0] if f is not None else pos[one][0] + STEP / 2
        y = pos[one][1]
        cls = "op gpu highlight" if hot else "op gpu"
        stroke = "#d62728" if hot else "#8c6d31"
        out.append(f'<g class="{cls}" data-op="{_esc(_op_text(g, one))}">')
        out.append(
            f'<rect x="{xs}" y="{y - 13}" width="{max(xf - xs, 6)}" height="26" rx="5" fill="{"#fde0dd" if hot else "#f7e3b5"}" '
            f'stroke="{stroke}" stroke-width="{3 if hot else 1}"/>'
        )
        out.append(f'<text x="{xs + 4}" y="{y + 4}" font-size="10">{_esc(_op_text(g, one))}</text>')
        out.append("</g>")
    # thread points, their labels above and below in turn along each lane
    seen_on: dict[int, int] = {}
    for _, n in p.nodes:
        if g.kinds[n] in _GPU_KINDS:
            continue
        k = seen_on[id(lane_of[n])] = seen_on.get(id(lane_of[n]), -1) + 1
        x, y = pos[n]
        hot = g.ops[n] is not None and id(g.ops[n]) in hot_ops and g.kinds[n] != "issue"
        cls = "point highlight" if hot else "point"
        color = "#d62728" if hot else "#1f4e99"
        dy = -16 if k % 2 == 0 else 24
        out.append(f'<g class="{cls}" data-point="{_esc(g.label(n))}">')
        out.append(f'<circle cx="{x}" cy="{y}" r="{7 if hot else 5}" fill="{color}"/>')
        out.append(f'<text x="{x}" y="{y + dy}" text-anchor="middle" font-size="10" fill="{color}">{_esc(g.label(n))}</text>')
        out.append("</g>")
    if p.missing is not None:
        a, b = p.missing
        (x1, y1), (x2, y2) = pos[a], pos[b]
        mx, my = (x1 + x2) / 2, min(y1, y2) - 24
        out.append('<g class="missing-edge">')
        out.append(
            f'<path d="M {x1} {y1} Q {mx} {my} {x2} {y2}" fill="none" stroke="#d62728" stroke-width="2.5" '
            'stroke-dasharray="7,4" marker-end="url(#arrow-red)"/>'
        )
        out.append(
            f'<text x="10" y="{y0 + (38 if not v.path else 50)}" fill="#d62728" font-weight="bold">red dashed: the missing '
            f"edge, {_esc(_op_text(g, a))} must end before {_esc(_op_text(g, b))} starts</text>"
        )
        out.append("</g>")
    out.append("</g>")
    return height


def timeline_svg(report: Report) -> str | None:
    """The SVG text of `report`'s counterexamples, or None if it has none
    with a schedule (nothing to draw)."""
    panels = _panels(report)
    if not panels:
        return None
    body: list[str] = []
    y = 0
    width = 0
    for p in panels:
        h = _draw_panel(p, y, body)
        times = [t for t, _ in p.nodes]
        width = max(width, LEFT + (max(times) - min(times) + 1) * STEP + 60, 900)
        y += h + 20
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" viewBox="0 0 {width} {y}" '
        'font-family="monospace" font-size="12">',
        "<title>counterexample schedule</title>",
        "<defs>",
        '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#aaa"/></marker>',
        '<marker id="arrow-red" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#d62728"/></marker>',
        "</defs>",
        f'<rect width="{width}" height="{y}" fill="white"/>',
    ]
    return "\n".join(head + body + ["</svg>"]) + "\n"


def timeline_html(report: Report, text: str) -> str | None:
    """A page: the timeline, then the text report (`text`)."""
    svg = timeline_svg(report)
    if svg is None:
        return None
    title = f"{_esc(report.input_file)} -> {_esc(report.output_file)}: {report.verdict}"
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n</head>\n<body>\n<h1>{title}</h1>\n{svg}<pre>{_esc(text)}</pre>\n</body>\n</html>\n"
    )


def write_pictures(report: Report, svg_path: str | None, html_path: str | None, sources: dict[str, str]) -> None:
    """`--svg` / `--html`: written as `-o` is (`spec.tool.write_file`:
    atomically, a `ToolError` if it cannot be), only when there is a
    counterexample to draw; otherwise a note on stderr and no file (an
    existing one is left as it was)."""
    svg = timeline_svg(report)
    if svg is None:
        sys.stderr.write("note: no counterexample schedule to draw; --svg/--html not written\n")
        return
    if svg_path:
        write_file(svg_path, svg)
    if html_path:
        page = timeline_html(report, report.text(sources))
        assert page is not None
        write_file(html_path, page)
