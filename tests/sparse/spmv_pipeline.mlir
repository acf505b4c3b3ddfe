// A CSR SpMV on the GPU: copy in, build handles, size the buffer, multiply,
// copy back, with host work in between (written synchronously).
func.func @spmv(%hrow: memref<?xindex>, %hcol: memref<?xindex>, %hval: memref<?xf64>,
                %hx: memref<?xf64>, %hy: memref<?xf64>, %rows: index, %cols: index, %nnz: index) -> f64 {
  %c0 = arith.constant 0 : index
  %row = gpu.alloc (%rows) : memref<?xindex>
  %col = gpu.alloc (%nnz) : memref<?xindex>
  %val = gpu.alloc (%nnz) : memref<?xf64>
  %x = gpu.alloc (%cols) : memref<?xf64>
  %y = gpu.alloc (%rows) : memref<?xf64>
  gpu.memcpy %row, %hrow : memref<?xindex>, memref<?xindex>
  gpu.memcpy %col, %hcol : memref<?xindex>, memref<?xindex>
  gpu.memcpy %val, %hval : memref<?xf64>, memref<?xf64>
  gpu.memcpy %x, %hx : memref<?xf64>, memref<?xf64>
  %a = gpu.create_csr %rows, %cols, %nnz, %row, %col, %val : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %dx = gpu.create_dn_tensor %x, %cols : index into memref<?xf64>
  %dy = gpu.create_dn_tensor %y, %rows : index into memref<?xf64>
  %sz = gpu.spmv_buffer_size %a{TRANSPOSE}, %dx, %dy into f64
  %buf = gpu.alloc (%sz) : memref<?xi8>
  gpu.spmv %a{TRANSPOSE}, %dx, %dy, %buf : memref<?xi8> into f64
  gpu.destroy_dn_tensor %dx
  gpu.destroy_dn_tensor %dy
  gpu.destroy_sp_mat %a
  gpu.memcpy %hy, %y : memref<?xf64>, memref<?xf64>
  %first = memref.load %hy[%c0] : memref<?xf64>
  gpu.dealloc %buf : memref<?xi8>
  gpu.dealloc %y : memref<?xf64>
  return %first : f64
}
