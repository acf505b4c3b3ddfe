"""`--svg FILE` / `--html FILE`: a counterexample schedule drawn as a timeline.

A refuted obligation comes with a schedule from the Z3 model: times for the
points of the output's happens-before graph (`verifier.smt.encode`, the text's
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
  the graph's other edges between drawn points are thin grey arrows;
- a panel's head says which file the `@L:C` coordinates are in (the
  output's: every point is an op of the output) and quotes the source line
  of each of the two ops; a legend at the bottom explains the marks;
- a label that does not fit (a bar's text wider than the bar, a point's
  very long label) is shortened with an ellipsis, and every op carries its
  full text in an SVG `<title>`, which a browser shows on hover;
- a point's label goes above or below it, in turn along the lane, unless
  an arrow would cross it or it would cover another label there: then on
  the other side (`_place_label`).

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

from spec import registry
from spec.invariant import InternalError
from spec.semantics.event_graph import EventGraph
from spec.tool import write_file
from verifier.output.report import Report, Violation

MAX_PANELS = 6
"""Refuted obligations drawn per file (the rest are in the text)."""
STEP = 130
"""Pixels per unit of model time."""
LANE_H = 56
LEFT = 190
"""Width of the lane titles."""
HEAD_LINE = 16
"""Height of one line of a panel's head (title, path, missing edge, source lines)."""
CHAR_W = 6.1
"""Width of one character of the 10 px monospace labels."""
POINT_LABEL_MAX = 36
"""Characters of a point's label before it is shortened (its neighbours on
the lane are two steps away, labels alternating above and below)."""
LEGEND_H = 58

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
    sources: dict[str, str] = field(default_factory=dict)
    """File name -> text, for the source lines quoted in the head."""


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


def _panels(report: Report, sources: dict[str, str] | None = None) -> list[_Panel]:
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
            missing = next(
                ((a, b) for a, b in fr.missing if g.label(a) in _labels(v) and g.label(b) in _labels(v)), None
            )
            if missing is not None and not {missing[0], missing[1]} <= on:
                missing = None
            panels.append(_Panel(fr.name, v, g, nodes, missing, sources=sources or {}))
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
            elif registry.begins_thread(owner.name):
                title, kind = f"async.execute @{owner.loc.line}:{owner.loc.col}", "execute"
            else:
                # the function's boundary (docs/design.md rules 9-11): callers'
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


def _fit(text: str, chars: int) -> str:
    """`text` in at most `chars` characters, an ellipsis marking a cut."""
    chars = max(chars, 1)
    return text if len(text) <= chars else text[: chars - 1] + "\u2026"


def _source_line(p: _Panel, n: int) -> str | None:
    """The output's source line of node `n`'s op, stripped, if known."""
    op = p.graph.ops[n]
    if op is None or op.loc.file not in p.sources or op.loc.line < 1:
        return None
    lines = p.sources[op.loc.file].splitlines()
    return lines[op.loc.line - 1].strip() if op.loc.line <= len(lines) else None


def _output_file(p: _Panel) -> str | None:
    return next((op.loc.file for op in (p.graph.ops[n] for _, n in p.nodes) if op is not None), None)


def _head(p: _Panel, y0: int, width: float) -> tuple[list[str], int]:
    """The panel's head: title, path, the missing edge, which file `@L:C`
    is in, the two ops' source lines. Each line shortened to the panel's
    width, its full text on hover. Returns the lines and their height."""
    g, v = p.graph, p.violation
    lines: list[tuple[str, str]] = [("title", f"@{p.function}: {v.message}")]
    if v.path:
        lines.append(("path", "path: " + "; ".join(v.path)))
    if p.missing is not None:
        a, b = p.missing
        lines.append(
            ("missing", f"red dashed: the missing edge, {_op_text(g, a)} must end before {_op_text(g, b)} starts")
        )
        for n in (a, b):
            src = _source_line(p, n)
            if src is not None:
                lines.append(("source", f"{_op_text(g, n)}: {src}"))
    out_file = _output_file(p)
    if out_file is not None:
        lines.append(("where", f"@L:C are line:column in {out_file} (the output)"))
    style = {
        "title": ' font-weight="bold"',
        "path": "",
        "missing": ' fill="#d62728" font-weight="bold"',
        "source": ' fill="#444"',
        "where": ' fill="#666"',
    }
    fits = int((width - 20) / 7.3)  # the head's 12 px monospace
    out = []
    for i, (cls, text) in enumerate(lines):
        y = y0 + 20 + i * HEAD_LINE
        shown = _fit(text, fits)
        tip = f"<title>{_esc(text)}</title>" if shown != text else ""
        out.append(f'<text class="{cls}" x="10" y="{y}"{style[cls]}>{tip}{_esc(shown)}</text>')
    return out, 20 + len(lines) * HEAD_LINE + 10


