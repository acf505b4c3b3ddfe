// DEVIATION (reference vs mlir19): a block without a terminator (a region
// of an op the registry does not know, the body of a nested builtin.module)
// can end with its token chain open. Upstream keeps one current token for
// the whole walk, so the token leaks into the next block it walks: the
// output fails MLIR's verifier (mlir19 reproduces the error byte for byte;
// tests/refimpl/test_refimpl_mlir19.py compares every chunk with mlir-opt-19). The
// reference closes the chain with a gpu.wait at the end of such a block.
// RUN: %python -m refimpl --allow-unregistered-dialect --split-input-file %s | filecheck %s --check-prefix=REF
// RUN: not %python -m refimpl --allow-unregistered-dialect --mode mlir19 --split-input-file %s 2>&1 | filecheck %s --check-prefix=M19

// The leak reaches the op holding the block: a wait before it uses a token
// defined inside its region.
// REF-LABEL: func.func @child
// REF: "foo.bar"() ({
// REF-NEXT: %[[W:.*]] = gpu.wait async
// REF-NEXT: %[[M:.*]] = gpu.memset async [%[[W]]]
// REF-NEXT: gpu.wait [%[[M]]]
// REF-NEXT: }) : () -> ()
// REF-NEXT: return
// M19: error: operand #0 does not dominate this use
// M19: note: see current operation: "gpu.wait"(%1) : (!gpu.async.token) -> ()
// M19: note: operand defined here (op in a child region)
func.func @child(%m: memref<4xf32>, %c: f32) {
  "foo.bar"() ({
    gpu.memset %m, %c : memref<4xf32>, f32
  }) : () -> ()
  return
}

// -----

// DEVIATION. The leak reaches a sibling region: the alloc in the scf.if depends on it.
// REF-LABEL: func.func @sibling
// REF: builtin.module {
// REF: gpu.alloc async
// REF-NEXT: gpu.wait [
// REF-NEXT: }
// REF: scf.if
// REF-NEXT: %[[W:.*]] = gpu.wait async
// REF-NEXT: gpu.alloc async [%[[W]]]
// M19: error: operand #0 does not dominate this use
// M19: note: operand defined here (op is neither in a parent nor in a child region)
func.func @sibling(%c: i1) {
  builtin.module {
    %x = gpu.alloc () : memref<4xf32>
  }
  scf.if %c {
    %y = gpu.alloc () : memref<4xf32>
  }
  return
}

// -----

// DEVIATION. The leak enters an isolated region (a nested module).
// REF-LABEL: func.func @isolated
// REF: builtin.module {
// REF-NEXT: %[[W:.*]] = gpu.wait async
// REF-NEXT: %{{.*}}, %[[A:.*]] = gpu.alloc async [%[[W]]]
// REF-NEXT: gpu.wait [%[[A]]]
// M19: error: 'gpu.alloc' op using value defined outside the region
// M19: note: see current operation: %0:2 = "gpu.alloc"(<<UNKNOWN SSA VALUE>>)
// M19: note: required by region isolation constraints
func.func @isolated(%c: i1) {
  "foo.x"() ({
    %x = gpu.alloc () : memref<4xf32>
  }) : () -> ()
  builtin.module {
    %y = gpu.alloc () : memref<4xf32>
  }
  return
}

// -----

// DEVIATION. The leak reaches the yield of an async.execute, which phase 2 defers.
// REF-LABEL: func.func @deferred
// REF: "foo.x"() ({
// REF: gpu.wait [
// REF-NEXT: }) : () -> ()
// REF: async.execute {
// REF-NEXT: async.yield
// M19: error: operand #0 does not dominate this use
// M19: note: see current operation: "async.yield"(%3#1) : (!gpu.async.token) -> ()
func.func @deferred(%c: i1) {
  "foo.x"() ({
    %x = gpu.alloc () : memref<4xf32>
  }) : () -> ()
  %t = async.execute {
    async.yield
  }
  async.await %t : !async.token
  return
}

// -----

// A nested module whose body ends with its chain closed is valid upstream.
// REF-LABEL: func.func @closed
// REF: gpu.wait [
// REF-NEXT: "foo.term"() : () -> ()
func.func @closed() {
  builtin.module {
    %x = gpu.alloc () : memref<4xf32>
    "foo.term"() : () -> ()
  }
  return
}
