// Sizes that cannot exist or cannot fit are errors that name the op and the
// tensor, before anything is allocated, on both backends; never an abort in
// malloc or an empty tensor printed with exit status 0.

// RUN: split-file %s %t

// A type whose size overflows 64 bits is refused by the verifier.
// RUN: not onyx-opt %t/overflow-type.mlir 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: error: 'onnx.ConstantOfShape' op result #0 has type tensor<2147483648x2147483648xf32>, whose size in bytes does not fit in 64 bits
// RUN: not onyx-run %t/overflow-type.mlir --backend=ref 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not onyx-run %t/overflow-type.mlir 2>&1 | FileCheck %s --check-prefix=TYPE

// Shape inference refuses a result too large to exist (from an ONNX model,
// whose types come from inference), and Tile's repeat counts are
// multiplied with an overflow check.
// RUN: onnx-txt2pb %t/constant-of-shape.textproto -o %t/constant-of-shape.onnx
// RUN: not onyx-run %t/constant-of-shape.onnx --backend=ref 2>&1 | FileCheck %s --check-prefix=INFER
// INFER: error: node 'fill' (ConstantOfShape): 'onnx.ConstantOfShape' op result #0 would have type tensor<2147483648x2147483648xf32>, whose size in bytes does not fit in 64 bits
// RUN: onnx-txt2pb %t/tile-overflow.textproto -o %t/tile-overflow.onnx
// RUN: not onyx-run %t/tile-overflow.onnx --backend=ref --input=2x2xf32=1 2>&1 | FileCheck %s --check-prefix=TILE-PRODUCT
// TILE-PRODUCT: error: node 'tile' (Tile): 'onnx.Tile' op result #0 would have type tensor<2199023255552x2199023255552xf32>, whose size in bytes does not fit in 64 bits
// RUN: onnx-txt2pb %t/tile-dim-overflow.textproto -o %t/tile-dim-overflow.onnx
// RUN: not onyx-run %t/tile-dim-overflow.onnx --backend=ref --input=4xf32=1 2>&1 | FileCheck %s --check-prefix=TILE-DIM
// TILE-DIM: error: node 'tile' (Tile): 'onnx.Tile' op operand 'repeats' makes dimension 0 overflow 64 bits

// Sizes that exist but do not fit the memory budget: 2^41 floats (8 TiB).
// RUN: not onyx-run %t/tile-large.mlir --backend=ref --input=2xf32=1 2>&1 | FileCheck %s --check-prefix=REF-BUDGET
// REF-BUDGET: error: 'onnx.Tile' op result #0 (tensor<2199023255552xf32>) needs 8796093022208 bytes; with 0 bytes of tensors live, that exceeds the memory budget of {{[0-9]+}} bytes (--max-memory)
// RUN: not onyx-run %t/tile-large.mlir --input=2xf32=1 2>&1 | FileCheck %s --check-prefix=VK-BUDGET
// VK-BUDGET: error: 'onnx.Tile' op result #0 of type tensor<2199023255552xf32> takes 8796093022208 bytes, more than one binding can hold

