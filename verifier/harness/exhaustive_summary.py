"""The summary of an exhaustive run: verdicts per size, and the refuted
programs grouped into bugs, each with its smallest program.

`Summary` is made one `Result` at a time (`Summary.add`), so that it keeps
counters and one program per bug signature (`Group`: how many, and the
smallest) however long the run: a resumed run adds its file's results the
same way, and the cluster's driver its workers'. It prints as the
command's table (`Summary.text`) or as JSON (`Summary.to_json`) and gives
the command's exit code. It needs only the results' record and the
verdicts' names, not the runners, so it is made and tested without
running anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from verifier.harness.exhaustive_results import Result
from verifier.harness.gate import Failure
from verifier.smt.solver import Status


@dataclass
class Group:
    """Programs of one bug signature (or one declined input): how many, and the smallest."""

    count: int
    smallest: Result


@dataclass
class Summary:
    """Verdicts per size and bugs by signature, made one result at a time:
    a run keeps these counters and one program per signature, whatever its
    length."""

    rows: dict[int, dict[str, float]] = field(default_factory=dict)
    bugs: dict[str, Group] = field(default_factory=dict)
    """Refuted (also inconsistent, unparsable) programs by signature."""
    wall_s: float = 0.0
    verdicts: set[str] = field(default_factory=set)
    failures: dict[str, Group] = field(default_factory=dict)
    """Programs the implementation declined (`impl-failed`), by its first
    diagnostic without the location: inputs it rejects, not orderings lost."""

    def add(self, r: Result) -> None:
        """Count one program's result."""
        self.verdicts.add(r.verdict)
        row = self.rows.get(r.size)
        if row is None:
            row = self.rows[r.size] = {
                "programs": 0,
                "verified": 0,
                "refuted": 0,
                "unknown": 0,
                "other": 0,
                "time_s": 0.0,
            }
        row["programs"] += 1
        row[r.verdict if r.verdict in ("verified", "refuted", "unknown") else "other"] += 1
        row["time_s"] += r.time_s
        if r.verdict == Failure.IMPL_FAILED:
            _count(self.failures, _first_message(r.detail), r)
        elif r.verdict not in ("verified", "unknown", "bounded"):
            _count(self.bugs, r.signature or r.verdict, r)

    @classmethod
    def of(cls, results: Iterable[Result], wall_s: float) -> Summary:
        summary = cls(wall_s=wall_s)
        for r in results:
            summary.add(r)
        return summary

    def sorted_rows(self) -> dict[int, dict[str, float]]:
        return dict(sorted(self.rows.items()))

    def totals(self) -> dict[str, float]:
        tot: dict[str, float] = {}
        for row in self.rows.values():
            for k, v in row.items():
                tot[k] = tot.get(k, 0) + v
        return tot

    def exit_code(self) -> int:
        if self.verdicts & {Status.REFUTED, Failure.IMPL_FAILED, Failure.UNPARSABLE}:
            return 1
        if self.verdicts & {Status.UNKNOWN, Status.INCONSISTENT}:
            return 3
        return 4 if Status.BOUNDED in self.verdicts else 0

    def text(self, title: str) -> str:
        out = [
            title,
            "",
            "| size | programs | verified | refuted | unknown | other | time (s, summed) |",
            "|---|---|---|---|---|---|---|",
        ]
        for n, row in [*self.sorted_rows().items(), ("all", self.totals())]:
            out.append(
                f"| {n} | {int(row.get('programs', 0))} | {int(row.get('verified', 0))} | {int(row.get('refuted', 0))} "
                f"| {int(row.get('unknown', 0))} | {int(row.get('other', 0))} | {row.get('time_s', 0.0):.1f} |"
            )
        out.append(f"\nwall time: {self.wall_s:.1f} s")
        bugs, failures = _smallest_first(self.bugs), _smallest_first(self.failures)
        if bugs:
            out.append(f"\n{len(bugs)} distinct bug(s) (signature: kind of the first violation: ops):")
            for sig, g in bugs.items():
                first = g.smallest
                out.append(
                    f"\n- {sig}: {g.count} program(s); smallest {first.id} (size {first.size}): {first.detail.splitlines()[0] if first.detail else ''}"
                )
                out.append(_body(first.text))
        if failures:
            out.append(f"\n{len(failures)} kind(s) of input the implementation declined (impl-failed):")
            for msg, g in failures.items():
                out.append(f"- {msg}: {g.count} program(s); smallest {g.smallest.id} (size {g.smallest.size})")
        return "\n".join(out) + "\n"

    def to_json(self, header: dict) -> dict:
        return {
            **header,
            "sizes": {str(n): row for n, row in self.sorted_rows().items()},
            "totals": self.totals(),
            "wall_s": round(self.wall_s, 3),
            "bugs": [
                {"signature": sig, "programs": g.count, "smallest": asdict(g.smallest)}
                for sig, g in _smallest_first(self.bugs).items()
            ],
            "failures": [
                {"message": msg, "programs": g.count, "smallest": asdict(g.smallest)}
                for msg, g in _smallest_first(self.failures).items()
            ],
        }


def _count(groups: dict[str, Group], key: str, r: Result) -> None:
    g = groups.get(key)
    if g is None:
        groups[key] = Group(1, r)
    else:
        g.count += 1
        if _order(r) < _order(g.smallest):
            g.smallest = r


def _smallest_first(groups: dict[str, Group]) -> dict[str, Group]:
    return dict(sorted(groups.items(), key=lambda kv: (_order(kv[1].smallest), kv[0])))


def _first_message(detail: str) -> str:
    """An implementation's first error line without its location (`FILE:L:C: error: `)."""
    for line in detail.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    return (detail.splitlines() or ["(no message)"])[0][:200]


def _order(r: Result) -> tuple[int, int]:
    return (r.size, int(r.id.split("-")[1]))


def _body(text: str) -> str:
    """The function of a program's module text, indented for the summary."""
    lines = text.splitlines()
    start = next((k for k, line in enumerate(lines) if line.startswith("  func.func @f")), 0)
    return "\n".join("      " + line[2:] for line in lines[start:-1])
