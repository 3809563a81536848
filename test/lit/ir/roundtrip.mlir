// Printing is a fixpoint: what onyx-opt prints parses back and prints
// identically, in the custom and the generic form, with and without debug
// info, whole or split into chunks; and the generic form reads back to the
// same custom form.
// RUN: onyx-opt %s --allow-unregistered-dialect -o %t.1
// RUN: onyx-opt %t.1 --allow-unregistered-dialect -o %t.2
// RUN: diff %t.1 %t.2
// RUN: onyx-opt %s --allow-unregistered-dialect --print-generic -o %t.g1
// RUN: onyx-opt %t.g1 --allow-unregistered-dialect --print-generic -o %t.g2
// RUN: diff %t.g1 %t.g2
// RUN: onyx-opt %t.g1 --allow-unregistered-dialect -o %t.g3
// RUN: diff %t.1 %t.g3
// RUN: onyx-opt %s --allow-unregistered-dialect --print-debuginfo -o %t.d1
// RUN: onyx-opt %t.d1 --allow-unregistered-dialect --print-debuginfo -o %t.d2
// RUN: diff %t.d1 %t.d2
// RUN: onyx-opt %s --allow-unregistered-dialect --print-debuginfo --print-generic -o %t.dg1
// RUN: onyx-opt %t.dg1 --allow-unregistered-dialect --print-debuginfo --print-generic -o %t.dg2
// RUN: diff %t.dg1 %t.dg2
// RUN: onyx-opt %s --allow-unregistered-dialect --split-input-file -o %t.s1
// RUN: onyx-opt %t.s1 --allow-unregistered-dialect --split-input-file -o %t.s2
// RUN: diff %t.s1 %t.s2
// And the printed text is what the checks below expect.
// RUN: FileCheck %s --input-file=%t.2

// CHECK-LABEL: func.func private @signatures
// CHECK-SAME: (i1, si8, ui16, i65, index, f16, bf16, f32, f64, none, tensor<?x3x0xf32>, tensor<*xi8>, tensor<i32>, (i32) -> (i1, i2), !foo.bar<"x>", [1]>, !foo<"baz<">) -> (tensor<2x!foo.elt>, f32 {t.r})
func.func private @signatures(i1, si8, ui16, i65, index, f16, bf16, f32, f64, none, tensor<?x3x0xf32>, tensor<*xi8>, tensor<i32>, (i32) -> (i1, i2), !foo.bar<"x>", [1]>, !foo<"baz<">) -> (tensor<2x!foo.elt>, f32 {t.r})

// -----

// CHECK-LABEL: func.func @attributes
// CHECK-NEXT: "t.attrs"() {
// CHECK-SAME: "quoted key" = "esc\22aped\0A\\"
func.func @attributes() {
  "t.attrs"() {i = -7 : si8, u = 255 : ui8, h = 0xFF : i8, big = 123456789012345678901234567890 : i128, b = true, f = 1.5 : f32, d = 0.1, e = 123456.789, nan = 0x7FC00000 : f32, inf = 0xFFF0000000000000 : f64, half = -2.5e-3 : f16, bf = 0.1 : bf16, s = "text", "quoted key" = "esc\"aped\n\\", unit, arr = [1, 2 : i32, 1.0, [], ["x"]], dict = {z = 1, a = {b = [true]}}, ty = tensor<?xf32>, fn = (i32) -> (), sym = @a::@"b c", opaque = #foo.attr<1, "x">, opaque2 = #foo<"y z">} : () -> ()
  return
}

// -----

// CHECK-LABEL: func.func @dense
func.func @dense() {
  "t.dense"() {splat = dense<1.0> : tensor<2x3xf32>, list = dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>, bools = dense<[true, false]> : tensor<2xi1>, empty = dense<> : tensor<0x3xf32>, scalar = dense<7> : tensor<i32>, hex = dense<"0x000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F6061626364"> : tensor<101xi8>, hexbool = dense<"0x49922449922449922449922409"> : tensor<101xi1>, hexf = dense<"0x000000000000003F0000803F0000C03F0000004000002040000040400000604000008040000090400000A0400000B0400000C0400000D0400000E0400000F0400000004100000841000010410000184100002041000028410000304100003841000040410000484100005041000058410000604100006841000070410000784100008041000084410000884100008C4100009041000094410000984100009C410000A0410000A4410000A8410000AC410000B0410000B4410000B8410000BC410000C0410000C4410000C8410000CC410000D0410000D4410000D8410000DC410000E0410000E4410000E8410000EC410000F0410000F4410000F8410000FC41000000420000024200000442000006420000084200000A4200000C4200000E42000010420000124200001442000016420000184200001A4200001C4200001E42000020420000224200002442000026420000284200002A4200002C4200002E42000030420000324200003442000036420000384200003A4200003C4200003E420000404200004242000044420000464200004842"> : tensor<101xf32>} : () -> ()
  return
}

// -----

// CHECK-LABEL: func.func @values_and_regions
// CHECK-SAME: (%arg0: i32 {t.a}, %arg1: tensor<4xf32>) -> (i32, f32)
func.func @values_and_regions(%arg0: i32 {t.a}, %arg1: tensor<4xf32>) -> (i32, f32) {
  %0:2 = "t.pair"(%arg0) {t.x} : (i32) -> (i32, f32)
  %1 = "t.region"(%0#1) <{prop = 1 : i32}> ({
  ^bb0(%inner: f32):
    %2 = "t.use"(%inner, %0#0, %arg1) : (f32, i32, tensor<4xf32>) -> f32
    "t.yield"(%2) : (f32) -> ()
  ^bb1:
    "t.yield"(%0#1) : (f32) -> ()
  }, {
  }) : (f32) -> f32
  "t.empty"() ({
  ^bb0:
  }) : () -> ()
  %3 = "t.fn"() : () -> ((i32) -> i32)
  return %0#0, %1 : i32, f32
}

// -----

// CHECK-LABEL: module @named attributes {t.m} {
// CHECK: func.func nested @inner_fn() attributes {t.f = "x"} {
module @named attributes {t.m} {
  func.func nested @inner_fn() attributes {t.f = "x"} {
    "t.wrap"() ({
      func.func @in_region() {
        return
      }
      builtin.module {}
    }) : () -> ()
    return
  }
}

// -----

// CHECK-LABEL: func.func @locations
func.func @locations(%arg0: i32 loc("arg":1:2)) {
  "t.a"() : () -> () loc("file.mlir":3:4)
  "t.b"() : () -> () loc("name"("file.mlir":5:6))
  "t.c"() : () -> () loc(callsite("callee" at "caller":7:8))
  "t.d"() : () -> () loc(fused<"meta">["a", "b":9:10])
  "t.e"() : () -> () loc(#alias)
  "t.f"() : () -> () loc(unknown)
  return
} loc("fn")
#alias = loc("aliased":1:1)
