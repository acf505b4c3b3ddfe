// affine and vector code around launches, with map aliases.

#map = affine_map<(d0) -> (d0 * 4)>
func.func @tiles(%m: memref<64xf32>) {
  affine.for %i = 0 to 16 {
    %o = affine.apply #map(%i)
    %cst = arith.constant 0.0 : f32
    %v = vector.transfer_read %m[%o], %cst : memref<64xf32>, vector<4xf32>
    vector.transfer_write %v, %m[%o] : vector<4xf32>, memref<64xf32>
  }
  %d = gpu.alloc () : memref<64xf32>
  gpu.memcpy %d, %m : memref<64xf32>, memref<64xf32>
  return
}

// -----

func.func @splat(%m: memref<8xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %v = vector.splat %x : vector<8xf32>
  vector.store %v, %m[%c0] : memref<8xf32>, vector<8xf32>
  %d = gpu.alloc () : memref<8xf32>
  gpu.memcpy %d, %m : memref<8xf32>, memref<8xf32>
  return
}

// -----

func.func @bcast(%m: memref<4xf32>, %x: f32) -> f32 {
  %v = vector.broadcast %x : f32 to vector<4xf32>
  %e = vector.extract %v[0] : f32 from vector<4xf32>
  %w = vector.insert %e, %v[1] : f32 into vector<4xf32>
  %d = gpu.alloc () : memref<4xf32>
  gpu.memcpy %d, %m : memref<4xf32>, memref<4xf32>
  return %e : f32
}

// -----

func.func @guarded(%m: memref<16xf32>, %n: index) {
  affine.for %i = 0 to 16 {
    affine.if affine_set<(d0)[s0] : (s0 - d0 - 1 >= 0)>(%i)[%n] {
      %x = affine.load %m[%i] : memref<16xf32>
      affine.store %x, %m[%i + 0] : memref<16xf32>
    }
  }
  %d = gpu.alloc () : memref<16xf32>
  gpu.memcpy %d, %m : memref<16xf32>, memref<16xf32>
  return
}

// -----

func.func @index_math(%a: index, %b: index, %m: memref<?xf32>) {
  %s = index.add %a, %b
  %p = index.mul %s, %b
  %d = gpu.alloc (%p) : memref<?xf32>
  gpu.memcpy %d, %m : memref<?xf32>, memref<?xf32>
  gpu.dealloc %d : memref<?xf32>
  return
}
