// A Loop whose trip count is an input of the run. The reference backend
// runs it: a negative trip count is no iteration (ONNX's `for i < M`), and
// the scan outputs count against --max-memory as they grow, so that a trip
// count too large for the budget fails at the iteration that passes it
// instead of exhausting memory. On Vulkan it is a gpu.loop, its body
// recorded once per iteration for each trip count a run gives (one loaded
// model, several input sets), the scan output allocated at its N rows
// before the loop, so that --max-memory refuses a trip count whose rows do
// not fit before anything runs; a count whose recording would be huge is
// refused before the body is cloned.

// RUN: onyx-run %s --backend=ref --input=i64=3 --input=4xf32=1,2,3,4 | FileCheck %s --check-prefix=THREE
// RUN: onyx-run %s --backend=ref --input=i64=-5 --input=4xf32=1,2,3,4 | FileCheck %s --check-prefix=NONE
// RUN: not onyx-run %s --backend=ref --input=i64=1000000000000 --input=4xf32=1,2,3,4 \
// RUN:   --max-memory=4096 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: onyx-run %s --validate --input-set='i64=-5;4xf32=1,2,3,4' --input-set='i64=1;4xf32=1,2,3,4' \
// RUN:   --input-set='i64=5;4xf32=1,2,3,4' --input-set='i64=1;4xf32=1,2,3,4' \
// RUN:   | FileCheck %s --check-prefix=VULKAN
// RUN: onyx-run %s --input=i64=200 --input=4xf32=1,2,3,4 --max-memory=4096 \
// RUN:   | FileCheck %s --check-prefix=FITS
// RUN: not onyx-run %s --input=i64=1000 --input=4xf32=1,2,3,4 --max-memory=4096 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BUDGET
// RUN: not onyx-run %s --input=i64=1000000000000 --input=4xf32=1,2,3,4 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RECORDED

// Each iteration doubles the carried value and stacks it.
// THREE:      output 0: tensor<4xf32> = [8, 16, 24, 32]
// THREE-NEXT: output 1: tensor<3x4xf32> = [2, 4, 6, 8, 4, 8, 12, 16, ...]

// NONE:      output 0: tensor<4xf32> = [1, 2, 3, 4]
// NONE-NEXT: output 1: tensor<0x4xf32> = []

// 16 bytes a slice: the 257th passes 4096 bytes.
// HUGE: error: 'onnx.Loop' op scan outputs take 4112 bytes after 257 iterations (trip count 1000000000000); with 0 bytes of tensors live, that exceeds the memory budget of 4096 bytes (--max-memory)

// VULKAN:      input set 0:
// VULKAN:      output 0: tensor<4xf32> = [1, 2, 3, 4]
// VULKAN-NEXT: output 1: tensor<0x4xf32> = []
// VULKAN:      input set 1:
// VULKAN:      output 0: tensor<4xf32> = [2, 4, 6, 8]
// VULKAN-NEXT: output 1: tensor<1x4xf32> = [2, 4, 6, 8]
// VULKAN:      input set 2:
// VULKAN:      output 0: tensor<4xf32> = [32, 64, 96, 128]
// VULKAN-NEXT: output 1: tensor<5x4xf32> = [2, 4, 6, 8, 4, 8, 12, 16, ...]
// VULKAN:      input set 3:
// VULKAN:      output 0: tensor<4xf32> = [2, 4, 6, 8]
// VULKAN-NEXT: output 1: tensor<1x4xf32> = [2, 4, 6, 8]

// 200 rows of 16 bytes fit in 4096; 1000 do not, and the error names them.
// FITS: output 1: tensor<200x4xf32>
// BUDGET: error: the tensors placed at run time need 16416 bytes (the largest, the result of the op at this location: tensor<1000x4xf32>, 16000 bytes); with the 0 bytes of weights and fixed buffers, that exceeds the memory budget of 4096 bytes (--max-memory)

// RECORDED: error: 'gpu.loop' op runs 1000000000000 iterations of a body of 8 ops, each recorded on its own: more than the 1048576 ops a run's loops may be recorded as

func.func @main(%m: tensor<i64>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<?x4xf32>) {
  %none = "onnx.NoValue"() {value} : () -> none
  %l:2 = "onnx.Loop"(%m, %none, %x) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<4xf32>):
    %d = "onnx.Add"(%v, %v) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "onnx.Yield"(%cond, %d, %d) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> ()
  }) : (tensor<i64>, none, tensor<4xf32>) -> (tensor<4xf32>, tensor<?x4xf32>)
  return %l#0, %l#1 : tensor<4xf32>, tensor<?x4xf32>
}
