// The test dialect, as MLIR's, accepts ops it does not define (parsed and
// verified as unregistered ops, printed in generic form); an unknown op of
// any other loaded dialect is an error, and other dialects need
// --allow-unregistered-dialect.
// RUN: onyx-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK: "test.not_defined"() : () -> i32
%0 = "test.not_defined"() : () -> i32

// -----

// expected-error @+1 {{unregistered operation 'onnx.NotAnOp' found in dialect ('onnx') that does not allow unknown operations}}
%0 = "onnx.NotAnOp"() : () -> i32

// -----

// expected-error @+1 {{operation 'other.op' of unregistered dialect 'other'. If this is intended, use --allow-unregistered-dialect}}
%0 = "other.op"() : () -> i32
