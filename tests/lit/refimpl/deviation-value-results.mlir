// DEVIATION (reference vs mlir19): upstream defers the wait out of an
// async.execute looking only at the users of its !async.token. A value
// result awaited before the token is then available while the body's GPU
// work still runs, and the host reads the buffer the GPU writes. The
// reference defers as upstream does, and makes each user of a value result
// that the host has not already synchronised wait for the deferred token
// too; where a wait already precedes the use (@covered), its output is
// upstream's.
// RUN: %python -m refimpl %s | filecheck %s --check-prefix=REF
// RUN: %python -m refimpl --mode mlir19 %s | filecheck %s --check-prefix=M19
// RUN: %python -m verifier check %s | filecheck %s --check-prefix=VREF
// RUN: not %python -m verifier check --mode mlir19 %s | filecheck %s --check-prefix=V19
// VREF: @leak: verified
// VREF: @token_value: verified
// VREF: @covered: verified
// VREF: @escapes: verified
// V19: @leak: refuted
// V19: @token_value: refuted
// V19: @covered: verified

// REF-LABEL: func.func @leak
// M19-LABEL: func.func @leak
func.func @leak(%m: memref<4xf32>, %c: f32) {
  // REF: %[[T:.*]], %[[R:.*]]:3 = async.execute -> (!async.value<memref<4xf32>>, !async.value<!gpu.async.token>, !async.value<!gpu.async.token>)
  // REF: %[[G:.*]] = gpu.memset async
  // REF-NEXT: async.yield %arg0, %[[G]], %[[G]]
  // M19: async.execute -> (!async.value<memref<4xf32>>, !async.value<!gpu.async.token>)
  // M19-NOT: gpu.wait [
  // M19: async.yield
  %t, %v = async.execute -> !async.value<memref<4xf32>> {
    gpu.memset %m, %c : memref<4xf32>, f32
    async.yield %m : memref<4xf32>
  }
  // REF: async.await %[[R]]#0
  // REF-NEXT: %[[D:.*]] = async.await %[[R]]#2
  // REF-NEXT: arith.constant
  // REF-NEXT: gpu.wait [%[[D]]]
  // REF-NEXT: memref.load
  // M19: async.await
  // M19-NEXT: arith.constant
  // M19-NEXT: memref.load
  %r = async.await %v : !async.value<memref<4xf32>>
  %c0 = arith.constant 0 : index
  %l = memref.load %r[%c0] : memref<4xf32>
  async.await %t : !async.token
  return
}

// A yielded !gpu.async.token awaited by the host also waits for the whole
// body. Upstream defers the body's wait to the execute's token users only,
// so nothing waits for the memset before `return`; the reference makes the
// await of the value result wait for the deferred token too.
// REF-LABEL: func.func @token_value
// M19-LABEL: func.func @token_value
func.func @token_value(%m: memref<4xf32>, %c: f32) {
  // REF: %[[T:.*]], %[[R:.*]]:3 = async.execute
  // M19: %[[T:.*]], %[[R:.*]]:2 = async.execute
  %t, %v = async.execute -> !async.value<!gpu.async.token> {
    gpu.memset %m, %c : memref<4xf32>, f32
    %w = gpu.wait async
    async.yield %w : !gpu.async.token
  }
  %t2 = async.execute [%t] {
    async.yield
  }
  // REF: async.await %[[R]]#0
  // REF-NEXT: %[[D:.*]] = async.await %[[R]]#2
  // REF-NEXT: gpu.wait [%[[D]]]
  // REF-NEXT: return
  // M19: async.await %[[R]]#0
  // M19-NEXT: return
  %x = async.await %v : !async.value<!gpu.async.token>
  return
}

// The token is awaited first: its await waits for the deferred token before
// the value is read, so upstream is right and the reference prints the same.
// REF-LABEL: func.func @covered
// REF: async.await %token
// REF-NEXT: %[[D:.*]] = async.await %bodyResults#1
// REF-NEXT: gpu.wait [%[[D]]]
// REF-NEXT: async.await %bodyResults#0
// REF-NEXT: arith.constant
// REF-NEXT: memref.load
func.func @covered(%m: memref<4xf32>, %c: f32) {
  %t, %v = async.execute -> !async.value<memref<4xf32>> {
    gpu.memset %m, %c : memref<4xf32>, f32
    async.yield %m : memref<4xf32>
  }
  async.await %t : !async.token
  %r = async.await %v : !async.value<memref<4xf32>>
  %c0 = arith.constant 0 : index
  %l = memref.load %r[%c0] : memref<4xf32>
  return
}

// The value result escapes through `return` while only another execute
// waits for the token: a caller awaiting it could read the buffer during
// the memset. Upstream returns it unsynchronised (the verifier does not yet
// see this); the reference waits before `return`.
// REF-LABEL: func.func @escapes
// REF: async.execute [%token] (%bodyResults#1 as
// REF: %[[D:.*]] = async.await %bodyResults#2
// REF-NEXT: gpu.wait [%[[D]]]
// REF-NEXT: return %bodyResults#0
// M19-LABEL: func.func @escapes
// M19: async.execute [%token] (%bodyResults#1 as
// M19: async.yield
// M19-NEXT: }
// M19-NEXT: return %bodyResults#0
func.func @escapes(%m: memref<4xf32>, %c: f32) -> !async.value<memref<4xf32>> {
  %t, %v = async.execute -> !async.value<memref<4xf32>> {
    gpu.memset %m, %c : memref<4xf32>, f32
    async.yield %m : memref<4xf32>
  }
  %t2 = async.execute [%t] {
    async.yield
  }
  return %v : !async.value<memref<4xf32>>
}
