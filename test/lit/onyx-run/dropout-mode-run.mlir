// Dropout's training_mode known only at run time: a flag of one element is
// read (false: the identity); an empty one is an error naming the node, not
// a read past its end (a fuzz finding).
// RUN: onyx-run %s --backend=ref --input=2xf32=1,2 --input=1xi1=0 | FileCheck %s
// CHECK: output 0: tensor<2xf32> = [1, 2]
// RUN: not onyx-run %s --backend=ref --input=2xf32=1,2 --input=0xi1= 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: 'onnx.Dropout' op training_mode must have one element, got 0

func.func @main(%x: tensor<2xf32>, %mode: tensor<?xi1>) -> tensor<2xf32> {
  %none = "onnx.NoValue"() {value} : () -> none
  %0:2 = "onnx.Dropout"(%x, %none, %mode) : (tensor<2xf32>, none, tensor<?xi1>) -> (tensor<2xf32>, tensor<2xi1>)
  return %0#0 : tensor<2xf32>
}
