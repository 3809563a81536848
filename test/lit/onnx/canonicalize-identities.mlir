// Floating-point identities of the elementwise ops: only those that hold in
// IEEE arithmetic for every input (signed zeros, NaN, infinities) apply, as
// in MLIR's arith dialect, and only where the result keeps the operand's
// type. Constants move to the right of commutative ops. The second run adds
// CSE, which merges commutative ops whose operands differ only in order.
// RUN: onyx-opt %s --split-input-file --canonicalize | FileCheck %s
// RUN: onyx-opt %s --split-input-file --canonicalize --cse | FileCheck %s --check-prefix=CSE

// x + -0.0 is x, on either side.
// CHECK-LABEL: func.func @add_negative_zero
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]], %[[X]]
func.func @add_negative_zero(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %z = onnx.Constant dense<-0.0> : tensor<f32>
  %0 = "onnx.Add"(%x, %z) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = "onnx.Add"(%z, %x) : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// x + 0.0 is not x: -0.0 + 0.0 is +0.0. The constant only moves right.
// CHECK-LABEL: func.func @add_positive_zero_kept
// CHECK: %[[Z:.+]] = onnx.Constant dense<0.000000e+00>
// CHECK: "onnx.Add"(%arg0, %[[Z]])
// CHECK: "onnx.Add"(%arg0, %[[Z]])
func.func @add_positive_zero_kept(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %z = onnx.Constant dense<0.0> : tensor<f32>
  %0 = "onnx.Add"(%x, %z) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = "onnx.Add"(%z, %x) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Integers have one zero: x + 0 is x.
// CHECK-LABEL: func.func @add_integer_zero
// CHECK-NEXT: return %arg0
func.func @add_integer_zero(%x: tensor<4xi64>) -> tensor<4xi64> {
  %z = onnx.Constant dense<0> : tensor<i64>
  %0 = "onnx.Add"(%x, %z) : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// An identity that broadcasts the operand to a larger shape is kept: the
// result is not the operand.
// CHECK-LABEL: func.func @add_negative_zero_broadcast
// CHECK: "onnx.Add"
func.func @add_negative_zero_broadcast(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %z = onnx.Constant dense<-0.0> : tensor<2x3xf32>
  %0 = "onnx.Add"(%x, %z) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// x - 0.0 is x; x - -0.0 is not (it maps -0.0 to +0.0); x - x is not 0 (NaN).
// CHECK-LABEL: func.func @sub
// CHECK-DAG: %[[NZ:.+]] = onnx.Constant dense<-0.000000e+00>
// CHECK-DAG: %[[S1:.+]] = "onnx.Sub"(%arg0, %[[NZ]])
// CHECK-DAG: %[[S2:.+]] = "onnx.Sub"(%arg0, %arg0)
// CHECK: return %arg0, %[[S1]], %[[S2]]
func.func @sub(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %z = onnx.Constant dense<0.0> : tensor<f32>
  %nz = onnx.Constant dense<-0.0> : tensor<f32>
  %0 = "onnx.Sub"(%x, %z) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = "onnx.Sub"(%x, %nz) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = "onnx.Sub"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// x * 1 and 1 * x are x; x / 1 is x.
// CHECK-LABEL: func.func @mul_div_one
// CHECK-NEXT: return %arg0, %arg0, %arg0
func.func @mul_div_one(%x: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xf16>, tensor<4xf16>) {
  %one = onnx.Constant dense<1.0> : tensor<1xf16>
  %0 = "onnx.Mul"(%x, %one) : (tensor<4xf16>, tensor<1xf16>) -> tensor<4xf16>
  %1 = "onnx.Mul"(%one, %x) : (tensor<1xf16>, tensor<4xf16>) -> tensor<4xf16>
  %2 = "onnx.Div"(%x, %one) : (tensor<4xf16>, tensor<1xf16>) -> tensor<4xf16>
  return %0, %1, %2 : tensor<4xf16>, tensor<4xf16>, tensor<4xf16>
}

// -----

// x * 0 is not 0 (NaN, infinities, -0.0 give other results); x * -1 and
// 1 / x are kept as well, as MLIR's arith dialect keeps them.
// CHECK-LABEL: func.func @mul_kept
// CHECK: "onnx.Mul"(%arg0
// CHECK: "onnx.Mul"(%arg0
// CHECK: "onnx.Div"
func.func @mul_kept(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = onnx.Constant dense<0.0> : tensor<f32>
  %minus = onnx.Constant dense<-1.0> : tensor<f32>
  %one = onnx.Constant dense<1.0> : tensor<f32>
  %0 = "onnx.Mul"(%x, %zero) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = "onnx.Mul"(%x, %minus) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = "onnx.Div"(%one, %x) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// -(-x) is x.
// CHECK-LABEL: func.func @double_negation
// CHECK-NEXT: return %arg0
func.func @double_negation(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "onnx.Neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Neg"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// (-a) * (-b) is a * b and (-a) / (-b) is a / b; the negations die.
// CHECK-LABEL: func.func @cancel_negations
// CHECK-NEXT: %[[M:.+]] = "onnx.Mul"(%arg0, %arg1)
// CHECK-NEXT: %[[D:.+]] = "onnx.Div"(%arg0, %arg1)
// CHECK-NEXT: return %[[M]], %[[D]]
func.func @cancel_negations(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %na = "onnx.Neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %nb = "onnx.Neg"(%b) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = "onnx.Mul"(%na, %nb) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Div"(%na, %nb) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A single negation stays.
// CHECK-LABEL: func.func @one_negation_kept
// CHECK: "onnx.Neg"
// CHECK: "onnx.Mul"
func.func @one_negation_kept(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %na = "onnx.Neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = "onnx.Mul"(%na, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Constants move to the right of commutative ops, not of the others.
// CHECK-LABEL: func.func @constant_to_right
// CHECK: %[[C:.+]] = onnx.Constant dense<2.000000e+00>
// CHECK: "onnx.Mul"(%arg0, %[[C]])
// CHECK: "onnx.Sub"(%[[C]], %arg0)
// CHECK: "onnx.Equal"(%arg0, %[[C]])
func.func @constant_to_right(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi1>) {
  %c = onnx.Constant dense<2.0> : tensor<f32>
  %0 = "onnx.Mul"(%c, %x) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Sub"(%c, %x) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "onnx.Equal"(%c, %x) : (tensor<f32>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xi1>
}

// -----

// Identity, and Clip without bounds, are no-ops.
// CHECK-LABEL: func.func @identity
// CHECK-NEXT: return %arg0, %arg0
func.func @identity(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %none = "onnx.NoValue"() {value} : () -> none
  %0 = "onnx.Identity"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Clip"(%x, %none, %none) : (tensor<4xf32>, none, none) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// max(x, x) and min(x, x) are x for every x, NaN and signed zeros included.
// CHECK-LABEL: func.func @max_min_same_operand
// CHECK-NEXT: return %arg0, %arg0
func.func @max_min_same_operand(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "onnx.Max"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Min"(%x, %x, %x) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// max(x, -inf) and min(x, +inf) are x for every float x, NaN included.
// CHECK-LABEL: func.func @max_min_infinity
// CHECK-NEXT: return %arg0, %arg0
func.func @max_min_infinity(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %ninf = onnx.Constant dense<0xFF800000> : tensor<4xf32>
  %inf = onnx.Constant dense<0x7F800000> : tensor<4xf32>
  %0 = "onnx.Max"(%x, %ninf) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Min"(%inf, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// The other infinity is no identity: max(x, +inf) is +inf, not x; nor is the
// largest finite value, and a broadcasting constant changes the shape.
// CHECK-LABEL: func.func @max_min_infinity_kept
// CHECK: "onnx.Max"(%arg0, %{{.*}})
// CHECK: "onnx.Min"(%arg0, %{{.*}})
// CHECK: "onnx.Max"(%arg1, %{{.*}})
func.func @max_min_infinity_kept(%x: tensor<4xf32>, %s: tensor<1xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %inf = onnx.Constant dense<0x7F800000> : tensor<4xf32>
  %big = onnx.Constant dense<3.40282347E+38> : tensor<4xf32>
  %ninf = onnx.Constant dense<0xFF800000> : tensor<4xf32>
  %0 = "onnx.Max"(%x, %inf) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Min"(%x, %big) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "onnx.Max"(%s, %ninf) : (tensor<1xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Max and Min with different operands are kept.
// CHECK-LABEL: func.func @max_min_kept
// CHECK: "onnx.Max"(%arg0, %arg1)
// CHECK: "onnx.Min"(%arg0, %arg0, %arg1)
func.func @max_min_kept(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "onnx.Max"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Min"(%x, %x, %y) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Max and Min are IEEE 754-2019 maximum and minimum: -0.0 orders below +0.0
// whatever the operands' order, so max(-0.0, 0.0) and max(0.0, -0.0) fold to
// 0.0, min of both to -0.0, for every float type.
// CHECK-LABEL: func.func @max_min_signed_zeros
// CHECK-DAG: %[[NZ:.+]] = onnx.Constant dense<-0.000000e+00> : tensor<4xf32>
// CHECK-DAG: %[[Z:.+]] = onnx.Constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-DAG: %[[H:.+]] = onnx.Constant dense<[0.000000e+00, 0.000000e+00, -0.000000e+00, 1.000000e+00]> : tensor<4xf16>
// CHECK-DAG: %[[HN:.+]] = onnx.Constant dense<[-0.000000e+00, -0.000000e+00, -0.000000e+00, -1.000000e+00]> : tensor<4xf16>
// CHECK-DAG: %[[B:.+]] = onnx.Constant dense<0.000000e+00> : tensor<2xbf16>
// CHECK-DAG: %[[BN:.+]] = onnx.Constant dense<-0.000000e+00> : tensor<2xbf16>
// CHECK-DAG: %[[D:.+]] = onnx.Constant dense<0.000000e+00> : tensor<f64>
// CHECK-DAG: %[[DN:.+]] = onnx.Constant dense<-0.000000e+00> : tensor<f64>
// CHECK: return %[[Z]], %[[Z]], %[[NZ]], %[[NZ]], %[[H]], %[[H]], %[[HN]], %[[HN]], %[[B]], %[[BN]], %[[D]], %[[DN]]
func.func @max_min_signed_zeros() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<f64>, tensor<f64>) {
  %nz = onnx.Constant dense<-0.0> : tensor<4xf32>
  %z = onnx.Constant dense<0.0> : tensor<4xf32>
  %0 = "onnx.Max"(%nz, %z) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Max"(%z, %nz) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "onnx.Min"(%nz, %z) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = "onnx.Min"(%z, %nz) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %ha = onnx.Constant dense<[-0.0, 0.0, -0.0, 1.0]> : tensor<4xf16>
  %hb = onnx.Constant dense<[0.0, -0.0, -0.0, -1.0]> : tensor<4xf16>
  %4 = "onnx.Max"(%ha, %hb) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %5 = "onnx.Max"(%hb, %ha) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %6 = "onnx.Min"(%ha, %hb) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %7 = "onnx.Min"(%hb, %ha) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %ba = onnx.Constant dense<[-0.0, 0.0]> : tensor<2xbf16>
  %bb = onnx.Constant dense<[0.0, -0.0]> : tensor<2xbf16>
  %8 = "onnx.Max"(%ba, %bb) : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<2xbf16>
  %9 = "onnx.Min"(%ba, %bb) : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<2xbf16>
  %da = onnx.Constant dense<-0.0> : tensor<f64>
  %db = onnx.Constant dense<0.0> : tensor<f64>
  %10 = "onnx.Max"(%da, %db, %da) : (tensor<f64>, tensor<f64>, tensor<f64>) -> tensor<f64>
  %11 = "onnx.Min"(%db, %da, %db) : (tensor<f64>, tensor<f64>, tensor<f64>) -> tensor<f64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<f64>, tensor<f64>
}

// -----

// NaN propagates through Max and Min from either side, also past -inf and
// +inf.
// CHECK-LABEL: func.func @max_min_nan
// CHECK-DAG: %[[NAN:.+]] = onnx.Constant dense<0x7FC00000> : tensor<2xf32>
// CHECK-DAG: %[[V:.+]] = onnx.Constant dense<[0x7FF8000000000000, 0x7FF8000000000000, 1.000000e+00]> : tensor<3xf64>
// CHECK: return %[[NAN]], %[[NAN]], %[[NAN]], %[[NAN]], %[[V]], %[[V]]
func.func @max_min_nan() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3xf64>, tensor<3xf64>) {
  %nan = onnx.Constant dense<0x7FC00000> : tensor<2xf32>
  %one = onnx.Constant dense<1.0> : tensor<2xf32>
  %inf = onnx.Constant dense<0x7F800000> : tensor<2xf32>
  %ninf = onnx.Constant dense<0xFF800000> : tensor<2xf32>
  %0 = "onnx.Max"(%nan, %one) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "onnx.Max"(%inf, %nan) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = "onnx.Min"(%one, %nan) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = "onnx.Min"(%nan, %ninf) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %a = onnx.Constant dense<[0x7FF8000000000000, 1.0, 1.0]> : tensor<3xf64>
  %b = onnx.Constant dense<[1.0, 0x7FF8000000000000, 1.0]> : tensor<3xf64>
  %4 = "onnx.Max"(%a, %b) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %5 = "onnx.Min"(%b, %a) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3xf64>, tensor<3xf64>
}

// -----

// Max and Min are commutative: constants move to the right, and CSE merges
// ops whose operands differ only in order, variadic ones included.
// CHECK-LABEL: func.func @max_min_commutative
// CHECK: %[[C:.+]] = onnx.Constant dense<2.000000e+00>
// CHECK: "onnx.Max"(%arg0, %arg1)
// CHECK: "onnx.Max"(%arg1, %arg0)
// CHECK: "onnx.Min"(%arg0, %arg1, %arg2)
// CHECK: "onnx.Min"(%arg2, %arg0, %arg1)
// CHECK: "onnx.Max"(%arg0, %[[C]])
// CHECK: "onnx.Min"(%arg0, %[[C]])
// CSE-LABEL: func.func @max_min_commutative
// CSE-NEXT: %[[C:.+]] = onnx.Constant dense<2.000000e+00>
// CSE-NEXT: %[[MAX:.+]] = "onnx.Max"(%arg0, %arg1)
// CSE-NEXT: %[[MIN:.+]] = "onnx.Min"(%arg0, %arg1, %arg2)
// CSE-NEXT: %[[MAXC:.+]] = "onnx.Max"(%arg0, %[[C]])
// CSE-NEXT: %[[MINC:.+]] = "onnx.Min"(%arg0, %[[C]])
// CSE-NEXT: return %[[MAX]], %[[MAX]], %[[MIN]], %[[MIN]], %[[MAXC]], %[[MINC]]
func.func @max_min_commutative(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %two = onnx.Constant dense<2.0> : tensor<4xf32>
  %0 = "onnx.Max"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Max"(%b, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "onnx.Min"(%a, %b, %c) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = "onnx.Min"(%c, %a, %b) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = "onnx.Max"(%two, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %5 = "onnx.Min"(%two, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Relu is max(x, +0.0): it folds -0.0 to +0.0 and keeps NaN, and max(x, +0.0)
// becomes Relu(x) on either side, for floats and signed integers, so that CSE
// merges it with a Relu of the same operand. max(x, -0.0), an unsigned max
// with 0, and a zero that broadcasts x stay.
// CHECK-LABEL: func.func @max_zero_is_relu
// CHECK-DAG: %[[Z:.+]] = onnx.Constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-DAG: %[[NAN:.+]] = onnx.Constant dense<0x7FC00000> : tensor<4xf32>
// CHECK-DAG: %[[NZ:.+]] = onnx.Constant dense<-0.000000e+00> : tensor<4xf32>
// CHECK-DAG: %[[R0:.+]] = "onnx.Relu"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-DAG: %[[R1:.+]] = "onnx.Relu"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-DAG: %[[R2:.+]] = "onnx.Relu"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-DAG: %[[M:.+]] = "onnx.Max"(%arg0, %[[NZ]])
// CHECK-DAG: %[[RI:.+]] = "onnx.Relu"(%arg1) : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-DAG: %[[MU:.+]] = "onnx.Max"(%arg2, %{{.*}}) : (tensor<4xui8>, tensor<ui8>) -> tensor<4xui8>
// CHECK-DAG: %[[MB:.+]] = "onnx.Max"(%arg3, %{{.*}}) : (tensor<1xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[Z]], %[[NAN]], %[[R0]], %[[R1]], %[[R2]], %[[M]], %[[RI]], %[[MU]], %[[MB]]
// CSE-LABEL: func.func @max_zero_is_relu
// CSE: %[[R:.+]] = "onnx.Relu"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CSE-NOT: "onnx.Relu"(%arg0)
// CSE: return %{{.+}}, %{{.+}}, %[[R]], %[[R]], %[[R]],
func.func @max_zero_is_relu(%x: tensor<4xf32>, %i: tensor<4xi32>, %u: tensor<4xui8>, %s: tensor<1xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xui8>, tensor<4xf32>) {
  %nz = onnx.Constant dense<-0.0> : tensor<4xf32>
  %nan = onnx.Constant dense<0x7FC00000> : tensor<4xf32>
  %z = onnx.Constant dense<0.0> : tensor<f32>
  %z4 = onnx.Constant dense<0.0> : tensor<4xf32>
  %zi = onnx.Constant dense<0> : tensor<i32>
  %zu = onnx.Constant dense<0> : tensor<ui8>
  %0 = "onnx.Relu"(%nz) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Relu"(%nan) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "onnx.Relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "onnx.Max"(%x, %z) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %4 = "onnx.Max"(%z, %x) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %5 = "onnx.Max"(%x, %nz) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %6 = "onnx.Max"(%zi, %i) : (tensor<i32>, tensor<4xi32>) -> tensor<4xi32>
  %7 = "onnx.Max"(%u, %zu) : (tensor<4xui8>, tensor<ui8>) -> tensor<4xui8>
  %8 = "onnx.Max"(%s, %z4) : (tensor<1xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xui8>, tensor<4xf32>
}
