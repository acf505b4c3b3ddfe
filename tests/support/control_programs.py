"""Control-flow programs with a right rewrite each (`*_IN` / `*_GOOD`; the
seed's loop output `LOOP_SEED`): checked path by path and on all paths."""

from __future__ import annotations

from tests.support.rewrites import LAUNCH, module

ASYNC_LAUNCH = "@k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)"

BRANCH_IN = module(
    """  func.func @f(%m: memref<4xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    scf.if %p {
      gpu.launch_func """
    + LAUNCH
    + """
    }
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)


BRANCH_GOOD = module(
    """  func.func @f(%m: memref<4xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    scf.if %p {
      %0 = gpu.wait async
      %1 = gpu.launch_func async [%0] """
    + ASYNC_LAUNCH
    + """
      gpu.wait [%1]
    }
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)


LOOP_IN = module(
    """  func.func @f(%m: memref<4xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func """
    + LAUNCH
    + """
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func """
    + LAUNCH
    + """
      func.call @consume(%m) : (memref<4xf32>) -> ()
    }
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)
# The 2020 seed's output for LOOP_IN: the token of the launch before the loop
# is consumed inside the loop only, nothing waits for it when the loop runs
# zero times.


LOOP_SEED = module(
    """  func.func @f(%m: memref<4xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = gpu.wait async
    %1 = gpu.launch_func async [%0] """
    + ASYNC_LAUNCH
    + """
    scf.for %i = %c0 to %n step %c1 {
      %2 = gpu.launch_func async [%1] """
    + ASYNC_LAUNCH
    + """
      gpu.wait [%2]
      func.call @consume(%m) : (memref<4xf32>) -> ()
    }
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)


CARRIED_IN = module(
    """  func.func @f(%m: memref<4xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func """
    + LAUNCH
    + """
    }
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)


CARRIED_GOOD = module(
    """  func.func @f(%m: memref<4xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = gpu.wait async
    %t = scf.for %i = %c0 to %n step %c1 iter_args(%a = %0) -> (!gpu.async.token) {
      %1 = gpu.launch_func async [%a] """
    + ASYNC_LAUNCH
    + """
      scf.yield %1 : !gpu.async.token
    }
    gpu.wait [%t]
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)


DIAMOND_IN = module(
    """  func.func @f(%m: memref<4xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    cf.cond_br %p, ^bb1, ^bb2
  ^bb1:
    gpu.launch_func """
    + LAUNCH
    + """
    cf.br ^bb3
  ^bb2:
    cf.br ^bb3
  ^bb3:
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)


DIAMOND_GOOD = module(
    """  func.func @f(%m: memref<4xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    %0 = gpu.wait async
    cf.cond_br %p, ^bb1, ^bb2
  ^bb1:
    %1 = gpu.launch_func async [%0] """
    + ASYNC_LAUNCH
    + """
    cf.br ^bb3(%1 : !gpu.async.token)
  ^bb2:
    cf.br ^bb3(%0 : !gpu.async.token)
  ^bb3(%t: !gpu.async.token):
    gpu.wait [%t]
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)


BACK_IN = module(
    """  func.func @f(%m: memref<4xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    cf.br ^bb1
  ^bb1:
    gpu.launch_func """
    + LAUNCH
    + """
    cf.cond_br %p, ^bb1, ^bb2
  ^bb2:
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)


BACK_GOOD = module(
    """  func.func @f(%m: memref<4xf32>, %p: i1) {
    %c1 = arith.constant 1 : index
    %0 = gpu.wait async
    cf.br ^bb1(%0 : !gpu.async.token)
  ^bb1(%t: !gpu.async.token):
    %1 = gpu.launch_func async [%t] """
    + ASYNC_LAUNCH
    + """
    cf.cond_br %p, ^bb1(%1 : !gpu.async.token), ^bb2
  ^bb2:
    gpu.wait [%1]
    call @consume(%m) : (memref<4xf32>) -> ()
    return
  }
"""
)
