// Every attribute syntax and how it prints back: integers, floats, bools,
// strings, unit, arrays, dictionaries, types, symbol references, dense
// elements (including MLIR's hex form for large data), opaque attributes of
// unregistered dialects, and attribute aliases. Chunks with an
// `expected-error` show how bad literals are reported. The second RUN line
// checks the same expectations against mlir-opt, the reference.
// RUN: onyx-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics | FileCheck %s
// RUN: mlir-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics | FileCheck %s

// An integer without a type is an i64; the type is always printed.
// CHECK-LABEL: func.func @integer_decimal
// CHECK: "t.attr"() {a = 1 : i64, b = -1 : i64, c = 0 : i64, d = 42 : i32} : () -> ()
func.func @integer_decimal() {
  "t.attr"() {a = 1, b = -1, c = 0, d = 42 : i32} : () -> ()
  return
}

// -----

// Hex literals read as the bits of the type and print in decimal.
// CHECK-LABEL: func.func @integer_hex
// CHECK: "t.attr"() {a = 31 : i64, b = -1 : i8, c = 9223372036854775807 : i64, d = -16 : i32} : () -> ()
func.func @integer_hex() {
  "t.attr"() {a = 0x1F, b = 0xFF : i8, c = 0x7FFFFFFFFFFFFFFF, d = -0x10 : i32} : () -> ()
  return
}

// -----

// Signless integers print as signed; a value that only fits unsigned wraps.
// CHECK-LABEL: func.func @integer_widths
// CHECK: "t.attr"() {a = -1 : i8, b = -128 : i8, c = -1 : i3, d = 123456789012345678901234567890 : i128, e = -9223372036854775808 : i64, f = 5 : i65} : () -> ()
func.func @integer_widths() {
  "t.attr"() {a = 255 : i8, b = -128 : i8, c = 7 : i3, d = 123456789012345678901234567890 : i128, e = -9223372036854775808, f = 5 : i65} : () -> ()
  return
}

// -----

// Signed and unsigned integers print with their own signedness.
// CHECK-LABEL: func.func @integer_signedness
// CHECK: "t.attr"() {a = 255 : ui8, b = -1 : si8, c = 18446744073709551615 : ui64, d = 127 : si8, e = 1 : ui1} : () -> ()
func.func @integer_signedness() {
  "t.attr"() {a = 255 : ui8, b = -1 : si8, c = 18446744073709551615 : ui64, d = 127 : si8, e = 1 : ui1} : () -> ()
  return
}

// -----

// An i1 integer is a bool; `true`/`false` are i1 integers. Index integers
// keep their type.
// CHECK-LABEL: func.func @bool_and_index
// CHECK: "t.attr"() {a = true, b = false, c = true, d = false, e = 3 : index, f = -2 : index} : () -> ()
func.func @bool_and_index() {
  "t.attr"() {a = true, b = false, c = 1 : i1, d = 0 : i1, e = 3 : index, f = -2 : index} : () -> ()
  return
}

// -----

// Inside an array the `: i64` of integers and the `: f64` of floats are
// left out; other types stay.
// CHECK-LABEL: func.func @array_type_elision
// CHECK: "t.attr"() {a = [1, 2 : i32, -3 : si16, 4 : ui4, true], b = [1.000000e+00, 2.000000e+00 : f32], c = [{k = 1 : i64}], d = {k = [1]}} : () -> ()
func.func @array_type_elision() {
  "t.attr"() {a = [1, 2 : i32, -3 : si16, 4 : ui4, true], b = [1.0, 2.0 : f32], c = [{k = 1}], d = {k = [1]}} : () -> ()
  return
}

// -----

// Floats print in scientific notation with 6 digits after the point when
// that reads back exactly.
// CHECK-LABEL: func.func @float_scientific
// CHECK: "t.attr"() {a = 1.000000e+00 : f64, b = 1.500000e+00 : f32, c = 1.000000e-01 : f32, d = -2.500000e-03 : f64, e = 1.000000e+10 : f64, f = -0.000000e+00 : f64, g = 1.000000e+02 : f64, h = 1.000000e+100 : f64} : () -> ()
func.func @float_scientific() {
  "t.attr"() {a = 1.0, b = 1.5 : f32, c = 0.1 : f32, d = -2.5e-3, e = 1.0e10, f = -0.0, g = 100.0, h = 1.0e100} : () -> ()
  return
}

// -----

// Values that 6 digits cannot represent print with as many digits as they
// need (shortest form that reads back exactly, upper-case `E`).
// CHECK-LABEL: func.func @float_more_digits
// CHECK: "t.attr"() {a = 123456.789 : f64, b = 3.14159265358979 : f64, c = 1.23456788 : f32, d = 9.99999968E+37 : f32, e = 1.7976931348623157E+308 : f64} : () -> ()
func.func @float_more_digits() {
  "t.attr"() {a = 123456.789, b = 3.14159265358979, c = 1.23456789 : f32, d = 1.0e38 : f32, e = 1.7976931348623157e308} : () -> ()
  return
}

