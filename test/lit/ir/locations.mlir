// Locations: each kind reads and prints back with --print-debuginfo (inline,
// as mlir-opt --mlir-print-local-scope prints them); ops and block
// arguments without one get their position in the input; location aliases
// may be defined after their use, as mlir-opt --mlir-print-debuginfo
// writes them. Without --print-debuginfo no location is printed. The
// second RUN line checks the same expectations against mlir-opt.
// RUN: onyx-opt %s --allow-unregistered-dialect --split-input-file --print-debuginfo | FileCheck %s
// RUN: mlir-opt %s --allow-unregistered-dialect --split-input-file --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s
// RUN: onyx-opt %s --allow-unregistered-dialect --split-input-file | FileCheck %s --check-prefix=NODEBUG

// NODEBUG-NOT: loc(
// NODEBUG-NOT: #loc

// CHECK-LABEL: func.func @unknown
// CHECK: "t.op"() : () -> () loc(unknown)
func.func @unknown() {
  "t.op"() : () -> () loc(unknown)
  return
}

// -----

// CHECK-LABEL: func.func @file_line_col
// CHECK: "t.op"() : () -> () loc("model.onnx":3:5)
func.func @file_line_col() {
  "t.op"() : () -> () loc("model.onnx":3:5)
  return
}

// -----

// A name, alone or with a child location.
// CHECK-LABEL: func.func @name
// CHECK: "t.a"() : () -> () loc("node_name")
// CHECK: "t.b"() : () -> () loc("node_name"("model.onnx":1:2))
// CHECK: "t.c"() : () -> () loc("outer"("inner"))
func.func @name() {
  "t.a"() : () -> () loc("node_name")
  "t.b"() : () -> () loc("node_name"("model.onnx":1:2))
  "t.c"() : () -> () loc("outer"("inner"))
  return
}

// -----

// CHECK-LABEL: func.func @callsite
// CHECK: "t.a"() : () -> () loc(callsite("callee" at "caller.mlir":5:6))
// CHECK: "t.b"() : () -> () loc(callsite(callsite("a" at "b") at "c"))
func.func @callsite() {
  "t.a"() : () -> () loc(callsite("callee" at "caller.mlir":5:6))
  "t.b"() : () -> () loc(callsite(callsite("a" at "b") at "c"))
  return
}

// -----

// Unknown locations are dropped from a fusion.
// CHECK-LABEL: func.func @fused
// CHECK: "t.a"() : () -> () loc(fused["a", "b":1:2])
// CHECK: "t.b"() : () -> () loc(fused<"meta">["a"])
// CHECK: "t.c"() : () -> () loc(fused<{k = 1 : i64}>["x":1:1, "y"])
func.func @fused() {
  "t.a"() : () -> () loc(fused["a", "b":1:2])
  "t.b"() : () -> () loc(fused<"meta">["a", unknown])
  "t.c"() : () -> () loc(fused<{k = 1}>["x":1:1, "y"])
  return
}

// -----

// Fusing nothing is unknown; fusing one location without metadata is that
// location.
// CHECK-LABEL: func.func @fused_simplified
// CHECK: "t.a"() : () -> () loc(unknown)
// CHECK: "t.b"() : () -> () loc("a")
func.func @fused_simplified() {
  "t.a"() : () -> () loc(fused[])
  "t.b"() : () -> () loc(fused["a"])
  return
}

// -----

// File names and names are strings with escapes.
// CHECK-LABEL: func.func @escaped_names
// CHECK: "t.a"() : () -> () loc("quote\22d\\name")
// CHECK: "t.b"() : () -> () loc("dir/file with spaces.mlir":7:8)
func.func @escaped_names() {
  "t.a"() : () -> () loc("quote\"d\\name")
  "t.b"() : () -> () loc("dir/file with spaces.mlir":7:8)
  return
}

// -----

// Ops without a location get their position in the input: line and column
// counted from the chunk's start (the rest of the split marker's line is
// line 1), in a buffer named after the line of the marker. The module
// that wraps top-level ops gets line 0, column 0.
// CHECK-LABEL: func.func @implicit
// CHECK-NEXT: "t.op"() : () -> () loc("within split at {{.*}}locations.mlir:[[LINE:[0-9]+]] offset ":13:3)
// CHECK-NEXT: return loc("within split at {{.*}}locations.mlir:[[LINE]] offset ":14:3)
// CHECK-NEXT: } loc("within split at {{.*}}locations.mlir:[[LINE]] offset ":12:1)
// CHECK-NEXT: } loc("within split at {{.*}}locations.mlir:[[LINE]] offset ":0:0)
func.func @implicit() {
  "t.op"() : () -> ()
  return
}

// -----

// Block arguments: an explicit location, or their own position.
// CHECK-LABEL: func.func @block_arguments
// CHECK-SAME: (%arg0: i32 loc("arg":1:1), %arg1: f32 loc("within split at {{.*}} offset ":7:52))
// CHECK: ^bb0(%arg2: i64 loc("inner_arg"), %arg3: i8 loc("within split at {{.*}} offset ":9:34)):
func.func @block_arguments(%a: i32 loc("arg":1:1), %b: f32) {
  "t.region"() ({
  ^bb0(%c: i64 loc("inner_arg"), %d: i8):
    "t.op"() : () -> ()
  }) : () -> ()
  return
}

// -----

// An alias may be used before it is defined, as mlir-opt prints them; an
// alias may refer to other aliases.
// CHECK-LABEL: func.func @aliases
// CHECK-SAME: (%arg0: i32 loc("arg.mlir":1:2))
// CHECK: "t.a"() : () -> () loc("aliased":7:8)
// CHECK: "t.b"() : () -> () loc(fused["aliased":7:8, "x"])
// CHECK: "t.c"() : () -> () loc("defined_before")
// CHECK: } loc("f.mlir":1:1)
#before = loc("defined_before")
func.func @aliases(%arg0: i32 loc(#loc_arg)) {
  "t.a"() : () -> () loc(#loc1)
  "t.b"() : () -> () loc(#loc3)
  "t.c"() : () -> () loc(#before)
  return loc(#loc1)
} loc(#loc)
#loc = loc("f.mlir":1:1)
#loc1 = loc("aliased":7:8)
#loc2 = loc("x")
#loc3 = loc(fused[#loc1, #loc2])
#loc_arg = loc("arg.mlir":1:2)

// -----

// What mlir-opt --mlir-print-debuginfo prints for a module reads back:
// numbered aliases after the module, used by ops, the module and block
// arguments.
// CHECK-LABEL: func.func @mlir_opt_output
// CHECK-SAME: (%arg0: i32 loc("a.mlir":1:14)) -> i32 {
// CHECK-NEXT: %0 = "t.x"(%arg0) : (i32) -> i32 loc("x.py":3:4)
// CHECK-NEXT: return %0 : i32 loc(fused["a", "b":1:2])
// CHECK-NEXT: } loc("a.mlir":1:1)
// CHECK-NEXT: } loc("a.mlir":0:0)
#loc2 = loc("a.mlir":1:14)
module {
  func.func @mlir_opt_output(%arg0: i32 loc("a.mlir":1:14)) -> i32 {
    %0 = "t.x"(%arg0) : (i32) -> i32 loc(#loc4)
    return %0 : i32 loc(#loc7)
  } loc(#loc1)
} loc(#loc)
#loc = loc("a.mlir":0:0)
#loc1 = loc("a.mlir":1:1)
#loc4 = loc("x.py":3:4)
#loc5 = loc("a")
#loc6 = loc("b":1:2)
#loc7 = loc(fused[#loc5, #loc6])
