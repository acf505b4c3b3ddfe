// affine in every form mlir-opt-19 prints: aliases (unused, reused, in
// memref layouts), bounds (constant, SSA symbol, min/max maps), steps,
// iter_args, if/else with results, symbol() subscripts, divisions.

#tile = affine_map<(i)[n] -> (i * 4 + n)>
#lo = affine_map<(d0) -> (d0, 0)>
#hi = affine_map<(d0)[s0] -> (d0 + 8, s0)>
#unused = affine_map<(d0) -> (d0 + 7)>
#shifted = affine_map<(d0) -> (d0 + 2)>
#inside = affine_set<(d0)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0)>
func.func @forms(%m: memref<64xf32>, %s: memref<8xf32, #shifted>, %n: index, %x: f32) -> f32 {
  %a = affine.apply #tile(%n)[%n]
  %b = affine.apply affine_map<(d0, d1) -> (d0 floordiv 2 + d1 mod 3)>(%a, %n)
  affine.for %i = 0 to 64 step 4 {
    %v = affine.load %m[%i + 1] : memref<64xf32>
    affine.store %v, %m[(%i + 3) floordiv 2] : memref<64xf32>
  }
  affine.for %i = %n to 16 {
    affine.for %j = max #lo(%i) to min #hi(%i)[%n] {
      %w = affine.load %m[%i * 2 - %j + symbol(%n)] : memref<64xf32>
      affine.store %w, %s[%j mod 8] : memref<8xf32, #shifted>
    }
  }
  %sum = affine.for %i = 0 to 8 iter_args(%acc = %x) -> (f32) {
    %v = affine.load %s[%i] : memref<8xf32, #shifted>
    %t = arith.addf %acc, %v : f32
    affine.yield %t : f32
  }
  %r = affine.if #inside(%a)[%n] -> f32 {
    affine.yield %sum : f32
  } else {
    affine.yield %x : f32
  }
  affine.if affine_set<(d0) : (d0 - 4 == 0)>(%b) {
    affine.store %x, %m[%b] : memref<64xf32>
  }
  %d = gpu.alloc () : memref<64xf32>
  gpu.memcpy %d, %m : memref<64xf32>, memref<64xf32>
  %e = vector.transfer_read %m[%a], %x {in_bounds = [true]} : memref<64xf32>, vector<4xf32>
  gpu.dealloc %d : memref<64xf32>
  return %r : f32
}