// -----

// Integral values whose shortest form has no `.` print as bits in hex.
// CHECK-LABEL: func.func @float_integral_hex
// CHECK: "t.attr"() {a = 0x4B800000 : f32, b = 0x4132D68700000000 : f64} : () -> ()
func.func @float_integral_hex() {
  "t.attr"() {a = 16777217.0 : f32, b = 1234567.0} : () -> ()
  return
}

// -----

// Hex literals give the bits: NaN and infinities print that way.
// Denormals print in decimal.
// CHECK-LABEL: func.func @float_hex_bits
// CHECK: "t.attr"() {a = 0x7FC00000 : f32, b = 0x7F800000 : f32, c = 0xFF800000 : f32, d = 0x7FF8000000000000 : f64, e = 0xFFF0000000000000 : f64, f = 1.000000e+00 : f32, g = 1.401300e-45 : f32, h = 0x7FC00001 : f32} : () -> ()
func.func @float_hex_bits() {
  "t.attr"() {a = 0x7FC00000 : f32, b = 0x7F800000 : f32, c = 0xFF800000 : f32, d = 0x7FF8000000000000 : f64, e = 0xFFF0000000000000 : f64, f = 0x3F800000 : f32, g = 0x00000001 : f32, h = 0x7FC00001 : f32} : () -> ()
  return
}

// -----

// Half-precision values are rounded to their type and printed from it.
// CHECK-LABEL: func.func @float_half
// CHECK: "t.attr"() {a = -2.500530e-03 : f16, b = 6.550400e+04 : f16, c = 9.997550e-02 : f16, d = 0x7E00 : f16, e = 0x7C00 : f16, f = -0.000000e+00 : f16, g = 3.000000e+00 : bf16, h = 1.000980e-01 : bf16, i = 0x7FC0 : bf16} : () -> ()
func.func @float_half() {
  "t.attr"() {a = -2.5e-3 : f16, b = 65504.0 : f16, c = 0.1 : f16, d = 0x7E00 : f16, e = 0x7C00 : f16, f = 0x8000 : f16, g = 3.0 : bf16, h = 0.1 : bf16, i = 0x7FC0 : bf16} : () -> ()
  return
}

// -----

// Strings print with MLIR's escapes: `\"`, `\\` and non-printable bytes
// as two hex digits; UTF-8 bytes are escaped too.
// CHECK-LABEL: func.func @strings
// CHECK: "t.attr"() {a = "hello", b = "", c = "q\22uote\22 back\\slash", d = "\0A\09\00\7F", e = "\E2\82\AC"} : () -> ()
func.func @strings() {
  "t.attr"() {a = "hello", b = "", c = "q\"uote\" back\\slash", d = "\n\t\00\7F", e = "\E2\82\AC"} : () -> ()
  return
}

// -----

// A unit attribute prints as its bare name, whether written `= unit` or
// not; inside an array it is `unit`.
// CHECK-LABEL: func.func @unit
// CHECK: "t.attr"() {a, b, c = [unit]} : () -> ()
func.func @unit() {
  "t.attr"() {a = unit, b, c = [unit]} : () -> ()
  return
}

// -----

// CHECK-LABEL: func.func @arrays
// CHECK: "t.attr"() {a = [], b = {{\[\[}}], {{\[\[}}]]], c = ["a", [1, [2]], i32, @s]} : () -> ()
func.func @arrays() {
  "t.attr"() {a = [], b = [[], [[]]], c = ["a", [1, [2]], i32, @s]} : () -> ()
  return
}

// -----

// Dictionaries are sorted by key, at every level.
// CHECK-LABEL: func.func @dictionaries
// CHECK: "t.attr"() {a = {}, b = {x = {y = {z = 1 : i64}}}, c = {a = 1 : i64, b = 2 : i64}} : () -> ()
func.func @dictionaries() {
  "t.attr"() {c = {b = 2, a = 1}, a = {}, b = {x = {y = {z = 1}}}} : () -> ()
  return
}

// -----

// Keys that are not identifiers stay quoted; quoted identifiers lose their
// quotes. Sorting compares the names without quotes.
// CHECK-LABEL: func.func @quoted_keys
// CHECK: "t.attr"() {"$d" = 6 : i64, "1x" = 4 : i64, _u = 5 : i64, a.b = 3 : i64, abc = 2 : i64, "h-i" = 1 : i64, "quoted key" = 0 : i64} : () -> ()
func.func @quoted_keys() {
  "t.attr"() {"quoted key" = 0, "h-i" = 1, "abc" = 2, "a.b" = 3, "1x" = 4, _u = 5, "$d" = 6} : () -> ()
  return
}