def _legend(y0: int) -> list[str]:
    """What the marks mean, once under all panels."""
    y1, y2 = y0 + 18, y0 + 40
    return [
        '<g class="legend">',
        f'<text x="10" y="{y1}" font-weight="bold">legend</text>',
        f'<circle cx="90" cy="{y1 - 4}" r="5" fill="#1f4e99"/>',
        f'<text x="102" y="{y1}">a thread\'s point: t a host op ran, i a GPU op issued, begin/yield of an execute body, end of the function</text>',
        f'<rect x="84" y="{y2 - 13}" width="30" height="16" rx="4" fill="#f7e3b5" stroke="#8c6d31"/>',
        f'<text x="122" y="{y2}">a GPU op, from start (s) to finish (f)</text>',
        f'<rect x="420" y="{y2 - 13}" width="30" height="16" rx="4" fill="#fde0dd" stroke="#d62728" stroke-width="3"/>',
        f'<text x="458" y="{y2}">the pair left unordered</text>',
        f'<path d="M 640 {y2 - 4} L 690 {y2 - 4}" stroke="#d62728" stroke-width="2.5" stroke-dasharray="7,4" marker-end="url(#arrow-red)"/>',
        f'<text x="698" y="{y2}">the missing edge</text>',
        f'<line x1="830" y1="{y2 - 4}" x2="870" y2="{y2 - 4}" stroke="#aaa" marker-end="url(#arrow)"/>',
        f'<text x="878" y="{y2}">an edge the output has</text>',
        "</g>",
    ]


Box = tuple[float, float, float, float]
"""x0, y0, x1, y1."""
Segment = tuple[float, float, float, float]
"""x1, y1, x2, y2."""


def _crosses(s: Segment, box: Box) -> bool:
    """Whether segment `s` passes through `box` (Liang-Barsky clipping)."""
    x1, y1, x2, y2 = s
    lo, hi = 0.0, 1.0
    for d, near, far in ((x2 - x1, box[0] - x1, box[2] - x1), (y2 - y1, box[1] - y1, box[3] - y1)):
        if d == 0:
            if near > 0 or far < 0:
                return False
            continue
        a, b = near / d, far / d
        lo, hi = max(lo, min(a, b)), min(hi, max(a, b))
        if lo > hi:
            return False
    return True


