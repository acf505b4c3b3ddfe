// Scalar code around launches: a kernel computing a fixed-point softplus
// and bit statistics with the math and index ops, and a host that picks the
// kernel variant with scf.index_switch and reports through a function
// pointer (func.constant + func.call_indirect).

module attributes {gpu.container_module} {
  gpu.module @scalar_kernels {
    gpu.func @softplus(%x: memref<512xf32>, %bits: memref<512xi32>, %scale: i32) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %n = index.constant 128
      %off = index.mul %bid, %n
      %i = index.add %off, %tid
      %v = memref.load %x[%i] : memref<512xf32>
      %one = arith.constant 1.0 : f32
      %e = math.exp %v : f32
      %sp = math.fma %e, %one, %one fastmath<contract> : f32
      %l = math.log %sp : f32
      %sh = math.sinh %l : f32
      %ch = math.cosh %l fastmath<afn> : f32
      %th = math.atanh %sh : f32
      %a1 = math.asinh %ch : f32
      %a2 = math.acosh %ch : f32
      %a3 = math.asin %th : f32
      %a4 = math.acos %th : f32
      %p = math.fpowi %a1, %scale : f32, i32
      %q = arith.addf %p, %a2 : f32
      %r = arith.addf %q, %a3 : f32
      %s = arith.addf %r, %a4 : f32
      memref.store %s, %x[%i] : memref<512xf32>
      %w = memref.load %bits[%i] : memref<512xi32>
      %pc = math.ctpop %w : i32
      %lz = math.ctlz %w : i32
      %tz = math.cttz %w : i32
      %ab = math.absi %w : i32
      %pw = math.ipowi %ab, %scale : i32
      %lo, %hi = arith.mului_extended %pc, %lz : i32
      %slo, %shi = arith.mulsi_extended %tz, %pw : i32
      %d = arith.ceildivui %hi, %shi : i32
      %sum = arith.addi %lo, %slo : i32
      %out = arith.addi %sum, %d : i32
      %iw = index.castu %out : i32 to index
      %big = index.cmp ugt(%iw, %n)
      %ten = index.bool.constant true
      %both = arith.andi %big, %ten : i1
      %sz = index.sizeof
      %sel = arith.select %both, %iw, %sz : index
      %o2 = index.casts %sel : index to i32
      memref.store %o2, %bits[%i] : memref<512xi32>
      gpu.return
    }
  }
  func.func private @report(i32) -> i32
  func.func @run(%mode: index, %x: memref<512xf32>, %bits: memref<512xi32>, %scale: i32) -> i32 {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %dx = gpu.alloc () : memref<512xf32>
    %db = gpu.alloc () : memref<512xi32>
    gpu.memcpy %dx, %x : memref<512xf32>, memref<512xf32>
    gpu.memcpy %db, %bits : memref<512xi32>, memref<512xi32>
    %eff_scale = scf.index_switch %mode -> i32
    case 0 {
      scf.yield %scale : i32
    }
    case 1 {
      %c2 = arith.constant 2 : i32
      %dbl = arith.muli %scale, %c2 : i32
      scf.yield %dbl : i32
    }
    default {
      %c0 = arith.constant 0 : i32
      scf.yield %c0 : i32
    }
    gpu.launch_func @scalar_kernels::@softplus blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1) args(%dx : memref<512xf32>, %db : memref<512xi32>, %eff_scale : i32)
    gpu.memcpy %x, %dx : memref<512xf32>, memref<512xf32>
    gpu.memcpy %bits, %db : memref<512xi32>, memref<512xi32>
    gpu.dealloc %dx : memref<512xf32>
    gpu.dealloc %db : memref<512xi32>
    %cb = func.constant @report : (i32) -> i32
    %st = func.call_indirect %cb(%eff_scale) : (i32) -> i32
    return %st : i32
  }
}