// -----

// CHECK-LABEL: func.func @type_attributes
// CHECK: "t.attr"() {a = i32, b = tensor<?x2xf32>, c = (i32) -> i1, d = none, e = !foo.t} : () -> ()
func.func @type_attributes() {
  "t.attr"() {a = i32, b = tensor<?x2xf32>, c = (i32) -> i1, d = none, e = !foo.t} : () -> ()
  return
}

// -----

// CHECK-LABEL: func.func @symbol_refs
// CHECK: "t.attr"() {a = @sym, b = @a::@b::@c, c = @"quoted sym", d = @"a b"::@"c-d", e = @plain} : () -> ()
func.func @symbol_refs() {
  "t.attr"() {a = @sym, b = @a::@b::@c, c = @"quoted sym", d = @"a b"::@"c-d", e = @"plain"} : () -> ()
  return
}

// -----

// All-equal elements print as one splat value, whatever the literal.
// CHECK-LABEL: func.func @dense_splat
// CHECK: "t.attr"() {a = dense<1.000000e+00> : tensor<2x3xf32>, b = dense<5> : tensor<1xi32>, c = dense<7> : tensor<i32>, d = dense<3> : tensor<2x2xi8>, e = dense<true> : tensor<4xi1>} : () -> ()
func.func @dense_splat() {
  "t.attr"() {a = dense<1.0> : tensor<2x3xf32>, b = dense<[5]> : tensor<1xi32>, c = dense<7> : tensor<i32>, d = dense<[[3, 3], [3, 3]]> : tensor<2x2xi8>, e = dense<true> : tensor<4xi1>} : () -> ()
  return
}

// -----

// Lists nest one bracket level per dimension.
// CHECK-LABEL: func.func @dense_lists
// CHECK: "t.attr"() {a = dense<[1, 2, 3]> : tensor<3xi32>, b = dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi8>, c = dense<{{\[\[\[}}1.500000e+00]], {{\[\[}}2.500000e+00]]]> : tensor<2x1x1xf16>, d = dense<{{\[\[}}1, 2]]> : tensor<1x2xindex>, e = dense<[1, 255]> : tensor<2xui8>, f = dense<[-1, 1]> : tensor<2xsi8>, g = dense<[0x7FC00000, 1.000000e+00]> : tensor<2xf32>, h = dense<[1.000000e+00, 2.500000e+00]> : tensor<2xbf16>} : () -> ()
func.func @dense_lists() {
  "t.attr"() {a = dense<[1, 2, 3]> : tensor<3xi32>, b = dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>, c = dense<[[[1.5]], [[2.5]]]> : tensor<2x1x1xf16>, d = dense<[[1, 2]]> : tensor<1x2xindex>, e = dense<[1, 255]> : tensor<2xui8>, f = dense<[-1, 1]> : tensor<2xsi8>, g = dense<[0x7FC00000, 1.0]> : tensor<2xf32>, h = dense<[1.0, 2.5]> : tensor<2xbf16>} : () -> ()
  return
}

// -----

// Integers wider than 64 bits: each element is stored in a power-of-two
// number of bytes, more than the APInt holding it (an i129's 24 bytes in 32,
// an i644's 88 in 128), which the parser once read past (fuzz-ir-text,
// test/fuzz/corpus/ir-text/dense-i644).
// CHECK-LABEL: func.func @dense_wide
// CHECK: "t.attr"() {a = dense<[1, -2]> : tensor<2xi129>, b = dense<[3, 123456789012345678901234567890]> : tensor<2xi644>} : () -> ()
func.func @dense_wide() {
  "t.attr"() {a = dense<[1, -2]> : tensor<2xi129>, b = dense<[3, 123456789012345678901234567890]> : tensor<2xi644>} : () -> ()
  return
}

// -----

// CHECK-LABEL: func.func @dense_bool
// CHECK: "t.attr"() {a = dense<[true, false, true]> : tensor<3xi1>, b = dense<{{\[\[}}false], [true]]> : tensor<2x1xi1>} : () -> ()
func.func @dense_bool() {
  "t.attr"() {a = dense<[true, false, true]> : tensor<3xi1>, b = dense<[[0], [1]]> : tensor<2x1xi1>} : () -> ()
  return
}

// -----

// No elements: `dense<>`, also for a list of empty lists.
// CHECK-LABEL: func.func @dense_empty
// CHECK: "t.attr"() {a = dense<> : tensor<0xf32>, b = dense<> : tensor<1x0xi32>, c = dense<> : tensor<0xi8>} : () -> ()
func.func @dense_empty() {
  "t.attr"() {a = dense<> : tensor<0xf32>, b = dense<[[]]> : tensor<1x0xi32>, c = dense<"0x"> : tensor<0xi8>} : () -> ()
  return
}

