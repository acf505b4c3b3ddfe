// Every form of these ops, one chunk each
// group: globals, switch with case operands, reductions, extract/insert,
// llvm declarations and calls.

memref.global "private" @g1 : memref<4xf32> = uninitialized
memref.global @g2 : memref<2xi32> = dense<1> {alignment = 64}
memref.global "public" @g3 : memref<f32>
memref.global "private" constant @g4 : memref<2xf32> = dense<[1.0, 2.0]> {alignment = 16 : i64, foo}
func.func @f(%k: i32, %x: f32, %v: vector<4xf32>, %m: memref<8xf32>, %i: index, %w: vector<2x4xf32>) {
  cf.switch %k : i32, [
    default: ^bb1(%x : f32),
    3: ^bb2,
    -1: ^bb1(%x : f32)
  ]
^bb1(%y: f32):
  %a = gpu.all_reduce add %x {} : (f32) -> (f32)
  %b = gpu.all_reduce %x uniform {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    gpu.yield %s : f32
  } : (f32) -> (f32)
  %c = gpu.all_reduce maxnumf %x uniform {} : (f32) -> (f32)
  %e = vector.extract %v[0] : f32 from vector<4xf32>
  %e2 = vector.extract %w[1] : vector<4xf32> from vector<2x4xf32>
  %e3 = vector.extract %w[%i, 2] : f32 from vector<2x4xf32>
  %n = vector.insert %x, %v[1] : f32 into vector<4xf32>
  %n2 = vector.insert %v, %w[%i] : vector<4xf32> into vector<2x4xf32>
  cf.br ^bb2
^bb2:
  return
}

// -----

llvm.mlir.global internal constant @msg("hi\00")
llvm.mlir.global external @cnt(0 : i32) {addr_space = 0 : i32} : i32
llvm.mlir.global private constant @arr(dense<[1, 2]> : tensor<2xi32>) : !llvm.array<2 x i32>
llvm.func @puts(!llvm.ptr) -> i32
llvm.func @free(!llvm.ptr)
llvm.func @mine(i32, f32) -> !llvm.ptr attributes {sym_visibility = "private", passthrough = ["nounwind"]}
llvm.func @vf(!llvm.ptr, ...) -> i32
func.func @f(%x: i32) {
  %p = llvm.mlir.addressof @msg : !llvm.ptr
  %r = llvm.call @puts(%p) : (!llvm.ptr) -> i32
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  %q = llvm.call @vf(%p, %x) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  return
}

// -----

// Pure (view-like) ops keep the token chain open; llvm.call gets a wait.
llvm.func @puts(!llvm.ptr) -> i32
func.func @f(%p: !llvm.ptr, %m: memref<8xf32>, %raw: memref<64xi8>, %v: vector<4xf32>, %c0: index) {
  %d = gpu.alloc () : memref<8xf32>
  %a = llvm.mlir.addressof @puts : !llvm.ptr
  %w = memref.view %raw[%c0][] : memref<64xi8> to memref<16xf32>
  %e = vector.extract %v[0] : f32 from vector<4xf32>
  %fl = memref.collapse_shape %m [[0]] : memref<8xf32> into memref<8xf32>
  gpu.memcpy %d, %m : memref<8xf32>, memref<8xf32>
  %r = llvm.call @puts(%p) : (!llvm.ptr) -> i32
  gpu.dealloc %d : memref<8xf32>
  return
}
