// Data movement kernels against the reference backend on the default
// Vulkan device (lavapipe in CI), with the validation layer: every element
// of a range of distinct values must land where the reference puts it.

// RUN: onyx-run %s --validate --check --input=f32=0 --input=f32=960 \
// RUN:   --input=f32=1 --input=2x3xi64=0,-1,19,-20,5,7 \
// RUN:   --input=5x2xi64=0,1,1,19,0,1,-1,-1,1,3 --input=5x24xf32=0.5 \
// RUN:   --input=i64=2 | FileCheck %s
// CHECK-COUNT-16: vs ref: max abs error 0, max rel error 0: PASS
// CHECK-NOT: FAIL

func.func @main(%start: tensor<f32>, %limit: tensor<f32>, %delta: tensor<f32>,
                %idx: tensor<2x3xi64>, %sidx: tensor<5x2xi64>,
                %upd: tensor<5x24xf32>, %k: tensor<i64>)
    -> (tensor<2x24x20xf32>, tensor<24x2x20xf16>, tensor<20x2x24xi64>,
        tensor<2x40x24xf16>, tensor<2x5x24xi64>, tensor<2x15x24xi64>,
        tensor<2x5x8xf32>, tensor<4x20x48xi16>, tensor<2x25x36xf32>,
        tensor<3x21x54xf16>, tensor<2x22x25xi64>, tensor<2x2x3x24xf32>,
        tensor<2x20x24xf32>, tensor<2x20x24xf32>, tensor<20x48xi1>,
        tensor<8x5xi16>) {
  %flat = "onnx.Range"(%start, %limit, %delta) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<960xf32>
  %shape = onnx.Constant dense<[2, 20, 24]> : tensor<3xi64>
  %x = "onnx.Reshape"(%flat, %shape) : (tensor<960xf32>, tensor<3xi64>) -> tensor<2x20x24xf32>
  %h = "onnx.Cast"(%x) {to = f16} : (tensor<2x20x24xf32>) -> tensor<2x20x24xf16>
  %l = "onnx.Cast"(%x) {to = i64} : (tensor<2x20x24xf32>) -> tensor<2x20x24xi64>
  %s = "onnx.Cast"(%x) {to = i16} : (tensor<2x20x24xf32>) -> tensor<2x20x24xi16>
  %b = "onnx.Cast"(%x) {to = i1} : (tensor<2x20x24xf32>) -> tensor<2x20x24xi1>

  %t0 = "onnx.Transpose"(%x) {perm = [0, 2, 1]} : (tensor<2x20x24xf32>) -> tensor<2x24x20xf32>
  %t1 = "onnx.Transpose"(%h) {perm = [2, 0, 1]} : (tensor<2x20x24xf16>) -> tensor<24x2x20xf16>
  %t2 = "onnx.Transpose"(%l) {perm = [1, 0, 2]} : (tensor<2x20x24xi64>) -> tensor<20x2x24xi64>

  %c = "onnx.Concat"(%h, %h) {axis = 1 : si64} : (tensor<2x20x24xf16>, tensor<2x20x24xf16>) -> tensor<2x40x24xf16>
  %sizes = onnx.Constant dense<[5, 15]> : tensor<2xi64>
  %p:2 = "onnx.Split"(%l, %sizes) {axis = 1 : si64} : (tensor<2x20x24xi64>, tensor<2xi64>) -> (tensor<2x5x24xi64>, tensor<2x15x24xi64>)

  %starts = onnx.Constant dense<[-1, 19]> : tensor<2xi64>
  %ends = onnx.Constant dense<[-100, 0]> : tensor<2xi64>
  %axes = onnx.Constant dense<[2, 1]> : tensor<2xi64>
  %steps = onnx.Constant dense<[-3, -4]> : tensor<2xi64>
  %sl = "onnx.Slice"(%x, %starts, %ends, %axes, %steps) : (tensor<2x20x24xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x5x8xf32>

  %reps = onnx.Constant dense<[2, 1, 2]> : tensor<3xi64>
  %ti = "onnx.Tile"(%s, %reps) : (tensor<2x20x24xi16>, tensor<3xi64>) -> tensor<4x20x48xi16>

  %pads0 = onnx.Constant dense<[0, 3, 5, 0, 2, 7]> : tensor<6xi64>
  %pad0 = "onnx.Pad"(%x, %pads0) {mode = "reflect"} : (tensor<2x20x24xf32>, tensor<6xi64>) -> tensor<2x25x36xf32>
  %pads1 = onnx.Constant dense<[1, 0, 30, 0, 1, 0]> : tensor<6xi64>
  %pad1 = "onnx.Pad"(%h, %pads1) {mode = "wrap"} : (tensor<2x20x24xf16>, tensor<6xi64>) -> tensor<3x21x54xf16>
  %pads2 = onnx.Constant dense<[0, 0, -2, 0, 2, 3]> : tensor<6xi64>
  %pad2 = "onnx.Pad"(%l, %pads2) {mode = "edge"} : (tensor<2x20x24xi64>, tensor<6xi64>) -> tensor<2x22x25xi64>

  %g = "onnx.Gather"(%x, %idx) {axis = 1 : si64} : (tensor<2x20x24xf32>, tensor<2x3xi64>) -> tensor<2x2x3x24xf32>
  %sc = "onnx.ScatterND"(%x, %sidx, %upd) {reduction = "add"} : (tensor<2x20x24xf32>, tensor<5x2xi64>, tensor<5x24xf32>) -> tensor<2x20x24xf32>
  %tr = "onnx.Trilu"(%x, %k) : (tensor<2x20x24xf32>, tensor<i64>) -> tensor<2x20x24xf32>

  // Bools move as bytes; i16 in 4 rows of 2 x 5.
  %bstarts = onnx.Constant dense<[1]> : tensor<1xi64>
  %bends = onnx.Constant dense<[2]> : tensor<1xi64>
  %bslice = "onnx.Slice"(%b, %bstarts, %bends) : (tensor<2x20x24xi1>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x20x24xi1>
  %bshape = onnx.Constant dense<[20, 24]> : tensor<2xi64>
  %b2 = "onnx.Reshape"(%bslice, %bshape) : (tensor<1x20x24xi1>, tensor<2xi64>) -> tensor<20x24xi1>
  %bc = "onnx.Concat"(%b2, %b2) {axis = 1 : si64} : (tensor<20x24xi1>, tensor<20x24xi1>) -> tensor<20x48xi1>
  %sstarts = onnx.Constant dense<[0, 0, 0]> : tensor<3xi64>
  %sends = onnx.Constant dense<[2, 4, 5]> : tensor<3xi64>
  %ss = "onnx.Slice"(%s, %sstarts, %sends) : (tensor<2x20x24xi16>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x4x5xi16>
  %sshape = onnx.Constant dense<[8, 5]> : tensor<2xi64>
  %s2 = "onnx.Reshape"(%ss, %sshape) : (tensor<2x4x5xi16>, tensor<2xi64>) -> tensor<8x5xi16>

  return %t0, %t1, %t2, %c, %p#0, %p#1, %sl, %ti, %pad0, %pad1, %pad2, %g, %sc, %tr, %bc, %s2
      : tensor<2x24x20xf32>, tensor<24x2x20xf16>, tensor<20x2x24xi64>,
        tensor<2x40x24xf16>, tensor<2x5x24xi64>, tensor<2x15x24xi64>,
        tensor<2x5x8xf32>, tensor<4x20x48xi16>, tensor<2x25x36xf32>,
        tensor<3x21x54xf16>, tensor<2x22x25xi64>, tensor<2x2x3x24xf32>,
        tensor<2x20x24xf32>, tensor<2x20x24xf32>, tensor<20x48xi1>,
        tensor<8x5xi16>
}