// -----

// The hex form holds the raw little-endian bytes: all elements, or one for
// a splat.
// CHECK-LABEL: func.func @dense_hex_input
// CHECK: "t.attr"() {a = dense<[1, 2]> : tensor<2xi32>, b = dense<[1, 0, 0, 0]> : tensor<4xi8>, c = dense<1.000000e+00> : tensor<2x2xf32>, d = dense<1> : tensor<3xi32>} : () -> ()
func.func @dense_hex_input() {
  "t.attr"() {a = dense<"0x0100000002000000"> : tensor<2xi32>, b = dense<"0x01000000"> : tensor<4xi8>, c = dense<"0x0000803F"> : tensor<2x2xf32>, d = dense<"0x01000000"> : tensor<3xi32>} : () -> ()
  return
}

// -----

// i1 data in hex is bit-packed: element i is bit i % 8 of byte i / 8, and
// one byte of all zeros or all ones is a splat.
// CHECK-LABEL: func.func @dense_hex_bool
// CHECK: "t.attr"() {a = dense<[true, false, false, false, false, false, false, false]> : tensor<8xi1>, b = dense<[true, false, false, false, false, false, false, false, true, false]> : tensor<10xi1>, c = dense<true> : tensor<2xi1>, d = dense<false> : tensor<300xi1>, e = dense<true> : tensor<1xi1>} : () -> ()
func.func @dense_hex_bool() {
  "t.attr"() {a = dense<"0x01"> : tensor<8xi1>, b = dense<"0x0101"> : tensor<10xi1>, c = dense<"0xFF"> : tensor<2xi1>, d = dense<"0x00"> : tensor<300xi1>, e = dense<"0x02"> : tensor<1xi1>} : () -> ()
  return
}

// -----

// Up to 100 elements print as a list; more print in hex, unless they are a
// splat.
// CHECK-LABEL: func.func @dense_hex_output
// CHECK: "t.attr"() {a = dense<[0, 1, 2, {{.*}}, 98, 99]> : tensor<100xi8>, b = dense<"0x000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F6061626364"> : tensor<101xi8>, c = dense<7> : tensor<101xi32>, d = dense<"0x49922449922449922449922409"> : tensor<101xi1>} : () -> ()
func.func @dense_hex_output() {
  "t.attr"() {a = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99]> : tensor<100xi8>, b = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100]> : tensor<101xi8>, c = dense<7> : tensor<101xi32>, d = dense<[true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false]> : tensor<101xi1>} : () -> ()
  return
}

// -----

func.func @dense_hex_wrong_size() {
  // expected-error @+1 {{elements hex data size is invalid for provided type: 'tensor<3xi8>'}}
  "t.attr"() {a = dense<"0x0102"> : tensor<3xi8>} : () -> ()
  return
}

// -----

func.func @dense_hex_bool_wrong_size() {
  // expected-error @+1 {{elements hex data size is invalid for provided type: 'tensor<10xi1>'}}
  "t.attr"() {a = dense<"0x010203"> : tensor<10xi1>} : () -> ()
  return
}

// -----

func.func @dense_hex_not_hex() {
  // expected-error @+1 {{expected string containing hex digits starting with `0x`}}
  "t.attr"() {a = dense<"0x0"> : tensor<1xi8>} : () -> ()
  return
}

// -----

// Attributes of unregistered dialects are kept as text; the pretty form
// `#ns.body` is used when the body is an identifier with an optional
// `<...>`.
// CHECK-LABEL: func.func @opaque_attributes
// CHECK: "t.attr"() {a = #foo.bar, b = #foo.bar<1, [2], "x>">, c = #foo<"x y">, d = #foo.a.b, e = #foo.bar} : () -> ()
func.func @opaque_attributes() {
  "t.attr"() {a = #foo.bar, b = #foo.bar<1, [2], "x>">, c = #foo<"x y">, d = #foo.a.b, e = #foo<bar>} : () -> ()
  return
}

// -----

// An alias stands for its attribute; an alias may use earlier aliases and
// type aliases.
#dict = {k = 1 : i32}
#list = [#dict, "x"]
!vec = tensor<2xf32>
#ones = dense<1.0> : !vec
// CHECK-LABEL: func.func @attribute_aliases
// CHECK: "t.attr"() {a = {k = 1 : i32}, b = [{k = 1 : i32}, "x"], c = dense<1.000000e+00> : tensor<2xf32>} : () -> ()
func.func @attribute_aliases() {
  "t.attr"() {a = #dict, b = #list, c = #ones} : () -> ()
  return
}

// -----

// Unlike location aliases, attribute aliases must be defined before use.
func.func @attribute_alias_after_use() {
  // expected-error @+1 {{undefined symbol alias id 'later'}}
  "t.attr"() {a = #later} : () -> ()
  return
}
#later = 1 : i32
