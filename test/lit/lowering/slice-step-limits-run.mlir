// Slice with steps, starts and ends at the int64 limits on Vulkan, against the
// reference backend with the validation layer: a step longer than the dim
// takes one element, as ONNX says, whether the step is a constant (the dim
// static or known only at run time) or an input of the run. The lowering
// bounds such a step by the dim before it counts the elements and multiplies
// the step by the dim's stride, which overflowed 64 bits before (a count of 0
// for a static dim; on the host an error of the run for a step given then).

// RUN: onyx-run %s --validate --check \
// RUN:   --input-set='3x4xf32=0,1,2,3,4,5,6,7,8,9,10,11;2x3xf32=0,1,2,3,4,5;2xi64=9223372036854775807,-9223372036854775808;2xi64=9223372036854775807,-9223372036854775808' \
// RUN:   --input-set='3x4xf32=0,1,2,3,4,5,6,7,8,9,10,11;2x3xf32=0,1,2,3,4,5;2xi64=-9223372036854775808,9223372036854775807;2xi64=-9223372036854775808,9223372036854775807' \
// RUN:   | FileCheck %s

// CHECK: input set 0:
// CHECK-NEXT: output 0: tensor<2x1xf32> = [4, 8]
// CHECK-NEXT: output 1: tensor<1x1xf32> = [11]
// CHECK-NEXT: output 2: tensor<1x3xf32> = [0, 1, 2]
// CHECK-NEXT: output 3: tensor<1x3xf32> = [3, 4, 5]
// CHECK-NEXT: output 4: tensor<1x1xf32> = [7]
// CHECK-COUNT-5: vs ref: max abs error 0, max rel error 0: PASS
// CHECK: input set 1:
// CHECK-NEXT: output 0: tensor<2x1xf32> = [4, 8]
// CHECK-NEXT: output 1: tensor<1x1xf32> = [11]
// CHECK-NEXT: output 2: tensor<1x3xf32> = [0, 1, 2]
// CHECK-NEXT: output 3: tensor<1x3xf32> = [3, 4, 5]
// CHECK-NEXT: output 4: tensor<1x1xf32> = [7]
// CHECK-COUNT-5: vs ref: max abs error 0, max rel error 0: PASS
// CHECK-NOT: FAIL

func.func @main(%x: tensor<3x4xf32>, %y: tensor<?x3xf32>, %steps: tensor<2xi64>, %ends: tensor<2xi64>) -> (tensor<2x1xf32>, tensor<1x1xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x?xf32>) {
  %max = onnx.Constant dense<9223372036854775807> : tensor<1xi64>
  %min = onnx.Constant dense<-9223372036854775808> : tensor<1xi64>
  %axis0 = onnx.Constant dense<0> : tensor<1xi64>
  %axes = onnx.Constant dense<[0, 1]> : tensor<2xi64>
  // Rows 1 and 2, column 0: a step of INT64_MAX along the second axis.
  %s0 = onnx.Constant dense<[1, 0]> : tensor<2xi64>
  %e0 = onnx.Constant dense<9223372036854775807> : tensor<2xi64>
  %st0 = onnx.Constant dense<[1, 9223372036854775807]> : tensor<2xi64>
  %0 = "onnx.Slice"(%x, %s0, %e0, %axes, %st0) : (tensor<3x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x1xf32>
  // The last element, from INT64_MAX down in steps of INT64_MIN.
  %s1 = onnx.Constant dense<[-1, 9223372036854775807]> : tensor<2xi64>
  %e1 = onnx.Constant dense<-9223372036854775808> : tensor<2xi64>
  %1 = "onnx.Slice"(%x, %s1, %e1, %axes, %e1) : (tensor<3x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1xf32>
  // A dim known only at run time: its first and its last row.
  %2 = "onnx.Slice"(%y, %min, %max, %axis0, %max) : (tensor<?x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x3xf32>
  %3 = "onnx.Slice"(%y, %max, %min, %axis0, %min) : (tensor<?x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x3xf32>
  // Steps and ends given at run time: row 1, column 3 whatever their signs.
  %s4 = onnx.Constant dense<[1, -1]> : tensor<2xi64>
  %4 = "onnx.Slice"(%x, %s4, %ends, %axes, %steps) : (tensor<3x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0, %1, %2, %3, %4 : tensor<2x1xf32>, tensor<1x1xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x?xf32>
}
