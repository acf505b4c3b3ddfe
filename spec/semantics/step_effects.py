"""What each step touches and does: host ops, async bodies, GPU ops.

The scheduler (`spec.semantics.schedule.Machine`) decides which process
steps next; this module is what the step then does, on concrete values
(docs/semantics.md, "GPU ops as abstract effects"):

- a step's footprint is the buffer elements it reads or writes (what the
  sleep sets compare, and the events' reads and writes);
- a host step executes its visible op: loads, stores, copies, allocations,
  calls and returns are observed or change buffers; an `async.execute` spawns
  a body thread, waits and awaits check that the awaited work did not fail,
  and a GPU op is issued;
- a GPU op's issue records what its `start` will read and its `finish` will
  write (its footprints); `start` snapshots its
  inputs, `finish` writes its outputs and completes its token.

A fault becomes an observation of the thread (or GPU op) that hit it.

Per-op dispatch: what each visible op's step touches and does, one case
per op the interpreter runs (`spec.semantics.interp.HOST_OPS`, `GPU_OPS`);
which ops are steps is the registry's word (their effects and `sync`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from spec import registry
from spec.invariant import InternalError
from spec.ir import Operation
from spec.semantics.interp import (
    GPU_OPS,
    Thread,
    affine_access,
    free_values,
    gpu_deps,
    is_effectful_event,
    kernel_name,
    segment,
)
from spec.semantics.outcome import Event, Footprint
from spec.semantics.processes import GpuProc, HostProc
from spec.semantics.values import (
    Abort,
    AsyncValue,
    Fault,
    Token,
    View,
    element,
    fresh_buffer,
    kernel_mix,
    render_value,
    stable_hash,
)

if TYPE_CHECKING:
    from spec.semantics.outcome import Step
    from spec.semantics.values import Buffer, Producer

_AT_LOC = re.compile(r"@(.+?:\d+:\d+)")


class StepEffects:
    """The step rules of `schedule.Machine` (a mixin): `_host_step` and
    `_gpu_step` take one step of a process. They use the machine's state and
    helpers (`procs`, `live`, `steps`, `events`, `buffers`, `budget`,
    `aliases`, `_pos_cache`, `_suffix`, `_awaited`, `_observe`, `_fail`,
    `_advance`);
    `footprint` is what the next step of a process touches."""

    if TYPE_CHECKING:  # the machine's state and helpers (`schedule.Machine`), for the type checker
        aliases: dict[str, str]
        procs: dict[str, HostProc | GpuProc]
        live: dict[str, HostProc | GpuProc]
        steps: list[Step]
        events: list[Event]
        buffers: dict[str, Buffer]
        budget: list[int]
        _pos_cache: dict[tuple[object, ...], frozenset[int]]

        def _suffix(self, thread: Thread, op: Operation) -> str: ...
        def _awaited(self, p: HostProc) -> list[Producer]: ...
        def _observe(self, thread: str, kind: str, op: Operation | None, detail: str) -> None: ...
        def _fail(self, p: HostProc, exc: Fault) -> None: ...
        def _advance(self, p: HostProc) -> None: ...

    def value_name(self, name: str) -> str:
        """The name of a buffer made at `name` (`op@loc...`), each location in
        it replaced as `aliases` says. A buffer's initial contents are seeded
        by its name, so a rewrite run against its input (different lines)
        starts from the same values and ends with comparable buffers."""
        if not self.aliases:
            return name
        return _AT_LOC.sub(lambda m: "@" + self.aliases.get(m.group(1), m.group(1)), name)

    # -- footprints ---------------------------------------------------------------
    def positions(self, v: View) -> frozenset:
        key = (id(v.buffer), v.offset, v.shape, v.strides)
        s = self._pos_cache.get(key)
        if s is None:
            s = self._pos_cache[key] = frozenset(v.positions())
        return s

    def whole(self, v: View) -> frozenset:
        return self.positions(View(v.buffer, 0, (len(v.buffer.data),), (1,)))

    def footprint(self, pid: str) -> Footprint:
        """Memory the next step of `pid` touches."""
        p = self.procs[pid]
        if isinstance(p, GpuProc):
            return p.reads if p.state == "issued" else p.writes
        if p.fp is not None:
            return p.fp
        fp: Footprint = ()
        op = p.thread.current() if p.state == "run" else None
        if op is not None:
            try:
                fp = self._host_fp(p.thread, op)
            except (Fault, KeyError, TypeError, AttributeError):
                fp = ()
        p.fp = fp
        return fp

    def _host_fp(self, t: Thread, op: Operation) -> Footprint:
        name = op.name
        if name in ("affine.load", "affine.store"):
            _, view, idx = affine_access(op, t.operands(op))
            return ((view.buffer.name, frozenset([view.flat(idx)]), name == "affine.store"),)
        if name == "memref.load":
            view, *idx = t.operands(op)
            return ((view.buffer.name, frozenset([view.flat(idx)]), False),)
        if name == "memref.store":
            _, view, *idx = t.operands(op)
            return ((view.buffer.name, frozenset([view.flat(idx)]), True),)
        if name == "memref.copy":
            src, dst = t.operands(op)
            return ((src.buffer.name, self.positions(src), False), (dst.buffer.name, self.positions(dst), True))
        if name == "memref.dealloc":
            (v,) = t.operands(op)
            return ((v.buffer.name, self.whole(v), True),)
        if name in ("func.call", "func.return"):
            return tuple((v.buffer.name, self.whole(v), False) for v in t.operands(op) if isinstance(v, View))
        return ()

    # -- host steps ---------------------------------------------------------------
    def _check_live(self, op: Operation, views: list) -> None:
        for v in views:
            if isinstance(v, View) and v.buffer.freed:
                raise Fault(op, f"use of freed buffer {v.buffer.name}")

    def _propagate_error(self, p: HostProc) -> None:
        p.thread.finish()
        p.failed = True
        p.done = True
        p.done_clock = p.clock
        p.state = "done"

    def _host_step(self, p: HostProc, index: int) -> None:
        t = p.thread
        if p.state == "begin":
            op = p.exec_op
            if op is None:
                raise InternalError("spec.semantics.step_effects: expected op is not None")
            failed_deps = any(getattr(q, "failed", False) for tok in p.exec_deps for q in tok.producers)
            if failed_deps or any(isinstance(v, AsyncValue) and v.producer.failed for v in p.exec_operands):
                # The async runtime does not run a body whose dependency or
                # operand is in the error state: it sets the body's results to
                # error, which whoever awaits them then sees (no fault here).
                self._propagate_error(p)
                return
            vals = [v.producer.values[v.index] if isinstance(v, AsyncValue) else v for v in p.exec_operands]
            for a, v in zip(op.regions[0].blocks[0].args, vals):
                t.env[a] = v
            p.state = "run"
            self._advance(p)
            return
        op = t.current()
        if op is None:
            raise InternalError("spec.semantics.step_effects: expected op is not None")
        ev: Event | None = None
        if is_effectful_event(op) and op.name not in GPU_OPS:
            ev = Event(f"{op.name}@{op.loc}{self._suffix(t, op)}", op, t.name, len(self.events), False, index, index)
            for buf, pos, w in self.steps[index].fp:
                (ev.writes if w else ev.reads)[buf] = pos
            self.events.append(ev)
        try:
            self._execute(p, op, index)
        except Fault as exc:
            self._fail(p, exc)
            return
        t.counts[id(op)] = t.counts.get(id(op), 0) + 1
        if p.state == "run":
            try:
                t.proceed()
            except Fault as exc:
                self._fail(p, exc)
                return
            if t.current() is None:
                p.state = "done"

    def _execute(self, p: HostProc, op: Operation, index: int) -> None:  # noqa: C901 - the execute step's cases, in the runtime's order
        t = p.thread
        name = op.name
        vals = t.operands(op)
        if name in ("affine.load", "affine.store"):
            stored, view, idx = affine_access(op, vals)
            vals = [view, *idx] if name == "affine.load" else [stored, view, *idx]
            name = "memref.load" if name == "affine.load" else "memref.store"
        if name == "memref.load":
            view, *idx = vals
            self._check_live(op, [view])
            v = view.buffer.data[view.flat(idx, op)]
            t.set_results(op, [v])
            self._observe(t.name, "load", op, render_value(v))
        elif name == "memref.store":
            v, view, *idx = vals
            self._check_live(op, [view])
            view.buffer.data[view.flat(idx, op)] = v
        elif name == "memref.copy":
            src, dst = vals
            self._check_live(op, [src, dst])
            if src.shape != dst.shape:
                raise Fault(op, "memref.copy between views of different shapes")
            dst.write(src.read())
        elif name in ("memref.alloc", "memref.alloca"):
            rt = op.results[0].type
            dyn = iter(vals)
            shape = tuple(next(dyn) if d is None else d for d in rt.memref_shape())
            bname = self.value_name(f"{name}@{op.loc}{self._suffix(t, op)}")
            view = fresh_buffer(bname, rt, shape, stable_hash(bname) % 997)
            self.buffers[bname] = view.buffer
            t.set_results(op, [view])
        elif name == "memref.dealloc":
            (view,) = vals
            self._check_live(op, [view])
            view.buffer.freed = True
        elif name == "func.call":
            self._check_live(op, vals)
            callee = str(op.properties.get("callee"))
            detail = f"{callee}(" + ", ".join(render_value(v) for v in vals) + ")"
            self._observe(t.name, "call", op, detail)
            results: list[object] = []
            for i, r in enumerate(op.results):
                seed = stable_hash(f"{detail}#{i}")
                if r.type.is_memref:
                    shape = tuple(2 if d is None else d for d in r.type.memref_shape())
                    bname = self.value_name(f"result of {callee}@{op.loc}{self._suffix(t, op)}#{i}")
                    view = fresh_buffer(bname, r.type, shape, seed % 997)
                    self.buffers[bname] = view.buffer
                    results.append(view)
                elif r.type.is_gpu_token or r.type.is_async_token:
                    results.append(Token())
                else:
                    results.append(element(seed % 65521, r.type))
            t.set_results(op, results)
        elif name == "cf.assert":
            if not vals[0]:
                raise Abort(op, f"assertion failed: {op.properties.get('msg')}")
        elif name == "func.return":
            self._check_live(op, vals)
            self._observe(t.name, "return", op, ", ".join(render_value(v) for v in vals))
            t.finish()
            p.state = "done"
            p.done = True
            p.done_clock = p.clock
        elif name == "async.yield":
            p.values = vals
            t.finish()
            p.state = "done"
            p.done = True
            p.done_clock = p.clock
        elif name == "async.execute":
            self._spawn(p, op, vals)
        elif registry.blocks_thread(name):
            for q in self._awaited(p):
                if getattr(q, "failed", False):
                    raise Fault(op, f"awaited work failed ({getattr(q, 'pid', '?')})")
            if name == "async.await" and op.results:
                av = vals[0]
                t.set_results(op, [av.producer.values[av.index]])
        elif name in GPU_OPS:
            self._issue(p, op, vals, index)
        else:
            raise Fault(op, f"'{name}' op is not supported by the interpreter")

    def _spawn(self, p: HostProc, op: Operation, vals: list) -> None:
        t = p.thread
        n_deps = len(segment(op, 0))
        name = (
            ("" if t.name == "main" else t.name + "/")
            + f"async.execute@{op.loc}"
            + (f"#{t.counts.get(id(op), 0)}" if t.counts.get(id(op), 0) else "")
        )
        env = {v: t.env[v] for v in free_values(op) if v in t.env}
        child = HostProc(name, Thread(name, op.regions[0].blocks[0], env, self.budget), dict(p.clock))
        child.state = "begin"
        child.exec_op = op
        child.exec_deps = vals[:n_deps]
        child.exec_operands = vals[n_deps:]
        self.procs[name] = self.live[name] = child
        t.set_results(op, [Token((child,)), *(AsyncValue(child, i) for i in range(len(op.results) - 1))])

    # -- GPU steps ----------------------------------------------------------------
    def _issue(self, p: HostProc, op: Operation, vals: list, index: int) -> None:
        t = p.thread
        pid = f"{op.name}@{op.loc}{self._suffix(t, op)}"
        deps_vals = [t.env[v] for v in gpu_deps(op)]
        ev = Event(pid, op, t.name, len(self.events), True)
        ev.issue = index
        self.events.append(ev)
        g = GpuProc(pid, op, t.name, deps_vals, dict(p.clock), ev)  # type: ignore[arg-type]  # env values are untyped; a GPU op's deps are tokens (its op check says so)
        n = len(deps_vals)
        name = op.name
        if name == "gpu.launch_func":
            sizes = [v for v in vals[n:] if not isinstance(v, View)]
            views = [v for v in vals[n:] if isinstance(v, View)]
            g.args = [stable_hash(f"{kernel_name(op)}{sizes}"), views]
            g.reads = tuple((v.buffer.name, self.positions(v), False) for v in views)
            g.writes = tuple((v.buffer.name, self.positions(v), True) for v in views)
        elif name == "gpu.memcpy":
            dst, src = vals[n], vals[n + 1]
            g.args = [dst, src]
            g.reads = ((src.buffer.name, self.positions(src), False),)
            g.writes = ((dst.buffer.name, self.positions(dst), True),)
        elif name == "gpu.memset":
            dst, value = vals[n], vals[n + 1]
            g.args = [dst, value]
            g.writes = ((dst.buffer.name, self.positions(dst), True),)
        elif name == "gpu.alloc":
            rt = op.results[0].type
            dyn = iter(vals[n : n + len(segment(op, 1))])
            shape = tuple(next(dyn) if d is None else d for d in rt.memref_shape())
            bname = self.value_name(pid)
            view = fresh_buffer(bname, rt, shape, stable_hash(bname) % 997)
            view.buffer.ready = False
            self.buffers[bname] = view.buffer
            g.args = [view]
            g.writes = ((bname, self.whole(view), True),)
            g.values = [view]
        elif name == "gpu.dealloc":
            (view,) = vals[n:]
            g.args = [view]
            g.writes = ((view.buffer.name, self.whole(view), True),)
        for buf, pos, _ in g.reads:
            ev.reads[buf] = pos
        for buf, pos, _ in g.writes:
            ev.writes[buf] = ev.writes.get(buf, frozenset()) | pos
        self.procs[pid] = self.live[pid] = g
        results = list(g.values)
        if op.results and op.results[-1].type.is_gpu_token:
            results.append(Token((g,)))
        else:
            p.wait_for = [g]
            g.cpid = p.cpid
        t.set_results(op, results)

    def _gpu_step(self, g: GpuProc, index: int) -> None:
        op = g.op
        try:
            if g.state == "issued":
                g.state = "running"
                g.event.start = index
                for v in g.args[1] if op.name == "gpu.launch_func" else g.args:
                    if isinstance(v, View):
                        self._check_live(op, [v])
                if op.name == "gpu.launch_func":
                    g.snapshot = [v.read() for v in g.args[1]]
                elif op.name == "gpu.memcpy":
                    dst, src = g.args
                    if src.size() != dst.size():
                        raise Fault(op, "gpu.memcpy between views of different sizes")
                    g.snapshot = src.read()
                return
            g.state = "done"
            g.done = True
            g.done_clock = g.clock
            g.event.end = index
            if op.name == "gpu.launch_func":
                seed, views = g.args
                for pos, (v, snap) in enumerate(zip(views, g.snapshot)):
                    v.write(kernel_mix(seed + pos * 7919, v, snap))
            elif op.name == "gpu.memcpy":
                dst = g.args[0]
                self._check_live(op, [dst])
                dst.write(g.snapshot)
            elif op.name == "gpu.memset":
                dst, value = g.args
                self._check_live(op, [dst])
                for i in dst.positions():
                    dst.buffer.data[i] = value
            elif op.name == "gpu.alloc":
                g.args[0].buffer.ready = True
            elif op.name == "gpu.dealloc":
                self._check_live(op, g.args)
                g.args[0].buffer.freed = True
        except Fault as exc:
            self._observe(g.thread, "fault", op, exc.message)
            g.failed = True
            g.state = "done"
            g.done = True
            g.done_clock = g.clock
            if g.event.end < 0:
                g.event.end = index
