"""Correspondence at the boundaries.

Per class: right rewrites verified (hand-written ones, over-synchronised
ones, ones with renamed values or reordered pure ops, and the outputs of the
refimpl and of mlir-opt-19), and wrong ones refuted with a located message
(the message text, the output line it points at and the input line of its
note). Every hand-written program is valid IR for mlir-opt-19, except the
one ill-formed rewrite, which mlir-opt-19 must reject too.
"""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from spec import registry
from spec.syntax.parser import parse_module
from tests.mlir_tools import MLIR_OPT_19, needs_mlir19
from verifier import check
from verifier.match import correspondence
from verifier.output.report import REFUTED, VERIFIED, Report, Violation

ROOT = Path(__file__).resolve().parents[2]

KERNELS = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
"""
LAUNCH = "@kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)"


def run(inp: str, out: str) -> Report:
    return check(parse_module(inp, "in.mlir"), parse_module(out, "out.mlir", dominance=False))


def line_of(text: str, snippet: str, nth: int = 1) -> int:
    """The 1-based line of the `nth` line of `text` containing `snippet`."""
    hits = [k for k, line in enumerate(text.splitlines(), 1) if snippet in line]
    assert len(hits) >= nth, f"{snippet!r} not in the text"
    return hits[nth - 1]


def the_violation(r: Report) -> Violation:
    vs = [v for f in r.functions for v in f.violations]
    assert r.verdict == REFUTED and len(vs) == 1, r.text()
    return vs[0]


def refuted_at(r: Report, kind: str, message: str, out_line: int, in_line: int | None) -> None:
    """The only violation: its kind, message, output line and input line."""
    v = the_violation(r)
    assert v.kind == kind, r.text()
    assert v.message == message, r.text()
    assert v.second.output_loc is not None and v.second.output_loc.file == "out.mlir"
    assert v.second.output_loc.line == out_line, r.text()
    if in_line is not None:
        assert v.first.input_loc is not None and v.first.input_loc.file == "in.mlir"
        assert v.first.input_loc.line == in_line, r.text()


def verified(inp: str, out: str) -> None:
    r = run(inp, out)
    assert r.verdict == VERIFIED, r.text()
    for f in r.functions:
        assert f.agreements == f.obligations, r.text()


def refimpl(text: str, tmp_path: Path) -> str:
    p = tmp_path / "in.mlir"
    p.write_text(text)
    r = subprocess.run([sys.executable, "-m", "refimpl", str(p)], capture_output=True, text=True, cwd=ROOT, check=True)
    return r.stdout


def mlir19(text: str, *options: str) -> subprocess.CompletedProcess:
    assert MLIR_OPT_19 is not None
    return subprocess.run([MLIR_OPT_19, *options, "-"], input=text, capture_output=True, text=True)


def cli(tmp_path: Path, inp: str, out: str) -> subprocess.CompletedProcess:
    (tmp_path / "in.mlir").write_text(inp)
    (tmp_path / "out.mlir").write_text(out)
    return subprocess.run(
        [sys.executable, "-m", "verifier", "check", "in.mlir", "--after", "out.mlir"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )


# --- class 4: where branches go ---------------------------------------------

CF_IN = (
    KERNELS
    + """  func.func @diamond(%a: memref<16xf32>, %p: i1, %v: f32, %w: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.memset %a, %v : memref<16xf32>, f32
    cf.cond_br %p, ^bb1, ^bb2
  ^bb1:
    gpu.launch_func """
    + LAUNCH
    + """
    memref.store %v, %a[%c0] : memref<16xf32>
    cf.br ^bb3(%v, %w : f32, f32)
  ^bb2:
    func.call @use(%a) : (memref<16xf32>) -> ()
    cf.br ^bb3(%w, %v : f32, f32)
  ^bb3(%x: f32, %y: f32):
    gpu.memcpy %a, %a : memref<16xf32>, memref<16xf32>
    memref.store %x, %a[%c1] : memref<16xf32>
    memref.store %y, %a[%c0] : memref<16xf32>
    return
  }
}
"""
)

# A token passed to ^bb3 through a block argument the input does not have,
# between the two it has: plumbing, and the f32 arguments keep their order.
CF_GOOD = (
    KERNELS
    + """  func.func @diamond(%a: memref<16xf32>, %p: i1, %v: f32, %w: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.memset async [%t0] %a, %v : memref<16xf32>, f32
    gpu.wait [%t1]
    cf.cond_br %p, ^bb1, ^bb2
  ^bb1:
    %t2 = gpu.wait async
    %t3 = gpu.launch_func async [%t2] """
    + LAUNCH
    + """
    gpu.wait [%t3]
    memref.store %v, %a[%c0] : memref<16xf32>
    %t4 = gpu.wait async
    cf.br ^bb3(%v, %t4, %w : f32, !gpu.async.token, f32)
  ^bb2:
    func.call @use(%a) : (memref<16xf32>) -> ()
    %t5 = gpu.wait async
    cf.br ^bb3(%w, %t5, %v : f32, !gpu.async.token, f32)
  ^bb3(%x: f32, %t: !gpu.async.token, %y: f32):
    %t6 = gpu.memcpy async [%t] %a, %a : memref<16xf32>, memref<16xf32>
    gpu.wait [%t6]
    memref.store %x, %a[%c1] : memref<16xf32>
    memref.store %y, %a[%c0] : memref<16xf32>
    return
  }
}
"""
)
BB1_BR = "cf.br ^bb3(%v, %t4, %w : f32, !gpu.async.token, f32)"
BB2_BR = "cf.br ^bb3(%w, %t5, %v : f32, !gpu.async.token, f32)"
# The launch's (waited) token passed on instead of a fresh one: rewired plumbing.
CF_REWIRED = CF_GOOD.replace(BB1_BR, "cf.br ^bb3(%v, %t3, %w : f32, !gpu.async.token, f32)")
# ^bb2 falls into ^bb1 instead of ^bb3: its launch and store run after the call.
CF_RETARGET = CF_GOOD.replace(BB2_BR, "cf.br ^bb1")
CF_SWAP = CF_GOOD.replace("cf.cond_br %p, ^bb1, ^bb2", "cf.cond_br %p, ^bb2, ^bb1")
CF_BOTH_ELSE = CF_GOOD.replace("cf.cond_br %p, ^bb1, ^bb2", "cf.cond_br %p, ^bb2, ^bb2")
CF_SWAP_ARGS = CF_GOOD.replace(BB1_BR, "cf.br ^bb3(%w, %t4, %v : f32, !gpu.async.token, f32)")
# A token of ^bb1 used in ^bb3, which ^bb1 does not dominate.
CF_UNDOMINATED = CF_GOOD.replace("    gpu.wait [%t6]\n", "    gpu.wait [%t6]\n    gpu.wait [%t4]\n")


def test_branch_right_rewrites_verify() -> None:
    verified(CF_IN, CF_GOOD)
    verified(CF_IN, CF_REWIRED)


def test_branch_tools_outputs_verify(tmp_path: Path) -> None:
    verified(CF_IN, refimpl(CF_IN, tmp_path))


@needs_mlir19
def test_branch_mlir19_output_verifies() -> None:
    verified(CF_IN, mlir19(CF_IN, "-gpu-async-region").stdout)


def test_branch_retargeted_is_a_mismatch() -> None:
    refuted_at(
        run(CF_IN, CF_RETARGET),
        "mismatch",
        "'cf.br' op successor #0 is ^bb1, where the input branches to ^bb3",
        line_of(CF_RETARGET, "cf.br ^bb1"),
        line_of(CF_IN, "cf.br ^bb3(%w, %v"),
    )


def test_cond_br_swapped_successors_is_a_mismatch_not_inconsistent() -> None:
    r = run(CF_IN, CF_SWAP)
    refuted_at(
        r,
        "mismatch",
        "'cf.cond_br' op successor #0 is ^bb2, where the input branches to ^bb1",
        line_of(CF_SWAP, "cf.cond_br"),
        line_of(CF_IN, "cf.cond_br"),
    )
    assert r.exit_code == 1


def test_cond_br_one_successor_retargeted_is_a_mismatch() -> None:
    refuted_at(
        run(CF_IN, CF_BOTH_ELSE),
        "mismatch",
        "'cf.cond_br' op successor #0 is ^bb2, where the input branches to ^bb1",
        line_of(CF_BOTH_ELSE, "cf.cond_br"),
        line_of(CF_IN, "cf.cond_br"),
    )


def test_successor_operands_swapped_is_a_mismatch() -> None:
    refuted_at(
        run(CF_IN, CF_SWAP_ARGS),
        "mismatch",
        "'cf.br' op operand #0 is not the value the input uses",
        line_of(CF_SWAP_ARGS, "cf.br ^bb3(%w, %t4, %v"),
        line_of(CF_IN, "cf.br ^bb3(%v, %w"),
    )


def test_token_from_a_non_dominating_block_is_ill_formed() -> None:
    refuted_at(
        run(CF_IN, CF_UNDOMINATED),
        "ill-formed",
        "'gpu.wait' op operand #0 does not dominate this use",
        line_of(CF_UNDOMINATED, "gpu.wait [%t4]"),
        None,
    )


# --- class 5: what the pass must not touch ----------------------------------

GLOBAL = (
    '  "memref.global"() <{constant, initial_value = dense<1.000000e+00> : tensor<4xf32>, sym_name = "table", '
    'sym_visibility = "private", type = memref<4xf32>}> : () -> ()\n'
)
MOD_IN = (
    """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %z = arith.constant 0.000000e+00 : f32
      memref.store %z, %arg0[%c0] : memref<16xf32>
      gpu.return
    }
  }