// --max-memory sets the budget of either backend.
// RUN: not onyx-run %t/small.mlir --backend=ref --max-memory=24 --input=4xf32=1 2>&1 | FileCheck %s --check-prefix=REF-SMALL
// REF-SMALL: small.mlir:3:8: error: 'onnx.Add' op result #0 (tensor<4xf32>) needs 16 bytes; with 16 bytes of tensors live, that exceeds the memory budget of 24 bytes (--max-memory)
// RUN: onyx-run %t/small.mlir --backend=ref --max-memory=32 --input=4xf32=1 | FileCheck %s --check-prefix=REF-FITS
// REF-FITS: output 0: tensor<4xf32> = [8, 8, 8, 8]
// RUN: not onyx-run %t/small.mlir --max-memory=1 --input=4xf32=1 2>&1 | FileCheck %s --check-prefix=VK-SMALL
// VK-SMALL: error: 'gpu.buffer' op (arena) needs {{[0-9]+}} bytes; with the 0 bytes of the buffers before it, that exceeds the memory budget of 1 bytes (--max-memory)
// RUN: onyx-run %t/small.mlir --max-memory=1M --input=4xf32=1 | FileCheck %s --check-prefix=REF-FITS
// On Vulkan, the error names the tensor that weighs most: the largest
// weight when the weights do not fit, the largest tensor placed at run time
// when a run's shapes make them too many (--input-set compiles once with
// the symbolic dims; generation and single runs take the budget too).
// RUN: not onyx-run %models/mlp.onnx --max-memory=2K --input=@%models/mlp.input_0.npy 2>&1 | FileCheck %s --check-prefix=VK-WEIGHTS
// VK-WEIGHTS: mlp.onnx: error: 'gpu.buffer' op (weights) needs 7728 bytes; with the 1280 bytes of the buffers before it, that exceeds the memory budget of 2048 bytes (--max-memory)
// VK-WEIGHTS: note: loc("net.2.weight"): the largest tensor in it: !gpu.view<32x32xf32>, 4096 bytes
// RUN: not onyx-run %models/dynamic_shapes.onnx --max-memory=300 \
// RUN:   --input-set="@%models/dynamic_shapes.case0.input_0.npy;@%models/dynamic_shapes.case0.input_1.npy" \
// RUN:   2>&1 | FileCheck %s --check-prefix=VK-RUNTIME
// VK-RUNTIME: error: the tensors placed at run time need 768 bytes (the largest, the result of the op at this location: tensor<2x3x8xf32>, 192 bytes); with the 80 bytes of weights and fixed buffers, that exceeds the memory budget of 300 bytes (--max-memory)
// RUN: onyx-run %models/dynamic_shapes.onnx --max-memory=2K \
// RUN:   --input-set="@%models/dynamic_shapes.case0.input_0.npy;@%models/dynamic_shapes.case0.input_1.npy" \
// RUN:   | FileCheck %s --check-prefix=VK-RUNTIME-FITS
// VK-RUNTIME-FITS: output 0: tensor<12x4xf32>
// RUN: not onyx-run %t/small.mlir --max-memory=12X --input=4xf32=1 2>&1 | FileCheck %s --check-prefix=BAD-SIZE
// BAD-SIZE: onyx-run: error: --max-memory expects a positive number of bytes with an optional K, M, G or T suffix, got '12X'
// RUN: not onyx-run %t/small.mlir --max-memory=99999999999T --input=4xf32=1 2>&1 | FileCheck %s --check-prefix=BIG-SIZE
// BIG-SIZE: onyx-run: error: --max-memory expects a positive number of bytes

//--- overflow-type.mlir
func.func @main() -> tensor<2147483648x2147483648xf32> {
  %shape = onnx.Constant dense<[2147483648, 2147483648]> : tensor<2xi64>
  %0 = "onnx.ConstantOfShape"(%shape) : (tensor<2xi64>) -> tensor<2147483648x2147483648xf32>
  return %0 : tensor<2147483648x2147483648xf32>
}

//--- tile-large.mlir
func.func @main(%x: tensor<2xf32>) -> tensor<2199023255552xf32> {
  %repeats = onnx.Constant dense<[1099511627776]> : tensor<1xi64>
  %0 = "onnx.Tile"(%x, %repeats) : (tensor<2xf32>, tensor<1xi64>) -> tensor<2199023255552xf32>
  return %0 : tensor<2199023255552xf32>
}

//--- small.mlir
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "onnx.Add"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Add"(%0, %0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "onnx.Add"(%1, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

//--- constant-of-shape.textproto
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "constant-of-shape"
  node { name: "shape" op_type: "Constant" output: "s"
         attribute { name: "value" type: TENSOR
                     t { dims: 2 data_type: 7 int64_data: 2147483648 int64_data: 2147483648 } } }
  node { name: "fill" op_type: "ConstantOfShape" input: "s" output: "y" }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "a" } dim { dim_param: "b" } } } } }
}

//--- tile-overflow.textproto
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "tile-overflow"
  node { name: "repeats" op_type: "Constant" output: "r"
         attribute { name: "value" type: TENSOR
                     t { dims: 2 data_type: 7 int64_data: 1099511627776 int64_data: 1099511627776 } } }
  node { name: "tile" op_type: "Tile" input: "x" input: "r" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 2 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "a" } dim { dim_param: "b" } } } } }
}

//--- tile-dim-overflow.textproto
ir_version: 8
opset_import { domain: "" version: 13 }
graph {
  name: "tile-dim-overflow"
  node { name: "repeats" op_type: "Constant" output: "r"
         attribute { name: "value" type: TENSOR
                     t { dims: 1 data_type: 7 int64_data: 4611686018427387904 } } }
  node { name: "tile" op_type: "Tile" input: "x" input: "r" output: "y" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 4 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_param: "a" } } } } }
}
