// Interoperability with mlir-opt --allow-unregistered-dialect (LLVM 19):
// for the module below both tools print the same text; each accepts what
// the other prints; and onyx -> mlir-opt -> onyx gives back onyx's own
// output, in the custom form, the generic form and with debug info (where
// mlir-opt writes location aliases, some after their use). The one
// difference in printing: properties `<{...}>` of unregistered ops, which
// onyx reads as attributes.
// RUN: split-file %s %t

// Same output from both tools, and each reads the other's.
// RUN: onyx-opt %t/module.mlir --allow-unregistered-dialect -o %t/onyx
// RUN: mlir-opt %t/module.mlir --allow-unregistered-dialect -o %t/mlir
// RUN: diff %t/onyx %t/mlir
// RUN: onyx-opt %t/mlir --allow-unregistered-dialect -o %t/mlir.onyx
// RUN: diff %t/onyx %t/mlir.onyx
// RUN: mlir-opt %t/onyx --allow-unregistered-dialect -o %t/onyx.mlir
// RUN: diff %t/mlir %t/onyx.mlir

// Generic form: onyx -> mlir-opt -> onyx, and mlir-opt's generic form
// reads back to the same custom form.
// RUN: onyx-opt %t/module.mlir --allow-unregistered-dialect --print-generic -o %t/g.onyx
// RUN: mlir-opt %t/g.onyx --allow-unregistered-dialect --mlir-print-op-generic -o %t/g.mlir
// RUN: onyx-opt %t/g.mlir --allow-unregistered-dialect --print-generic -o %t/g.back
// RUN: diff %t/g.onyx %t/g.back
// RUN: onyx-opt %t/g.mlir --allow-unregistered-dialect -o %t/g.custom
// RUN: diff %t/onyx %t/g.custom

// Debug info: onyx prints locations inline, mlir-opt as aliases.
// RUN: onyx-opt %t/module.mlir --allow-unregistered-dialect --print-debuginfo -o %t/d.onyx
// RUN: mlir-opt %t/d.onyx --allow-unregistered-dialect --mlir-print-debuginfo -o %t/d.mlir
// RUN: onyx-opt %t/d.mlir --allow-unregistered-dialect --print-debuginfo -o %t/d.back
// RUN: diff %t/d.onyx %t/d.back
// RUN: FileCheck %s --check-prefix=ALIASES --input-file=%t/d.mlir
// ALIASES: {{^}}#loc{{[0-9]+}} = loc("input":1:1)
// ALIASES: {{^}}module @interop
// ALIASES: %0 = "onnx.Add"{{.*}} loc(#loc{{[0-9]+}})
// ALIASES: {{^}}} loc(#loc)
// ALIASES-NEXT: {{^}}#loc = loc("{{.*}}module.mlir":2:1)

// Both at once.
// RUN: onyx-opt %t/module.mlir --allow-unregistered-dialect --print-debuginfo --print-generic -o %t/dg.onyx
// RUN: mlir-opt %t/dg.onyx --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-op-generic -o %t/dg.mlir
// RUN: onyx-opt %t/dg.mlir --allow-unregistered-dialect --print-debuginfo --print-generic -o %t/dg.back
// RUN: diff %t/dg.onyx %t/dg.back

// Properties: each tool reads the other's form, and the round trip
// onyx -> mlir-opt -> onyx is stable.
// RUN: mlir-opt %t/properties.mlir --allow-unregistered-dialect -o %t/p.mlir
// RUN: FileCheck %s --check-prefix=MLIR-PROPS --input-file=%t/p.mlir
// RUN: onyx-opt %t/p.mlir --allow-unregistered-dialect -o %t/p.onyx
// RUN: FileCheck %s --check-prefix=ONYX-PROPS --input-file=%t/p.onyx
// RUN: mlir-opt %t/p.onyx --allow-unregistered-dialect | onyx-opt --allow-unregistered-dialect -o %t/p.back
// RUN: diff %t/p.onyx %t/p.back
// MLIR-PROPS: "t.props"() <{p = 1 : i32}> {a = 2 : i32} : () -> ()
// ONYX-PROPS: "t.props"() {a = 2 : i32, p = 1 : i32} : () -> ()

//--- properties.mlir
"t.props"() <{p = 1 : i32}> {a = 2 : i32} : () -> ()

//--- module.mlir
#loc_later = loc("model.onnx":12:3)
module @interop attributes {t.version = 3 : i32} {
  func.func private @external(i32 {t.a}, tensor<?x4xf32>) -> (f32 {t.r}, i1)
  func.func @interop(%arg0: tensor<2x3xf32> loc("input":1:1), %arg1: i32) -> (tensor<2x3xf32>, i32) {
    %0 = "onnx.Add"(%arg0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32> loc("add_node")
    %1:2 = "t.split"(%arg1) {axis = -1 : si64, names = ["a", "b"], scale = 5.000000e-01 : f32} : (i32) -> (i32, i32) loc(fused<"fuse">["n1", "n2":4:5])
    %2 = "t.const"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.5, 0x7FC00000]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32> loc(#loc_later)
    %3 = "t.big"() {value = dense<"0x000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F6061626364"> : tensor<101xi8>, mask = dense<"0x49922449922449922449922409"> : tensor<101xi1>} : () -> !foo.weights<"w0", 101>
    %4 = "t.loop"(%1#0) ({
    ^bb0(%iv: i32 loc("iv")):
      %5 = "t.body"(%iv, %1#1, %2) {kind = #foo.kind<fast>, ref = @external, str = "a\"b\\c\n"} : (i32, i32, tensor<2x3xf32>) -> i32 loc(callsite("body" at "caller.py":7:9))
      "t.yield"(%5) : (i32) -> ()
    }) : (i32) -> i32
    %6 = "t.types"() {t = [i1, si8, ui16, index, f16, bf16, f64, none, tensor<*xi8>, tensor<i32>, (i32) -> (i1, i2), !foo<"x y">]} : () -> (() -> ())
    return %0, %4 : tensor<2x3xf32>, i32 loc(unknown)
  }
  module @nested {
    func.func nested @in_nested() {
      return
    }
  }
}