def _overlap(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _curve(x1: float, y1: float, mx: float, my: float, x2: float, y2: float, parts: int = 16) -> list[Segment]:
    """The quadratic Bezier from (x1, y1) to (x2, y2) around (mx, my), as segments."""
    pts = [
        ((1 - u) ** 2 * x1 + 2 * (1 - u) * u * mx + u * u * x2, (1 - u) ** 2 * y1 + 2 * (1 - u) * u * my + u * u * y2)
        for u in (i / parts for i in range(parts + 1))
    ]
    return [(a[0], a[1], b[0], b[1]) for a, b in zip(pts, pts[1:])]


def _route(x1: float, y1: float, x2: float, y2: float, avoid: list[Box], area: Box) -> tuple[float, float] | None:
    """How to draw the arrow from (x1, y1) to (x2, y2) across none of the
    `avoid` boxes (the bars' texts): None when straight does, else the
    control point of the least bent curve that does and stays in `area`
    (the lanes). If none does, None: straight."""
    straight: Segment = (x1, y1, x2, y2)
    if not any(_crosses(straight, b) for b in avoid):
        return None
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    for k in (1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6):
        mx, my = (x1 + x2) / 2 + nx * 30 * k, (y1 + y2) / 2 + ny * 30 * k
        segs = _curve(x1, y1, mx, my, x2, y2)
        inside = all(area[0] <= s[2] <= area[2] and area[1] <= s[3] <= area[3] for s in segs)
        if inside and not any(_crosses(s, b) for s in segs for b in avoid):
            return (mx, my)
    return None


def _place_label(x: float, y: float, text: str, prefer_above: bool, arrows: list[Segment], taken: list[Box]) -> float:
    """The label's offset from its point (above or below): the preferred
    side unless an arrow crosses the label there or it covers a label
    already placed; then the other side; if both are hit, the side hit
    least. The chosen box is added to `taken`."""
    half = len(text) * CHAR_W / 2 + 2
    sides = [-16.0, 24.0] if prefer_above else [24.0, -16.0]

    def box(dy: float) -> Box:
        return (x - half, y + dy - 11, x + half, y + dy + 3)

    def hits(dy: float) -> int:
        b = box(dy)
        return sum(_crosses(s, b) for s in arrows) + 2 * sum(_overlap(b, o) for o in taken)

    dy = min(sides, key=hits)  # min keeps the first (preferred) of equals
    taken.append(box(dy))
    return dy


def _draw_panel(p: _Panel, y0: int, out: list[str]) -> int:
    """Append panel `p` at height `y0`; return its height."""
    g = p.graph
    lane_of = _lanes(p)
    row = {id(lane): i for i, lane in enumerate(p.lanes)}
    times = [t for t, _ in p.nodes]
    t0 = min(times)
    span = max(times) - t0
    width = max(LEFT + (span + 1) * STEP + 60, MIN_WIDTH)
    head, top = _head(p, y0, width)
    height = top + len(p.lanes) * LANE_H + 30
    pos: dict[int, tuple[float, float]] = {}
    for t, n in p.nodes:
        lane = lane_of[n]
        pos[n] = (LEFT + (t - t0) * STEP + STEP / 2, y0 + top + row[id(lane)] * LANE_H + LANE_H / 2)
    hot_ops = set()
    if p.missing is not None:
        hot_ops = {id(g.ops[p.missing[0]]), id(g.ops[p.missing[1]])}
    out.append(f'<g class="panel" data-function="{_esc(p.function)}">')
    out.extend(head)
    for i, lane in enumerate(p.lanes):
        y: float = y0 + top + i * LANE_H  # (a float later: the positions')
        fill = {"host": "#eef3fb", "execute": "#f1f8ee", "stream": "#fbf5ea", "boundary": "#f3f3f3"}[lane.kind]
        out.append(f'<g class="lane" data-lane="{_esc(lane.title)}" data-kind="{lane.kind}">')
        out.append(f'<rect x="0" y="{y}" width="{width}" height="{LANE_H - 4}" fill="{fill}"/>')
        out.append(f'<text class="lane-title" x="8" y="{y + LANE_H / 2 + 4}">{_esc(lane.title)}</text>')
        out.append("</g>")
    # the time axis
    axis_y = y0 + top + len(p.lanes) * LANE_H + 14
    for t in range(t0, t0 + span + 1):
        x = LEFT + (t - t0) * STEP + STEP / 2
        out.append(f'<line x1="{x}" y1="{y0 + top}" x2="{x}" y2="{axis_y - 10}" stroke="#ddd" stroke-dasharray="2,3"/>')
        out.append(f'<text class="time" x="{x}" y="{axis_y}" text-anchor="middle" fill="#888">t={t}</text>')
    # GPU ops: a bar from start to finish on their stream; measured before
    # the edges are routed (no edge goes across a bar's text), drawn after
    parts_of: dict[int, dict[str, int]] = {}
    for _, n in p.nodes:
        if g.kinds[n] in _GPU_KINDS:
            parts_of.setdefault(id(g.ops[n]), {})[g.kinds[n]] = n
    bars: list[tuple[int, float, float, float, str]] = []
    """(node, x, width, y, shown text) per bar."""
    for parts in parts_of.values():
        s, f = parts.get("start"), parts.get("finish")
        one = s if s is not None else f
        if one is None:
            raise InternalError("verifier.output.timeline: expected one is not None")
        xs = pos[s][0] if s is not None else pos[one][0] - STEP / 2
        xf = pos[f][0] if f is not None else pos[one][0] + STEP / 2
        w = max(xf - xs, 6)
        bars.append((one, xs, w, pos[one][1], _fit(_op_text(g, one), int((w - 8) / CHAR_W))))
    bar_texts: list[Box] = [(x + 3, y - 8, x + 5 + len(shown) * CHAR_W, y + 7) for _, x, _, y, shown in bars]
    # happens-before edges between drawn points (grey), on the output's graph
    drawn = set(pos)
    arrows: list[Segment] = []
    """Every arrow drawn, as segments: no point's label goes across one."""
    area: Box = (LEFT, y0 + top, width, y0 + top + len(p.lanes) * LANE_H - 4)
    for a in sorted(drawn):
        for b in g.succ[a]:
            if b in drawn and lane_of[a] is not lane_of[b]:
                (x1, y1), (x2, y2) = pos[a], pos[b]
                bend = _route(x1, y1, x2, y2, bar_texts, area)
                if bend is None:
                    arrows.append((x1, y1, x2, y2))
                    out.append(
                        f'<line class="edge" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#aaa" marker-end="url(#arrow)"/>'
                    )
                else:
                    arrows.extend(_curve(x1, y1, *bend, x2, y2))
                    out.append(
                        f'<path class="edge" d="M {x1} {y1} Q {bend[0]:.1f} {bend[1]:.1f} {x2} {y2}" fill="none" '
                        'stroke="#aaa" marker-end="url(#arrow)"/>'
                    )
    for one, xs, w, y, shown in bars:
        hot = id(g.ops[one]) in hot_ops
        cls = "op gpu highlight" if hot else "op gpu"
        stroke = "#d62728" if hot else "#8c6d31"
        full = _op_text(g, one)
        src = _source_line(p, one)
        out.append(f'<g class="{cls}" data-op="{_esc(full)}">')
        out.append(f"<title>{_esc(full + (': ' + src if src else ''))}</title>")
        out.append(
            f'<rect x="{xs}" y="{y - 13}" width="{w}" height="26" rx="5" fill="{"#fde0dd" if hot else "#f7e3b5"}" '
            f'stroke="{stroke}" stroke-width="{3 if hot else 1}"/>'
        )
        out.append(f'<text x="{xs + 4}" y="{y + 4}" font-size="10">{_esc(shown)}</text>')
        out.append("</g>")
    missing_path = ""
    if p.missing is not None:
        (x1, y1), (x2, y2) = pos[p.missing[0]], pos[p.missing[1]]
        mx, my = (x1 + x2) / 2, min(y1, y2) - 24
        missing_path = f"M {x1} {y1} Q {mx} {my} {x2} {y2}"
        arrows.extend(_curve(x1, y1, mx, my, x2, y2))
    # thread points, their labels above and below in turn along each lane
    seen_on: dict[int, int] = {}
    taken: list[Box] = []
    for _, n in p.nodes:
        if g.kinds[n] in _GPU_KINDS:
            continue
        k = seen_on[id(lane_of[n])] = seen_on.get(id(lane_of[n]), -1) + 1
        x, y = pos[n]
        hot = g.ops[n] is not None and id(g.ops[n]) in hot_ops and g.kinds[n] != "issue"
        cls = "point highlight" if hot else "point"
        color = "#d62728" if hot else "#1f4e99"
        label = g.label(n)
        dy = _place_label(x, y, _fit(label, POINT_LABEL_MAX), k % 2 == 0, arrows, taken)
        src = _source_line(p, n)
        out.append(f'<g class="{cls}" data-point="{_esc(label)}">')
        out.append(f"<title>{_esc(label + (': ' + src if src else ''))}</title>")
        out.append(f'<circle cx="{x}" cy="{y}" r="{7 if hot else 5}" fill="{color}"/>')
        out.append(
            f'<text x="{x}" y="{y + dy}" text-anchor="middle" font-size="10" fill="{color}">{_esc(_fit(label, POINT_LABEL_MAX))}</text>'
        )
        out.append("</g>")
    if p.missing is not None:
        a, b = p.missing
        out.append('<g class="missing-edge">')
        out.append(
            f'<path d="{missing_path}" fill="none" stroke="#d62728" stroke-width="2.5" '
            'stroke-dasharray="7,4" marker-end="url(#arrow-red)"/>'
        )
        out.append(f"<title>missing: {_esc(_op_text(g, a))} must end before {_esc(_op_text(g, b))} starts</title>")
        out.append("</g>")
    out.append("</g>")
    return height


MIN_WIDTH = 1080
"""A panel is at least this wide: its head and the legend fit."""


def timeline_svg(report: Report, sources: dict[str, str] | None = None) -> str | None:
    """The SVG text of `report`'s counterexamples, or None if it has none
    with a schedule (nothing to draw). With `sources` (file name -> text)
    each highlighted op's source line is quoted."""
    panels = _panels(report, sources)
    if not panels:
        return None
    body: list[str] = []
    y = 0
    width = 0
    for p in panels:
        h = _draw_panel(p, y, body)
        times = [t for t, _ in p.nodes]
        width = max(width, LEFT + (max(times) - min(times) + 1) * STEP + 60, MIN_WIDTH)
        y += h + 20
    body.extend(_legend(y))
    y += LEGEND_H
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


def timeline_html(report: Report, text: str, sources: dict[str, str] | None = None) -> str | None:
    """A page: the timeline, then the text report (`text`)."""
    svg = timeline_svg(report, sources)
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
    svg = timeline_svg(report, sources)
    if svg is None:
        sys.stderr.write("note: no counterexample schedule to draw; --svg/--html not written\n")
        return
    if svg_path:
        write_file(svg_path, svg)
    if html_path:
        page = timeline_html(report, report.text(sources), sources)
        if page is None:
            raise InternalError("verifier.output.timeline: expected page is not None")
        write_file(html_path, page)
