// RUN: onyx-opt %s --split-input-file --verify-diagnostics

// Mistakes in IR with dynamic dimensions, and the errors that point at them.

func.func @main(%arg0: tensor<?x4xf32>) {
  %n = gpu.dim %arg0[0] : tensor<?x4xf32>
  // expected-error @+1 {{'gpu.alloc' op takes 2 dimension values but !gpu.view<?x4xf32> has 1 dynamic dimensions}}
  %x = gpu.alloc(%n, %n) : !gpu.view<?x4xf32>
  return
}

// -----

func.func @main(%arg0: tensor<?x4xf32>) {
  // expected-error @+1 {{'gpu.dim' op dimension 2 is out of range for rank 2}}
  %n = gpu.dim %arg0[2] : tensor<?x4xf32>
  return
}

// -----

func.func @main(%arg0: tensor<?xi64>) {
  // expected-error @+1 {{'gpu.extract' op reads an integer or float tensor of static shape, got tensor<?xi64>}}
  %n = gpu.extract %arg0[0] : tensor<?xi64>
  return
}

// -----

func.func @main(%arg0: tensor<2xi64>) {
  %c = gpu.constant 4
  // expected-error @+1 {{'gpu.scale_dim' op reads a float tensor of static shape, got tensor<2xi64>}}
  %n = gpu.scale_dim %c, %arg0[0] : tensor<2xi64>
  return
}

// -----

func.func @main(%arg0: tensor<2xf32>) {
  %c = gpu.constant 4
  // expected-error @+1 {{'gpu.scale_dim' op element 2 is out of range for tensor<2xf32>}}
  %n = gpu.scale_dim %c, %arg0[2] : tensor<2xf32>
  return
}

// -----

func.func @main(%arg0: tensor<2xf32>) {
  %c = gpu.constant 4
  %v = gpu.alloc() : !gpu.view<2xf32>
  // expected-error @+1 {{'gpu.scale_dim' op reads an argument of the enclosing func.func}}
  %n = "gpu.scale_dim"(%c, %v) {index = 0 : i64} : (index, !gpu.view<2xf32>) -> index
  return
}

// -----

func.func @main(%arg0: tensor<2xi64>) {
  // expected-error @+1 {{'gpu.extract' op element 2 is out of range for tensor<2xi64>}}
  %n = gpu.extract %arg0[2] : tensor<2xi64>
  return
}

// -----

// Memory buffer planning placed has a fixed layout.
func.func @main(%arg0: tensor<?x4xf32>) {
  %arena = gpu.buffer arena : !gpu.buffer<256>
  %n = gpu.dim %arg0[0] : tensor<?x4xf32>
  // expected-error @+1 {{'gpu.view' op with a run-time offset or size must be a view of a gpu.alloc}}
  %x = gpu.view %arena[0](%n) : !gpu.buffer<256> to !gpu.view<?x4xf32>
  return
}

// -----

gpu.kernel @k(read) workgroup_size(64, 1, 1) push_constants(f32) glsl("void main() {}")
func.func @main(%arg0: tensor<?x4xf32>) {
  %n = gpu.dim %arg0[0] : tensor<?x4xf32>
  %x = gpu.alloc(%n) : !gpu.view<?x4xf32>
  // expected-error @+1 {{'gpu.dispatch' op push constant #0 of type f32 cannot be given by an index value}}
  gpu.dispatch @k[1, 1, 1](%x) push(%n) : !gpu.view<?x4xf32>
  return
}

// -----

gpu.kernel @k(read) workgroup_size(64, 1, 1) glsl("void main() {}")
func.func @main(%arg0: tensor<?x4xf32>) {
  %n = gpu.dim %arg0[0] : tensor<?x4xf32>
  %x = gpu.alloc(%n) : !gpu.view<?x4xf32>
  // expected-error @+1 {{'gpu.dispatch' op kernel @k has 1 bindings but 2 views are bound}}
  gpu.dispatch @k[%n, 1, 1](%x, %x) : !gpu.view<?x4xf32>, !gpu.view<?x4xf32>
  return
}

// -----

func.func @main(%arg0: tensor<?x4xf32>) {
  // expected-error @+1 {{expected 3 entries}}
  gpu.dispatch @k[1, 1](%arg0) : tensor<?x4xf32>
  return
}

// -----

func.func @main(%arg0: tensor<?x4xf32>) {
  %n = gpu.dim %arg0[0] : tensor<?x4xf32>
  // expected-error @+1 {{'gpu.select' op takes three index operands}}
  %s = gpu.select %n, %n
  return
}

// -----

func.func @main(%arg0: tensor<?x4xf32>) {
  %n = gpu.dim %arg0[0] : tensor<?x4xf32>
  // expected-error @+1 {{'gpu.assert' op takes a condition, index values and a 'message'}}
  gpu.assert %n
  return
}

// -----

func.func @main(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<2xf32>) {
  // expected-error @+1 {{'gpu.range_count' op reads three float tensors of one element and one type, got tensor<2xf32>}}
  %n = "gpu.range_count"(%arg0, %arg1, %arg2) : (tensor<f32>, tensor<f32>, tensor<2xf32>) -> index
  return
}

// -----

func.func @main(%arg0: tensor<i64>) {
  // expected-error @+1 {{'gpu.range_count' op reads three float tensors of one element and one type, got tensor<i64>}}
  %n = gpu.range_count %arg0, %arg0, %arg0 : tensor<i64>
  return
}

// -----

func.func @main() {
  %v = gpu.alloc() : !gpu.view<2xi32>
  // expected-error @+1 {{'gpu.read_count' op reads a view of one i32 or i64 element, got !gpu.view<2xi32>}}
  %n = gpu.read_count %v : !gpu.view<2xi32>
  return
}

// -----

func.func @main() {
  %v = gpu.alloc() : !gpu.view<1xf32>
  // expected-error @+1 {{'gpu.read_count' op reads a view of one i32 or i64 element, got !gpu.view<1xf32>}}
  %n = gpu.read_count %v : !gpu.view<1xf32>
  return
}

// -----

// gpu.loop's body is recorded once per iteration: no transfer with the
// host, nested loop or read-back may be in it.
func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<i64>) -> tensor<4xf32> {
  %n = gpu.extract %arg1[0] : tensor<i64>
  %x = gpu.alloc : !gpu.view<4xf32>
  gpu.loop %n (%i: index) {
    // expected-error @+1 {{'gpu.upload' op cannot be in the body of a gpu.loop, which the runtime records once per iteration}}
    gpu.upload %arg0, %x : tensor<4xf32> to !gpu.view<4xf32>
  }
  %r = gpu.download %x : !gpu.view<4xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @main(%arg0: tensor<i64>) {
  %n = gpu.extract %arg0[0] : tensor<i64>
  gpu.loop %n (%i: index) {
    // expected-error @+1 {{'gpu.loop' op cannot be in the body of a gpu.loop, which the runtime records once per iteration}}
    gpu.loop %i (%j: index) {
    }
  }
  return
}

// -----

func.func @main(%arg0: tensor<i64>) {
  %n = gpu.extract %arg0[0] : tensor<i64>
  // expected-error @+1 {{'gpu.loop' op expects one index operand, the trip count}}
  "gpu.loop"(%arg0) ({
  ^bb0(%i: index):
  }) : (tensor<i64>) -> ()
  return
}
