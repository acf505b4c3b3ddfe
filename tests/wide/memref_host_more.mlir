// Host-side buffer management around GPU work: a scratch allocation scoped
// to one step, a buffer grown with realloc, metadata extracted for a
// runtime call, a view reshaped and transposed for the device, and a
// prefetch before reading the result back.

func.func private @record_layout(memref<f32>, index, index, index, index, index)
func.func @stage(%host: memref<256xf32>, %shape: memref<2xindex>, %grow_to: index, %tag: memref<1xi32>) -> index {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  memref.assume_alignment %host, 64 : memref<256xf32>
  %dev = gpu.alloc () : memref<256xf32>
  gpu.memcpy %dev, %host : memref<256xf32>, memref<256xf32>
  %checksum = memref.alloca_scope -> (f32) {
    %scratch = memref.alloca() : memref<16xf32>
    %v = memref.load %host[%c0] : memref<256xf32>
    memref.store %v, %scratch[%c0] : memref<16xf32>
    %w = memref.load %scratch[%c0] : memref<16xf32>
    memref.alloca_scope.return %w : f32
  }
  %grid = memref.reshape %host(%shape) : (memref<256xf32>, memref<2xindex>) -> memref<?x?xf32>
  %tile = memref.reinterpret_cast %host to offset: [0], sizes: [16, 16], strides: [16, 1] : memref<256xf32> to memref<16x16xf32>
  %tt = memref.transpose %tile (i, j) -> (j, i) : memref<16x16xf32> to memref<16x16xf32, strided<[1, 16]>>
  %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %tile : memref<16x16xf32> -> memref<f32>, index, index, index, index, index
  call @record_layout(%base, %off, %sizes#0, %sizes#1, %strides#0, %strides#1) : (memref<f32>, index, index, index, index, index) -> ()
  %ptr = memref.extract_aligned_pointer_as_index %host : memref<256xf32> -> index
  %rank = memref.rank %grid : memref<?x?xf32>
  gpu.memcpy %host, %dev : memref<256xf32>, memref<256xf32>
  memref.prefetch %host[%c16], read, locality<3>, data : memref<256xf32>
  %bigger = memref.realloc %host(%grow_to) : memref<256xf32> to memref<?xf32>
  %global = memref.memory_space_cast %bigger : memref<?xf32> to memref<?xf32, 1>
  %staged = memref.alloc() : memref<256xf32, 1>
  memref.dma_start %host[%c0], %staged[%c0], %c256, %tag[%c0] : memref<256xf32>, memref<256xf32, 1>, memref<1xi32>
  memref.dma_wait %tag[%c0], %c256 : memref<1xi32>
  gpu.dealloc %dev : memref<256xf32>
  %r = arith.addi %ptr, %rank : index
  return %r : index
}

// -----

// A histogram kernel whose bins are updated with generic_atomic_rmw (a
// saturating add the plain atomic_rmw kinds cannot express); the host
// zeroes the bins inside a scoped allocation step.

module attributes {gpu.container_module} {
  gpu.module @hist {
    gpu.func @saturating_hist(%data: memref<4096xi32>, %bins: memref<64xi32>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %data[%i] : memref<4096xi32>
      %c63 = arith.constant 63 : i32
      %masked = arith.andi %v, %c63 : i32
      %bin = arith.index_cast %masked : i32 to index
      %old = memref.generic_atomic_rmw %bins[%bin] : memref<64xi32> {
      ^bb0(%cur: i32):
        %one = arith.constant 1 : i32
        %cap = arith.constant 1000000 : i32
        %sum, %ovf = arith.addui_extended %cur, %one : i32, i1
        %sat = arith.minui %sum, %cap : i32
        %res = arith.select %ovf, %cap, %sat : i32
        memref.atomic_yield %res : i32
      }
      gpu.return
    }
  }
  func.func @histogram(%data: memref<4096xi32>, %bins: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %dd = gpu.alloc () : memref<4096xi32>
    %db = gpu.alloc () : memref<64xi32>
    %zero = arith.constant 0 : i32
    gpu.memset %db, %zero : memref<64xi32>, i32
    gpu.memcpy %dd, %data : memref<4096xi32>, memref<4096xi32>
    gpu.launch_func @hist::@saturating_hist blocks in (%c16, %c1, %c1) threads in (%c256, %c1, %c1) args(%dd : memref<4096xi32>, %db : memref<64xi32>)
    gpu.memcpy %bins, %db : memref<64xi32>, memref<64xi32>
    gpu.dealloc %dd : memref<4096xi32>
    gpu.dealloc %db : memref<64xi32>
    return
  }
}