"""
    + GLOBAL
    + """  func.func private @use(memref<16xf32>)
  module @inner {
    func.func private @helper(f32)
  }
  func.func @f(%a: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func """
    + LAUNCH
    + """
    func.call @use(%a) : (memref<16xf32>) -> ()
    return
  }
}
"""
)
# Over-synchronised (a second, blocking wait for everything), the kernel's
# values renamed.
MOD_GOOD = (
    """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%buf: memref<16xf32>) kernel {
      %zero = arith.constant 0 : index
      %f = arith.constant 0.000000e+00 : f32
      memref.store %f, %buf[%zero] : memref<16xf32>
      gpu.return
    }
  }
"""
    + GLOBAL
    + """  func.func private @use(memref<16xf32>)
  module @inner {
    func.func private @helper(f32)
  }
  func.func @f(%a: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] """
    + LAUNCH
    + """
    gpu.wait [%t1]
    gpu.wait
    func.call @use(%a) : (memref<16xf32>) -> ()
    return
  }
}
"""
)
STORE_ZERO = "memref.store %z, %arg0[%c0] : memref<16xf32>"
MOD_KERNEL_VALUE = MOD_GOOD.replace("arith.constant 0.000000e+00 : f32", "arith.constant 2.000000e+00 : f32")
MOD_KERNEL_NO_STORE = MOD_GOOD.replace("      memref.store %f, %buf[%zero] : memref<16xf32>\n", "")
MOD_ATTR = MOD_GOOD.replace(
    "module attributes {gpu.container_module} {", "module attributes {gpu.container_module, test.extra = 1 : i32} {"
)
MOD_DECL_ATTR = MOD_GOOD.replace(
    "func.func private @use(memref<16xf32>)",
    "func.func private @use(memref<16xf32>) attributes {llvm.emit_c_interface}",
)
MOD_FUNC_ATTR = MOD_GOOD.replace(
    "func.func @f(%a: memref<16xf32>) {", "func.func @f(%a: memref<16xf32>) attributes {llvm.emit_c_interface} {"
)
MOD_NESTED = MOD_GOOD.replace("    func.func private @helper(f32)\n", "")
MOD_GLOBAL = MOD_GOOD.replace("dense<1.000000e+00>", "dense<2.000000e+00>")
MOD_EXTRA_DECL = MOD_GOOD.replace(
    "  func.func private @use(memref<16xf32>)\n",
    "  func.func private @use(memref<16xf32>)\n  func.func private @more(f32)\n",
)


def test_module_right_rewrites_verify(tmp_path: Path) -> None:
    verified(MOD_IN, MOD_GOOD)
    verified(MOD_IN, refimpl(MOD_IN, tmp_path))


@needs_mlir19
def test_module_mlir19_outputs_verify() -> None:
    # memref.global's custom form is not in the subset: the generic form.
    verified(MOD_IN, mlir19(MOD_IN, "-gpu-async-region", "--mlir-print-op-generic").stdout)
    plain = MOD_IN.replace(GLOBAL, "")
    verified(plain, mlir19(plain, "-gpu-async-region").stdout)


def test_kernel_changed_is_a_mismatch() -> None:
    refuted_at(
        run(MOD_IN, MOD_KERNEL_VALUE),
        "mismatch",
        "'arith.constant' op (in @kernels::@k) has attributes different from the input's",
        line_of(MOD_KERNEL_VALUE, "arith.constant 2.0"),
        line_of(MOD_IN, "arith.constant 0.0"),
    )


def test_kernel_store_removed_is_a_mismatch() -> None:
    refuted_at(
        run(MOD_IN, MOD_KERNEL_NO_STORE),
        "mismatch",
        "'gpu.return' op is where the input has 'memref.store' (inside 'gpu.func' op @kernels::@k)",
        line_of(MOD_KERNEL_NO_STORE, "gpu.return"),
        line_of(MOD_IN, STORE_ZERO),
    )


def test_module_attribute_added_is_a_mismatch() -> None:
    r = run(MOD_IN, MOD_ATTR)
    refuted_at(r, "mismatch", "'builtin.module' op has attributes different from the input's", 1, 1)
    # The functions themselves are fine; the module is what is refuted.
    assert [(f.name, f.verdict) for f in r.functions] == [("f", VERIFIED), ("(module)", REFUTED)]
    assert "(module): refuted (1 violation of 0 obligations)" in r.text()


def test_declaration_attribute_added_is_a_mismatch() -> None:
    refuted_at(
        run(MOD_IN, MOD_DECL_ATTR),
        "mismatch",
        "'func.func' op @use has attributes different from the input's",
        line_of(MOD_DECL_ATTR, "@use(memref<16xf32>) attributes"),
        line_of(MOD_IN, "func.func private @use"),
    )


def test_function_attribute_added_is_a_mismatch() -> None:
    refuted_at(
        run(MOD_IN, MOD_FUNC_ATTR),
        "mismatch",
        "'func.func' op has attributes different from the input's",
        line_of(MOD_FUNC_ATTR, "func.func @f"),
        line_of(MOD_IN, "func.func @f"),
    )


def test_nested_module_changed_is_a_mismatch() -> None:
    refuted_at(
        run(MOD_IN, MOD_NESTED),
        "mismatch",
        "'func.func' op @inner::@helper of the input is missing from the output",
        line_of(MOD_NESTED, "module @inner"),
        line_of(MOD_IN, "@helper"),
    )


def test_global_changed_is_a_mismatch() -> None:
    refuted_at(
        run(MOD_IN, MOD_GLOBAL),
        "mismatch",
        "'memref.global' op @table has attributes different from the input's",
        line_of(MOD_GLOBAL, "memref.global"),
        line_of(MOD_IN, "memref.global"),
    )


def test_declaration_added_is_a_mismatch() -> None:
    refuted_at(
        run(MOD_IN, MOD_EXTRA_DECL),
        "mismatch",
        "'func.func' op @more has no counterpart in the input (the pass adds nothing outside functions)",
        line_of(MOD_EXTRA_DECL, "@more"),
        1,
    )


# --- class 6: defaults ------------------------------------------------------

DEFAULTS_IN = (
    KERNELS
    + """  func.func @f(%a: memref<16xf32>, %v: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func """
    + LAUNCH
    + """
    memref.store %v, %a[%c1] {nontemporal = false} : memref<16xf32>
    %x = memref.load %a[%c0] {nontemporal = false} : memref<16xf32>
    %y = arith.addf %x, %v fastmath<none> : f32
    return %y : f32
  }
}
"""
)
# mlir-opt prints neither default; the constants reordered (pure ops).
DEFAULTS_GOOD = (
    KERNELS
    + """  func.func @f(%a: memref<16xf32>, %v: f32) -> f32 {
    %c1 = arith.constant 1 : index
    %0 = gpu.wait async
    %1 = gpu.launch_func async [%0] """
    + LAUNCH
    + """
    gpu.wait [%1]
    %c0 = arith.constant 0 : index
    memref.store %v, %a[%c1] : memref<16xf32>
    %2 = memref.load %a[%c0] : memref<16xf32>
    %3 = arith.addf %2, %v : f32
    return %3 : f32
  }
}
"""
)
DEFAULTS_NONTEMPORAL = DEFAULTS_GOOD.replace(
    "%2 = memref.load %a[%c0] :", "%2 = memref.load %a[%c0] {nontemporal = true} :"
)
DEFAULTS_FASTMATH = DEFAULTS_GOOD.replace("arith.addf %2, %v : f32", "arith.addf %2, %v fastmath<fast> : f32")
DEFAULTS_CONSTANT = DEFAULTS_GOOD.replace("%c0 = arith.constant 0 : index", "%c0 = arith.constant 2 : index")


def test_explicit_defaults_right_rewrite_verifies(tmp_path: Path) -> None:
    verified(DEFAULTS_IN, DEFAULTS_GOOD)
    verified(DEFAULTS_IN, refimpl(DEFAULTS_IN, tmp_path))
    # And the other way round: defaults the output spells out.
    verified(
        DEFAULTS_GOOD.replace("%0 = gpu.wait async\n", "")
        .replace("async [%0] ", "")
        .replace("    gpu.wait [%1]\n", "")
        .replace("%1 = ", ""),
        DEFAULTS_IN,
    )


@needs_mlir19
def test_explicit_defaults_mlir19_output_verifies() -> None:
    out = mlir19(DEFAULTS_IN, "-gpu-async-region").stdout
    assert "nontemporal" not in out
    verified(DEFAULTS_IN, out)


def test_non_default_value_is_a_mismatch() -> None:
    refuted_at(
        run(DEFAULTS_IN, DEFAULTS_NONTEMPORAL),
        "mismatch",
        "'memref.load' op has attributes different from the input's",
        line_of(DEFAULTS_NONTEMPORAL, "memref.load"),
        line_of(DEFAULTS_IN, "memref.load"),
    )


def test_changed_fastmath_is_a_mismatch() -> None:
    refuted_at(
        run(DEFAULTS_IN, DEFAULTS_FASTMATH),
        "mismatch",
        "'arith.addf' op has attributes different from the input's",
        line_of(DEFAULTS_FASTMATH, "arith.addf"),
        line_of(DEFAULTS_IN, "arith.addf"),
    )


def test_reordered_constant_changed_is_a_mismatch() -> None:
    refuted_at(
        run(DEFAULTS_IN, DEFAULTS_CONSTANT),
        "mismatch",
        "'arith.constant' op has attributes different from the input's",
        line_of(DEFAULTS_CONSTANT, "arith.constant 2"),
        line_of(DEFAULTS_IN, "arith.constant 0"),
    )


def test_reordered_constants_with_swapped_uses_is_a_mismatch() -> None:
    # The constants may move; which one each op uses may not change.
    out = DEFAULTS_GOOD.replace("memref.store %v, %a[%c1]", "memref.store %v, %a[%c0]")
    refuted_at(
        run(DEFAULTS_IN, out),
        "mismatch",
        "'memref.store' op operand #2 is not the value the input uses",
        line_of(out, "memref.store"),
        line_of(DEFAULTS_IN, "memref.store"),
    )


def test_defaults_come_from_the_registry() -> None:
    assert registry.lookup("memref.load").elided_defaults == {"nontemporal": "false"}
    source = inspect.getsource(correspondence)
    assert "nontemporal" not in source and "fastmath" not in source


# --- class 11: unreachable blocks -------------------------------------------

UNREACH_IN = (
    KERNELS
    + """  func.func @f(%a: memref<16xf32>, %p: i1, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func """
    + LAUNCH
    + """
    cf.br ^bb2
  ^bb1:
    memref.store %v, %a[%c0] : memref<16xf32>
    cf.cond_br %p, ^bb1, ^bb2
  ^bb2:
    func.call @use(%a) : (memref<16xf32>) -> ()
    gpu.launch_func """
    + LAUNCH
    + """
    return
  }
}
"""
)
UNREACH_GOOD = (
    KERNELS
    + """  func.func @f(%a: memref<16xf32>, %p: i1, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = gpu.wait async
    %1 = gpu.launch_func async [%0] """
    + LAUNCH
    + """
    gpu.wait [%1]
    cf.br ^bb2
  ^bb1:
    memref.store %v, %a[%c0] : memref<16xf32>
    cf.cond_br %p, ^bb1, ^bb2
  ^bb2:
    func.call @use(%a) : (memref<16xf32>) -> ()
    %2 = gpu.wait async
    %3 = gpu.launch_func async [%2] """
    + LAUNCH
    + """
    gpu.wait [%3]
    return
  }
}
"""
)
# A token made in the unreachable ^bb1 and waited for in ^bb2.
UNREACH_UNDOMINATED = UNREACH_GOOD.replace("  ^bb1:\n", "  ^bb1:\n    %9 = gpu.wait async\n").replace(
    "  ^bb2:\n", "  ^bb2:\n    gpu.wait [%9]\n"
)
UNREACH_NO_WAIT = UNREACH_GOOD.replace("    gpu.wait [%1]\n", "")


def test_unreachable_block_identity_and_tools_verify(tmp_path: Path) -> None:
    verified(UNREACH_IN, UNREACH_IN)
    verified(UNREACH_IN, UNREACH_GOOD)
    verified(UNREACH_IN, refimpl(UNREACH_IN, tmp_path))


@needs_mlir19
def test_unreachable_block_mlir19_output_verifies() -> None:
    verified(UNREACH_IN, mlir19(UNREACH_IN, "-gpu-async-region").stdout)


def test_value_of_an_unreachable_block_does_not_dominate() -> None:
    refuted_at(
        run(UNREACH_IN, UNREACH_UNDOMINATED),
        "ill-formed",
        "'gpu.wait' op operand #0 does not dominate this use",
        line_of(UNREACH_UNDOMINATED, "gpu.wait [%9]"),
        None,
    )


@needs_mlir19
def test_mlir19_rejects_the_undominated_use_too() -> None:
    r = mlir19(UNREACH_UNDOMINATED)
    assert r.returncode != 0 and "does not dominate this use" in r.stderr


def test_unreachable_block_lost_wait_is_refuted() -> None:
    refuted_at(
        run(UNREACH_IN, UNREACH_NO_WAIT),
        "gpu-before-host",
        f"'func.call' op may run before 'gpu.launch_func' (in.mlir:{line_of(UNREACH_IN, 'gpu.launch_func')}:5) has finished",
        line_of(UNREACH_NO_WAIT, "call @use"),
        line_of(UNREACH_IN, "gpu.launch_func"),
    )


# --- class 12: an added else of token plumbing ------------------------------

IF_IN = (
    KERNELS
    + """  func.func @f(%a: memref<16xf32>, %p: i1, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.if %p {
      gpu.launch_func """
    + LAUNCH
    + """
    }
    gpu.launch_func """
    + LAUNCH
    + """
    func.call @use(%a) : (memref<16xf32>) -> ()
    return
  }
}
"""
)
IF_GOOD = (
    KERNELS
    + """  func.func @f(%a: memref<16xf32>, %p: i1, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t = scf.if %p -> (!gpu.async.token) {
      %2 = gpu.launch_func async [%t0] """
    + LAUNCH
    + """
      scf.yield %2 : !gpu.async.token
    } else {
      scf.yield %t0 : !gpu.async.token
    }
    %1 = gpu.launch_func async [%t] """
    + LAUNCH
    + """
    gpu.wait [%1]
    func.call @use(%a) : (memref<16xf32>) -> ()
    return
  }
}
"""
)
ELSE = "      scf.yield %t0 : !gpu.async.token\n    }\n"
IF_GOOD_WAITS = IF_GOOD.replace(
    ELSE, "      gpu.wait [%t0]\n      %e = gpu.wait async [%t0]\n      scf.yield %e : !gpu.async.token\n    }\n"
)
IF_ELSE_STORE = IF_GOOD.replace(ELSE, "      memref.store %v, %a[%c0] : memref<16xf32>\n" + ELSE)
IF_ELSE_LAUNCH = IF_GOOD.replace(
    ELSE, "      %e = gpu.launch_func async [%t0] " + LAUNCH + "\n      scf.yield %e : !gpu.async.token\n    }\n"
)
IF_ELSE_CALL = IF_GOOD.replace(ELSE, "      func.call @use(%a) : (memref<16xf32>) -> ()\n" + ELSE)
# The then branch yields the earlier token: nothing waits for its launch.
IF_LOST = IF_GOOD.replace("scf.yield %2 : !gpu.async.token", "scf.yield %t0 : !gpu.async.token")


def test_added_else_of_plumbing_verifies() -> None:
    verified(IF_IN, IF_GOOD)
    verified(IF_IN, IF_GOOD_WAITS)


def test_if_without_else_tools_verify(tmp_path: Path) -> None:
    verified(IF_IN, refimpl(IF_IN, tmp_path))


@needs_mlir19
def test_if_without_else_mlir19_verifies() -> None:
    verified(IF_IN, mlir19(IF_IN, "-gpu-async-region").stdout)


@pytest.mark.parametrize(
    ("out", "op", "snippet"),
    [
        (IF_ELSE_STORE, "memref.store", "memref.store"),
        (IF_ELSE_LAUNCH, "gpu.launch_func", "%e = gpu.launch_func"),
        (IF_ELSE_CALL, "func.call", "func.call @use(%a) : (memref<16xf32>) -> ()"),
    ],
    ids=["store", "launch", "call"],
)
def test_added_else_doing_work_is_a_mismatch(out: str, op: str, snippet: str) -> None:
    refuted_at(
        run(IF_IN, out),
        "mismatch",
        f"'{op}' op in the 'else' region the output adds to 'scf.if' is not token plumbing "
        "(an added 'else' may hold only waits and an 'scf.yield' of tokens)",
        line_of(out, snippet),
        line_of(IF_IN, "scf.if"),
    )


def test_added_else_with_the_then_token_lost_is_refuted() -> None:
    r = run(IF_IN, IF_LOST)
    vs = [v for f in r.functions for v in f.violations]
    assert r.verdict == REFUTED and vs, r.text()
    first_launch = line_of(IF_IN, "gpu.launch_func")
    assert all(v.kind != "mismatch" for v in vs), r.text()
    assert any(
        v.first.op == "gpu.launch_func" and v.first.input_loc is not None and v.first.input_loc.line == first_launch
        for v in vs
    ), r.text()


# --- the CLI, one case per class --------------------------------------------


@pytest.mark.parametrize(
    ("inp", "out", "code", "expected"),
    [
        (
            CF_IN,
            CF_SWAP,
            1,
            f"out.mlir:{line_of(CF_SWAP, 'cf.cond_br')}:5: error: 'cf.cond_br' op successor #0 is ^bb2, where the input branches to ^bb1",
        ),
        (CF_IN, CF_GOOD, 0, "@diamond: verified"),
        (
            MOD_IN,
            MOD_KERNEL_NO_STORE,
            1,
            f"in.mlir:{line_of(MOD_IN, STORE_ZERO)}:7: note: 'memref.store' op of the input is here",
        ),
        (MOD_IN, MOD_ATTR, 1, "out.mlir:1:1: error: 'builtin.module' op has attributes different from the input's"),
        (DEFAULTS_IN, DEFAULTS_GOOD, 0, "@f: verified"),
        (
            DEFAULTS_IN,
            DEFAULTS_NONTEMPORAL,
            1,
            f"out.mlir:{line_of(DEFAULTS_NONTEMPORAL, 'memref.load')}:10: error: 'memref.load' op has attributes different",
        ),
        (UNREACH_IN, UNREACH_GOOD, 0, "@f: verified"),
        (
            UNREACH_IN,
            UNREACH_UNDOMINATED,
            1,
            f"out.mlir:{line_of(UNREACH_UNDOMINATED, 'gpu.wait [%9]')}:5: error: 'gpu.wait' op operand #0 does not dominate this use",
        ),
        (IF_IN, IF_GOOD, 0, "@f: verified"),
        (
            IF_IN,
            IF_ELSE_STORE,
            1,
            f"out.mlir:{line_of(IF_ELSE_STORE, 'memref.store')}:7: error: 'memref.store' op in the 'else' region",
        ),
    ],
    ids=[
        "4-swap",
        "4-good",
        "5-kernel",
        "5-module-attr",
        "6-good",
        "6-nontemporal",
        "11-good",
        "11-undominated",
        "12-good",
        "12-store",
    ],
)
def test_cli(tmp_path: Path, inp: str, out: str, code: int, expected: str) -> None:
    r = cli(tmp_path, inp, out)
    assert r.returncode == code, r.stdout + r.stderr
    assert expected in r.stdout, r.stdout


# --- every hand-written program is IR mlir-opt-19 accepts --------------------

PROGRAMS = {
    name: text
    for name, text in globals().items()
    if name.isupper()
    and isinstance(text, str)
    and text.startswith("module")
    and name not in ("KERNELS", "UNREACH_UNDOMINATED", "CF_UNDOMINATED")
}


@needs_mlir19
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_mlir19_accepts(name: str) -> None:
    r = mlir19(PROGRAMS[name])
    assert r.returncode == 0, r.stderr


@needs_mlir19
def test_mlir19_rejects_the_undominated_branch_token() -> None:
    r = mlir19(CF_UNDOMINATED)
    assert r.returncode != 0 and "does not dominate this use" in r.stderr
