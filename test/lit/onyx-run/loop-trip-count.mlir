// A Loop whose trip count is an input of the run. The reference backend
// runs it: a negative trip count is no iteration (ONNX's `for i < M`), and
// the scan outputs count against --max-memory as they grow, so that a trip
// count too large for the budget fails at the iteration that passes it
// instead of exhausting memory. On Vulkan a loop runs unrolled, so a trip
// count known only at run time is an error at the op.

// RUN: onyx-run %s --backend=ref --input=i64=3 --input=4xf32=1,2,3,4 | FileCheck %s --check-prefix=THREE
// RUN: onyx-run %s --backend=ref --input=i64=-5 --input=4xf32=1,2,3,4 | FileCheck %s --check-prefix=NONE
// RUN: not onyx-run %s --backend=ref --input=i64=1000000000000 --input=4xf32=1,2,3,4 \
// RUN:   --max-memory=4096 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not onyx-run %s --input=i64=3 --input=4xf32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=VULKAN

// Each iteration doubles the carried value and stacks it.
// THREE:      output 0: tensor<4xf32> = [8, 16, 24, 32]
// THREE-NEXT: output 1: tensor<3x4xf32> = [2, 4, 6, 8, 4, 8, 12, 16, ...]

// NONE:      output 0: tensor<4xf32> = [1, 2, 3, 4]
// NONE-NEXT: output 1: tensor<0x4xf32> = []

// 16 bytes a slice: the 257th passes 4096 bytes.
// HUGE: error: 'onnx.Loop' op scan outputs take 4112 bytes after 257 iterations (trip count 1000000000000); with 0 bytes of tensors live, that exceeds the memory budget of 4096 bytes (--max-memory)

// VULKAN: error: 'onnx.Loop' op has a trip count computed at run time

func.func @main(%m: tensor<i64>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<?x4xf32>) {
  %none = "onnx.NoValue"() {value} : () -> none
  %l:2 = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<4xf32>):
    %d = "onnx.Add"(%v, %v) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "onnx.Yield"(%cond, %d, %d) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> ()
  }) : (tensor<i64>, none, tensor<4xf32>) -> (tensor<4xf32>, tensor<?x4xf32>)
  return %l#0, %l#1 : tensor<4xf32>, tensor<?x4xf32>
}
